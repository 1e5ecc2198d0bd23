import { PROTECTED_KEYS } from './constants';
import { APP_FIELDS } from './types';
import type { AppTableEntity } from './types';

const protectedLower = new Set<string>([
  ...PROTECTED_KEYS.map((key) => key.toLowerCase()),
  'odata.etag',
  'partitionkey',
  'rowkey',
]);

/** PartitionKey, RowKey, timestamp and etag (any case) cannot be deleted (spec 2 §5). */
export function isProtectedKey(name: string): boolean {
  return protectedLower.has(name.trim().toLowerCase());
}

/** Every property name found on the rows, in first-seen order. */
export function propertyNames(rows: readonly AppTableEntity[]): string[] {
  const names = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) names.add(key);
  return [...names];
}

/** The properties a user may delete: every property of the rows except the protected keys. */
export function deletablePropertyNames(rows: readonly AppTableEntity[]): string[] {
  return propertyNames(rows).filter((name) => !isProtectedKey(name));
}

/** Table storage's property name rule: a C# identifier of at most 255 characters. */
export const PROPERTY_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,254}$/;

export function isPropertyName(name: string): boolean {
  return PROPERTY_NAME_PATTERN.test(name) && !isProtectedKey(name);
}

/**
 * Columns of the viewer: Status first and AppName second (the two kept in view while the table
 * scrolls sideways), then the keys, the other app fields in the spec's order, any other property
 * in first-seen order, and the timestamp last (etag is not shown).
 */
export function viewerColumns(rows: readonly AppTableEntity[]): string[] {
  const present = new Set(propertyNames(rows));
  const known = [
    'AppName',
    'PartitionKey',
    'RowKey',
    ...APP_FIELDS.filter((field) => field !== 'Status' && field !== 'AppName'),
  ];
  const hidden = new Set(['Status', 'etag', 'odata.etag', 'timestamp', 'partitionKey', 'rowKey']);
  const extra = [...present].filter((name) => !hidden.has(name) && !known.includes(name));
  return [
    'Status',
    ...known.filter((name) => present.has(name)),
    ...extra,
    ...(present.has('timestamp') ? ['timestamp'] : []),
  ];
}
