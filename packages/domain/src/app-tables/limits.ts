import type { AppTableValue } from './types';

/**
 * Table storage's limits (Azure docs, "Understanding the Table service data model"): a string
 * property holds at most 64 KiB of UTF-16 (32 K characters), an entity at most 1 MiB in all.
 */
export const MAX_STRING_PROPERTY_BYTES = 64 * 1024;
export const MAX_ENTITY_BYTES = 1024 * 1024;
/** PartitionKey and RowKey: strings of at most 1 KiB. */
export const MAX_KEY_BYTES = 1024;

/** Characters Table storage refuses in PartitionKey and RowKey: / \ # ? and control characters. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_KEY_CHARACTERS = /[/\\#?\u0000-\u001f\u007f-\u009f]/;

/** The size of a string as Table storage counts it (UTF-16, two bytes per code unit). */
export function utf16Bytes(value: string): number {
  return value.length * 2;
}

/** Why a PartitionKey or RowKey value would be refused, or undefined when it is fine. */
export function entityKeyProblem(value: string): string | undefined {
  if (value.length === 0) return 'must not be empty';
  const forbidden = FORBIDDEN_KEY_CHARACTERS.exec(value);
  if (forbidden) {
    const char = forbidden[0];
    const shown = /[/\\#?]/.test(char)
      ? `'${char}'`
      : `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    return `must not contain ${shown} (Table storage refuses / \\ # ? and control characters)`;
  }
  if (utf16Bytes(value) > MAX_KEY_BYTES) return 'must be at most 1 KiB (512 characters)';
  return undefined;
}

export function isEntityKey(value: string): boolean {
  return entityKeyProblem(value) === undefined;
}

/** Whether a value fits one Table storage property (strings up to 64 KiB). */
export function fitsStringProperty(value: AppTableValue | undefined): boolean {
  return typeof value !== 'string' || utf16Bytes(value) <= MAX_STRING_PROPERTY_BYTES;
}

function valueBytes(value: AppTableValue | undefined): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'string') return 4 + utf16Bytes(value);
  if (typeof value === 'boolean') return 1;
  return 8;
}

/**
 * An entity's size by the service's documented formula: 4 bytes, plus the keys (UTF-16), plus for
 * every property 8 bytes, its name (UTF-16) and its value. Service metadata is not counted.
 */
export function entitySizeInBytes(
  properties: Readonly<Record<string, AppTableValue | undefined>>,
): number {
  let size = 4;
  for (const [name, value] of Object.entries(properties)) {
    if (name === 'PartitionKey' || name === 'RowKey') {
      size += utf16Bytes(String(value ?? ''));
      continue;
    }
    if (['partitionKey', 'rowKey', 'timestamp', 'etag'].includes(name)) continue;
    if (name.startsWith('odata.')) continue;
    size += 8 + utf16Bytes(name) + valueBytes(value);
  }
  return size;
}
