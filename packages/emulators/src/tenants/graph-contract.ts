// Microsoft's Graph contract as the emulator serves it: the extract of Microsoft's published
// metadata (contracts/graph.json, ADR 048) says which paths exist in each version, whether they
// address a collection, an entity, a singleton or a property, which methods Microsoft allows and
// which properties of an entity type are navigation properties (a response carries those only when
// `$expand`ed). The routes take their shape from here, not from Aegis's own workload table.
import { readFileSync } from 'node:fs';

import { textOf } from '@aegis/domain';

import type { JsonObject } from '../seed/policies/types';

import { EmulatorError } from './wire';

export type GraphApiVersion = 'v1.0' | 'beta';
export type GraphMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const GRAPH_METHODS: readonly GraphMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface ContractPath {
  exists: boolean;
  kind?: 'collection' | 'entity' | 'singleton' | 'property' | 'reference';
  entityType?: string;
  methods: GraphMethod[];
  reference?: string;
}

/** What a write may send for a property, as the CSDL declares it (contracts/graph.json `shapes`). */
export interface PropertyShape {
  type: string;
  collection?: true;
  required?: true;
  enum?: string[];
  properties?: Record<string, PropertyShape>;
}

interface ContractType {
  structural: string[];
  navigation: string[];
  derivedNavigation: string[];
  expandedByDefault?: { properties: string[]; reference: string };
  /** the types whose writes are checked property by property */
  shapes?: Record<string, PropertyShape>;
  readOnly?: { properties: string[]; reference: string };
}

interface ContractSource {
  path: string;
  commit: string;
  committed: string;
  used: string;
}

export interface GraphContract {
  repository: string;
  versions: Record<
    GraphApiVersion,
    {
      sources: ContractSource[];
      paths: Record<string, ContractPath>;
      types: Record<string, ContractType>;
    }
  >;
}

export const GRAPH_CONTRACT = JSON.parse(
  readFileSync(new URL('../../contracts/graph.json', import.meta.url), 'utf8'),
) as GraphContract;

/** The contract of a path template (`/deviceManagement/configurationPolicies/{id}`). */
export function contractPath(version: GraphApiVersion, template: string): ContractPath {
  return GRAPH_CONTRACT.versions[version].paths[template] ?? { exists: false, methods: [] };
}

/** The template a concrete path (no query) matches in a version; literal segments beat `{id}`. */
export function templateOf(version: GraphApiVersion, path: string): string | undefined {
  const parts = path.split('/').filter(Boolean);
  let best: { template: string; keys: number } | undefined;
  for (const template of Object.keys(GRAPH_CONTRACT.versions[version].paths)) {
    const expected = template.split('/').filter(Boolean);
    if (expected.length !== parts.length) continue;
    const same = expected.every(
      (segment, i) => segment === '{id}' || segment.toLowerCase() === parts[i]?.toLowerCase(),
    );
    const keys = expected.filter((segment) => segment === '{id}').length;
    if (same && (!best || keys < best.keys)) best = { template, keys };
  }
  return best?.template;
}

/**
 * Navigation properties an object at the path may carry (its type's and derived types'), less
 * those the service expands by itself.
 */
export function navigationOf(version: GraphApiVersion, template: string): Set<string> {
  const type = contractPath(version, template).entityType;
  const described = type ? GRAPH_CONTRACT.versions[version].types[type] : undefined;
  const byDefault = new Set(described?.expandedByDefault?.properties ?? []);
  return new Set(
    [...(described?.navigation ?? []), ...(described?.derivedNavigation ?? [])].filter(
      (name) => !byDefault.has(name),
    ),
  );
}

/** The top-level names of a `$expand` option: `a,b($expand=c)` → a, b. */
export function expandedNames(expand: string | undefined): string[] {
  if (!expand) return [];
  const names: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of expand) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      names.push(current);
      current = '';
    } else if (depth === 0 && char !== ')') {
      current += char;
    }
  }
  names.push(current);
  return names.map((n) => n.trim()).filter(Boolean);
}

/**
 * An object as Graph represents it at the path: navigation properties only when `$expand`ed
 * (an `$expand` naming no navigation property is refused as Graph refuses it).
 */
