import { DEFAULT_PARTITION_KEY } from './constants';
import { isProtectedKey } from './properties';
import { nextRowKeys } from './row-key';
import type { AppTableEntity } from './types';

/** A row's own properties, without the keys and service metadata (timestamp, etag, odata.*). */
export function appProperties(
  row: AppTableEntity,
): Omit<AppTableEntity, 'PartitionKey' | 'RowKey'> {
  const properties: Record<string, AppTableEntity[string]> = {};
  for (const [key, value] of Object.entries(row)) {
    if (isProtectedKey(key) || key.startsWith('odata.') || key === 'Timestamp') continue;
    if (value !== undefined) properties[key] = value;
  }
  return properties;
}

/**
 * The entities that copy `selected` apps (e.g. from GENWorkstationApps) into a table holding
 * `targetRows`: default PartitionKey and fresh RowKeys after the target's highest, so nothing
 * already in the target is overwritten.
 */
export function copyAppsToTable(
  selected: readonly AppTableEntity[],
  targetRows: readonly AppTableEntity[] | undefined,
): AppTableEntity[] {
  const keys = nextRowKeys(targetRows, selected.length);
  return selected.map((row, i) => ({
    ...appProperties(row),
    PartitionKey: DEFAULT_PARTITION_KEY,
    RowKey: keys[i] ?? '0001',
  }));
}
