import { PROTECTED_KEYS } from './constants';
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

/** Columns of the viewer: Status first, then the other properties in first-seen order. */
export function viewerColumns(rows: readonly AppTableEntity[]): string[] {
  const names = propertyNames(rows).filter(
    (name) => name !== 'Status' && name !== 'etag' && name !== 'odata.etag',
  );
  return ['Status', ...names];
}
