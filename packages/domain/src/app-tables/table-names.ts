import { InputError } from '../errors';

import { CLIENT_APPS_TABLE_SUFFIX } from './constants';

/** Azure Table storage's name rule: a letter, then letters or digits, 3–63 characters. */
export const TABLE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9]{2,62}$/;

export function isTableName(value: string): boolean {
  return TABLE_NAME_PATTERN.test(value) && value.toLowerCase() !== 'tables';
}

export function parseTableName(value: string, field = 'table'): string {
  if (!isTableName(value)) {
    throw new InputError(
      `${field} must be 3-63 letters or digits starting with a letter, got '${value}'`,
      field,
    );
  }
  return value;
}

/** The app tables the screens may read and change: GENWorkstationApps and '{CODE}WorkstationApps'. */
export const APP_TABLE_NAME_PATTERN = /^[A-Z]{3}WorkstationApps$/;

export function isAppTableName(value: string): boolean {
  return APP_TABLE_NAME_PATTERN.test(value);
}

/** '{ClientCode}WorkstationApps' (spec 2 §3). */
export function clientAppsTableName(clientCode: string): string {
  return `${clientCode}${CLIENT_APPS_TABLE_SUFFIX}`;
}

/** The client code of a '{CODE}WorkstationApps' table, or undefined for any other name. */
export function clientCodeOfTable(tableName: string): string | undefined {
  const match = /^([A-Z]{3})WorkstationApps$/.exec(tableName);
  return match?.[1];
}

/** Table names starting with `query`, ignoring case (spec 2 §2); an empty query keeps all. */
export function filterTablesByPrefix(names: readonly string[], query: string): string[] {
  const prefix = query.trim().toLowerCase();
  return names.filter((name) => name.toLowerCase().startsWith(prefix));
}
