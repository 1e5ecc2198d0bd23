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

/** SameValueZero, as Set and Map compare keys. */
const sameKey = (x: unknown, y: unknown): boolean => x === y || (x !== x && y !== y);

/** The item's value for `key` when it can identify the item (present, not null, not an object); else undefined. */
function itemKey(item: unknown, key: string): unknown {
  if (!isObject(item)) return undefined;
  const v = item[key];
  return v === null || typeof v === 'object' ? undefined : v;
}

function keyIsUnique(items: readonly unknown[], key: string): boolean {
  const n = items.length;
  if (n === 0) return true;
  if (n <= 8) {
    // small arrays (most of them): pairwise, without allocating a Set
    for (let i = 0; i < n; i++) {
      const v = itemKey(items[i], key);
      if (v === undefined) return false;
      for (let j = 0; j < i; j++) if (sameKey(v, (items[j] as Json)[key])) return false;
    }
    return true;
  }
  const seen = new Set<unknown>();
  for (const item of items) {
    const v = itemKey(item, key);
    if (v === undefined || seen.has(v)) return false;
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
  return findMatchKey(arrayName, baseline, client, { aligned: false });
}

/** Whether every client item carries, at the same position, the baseline item's value for `key`. */
function keysAligned(a: readonly unknown[], b: readonly unknown[], key: string): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  for (let i = 0; i < n; i++) {
    const y = b[i];
    if (!isObject(y) || (a[i] as Json)[key] !== y[key]) return false;
  }
  return true;
}

/**
 * {@link arrayMatchKey}; `out.aligned` tells whether the keys line up position by position (then the client's keys
 * are the baseline's, unique when those are, and item i matches item i).
 */
