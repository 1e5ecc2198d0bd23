import { DefaultAzureCredential } from '@azure/identity';

import { ServiceError } from '../shared';

import { BlobsClient } from './blobs-client';
import type { BlobStore } from './types';

export interface BlobsConfig {
  /** Azurite or an account-key connection string. */
  connectionString?: string;
  /** `https://<account>.blob.core.windows.net`, used with DefaultAzureCredential. */
  accountUrl?: string;
  timeoutInMs?: number;
}

/** The BlobStore chosen by configuration only, like the Table storage adapter. */
export function createBlobsClient(config: BlobsConfig): BlobStore {
  const options = config.timeoutInMs ? { timeoutInMs: config.timeoutInMs } : {};
  if (config.connectionString) {
    return new BlobsClient({ connectionString: config.connectionString }, options);
  }
  if (config.accountUrl) {
    return new BlobsClient(
      { accountUrl: config.accountUrl, credential: new DefaultAzureCredential() },
      options,
    );
  }
  throw new ServiceError(
    'Blob storage is not configured: set a connection string or an account URL.',
    { service: 'blobs', code: 'NotConfigured' },
  );
}
