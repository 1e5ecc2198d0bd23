// Microsoft's CSDL (OData metadata) as the Graph contract extractor reads it: entity types with
// their structural and navigation properties and base types, the entity container's sets and
// singletons, what a path template addresses, and the methods OData's conventions give it.
import { XMLParser } from 'fast-xml-parser';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Member {
  name: string;
  type: string;
  navigation: boolean;
  collection: boolean;
  containsTarget: boolean;
  /** `Nullable="false"` */
  required?: true;
}

export interface EntityTypeDef {
  name: string;
  baseType?: string;
  members: Member[];
}

export interface Model {
  types: Map<string, EntityTypeDef>;
  /** enum type → its member names */
  enums: Map<string, string[]>;
  /** complex type → its structural properties */
  complexTypes: Map<string, Member[]>;
  /** complex type → the complex type it derives from (userIdentity → identity) */
  complexBaseTypes?: Map<string, string>;
  /** entity sets and singletons of the entity container */
  roots: Map<string, { type: string; collection: boolean }>;
}

type Attributes = Record<string, string | undefined>;
type XmlNode = Attributes & Record<string, unknown>;

function asArray(value: unknown): XmlNode[] {
  if (Array.isArray(value)) return value as XmlNode[];
  return value ? [value as XmlNode] : [];
}

/** `graph.x`, `Collection(graph.x)` → `microsoft.graph.x`, knowing each schema's alias. */
function qualify(
  type: string,
  aliases: Map<string, string>,
): { name: string; collection: boolean } {
  const collection = /^Collection\((.*)\)$/.exec(type);
  const inner = collection ? (collection[1] ?? '') : type;
  const dot = inner.lastIndexOf('.');
  const prefix = inner.slice(0, dot);
  const namespace = aliases.get(prefix) ?? prefix;
  return { name: `${namespace}.${inner.slice(dot + 1)}`, collection: Boolean(collection) };
}

function memberOf(member: XmlNode, navigation: boolean, aliases: Map<string, string>): Member {
  const type = qualify(member['Type'] ?? '', aliases);
  return {
    name: member['Name'] ?? '',
    type: type.name,
    navigation,
    collection: type.collection,
    containsTarget: member['ContainsTarget'] === 'true',
    ...(member['Nullable'] === 'false' ? { required: true as const } : {}),
  };
}

/** Adds a CSDL document to a model; what an earlier document defined is kept. */
export function addCsdl(model: Model, xml: string): void {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    isArray: (name, _path, _leaf, isAttribute) =>
      !isAttribute &&
      [
        'Schema',
        'EntityType',
        'EnumType',
        'ComplexType',
        'Member',
        'Property',
        'NavigationProperty',
        'EntitySet',
        'Singleton',
        'EntityContainer',
      ].includes(name),
  });
  const document = parser.parse(xml) as { Edmx?: { DataServices?: { Schema?: unknown } } };
  const schemas = asArray(document.Edmx?.DataServices?.Schema);
  const aliases = new Map<string, string>();
  for (const schema of schemas) {
    const namespace = schema['Namespace'] ?? '';
    aliases.set(namespace, namespace);
    if (schema['Alias']) aliases.set(schema['Alias'], namespace);
  }
  for (const schema of schemas) {
    const namespace = schema['Namespace'] ?? '';
    for (const entity of asArray(schema['EntityType'])) {
      const name = `${namespace}.${entity['Name'] ?? ''}`;
      if (model.types.has(name)) continue;
      const members: Member[] = [];
      for (const [key, navigation] of [
        ['Property', false],
        ['NavigationProperty', true],
      ] as const) {
        for (const member of asArray(entity[key])) {
          members.push(memberOf(member, navigation, aliases));
        }
      }
      const base = entity['BaseType'];
      model.types.set(name, {
        name,
        ...(base ? { baseType: qualify(base, aliases).name } : {}),
        members,
      });
    }
    for (const enumType of asArray(schema['EnumType'])) {
      const name = `${namespace}.${enumType['Name'] ?? ''}`;
      if (!model.enums.has(name))
        model.enums.set(
          name,
          asArray(enumType['Member']).map((m) => m['Name'] ?? ''),
        );
    }
    for (const complex of asArray(schema['ComplexType'])) {
      const name = `${namespace}.${complex['Name'] ?? ''}`;
      if (!model.complexTypes.has(name)) {
        model.complexTypes.set(
          name,
          asArray(complex['Property']).map((m) => memberOf(m, false, aliases)),
        );
        const base = complex['BaseType'];
        if (base) {
          model.complexBaseTypes ??= new Map();
          model.complexBaseTypes.set(name, qualify(base, aliases).name);
        }
      }
    }
    for (const container of asArray(schema['EntityContainer'])) {
      for (const set of asArray(container['EntitySet'])) {
        const name = set['Name'] ?? '';
        if (!model.roots.has(name)) {
          model.roots.set(name, {
            type: qualify(set['EntityType'] ?? '', aliases).name,
            collection: true,
          });
        }
      }
      for (const singleton of asArray(container['Singleton'])) {
        const name = singleton['Name'] ?? '';
        if (!model.roots.has(name)) {
          model.roots.set(name, {
            type: qualify(singleton['Type'] ?? '', aliases).name,
            collection: false,
          });
        }
      }
    }
  }
}

