import { DefaultAzureCredential } from '@azure/identity';

import { ServiceError } from '../shared';

import { TablesClient } from './tables-client';
import type { AppTables } from './types';

export interface TablesConfig {
  /** Azurite or an account-key connection string. */
  connectionString?: string;
  /** `https://<account>.table.core.windows.net`, used with DefaultAzureCredential. */
  accountUrl?: string;
  /** how long one call may take before it is reported as a timeout (default 30 s) */
  timeoutInMs?: number;
}

/**
 * The AppTables adapter chosen by configuration only: a connection string when given,
 * otherwise the account URL with DefaultAzureCredential (managed identity, CLI, env…).
 */
export function createTablesClient(config: TablesConfig): AppTables {
  if (config.connectionString)
    return new TablesClient(
      { connectionString: config.connectionString },
      { timeoutInMs: config.timeoutInMs },
    );
  if (config.accountUrl) {
    return new TablesClient(
      {
        accountUrl: config.accountUrl,
        credential: new DefaultAzureCredential(),
      },
      { timeoutInMs: config.timeoutInMs },
    );
  }
  throw new ServiceError(
    'Table storage is not configured: set a connection string or an account URL.',
    { service: 'tables', code: 'NotConfigured' },
  );
}