function findMatchKey(
  arrayName: string,
  baseline: readonly unknown[],
  client: readonly unknown[],
  out: { aligned: boolean },
): string | undefined {
  out.aligned = false;
  if (baseline.length === 0 && client.length === 0) return undefined;
  const first = baseline[0] ?? client[0];
  if (!isObject(first)) return undefined;
  const keys = TARGETS.test(arrayName) ? TARGET_MATCH_KEYS : ARRAY_MATCH_KEYS;
  for (const k of keys) {
    if (!Object.hasOwn(first, k)) continue;
    if (!keyIsUnique(baseline, k)) continue;
    if (keysAligned(baseline, client, k)) {
      out.aligned = true;
      return k;
    }
    if (keyIsUnique(client, k)) return k;
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
  new Walker(options, visit).walk(baseline, client, '');
}

const isArrayItem = (seg: string): boolean => seg.charCodeAt(0) === 91; // '['

/** Appends a segment to a path: `a.b`, `a[0]`, `a[Name=X]`. */
const join = (path: string, seg: string): string =>
  path === '' || isArrayItem(seg) ? path + seg : `${path}.${seg}`;

/**
 * Path segments are kept on a stack and turned into strings only when a path is needed (most leaves are equal and
 * need none when equal leaves are not reported). Array item segments (`[0]`, `[id=x]`) are built on demand too, and
 * the path of every stack prefix is cached, so that the leaves of one object share their parent's path.
 */
class Walker {
  private depth = 0;
  /** Segment at each depth; `undefined` for an array item whose segment is not built yet. */
  private readonly segs: (string | undefined)[] = [];
  /** Array item at each depth: the match key (undefined for a position) and its value (or the index). */
  private readonly itemKeys: (string | undefined)[] = [];
  private readonly itemVals: unknown[] = [];
  /** `paths[i]` is the path through `segs[i]`, valid for `i < built`. */
  private readonly paths: string[] = [];
  private built = 0;
  private pendingKey = '';
  private readonly pendingPath = (): string => this.path(this.pendingKey);
  /** `dotted[i]` is `paths[i] + '.'`, built on demand; reset whenever `paths[i]` is rebuilt. */
  private readonly dotted: (string | undefined)[] = [];
  private readonly filter: PropertyFilter;
  private readonly byName: ((key: string) => boolean) | undefined;
  private readonly emitEqual: boolean;
  private readonly match = { aligned: false };

  constructor(
    o: DiffOptions,
    private readonly visit: LeafVisitor,
  ) {
    this.filter = o.filter;
    this.byName = o.filter.isExcludedName;
    this.emitEqual = o.emitEqual;
  }

  private push(seg: string): void {
    this.segs[this.depth++] = seg;
  }

  private pushItem(key: string | undefined, value: unknown): void {
    const d = this.depth++;
    this.segs[d] = undefined;
    this.itemKeys[d] = key;
    this.itemVals[d] = value;
  }

  private pop(): void {
    if (this.built >= this.depth) this.built = this.depth - 1;
    this.depth--;
  }

  private seg(i: number): string {
    let s = this.segs[i];
    if (s === undefined) {
      const key = this.itemKeys[i];
      s =
        key === undefined
          ? `[${String(this.itemVals[i])}]`
          : `[${key}=${String(this.itemVals[i])}]`;
      this.segs[i] = s;
    }
    return s;
  }

  /** Path of the current stack, plus `extra` when given. */
  private path(extra?: string): string {
    const depth = this.depth;
    let out = this.built === 0 ? '' : (this.paths[this.built - 1] as string);
    for (let i = this.built; i < depth; i++) {
      out = join(out, this.seg(i));
      this.paths[i] = out;
      this.dotted[i] = undefined;
    }
    this.built = depth;
    if (extra === undefined) return out;
    if (out === '' || isArrayItem(extra)) return out + extra;
    // the leaves of one object share their parent's path and its trailing dot
    let dot = this.dotted[depth - 1];
    if (dot === undefined) this.dotted[depth - 1] = dot = `${out}.`;
    return dot + extra;
  }

  private report(seg: string, kind: LeafKind, a: unknown, b: unknown): void {
    this.visit(this.path(seg), kind, a, b);
  }

  private excluded(k: string): boolean {
    if (this.byName) return this.byName(k);
    this.pendingKey = k;
    return this.filter.isExcluded(k, this.pendingPath);
  }

  walk(a: unknown, b: unknown, name: string): void {
    if (isObject(a) && isObject(b)) {
      this.walkObject(a, b);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      this.walkArray(a, b, name);
      return;
    }
    if (leafEqual(a, b)) {
      if (this.emitEqual) this.visit(this.path(), 'equal', a, b);
    } else this.visit(this.path(), 'modified', a, b);
  }

  private walkObject(a: Json, b: Json): void {
    const emitEqual = this.emitEqual;
    for (const k in a) {
      if (this.excluded(k)) continue;
      const av = a[k];
      const bv = Object.hasOwn(b, k) ? b[k] : undefined;
      if (absent(bv)) {
        if (absent(av)) {
          if (emitEqual) this.report(k, 'equal', av, bv);
        } else this.report(k, 'removed', av, undefined);
      } else if (absent(av)) this.report(k, 'added', undefined, bv);
      else if (typeof av !== 'object' && typeof bv !== 'object') {
        if (leafEqual(av, bv)) {
          if (emitEqual) this.report(k, 'equal', av, bv);
        } else this.report(k, 'modified', av, bv);
      } else {
        this.push(k);
        this.walk(av, bv, k);
        this.pop();
      }
    }
    for (const k in b) {
      if (Object.hasOwn(a, k)) continue;
      const bv = b[k];
      if (absent(bv)) continue;
      if (this.excluded(k)) continue;
      this.report(k, 'added', undefined, bv);
    }
  }

  private item(
    key: string | undefined,
    value: unknown,
    a: unknown,
    b: unknown,
    name: string,
  ): void {
    this.pushItem(key, value);
    this.walk(a, b, name);
    this.pop();
  }

  private reportItem(key: string, value: unknown, kind: LeafKind, a: unknown, b: unknown): void {
    this.visit(this.path(`[${key}=${String(value)}]`), kind, a, b);
  }

  private walkArray(a: readonly unknown[], b: readonly unknown[], name: string): void {
    const key = findMatchKey(name, a, b, this.match);
    if (key === undefined) {
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n; i++) {
        if (i >= b.length) this.report(`[${i}]`, 'itemRemoved', a[i], undefined);
        else if (i >= a.length) this.report(`[${i}]`, 'itemAdded', undefined, b[i]);
        else this.item(undefined, i, a[i], b[i], name);
      }
      return;
    }
    if (this.match.aligned) {
      // item i matches item i (the usual case): no lookup table, and the items are visited in the same order
      for (let i = 0; i < a.length; i++) this.item(key, (a[i] as Json)[key], a[i], b[i], name);
      return;
    }
    const byKey = new Map<unknown, Json>();
    for (const item of b) byKey.set((item as Json)[key], item as Json);
    const seen = new Set<unknown>();
    let matched = 0;
    for (const item of a) {
      const kv = (item as Json)[key];
      const other = byKey.get(kv);
      seen.add(kv);
      if (other === undefined) this.reportItem(key, kv, 'itemRemoved', item, undefined);
      else {
        matched++;
        this.item(key, kv, item, other, name);
      }
    }
    if (matched === b.length) return;
    for (const item of b) {
      const kv = (item as Json)[key];
      if (!seen.has(kv)) this.reportItem(key, kv, 'itemAdded', undefined, item);
    }
  }
}