/** A type's members with its base types' (nearest definition first). */
export function membersOf(model: Model, typeName: string): Member[] {
  const out: Member[] = [];
  const seen = new Set<string>();
  for (let type = model.types.get(typeName); type;) {
    for (const member of type.members) {
      if (!seen.has(member.name)) {
        seen.add(member.name);
        out.push(member);
      }
    }
    if (!type.baseType || type.baseType === type.name) break;
    type = model.types.get(type.baseType);
  }
  return out;
}

/** Every type deriving from `typeName`, directly or not. */
export function derivedTypes(model: Model, typeName: string): string[] {
  const out: string[] = [];
  const queue = [typeName];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const type of model.types.values()) {
      if (type.baseType === current && !out.includes(type.name)) {
        out.push(type.name);
        queue.push(type.name);
      }
    }
  }
  return out.sort();
}

export type PathKind = 'collection' | 'entity' | 'singleton' | 'property' | 'reference';

export interface ExtractedPath {
  exists: boolean;
  kind?: PathKind;
  entityType?: string;
  methods: Method[];
  /** Microsoft's API reference page that names the methods, when the CSDL does not */
  reference?: string;
}

export interface Segment {
  kind: PathKind;
  type: string;
  /** a collection whose members the path owns (containment): POST creates in it */
  contained: boolean;
}

export function resolve(model: Model, template: string): Segment | undefined {
  const parts = template.split('/').filter(Boolean);
  const first = model.roots.get(parts[0] ?? '');
  if (!first) return undefined;
  let current: Segment = {
    kind: first.collection ? 'collection' : 'singleton',
    type: first.type,
    contained: first.collection,
  };
  for (const part of parts.slice(1)) {
    if (part === '{id}') {
      if (current.kind !== 'collection') return undefined;
      current = { kind: 'entity', type: current.type, contained: false };
    } else if (part === '$ref') {
      if (current.kind !== 'collection' && current.kind !== 'entity') return undefined;
      current = { kind: 'reference', type: current.type, contained: false };
    } else {
      if (current.kind !== 'entity' && current.kind !== 'singleton') return undefined;
      const member = membersOf(model, current.type).find((m) => m.name === part);
      if (!member) return undefined;
      if (!member.navigation) {
        current = { kind: 'property', type: member.type, contained: false };
      } else {
        current = {
          kind: member.collection ? 'collection' : 'singleton',
          type: member.type,
          contained: member.containsTarget,
        };
      }
    }
  }
  return current;
}

/**
 * OData's conventions for what the path addresses: a collection is listed (and created in when it
 * contains its members), an entity read, updated and deleted, a singleton read and updated, a
 * property read, a reference collection added to and a reference removed.
 */
export function conventionalMethods(segment: Segment, template: string): Method[] {
  switch (segment.kind) {
    case 'collection':
      return segment.contained ? ['GET', 'POST'] : ['GET'];
    case 'entity':
      return ['GET', 'PATCH', 'DELETE'];
    case 'singleton':
      return ['GET', 'PATCH'];
    case 'property':
      return ['GET'];
    case 'reference':
      return template.endsWith('{id}/$ref') ? ['DELETE'] : ['POST'];
  }
}

