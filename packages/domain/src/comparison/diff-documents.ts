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
  new Walker(options, visit).walk(baseline, client, '');
}

/** Path segments are kept on a stack and joined only when a leaf is reported (most leaves are equal). */
class Walker {
  private readonly stack: string[] = [];
  private readonly pathOf = (): string => this.path();
  constructor(
    private readonly o: DiffOptions,
    private readonly visit: LeafVisitor,
  ) {}

  private path(extra?: string): string {
    let out = '';
    const n = this.stack.length;
    for (let i = 0; i < n; i++) {
      const s = this.stack[i] as string;
      out = s.charCodeAt(0) === 91 || out === '' ? out + s : `${out}.${s}`;
    }
    if (extra !== undefined)
      out = extra.charCodeAt(0) === 91 || out === '' ? out + extra : `${out}.${extra}`;
    return out;
  }

  private report(seg: string, kind: LeafKind, a: unknown, b: unknown): void {
    this.visit(this.path(seg), kind, a, b);
  }

  private excluded(k: string): boolean {
    this.stack.push(k);
    const r = this.o.filter.isExcluded(k, this.pathOf);
    this.stack.pop();
    return r;
  }

  walk(a: unknown, b: unknown, name: string): void {
    const { o } = this;
    if (isObject(a) && isObject(b)) {
      for (const k in a) {
        if (this.excluded(k)) continue;
        const av = a[k];
        const bv = Object.hasOwn(b, k) ? b[k] : undefined;
        if (absent(bv)) {
          if (absent(av)) {
            if (o.emitEqual) this.report(k, 'equal', av, bv);
          } else this.report(k, 'removed', av, undefined);
        } else if (absent(av)) this.report(k, 'added', undefined, bv);
        else if (typeof av !== 'object' && typeof bv !== 'object') {
          if (leafEqual(av, bv)) {
            if (o.emitEqual) this.report(k, 'equal', av, bv);
          } else this.report(k, 'modified', av, bv);
        } else {
          this.stack.push(k);
          this.walk(av, bv, k);
          this.stack.pop();
        }
      }
      for (const k in b) {
        if (Object.hasOwn(a, k)) continue;
        const bv = b[k];
        if (absent(bv)) continue;
        if (this.excluded(k)) continue;
        this.report(k, 'added', undefined, bv);
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      this.walkArray(a, b, name);
      return;
    }
    if (leafEqual(a, b)) {
      if (o.emitEqual) this.visit(this.path(), 'equal', a, b);
    } else this.visit(this.path(), 'modified', a, b);
  }

  private child(seg: string, a: unknown, b: unknown, name: string): void {
    this.stack.push(seg);
    this.walk(a, b, name);
    this.stack.pop();
  }

  private walkArray(a: readonly unknown[], b: readonly unknown[], name: string): void {
    const key = arrayMatchKey(name, a, b);
    if (key === undefined) {
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n; i++) {
        const seg = `[${i}]`;
        if (i >= b.length) this.report(seg, 'itemRemoved', a[i], undefined);
        else if (i >= a.length) this.report(seg, 'itemAdded', undefined, b[i]);
        else this.child(seg, a[i], b[i], name);
      }
      return;
    }
    const byKey = new Map<unknown, Json>();
    for (const item of b) byKey.set((item as Json)[key], item as Json);
    const seen = new Set<unknown>();
    let matched = 0;
    for (const item of a) {
      const kv = (item as Json)[key];
      const seg = `[${key}=${String(kv)}]`;
      const other = byKey.get(kv);
      seen.add(kv);
      if (other === undefined) this.report(seg, 'itemRemoved', item, undefined);
      else {
        matched++;
        this.child(seg, item, other, name);
      }
    }
    if (matched === b.length) return;
    for (const item of b) {
      const kv = (item as Json)[key];
      if (!seen.has(kv)) this.report(`[${key}=${String(kv)}]`, 'itemAdded', undefined, item);
    }
  }
}
