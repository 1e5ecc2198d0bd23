import { ARRAY_MATCH_KEYS, TARGET_MATCH_KEYS } from './constants';
import type { PropertyFilter } from './exclusions';

/** What a leaf comparison found. */
export type LeafKind = 'equal' | 'modified' | 'added' | 'removed' | 'itemAdded' | 'itemRemoved';

/** Receives every compared leaf; `baseline`/`client` are `undefined` when absent on that side. */
export type LeafVisitor = (
  path: string,
  kind: LeafKind,
  baseline: unknown,
  client: unknown,
) => void;

export interface DiffOptions {
  filter: PropertyFilter;
  /** Also report equal leaves (needed for the comparison rows model, not for compliance). */
  emitEqual: boolean;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function asBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && (v.length === 4 || v.length === 5)) {
    const l = v.toLowerCase();
    if (l === 'true') return true;
    if (l === 'false') return false;
  }
  return undefined;
}

/** Leaf equality: strict, except that 'true'/'false' compare case-insensitively as booleans (spec 1 §5). */
export function leafEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const x = asBoolean(a);
  return x !== undefined && x === asBoolean(b);
}

/** Deep equality with the same leaf rule (used for whole-value comparisons such as array items). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (leafEqual(a, b)) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!Object.hasOwn(b, k) || !deepEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

function keyIsUnique(items: readonly unknown[], key: string): boolean {
  if (items.length === 0) return true;
  const seen = new Set<unknown>();
  for (const item of items) {
    if (!isObject(item)) return false;
    const v = item[key];
    if (v === undefined || v === null || typeof v === 'object') return false;
    if (seen.has(v)) return false;
    seen.add(v);
  }
  return true;
}

const TARGETS = /^(include|exclude)targets?$/i;

/**
 * The key matching array items (spec 1 §5): the first of id, Id, ID, settingDefinitionId, name, … that is present
 * and unique in both arrays; for include/exclude targets only targetType, name, displayName or @odata.type.
 * `undefined` means items are matched by position.
 */
export function arrayMatchKey(
  arrayName: string,
  baseline: readonly unknown[],
  client: readonly unknown[],
): string | undefined {
  if (baseline.length === 0 && client.length === 0) return undefined;
  const first = baseline[0] ?? client[0];
  if (!isObject(first)) return undefined;
  const keys = TARGETS.test(arrayName) ? TARGET_MATCH_KEYS : ARRAY_MATCH_KEYS;
  for (const k of keys) {
    if (!Object.hasOwn(first, k)) continue;
    if (keyIsUnique(baseline, k) && keyIsUnique(client, k)) return k;
  }
  return undefined;
}

const absent = (v: unknown): boolean => v === undefined || v === null;

/**
 * Walk two parsed JSON documents and report leaves to `visit`. Objects are compared key by key (excluded
 * properties skipped, `null` and absent treated alike), arrays by item key or position, leaves with
 * {@link leafEqual}. A subtree present on one side only is reported once, as a whole.
 */
export function diffDocuments(
  baseline: unknown,
  client: unknown,
  options: DiffOptions,
  visit: LeafVisitor,
): void {
  walk(baseline, client, '', '', options, visit);
}

function walk(
  a: unknown,
  b: unknown,
  path: string,
  name: string,
  o: DiffOptions,
  visit: LeafVisitor,
): void {
  if (isObject(a) && isObject(b)) {
    for (const k in a) {
      const p = path ? `${path}.${k}` : k;
      if (o.filter.isExcluded(k, p)) continue;
      const av = a[k];
      const bv = Object.hasOwn(b, k) ? b[k] : undefined;
      if (absent(bv)) {
        if (absent(av)) {
          if (o.emitEqual) visit(p, 'equal', av, bv);
        } else visit(p, 'removed', av, undefined);
      } else if (absent(av)) visit(p, 'added', undefined, bv);
      else walk(av, bv, p, k, o, visit);
    }
    for (const k in b) {
      if (Object.hasOwn(a, k)) continue;
      const bv = b[k];
      if (absent(bv)) continue;
      const p = path ? `${path}.${k}` : k;
      if (o.filter.isExcluded(k, p)) continue;
      visit(p, 'added', undefined, bv);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    walkArray(a, b, path, name, o, visit);
    return;
  }
  if (leafEqual(a, b)) {
    if (o.emitEqual) visit(path, 'equal', a, b);
  } else visit(path, 'modified', a, b);
}

function selectorValue(v: unknown): string {
  return String(v);
}

function walkArray(
  a: readonly unknown[],
  b: readonly unknown[],
  path: string,
  name: string,
  o: DiffOptions,
  visit: LeafVisitor,
): void {
  const key = arrayMatchKey(name, a, b);
  if (key === undefined) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const p = `${path}[${i}]`;
      if (i >= b.length) visit(p, 'itemRemoved', a[i], undefined);
      else if (i >= a.length) visit(p, 'itemAdded', undefined, b[i]);
      else walk(a[i], b[i], p, name, o, visit);
    }
    return;
  }
  const byKey = new Map<unknown, Json>();
  for (const item of b) byKey.set((item as Json)[key], item as Json);
  const seen = new Set<unknown>();
  let matched = 0;
  for (const item of a) {
    const kv = (item as Json)[key];
    const p = `${path}[${key}=${selectorValue(kv)}]`;
    const other = byKey.get(kv);
    seen.add(kv);
    if (other === undefined) visit(p, 'itemRemoved', item, undefined);
    else {
      matched++;
      walk(item, other, p, name, o, visit);
    }
  }
  if (matched === b.length) return;
  for (const item of b) {
    const kv = (item as Json)[key];
    if (!seen.has(kv)) visit(`${path}[${key}=${selectorValue(kv)}]`, 'itemAdded', undefined, item);
  }
}