export interface ExtractedType {
  structural: string[];
  navigation: string[];
  /** navigation properties of derived types, which a list of this type may hold */
  derivedNavigation: string[];
  /** navigation properties the service returns without `$expand` (its API reference shows them) */
  expandedByDefault?: { properties: string[]; reference: string };
  /** for the types whose writes the emulator checks: each structural property's shape */
  shapes?: Record<string, PropertyShape>;
  /** properties Microsoft's API reference calls read-only (a write refuses them), with the page */
  readOnly?: { properties: string[]; reference: string };
}

export interface TypeMapping {
  properties: string[];
  navigationProperties: string[];
}

/**
 * Structural and navigation property names of a type and its base types. Microsoft's type
 * mapping (generated from the full CSDL at the newest commit) wins over an older CSDL's members.
 */
export function describeType(
  model: Model,
  typeName: string,
  mapping: Record<string, TypeMapping> | undefined,
  expandedByDefaultOf: Readonly<Record<string, { properties: string[]; reference: string }>> = {},
): ExtractedType {
  const structural = new Set<string>();
  const navigation = new Set<string>();
  // a type only the type mapping knows (newer than the CSDL held) is its own chain
  const chain: string[] = model.types.has(typeName) ? [] : [typeName];
  for (let type = model.types.get(typeName); type;) {
    chain.push(type.name);
    if (!type.baseType || type.baseType === type.name) break;
    type = model.types.get(type.baseType);
  }
  for (const name of chain) {
    const mapped = mapping?.[name.replace(/^microsoft\.graph\./, '')];
    if (mapped && name.startsWith('microsoft.graph.') && !name.slice(16).includes('.')) {
      mapped.properties.forEach((p) => structural.add(p));
      mapped.navigationProperties.forEach((p) => navigation.add(p));
    } else {
      for (const member of model.types.get(name)?.members ?? []) {
        (member.navigation ? navigation : structural).add(member.name);
      }
    }
  }
  const derivedNavigation = new Set<string>();
  for (const derived of derivedTypes(model, typeName)) {
    const mapped = mapping?.[derived.replace(/^microsoft\.graph\./, '')];
    const names = mapped
      ? mapped.navigationProperties
      : (model.types
          .get(derived)
          ?.members.filter((m) => m.navigation)
          .map((m) => m.name) ?? []);
    names.filter((n) => !navigation.has(n)).forEach((n) => derivedNavigation.add(n));
  }
  const expandedByDefault = expandedByDefaultOf[typeName];
  return {
    structural: [...structural].sort(),
    navigation: [...navigation].sort(),
    derivedNavigation: [...derivedNavigation].sort(),
    ...(expandedByDefault ? { expandedByDefault } : {}),
  };
}

/**
 * What a request body may hold for a property: an EDM primitive (`Edm.Boolean`, …), an enum's
 * members or a complex type's properties; `collection` for a JSON array.
 */
export interface PropertyShape {
  type: string;
  collection?: true;
  /** `Nullable="false"`: null is refused */
  required?: true;
  enum?: string[];
  properties?: Record<string, PropertyShape>;
}

/** A complex type's properties, its base types' first (a userIdentity has identity's id). */
function complexMembersOf(model: Model, typeName: string): Member[] | undefined {
  const own = model.complexTypes.get(typeName);
  if (!own) return undefined;
  const base = model.complexBaseTypes?.get(typeName);
  const inherited = base && base !== typeName ? (complexMembersOf(model, base) ?? []) : [];
  return [...inherited.filter((m) => !own.some((o) => o.name === m.name)), ...own];
}

function shapeOf(model: Model, member: Member, depth = 0): PropertyShape {
  const shape: PropertyShape = {
    type: member.type,
    ...(member.collection ? { collection: true as const } : {}),
    ...(member.required ? { required: true as const } : {}),
  };
  const members = model.enums.get(member.type);
  if (members) return { ...shape, enum: members };
  const complex = complexMembersOf(model, member.type);
  if (complex && depth < 3) {
    return {
      ...shape,
      properties: Object.fromEntries(complex.map((m) => [m.name, shapeOf(model, m, depth + 1)])),
    };
  }
  return shape;
}

/**
 * The shapes of a type's structural properties (base types included) as the CSDL declares them,
 * for an emulator that checks a write's body the way the service does.
 */
export function propertyShapes(model: Model, typeName: string): Record<string, PropertyShape> {
  return Object.fromEntries(
    membersOf(model, typeName)
      .filter((m) => !m.navigation)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((m) => [m.name, shapeOf(model, m)]),
  );
}
