import type { AppTableValue, SortDirection } from './types';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/**
 * Compares two cell values: numbers (or numeric text) by value, anything else as text with
 * natural ordering ('v2' before 'v10'), case-insensitive. Blank cells sort after the others.
 */
export function compareCellValues(
  a: AppTableValue | undefined,
  b: AppTableValue | undefined,
): number {
  const blankA = isBlank(a);
  const blankB = isBlank(b);
  if (blankA || blankB) return blankA === blankB ? 0 : blankA ? 1 : -1;
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  return collator.compare(String(a), String(b));
}

/** A sorted copy of `rows` by `column`; stable; blank cells stay last in both directions. */
export function sortRows<T extends Record<string, AppTableValue | undefined>>(
  rows: readonly T[],
  column: string,
  direction: SortDirection,
): T[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((x, y) => {
      const a = x.row[column];
      const b = y.row[column];
      const blankA = isBlank(a);
      const blankB = isBlank(b);
      if (blankA || blankB) return blankA === blankB ? x.index - y.index : blankA ? 1 : -1;
      return sign * compareCellValues(a, b) || x.index - y.index;
    })
    .map(({ row }) => row);
}

/** The next direction when a header is clicked: a new column starts ascending, then toggles. */
export function toggleSort(
  current: { column: string; direction: SortDirection } | undefined,
  column: string,
): { column: string; direction: SortDirection } {
  if (current?.column !== column) return { column, direction: 'ascending' };
  return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}
