import type { AppTableEntity } from './types';

const ROW_KEY_DIGITS = 4;
const FIRST_ROW_KEY = '0001';

/** Formats a row number as a RowKey: zero-padded to 4 digits (spec 2 §9). */
export function formatRowKey(n: number): string {
  return String(n).padStart(ROW_KEY_DIGITS, '0');
}

/**
 * The next RowKey of a table: the highest numeric RowKey plus one, 4 digits zero-padded;
 * '0001' when the table is empty, has no numeric key, or could not be read (spec 2 §5).
 */
export function nextRowKey(
  rows: readonly Pick<AppTableEntity, 'RowKey'>[] | undefined | null,
): string {
  try {
    if (!rows) return FIRST_ROW_KEY;
    let highest = 0;
    for (const row of rows) {
      const key = typeof row.RowKey === 'string' ? row.RowKey.trim() : '';
      if (!/^\d+$/.test(key)) continue;
      const n = Number.parseInt(key, 10);
      if (n > highest) highest = n;
    }
    return highest === 0 ? FIRST_ROW_KEY : formatRowKey(highest + 1);
  } catch {
    return FIRST_ROW_KEY;
  }
}

/** `count` consecutive RowKeys following the table's highest (for copying several apps). */
export function nextRowKeys(
  rows: readonly Pick<AppTableEntity, 'RowKey'>[] | undefined | null,
  count: number,
): string[] {
  const first = Number.parseInt(nextRowKey(rows), 10);
  return Array.from({ length: count }, (_, i) => formatRowKey(first + i));
}
