import { MISSING } from '../comparison/constants';

/** Truncation length of values and paths (spec 1 §9, spec 3 §5). */
export const TRUNCATE_AT = 50;

/**
 * A configuration value as text: objects and arrays as JSON, anything else as `String` writes it. Exports are
 * untyped JSON, so a field that should hold a name can hold an object; `String` would write '[object Object]'.
 */
export function textOf(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** Truncate to 50 characters: longer texts become the first 47 plus '...'. */
export function truncate(text: string, max = TRUNCATE_AT): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** Display a comparison value: absent as 'Missing', empty string as 'Empty', objects as JSON, truncated to 50. */
export function displayValue(value: unknown, max = TRUNCATE_AT): string {
  if (value === undefined || value === MISSING) return MISSING;
  if (value === '') return 'Empty';
  if (value === null) return 'null';
  return truncate(textOf(value), max);
}

/** Backup comparison shows 'Missing' as N/A and objects as JSON (spec 3 §2). */
export function displayBackupValue(value: unknown): string {
  if (value === undefined || value === MISSING) return 'N/A';
  return textOf(value);
}

/** Array display (spec 3 §5): none 'None'; one as is; up to 3 joined; more: first 2 plus '+N more'. */
export function displayArray(items: readonly unknown[]): string {
  const s = items.map(textOf);
  if (s.length === 0) return 'None';
  if (s.length <= 3) return s.join(', ');
  return `${s.slice(0, 2).join(', ')} +${s.length - 2} more`;
}

/** Property path shortened to 50 characters with an ellipsis (spec 3 §5). */
export function shortenPropertyPath(path: string): string {
  return truncate(path);
}

const ENGLISH_PLURALS = new Intl.PluralRules('en');

/**
 * The form of a word, phrase or sentence that fits a count, by the language's plural rules:
 * `inNumber(1, 'This policy', 'These policies')`.
 */
export function inNumber<T>(count: number, one: T, other: T): T {
  return ENGLISH_PLURALS.select(count) === 'one' ? one : other;
}

/**
 * A count with its unit in the right number: '1 minute', '2 minutes', '0 seconds'; `units` for a
 * plural that is not the unit and 's' ('1 policy', '2 policies').
 */
export function countOf(count: number, unit: string, units = `${unit}s`): string {
  return `${count} ${inNumber(count, unit, units)}`;
}
