import { DEFAULT_EXCLUDED_PROPERTIES } from './constants';

/** Decides whether a property is excluded from comparison. */
export interface PropertyFilter {
  /**
   * `key` is the property name, `path` its full path with array selectors, e.g. `Values[Name=X].Value`
   * (a string, or a function computing it only when needed).
   */
  isExcluded(key: string, path: string | (() => string)): boolean;
  /**
   * Present when exclusion depends on the property name alone (no entry names a dotted path), so that the engine
   * can skip building paths; it must then agree with `isExcluded` for every path.
   */
  readonly isExcludedName?: (key: string) => boolean;
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
  const byName = new Map<string, boolean>();
  const nameExcluded = (key: string): boolean => {
    let v = byName.get(key);
    if (v === undefined) {
      const k = key.toLowerCase();
      v = names.has(k) || k.includes('@odata.');
      if (byName.size < 100_000) byName.set(key, v);
    }
    return v;
  };
  return {
    ...(dotted.length === 0 ? { isExcludedName: nameExcluded } : {}),
    isExcluded(key: string, path: string | (() => string)): boolean {
      if (nameExcluded(key)) return true;
      if (dotted.length === 0) return false;
      const p = (typeof path === 'string' ? path : path()).toLowerCase();
      const plain = p.includes('[') ? p.replace(SELECTORS, '') : p;
      for (const d of dotted) {
        if (p === d || plain === d || p.endsWith(`.${d}`) || plain.endsWith(`.${d}`)) return true;
      }
      return false;
    },
  };
}
