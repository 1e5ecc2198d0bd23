import { DEFAULT_EXCLUDED_PROPERTIES } from './constants';

/** Decides whether a property is excluded from comparison. */
export interface PropertyFilter {
  /** `key` is the property name, `path` its full path with array selectors, e.g. `Values[Name=X].Value`. */
  isExcluded(key: string, path: string): boolean;
}

const SELECTORS = /\[[^\]]*\]/g;

/**
 * Build the property filter: defaults merged with custom exclusions (unless `useDefaults` is false).
 * A property is excluded when, case-insensitively, its name equals an entry, its path equals an entry, its path
 * ends with `.` + entry, or its path with array selectors removed equals or ends with `.` + entry (spec 1 §5).
 * Keys carrying OData annotations (`@odata.*`, `name@odata.type`) are always ignored.
 */
export function createPropertyFilter(
  custom: readonly string[] = [],
  useDefaults = true,
): PropertyFilter {
  const names = new Set<string>();
  const dotted: string[] = [];
  for (const raw of [...(useDefaults ? DEFAULT_EXCLUDED_PROPERTIES : []), ...custom]) {
    const e = raw.trim().toLowerCase();
    if (!e) continue;
    const plain = e.replace(SELECTORS, '');
    if (plain.includes('.') && !plain.startsWith('@odata.')) {
      dotted.push(plain);
      if (plain !== e) dotted.push(e);
    } else names.add(plain);
  }
  const lower = new Map<string, string>();
  const lc = (k: string): string => {
    let v = lower.get(k);
    if (v === undefined) {
      v = k.toLowerCase();
      if (lower.size < 100_000) lower.set(k, v);
    }
    return v;
  };
  return {
    isExcluded(key: string, path: string): boolean {
      const k = lc(key);
      if (names.has(k)) return true;
      if (k.includes('@odata.')) return true;
      if (dotted.length === 0) return false;
      const p = path.toLowerCase();
      const plain = p.includes('[') ? p.replace(SELECTORS, '') : p;
      for (const d of dotted) {
        if (p === d || plain === d || p.endsWith(`.${d}`) || plain.endsWith(`.${d}`)) return true;
      }
      return false;
    },
  };
}
