import { DefaultAzureCredential } from '@azure/identity';

import { ServiceError } from '../shared';

import { TablesClient } from './tables-client';
import type { AppTables } from './types';

export interface TablesConfig {
  /** Azurite or an account-key connection string. */
  connectionString?: string;
  /** `https://<account>.table.core.windows.net`, used with DefaultAzureCredential. */
  accountUrl?: string;
}

/**
 * The AppTables adapter chosen by configuration only: a connection string when given,
 * otherwise the account URL with DefaultAzureCredential (managed identity, CLI, env…).
 */
export function createTablesClient(config: TablesConfig): AppTables {
  if (config.connectionString)
    return new TablesClient({ connectionString: config.connectionString });
  if (config.accountUrl) {
    return new TablesClient({
      accountUrl: config.accountUrl,
      credential: new DefaultAzureCredential(),
    });
  }
  throw new ServiceError(
    'Table storage is not configured: set a connection string or an account URL.',
    { service: 'tables', code: 'NotConfigured' },
  );
}
