import { MISSING, toResourcePath, type ConfigFile } from '../comparison';
import { textOf } from '../formatting/formatting';

import type { ClientConfig, ConfigItem } from './types';

type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Each object's keys by their lower-case spelling (the first spelling wins, as the key scan it replaces did):
 * seventy checks read the same items, so a case-insensitive miss costs a lookup, not a scan of every key.
 */
const lowerKeys = new WeakMap<Json, Map<string, string>>();

function keysOf(obj: Json): Map<string, string> {
  let keys = lowerKeys.get(obj);
  if (!keys) {
    keys = new Map();
    for (const name of Object.keys(obj)) {
      const lower = name.toLowerCase();
      if (!keys.has(lower)) keys.set(lower, name);
    }
    lowerKeys.set(obj, keys);
  }
  return keys;
}

/** Case-insensitive property read. */
export function prop(obj: unknown, key: string): unknown {
  if (!isObject(obj)) return undefined;
  if (Object.hasOwn(obj, key)) return obj[key];
  const name = keysOf(obj).get(key.toLowerCase());
  return name === undefined ? undefined : obj[name];
}

/** Case-insensitive dotted path read (`DefaultUserRolePermissions.AllowedToCreateApps`). */
export function at(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const part of path.split('.')) {
    cur = prop(cur, part);
    if (cur === undefined || cur === null) return cur;
  }
  return cur;
}

/** Index a client tree: every JSON object (arrays of objects are flattened), with its resource path. */
export function indexClientConfig(files: readonly ConfigFile[]): ClientConfig {
  const items: ConfigItem[] = [];
  for (const f of files) {
    const path = toResourcePath(f.path);
    if (!path.toLowerCase().endsWith('.json')) continue;
    const add = (v: unknown): void => {
      if (isObject(v)) {
        const inner = prop(v, 'value');
        if (
          Array.isArray(inner) &&
          Object.keys(v).every((k) => k === 'value' || k.startsWith('@odata'))
        )
          inner.forEach(add);
        else items.push({ path, value: v });
      } else if (Array.isArray(v)) v.forEach(add);
    };
    add(f.content);
  }
  return { items, files };
}

export type ItemPredicate = (item: ConfigItem) => boolean;

/** Items having any of the given top-level keys (case-insensitive). */
export const withKey =
  (...keys: string[]): ItemPredicate =>
  (i) =>
    keys.some((k) => prop(i.value, k) !== undefined);

/** Items whose resource path contains the fragment (case-insensitive). */
export const inPath =
  (fragment: string): ItemPredicate =>
  (i) =>
    i.path.toLowerCase().includes(fragment.toLowerCase());

export const both =
  (a: ItemPredicate, b: ItemPredicate): ItemPredicate =>
  (i) =>
    a(i) && b(i);
export const either =
  (a: ItemPredicate, b: ItemPredicate): ItemPredicate =>
  (i) =>
    a(i) || b(i);

/**
 * The items of each configuration a predicate selected: checks share predicates (every Conditional
 * Access check selects by the same one), so a configuration is scanned once per predicate.
 */
const found = new WeakMap<ClientConfig, Map<ItemPredicate, ConfigItem[]>>();

export function find(config: ClientConfig, predicate: ItemPredicate): readonly ConfigItem[] {
  let byPredicate = found.get(config);
  if (!byPredicate) {
    byPredicate = new Map();
    found.set(config, byPredicate);
  }
  let items = byPredicate.get(predicate);
  if (!items) {
    items = config.items.filter(predicate);
    byPredicate.set(predicate, items);
  }
  return items;
}

/** Boolean reading that accepts true/'True'/'true'. */
export function asBool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const l = v.trim().toLowerCase();
    if (l === 'true') return true;
    if (l === 'false') return false;
  }
  return undefined;
}

export function display(v: unknown): string {
  if (v === undefined || v === null) return MISSING;
  if (typeof v === 'string') return v === '' ? 'Empty' : v;
  if (Array.isArray(v)) return v.length === 0 ? 'None' : v.map((x) => display(x)).join(', ');
  return textOf(v);
}

function list(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string' && v.trim()) return v.split(/[,;]\s*/);
  return [];
}

export const lowerList = (v: unknown): string[] => list(v).map((x) => String(x).toLowerCase());