export function represent(
  version: GraphApiVersion,
  template: string,
  object: JsonObject,
  expand: string | undefined,
): JsonObject {
  const navigation = navigationOf(version, template);
  const expanded = expandedNames(expand);
  for (const name of expanded) {
    if (!navigation.has(name) && name !== '*') {
      const type = contractPath(version, template).entityType ?? 'entity';
      throw new EmulatorError(
        400,
        'BadRequest',
        `Could not find a property named '${name}' on type '${type}'.`,
      );
    }
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(object)) {
    if (navigation.has(key) && !expanded.includes(key) && !expanded.includes('*')) continue;
    out[key] = value;
  }
  return out;
}

/** The error Graph answers for a method its contract does not allow on a path. */
export function methodNotAllowed(method: string, template: string): EmulatorError {
  return new EmulatorError(
    405,
    'Request_BadRequest',
    `The request method '${method}' is not supported on '${template}'.`,
  );
}

const INTEGER_RANGES: Readonly<Record<string, [number, number]>> = {
  'Edm.Int32': [-2147483648, 2147483647],
  'Edm.Int64': [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Why a value does not fit its declared shape; undefined when it fits. */
function misfit(
  value: unknown,
  shape: PropertyShape,
  name: string,
  type: string,
): string | undefined {
  if (value === null) {
    return shape.required
      ? `A null value was found for the property named '${name}', which has the expected type '${shape.collection ? `Collection(${shape.type})` : shape.type}[Nullable=False]'. The expected type '${shape.type}[Nullable=False]' does not allow null values.`
      : undefined;
  }
  if (shape.collection) {
    if (!Array.isArray(value))
      return `Cannot convert a primitive value to the expected type 'Collection(${shape.type})' of the property '${name}'.`;
    for (const item of value) {
      const problem = misfit(
        item,
        {
          type: shape.type,
          ...(shape.enum ? { enum: shape.enum } : {}),
          ...(shape.properties ? { properties: shape.properties } : {}),
        },
        name,
        type,
      );
      if (problem) return problem;
    }
    return undefined;
  }
  if (shape.enum) {
    return typeof value === 'string' && shape.enum.includes(value)
      ? undefined
      : `The value '${textOf(value)}' is not a member of the enum type '${shape.type}' of the property '${name}'.`;
  }
  if (shape.properties) {
    if (typeof value !== 'object' || Array.isArray(value))
      return `Cannot convert the value of the property '${name}' to the complex type '${shape.type}'.`;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const childShape = shape.properties[key];
      if (!childShape)
        return `The property '${key}' does not exist on type '${shape.type}'. Make sure to only use property names that are defined by the type.`;
      const problem = misfit(child, childShape, key, shape.type);
      if (problem) return problem;
    }
    return undefined;
  }
  const range = INTEGER_RANGES[shape.type];
  const fits =
    shape.type === 'Edm.Boolean'
      ? typeof value === 'boolean'
      : range
        ? Number.isInteger(value) && (value as number) >= range[0] && (value as number) <= range[1]
        : shape.type === 'Edm.Guid'
          ? typeof value === 'string' && GUID.test(value)
          : shape.type === 'Edm.String'
            ? typeof value === 'string'
            : true;
  return fits
    ? undefined
    : `Cannot convert the literal '${JSON.stringify(value)}' to the expected type '${shape.type}' of the property '${name}' of '${type}'.`;
}

/**
 * Checks a PATCH or PUT body against the contract where it declares the type's shapes: a property
 * the type does not have, a read-only property, or a value of the wrong type is refused with 400
 * in Graph's error shape, as Graph refuses it. Types without shapes are not checked.
 */
export function checkWriteBody(version: GraphApiVersion, template: string, body: JsonObject): void {
  const typeName = contractPath(version, template).entityType;
  const type = typeName ? GRAPH_CONTRACT.versions[version].types[typeName] : undefined;
  if (!typeName || !type?.shapes) return;
  const readOnly = new Set(type.readOnly?.properties ?? []);
  for (const [name, value] of Object.entries(body)) {
    if (name.startsWith('@odata.')) continue;
    const shape = type.shapes[name];
    if (!shape) {
      throw new EmulatorError(
        400,
        'BadRequest',
        `The property '${name}' does not exist on type '${typeName}'. Make sure to only use property names that are defined by the type or mark the type as open type.`,
      );
    }
    if (readOnly.has(name)) {
      throw new EmulatorError(
        400,
        'BadRequest',
        `Property '${name}' is read-only and cannot be set.`,
      );
    }
    const problem = misfit(value, shape, name, typeName);
    if (problem) throw new EmulatorError(400, 'BadRequest', problem);
  }
}
