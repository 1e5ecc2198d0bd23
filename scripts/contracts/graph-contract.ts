// Extracts from Microsoft's published Graph metadata (github.com/microsoftgraph/msgraph-metadata)
// exactly what Aegis calls: for each path template of graph-calls.ts, in v1.0 and beta, whether
// Microsoft's CSDL has it, whether it addresses a collection, an entity of a collection, a
// singleton or a property, its entity type and the methods Microsoft allows; and for each entity
// type involved, which properties are structural and which are navigation properties (a list never
// returns those unless `$expand`ed). Writes packages/emulators/contracts/graph.json (ADR 048).
//
//   npx tsx scripts/contracts/graph-contract.ts [--metadata <git dir of msgraph-metadata>] [--check]
//
// --check compares instead of writing and exits 1 when the committed extract differs.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { XMLParser } from 'fast-xml-parser';
import { format, resolveConfig } from 'prettier';

import { graphPathTemplates } from './graph-calls';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUTPUT = join(ROOT, 'packages/emulators/contracts/graph.json');
const DEFAULT_METADATA = '/work/.mirror/microsoftgraph+msgraph-metadata/repo';
const SOURCE_REPO = 'https://github.com/microsoftgraph/msgraph-metadata';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Version = 'v1.0' | 'beta';

/**
 * Where Microsoft's API reference names a method the CSDL's conventions do not give (the clean
 * metadata carries no capability annotations): these two policies are replaced with PUT.
 */
const DOCUMENTED_METHODS: Readonly<Record<string, { methods: Method[]; reference: string }>> = {
  '/policies/deviceRegistrationPolicy': {
    methods: ['GET', 'PUT'],
    reference: 'https://learn.microsoft.com/graph/api/deviceregistrationpolicy-update',
  },
  '/policies/adminConsentRequestPolicy': {
    methods: ['GET', 'PUT'],
    reference: 'https://learn.microsoft.com/graph/api/adminconsentrequestpolicy-update',
  },
};

/**
 * Paths Microsoft's API reference documents whose CSDL the metadata clone does not hold (newer than
 * its newest full beta CSDL, and not in the national-cloud CSDL): their segment must be a
 * navigation property and their entity type an entity type in Microsoft's current type mapping,
 * or the extraction fails.
 */
const DOCUMENTED_PATHS: Readonly<
  Record<string, { version: Version; parentType: string; segment: Segment; reference: string }>
> = {
  '/admin/forms': {
    version: 'beta',
    parentType: 'admin',
    segment: { kind: 'singleton', type: 'microsoft.graph.adminForms', contained: true },
    reference: 'https://learn.microsoft.com/graph/api/adminforms-get',
  },
};

/**
 * Navigation properties Microsoft's API reference shows in a plain GET's response (the service
 * expands them itself): an authentication method configuration's includeTargets.
 */
const EXPANDED_BY_DEFAULT: Readonly<Record<string, { properties: string[]; reference: string }>> = {
  'microsoft.graph.authenticationMethodConfiguration': {
    properties: ['includeTargets'],
    reference: 'https://learn.microsoft.com/graph/api/fido2authenticationmethodconfiguration-get',
  },
};

interface Member {
  name: string;
  type: string;
  navigation: boolean;
  collection: boolean;
  containsTarget: boolean;
}

interface EntityTypeDef {
  name: string;
  baseType?: string;
  members: Member[];
}

interface Model {
  types: Map<string, EntityTypeDef>;
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

/** Adds a CSDL document to a model; what an earlier document defined is kept. */
function addCsdl(model: Model, xml: string): void {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    isArray: (name, _path, _leaf, isAttribute) =>
      !isAttribute &&
      [
        'Schema',
        'EntityType',
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
          const type = qualify(member['Type'] ?? '', aliases);
          members.push({
            name: member['Name'] ?? '',
            type: type.name,
            navigation,
            collection: type.collection,
            containsTarget: member['ContainsTarget'] === 'true',
          });
        }
      }
      const base = entity['BaseType'];
      model.types.set(name, {
        name,
        ...(base ? { baseType: qualify(base, aliases).name } : {}),
        members,
      });
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
function membersOf(model: Model, typeName: string): Member[] {
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
function derivedTypes(model: Model, typeName: string): string[] {
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

interface Segment {
  kind: PathKind;
  type: string;
  /** a collection whose members the path owns (containment): POST creates in it */
  contained: boolean;
}

function resolve(model: Model, template: string): Segment | undefined {
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
function conventionalMethods(segment: Segment, template: string): Method[] {
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
}

interface TypeMapping {
  properties: string[];
  navigationProperties: string[];
}

/**
 * Structural and navigation property names of a type and its base types. Microsoft's type
 * mapping (generated from the full CSDL at the newest commit) wins over an older CSDL's members.
 */
function describeType(
  model: Model,
  typeName: string,
  mapping: Record<string, TypeMapping> | undefined,
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
  const expandedByDefault = EXPANDED_BY_DEFAULT[typeName];
  return {
    structural: [...structural].sort(),
    navigation: [...navigation].sort(),
    derivedNavigation: [...derivedNavigation].sort(),
    ...(expandedByDefault ? { expandedByDefault } : {}),
  };
}

interface SourceFile {
  path: string;
  commit: string;
  committed: string;
  used: string;
}

function git(gitDir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', gitDir, ...args], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
}

function blobAt(gitDir: string, commit: string, path: string): string | undefined {
  try {
    return execFileSync('git', ['-C', gitDir, 'show', `${commit}:${path}`], {
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
}

/** The newest commit (from HEAD back) whose copy of `path` the clone holds, with its text. */
function newestHeld(
  gitDir: string,
  path: string,
): { commit: string; committed: string; text: string } | undefined {
  const commits = git(gitDir, 'rev-list', 'HEAD', '--', path).split('\n').filter(Boolean);
  for (const commit of commits) {
    const text = blobAt(gitDir, commit, path);
    if (text !== undefined) {
      const committed = git(gitDir, 'log', '-1', '--format=%cI', commit).trim();
      return { commit, committed, text };
    }
  }
  return undefined;
}

function loadVersion(
  gitDir: string,
  version: Version,
): { model: Model; mapping?: Record<string, TypeMapping>; sources: SourceFile[] } {
  const model: Model = { types: new Map(), roots: new Map() };
  const sources: SourceFile[] = [];
  const head = git(gitDir, 'rev-parse', 'HEAD').trim();
  const headDate = git(gitDir, 'log', '-1', '--format=%cI', head).trim();
  const full =
    version === 'beta'
      ? 'clean_beta_metadata/cleanMetadata.xml'
      : 'clean_v10_metadata/cleanMetadata.xml';
  const current = blobAt(gitDir, head, full);
  if (current !== undefined) {
    addCsdl(model, current);
    sources.push({
      path: full,
      commit: head,
      committed: headDate,
      used: 'entity container, entity types',
    });
  } else {
    // A clone without the newest large blobs (they are tens of MB): the national-cloud CSDL of
    // the same version at HEAD first (current, but without Intune), then the newest full CSDL held.
    const national = `schemas/${version}-USSec.csdl`;
    const nationalText = blobAt(gitDir, head, national);
    if (nationalText !== undefined) {
      addCsdl(model, nationalText);
      sources.push({
        path: national,
        commit: head,
        committed: headDate,
        used: 'entity container and entity types (first)',
      });
    }
    const older = newestHeld(gitDir, full);
    if (!older) throw new Error(`No copy of ${full} is held in ${gitDir}`);
    addCsdl(model, older.text);
    sources.push({
      path: full,
      commit: older.commit,
      committed: older.committed,
      used: 'entity container and entity types the first source lacks',
    });
  }
  const mappingPath = `schemas/type-mappings/${version}-entity-types.json`;
  const mappingText = blobAt(gitDir, head, mappingPath);
  let mapping: Record<string, TypeMapping> | undefined;
  if (mappingText !== undefined) {
    mapping = (JSON.parse(mappingText) as Record<string, Record<string, TypeMapping>>)[
      'microsoft.graph'
    ];
    sources.push({
      path: mappingPath,
      commit: head,
      committed: headDate,
      used: 'structural and navigation property names of each microsoft.graph entity type',
    });
  }
  return { model, ...(mapping ? { mapping } : {}), sources };
}

function checkedDocumentedPath(
  template: string,
  documented: (typeof DOCUMENTED_PATHS)[string],
  mapping: Record<string, TypeMapping> | undefined,
): Segment {
  const segment = template.split('/').pop() ?? '';
  const parent = mapping?.[documented.parentType];
  const type = documented.segment.type.replace(/^microsoft\.graph\./, '');
  if (!parent?.navigationProperties.includes(segment) || !mapping?.[type]) {
    throw new Error(
      `${template}: Microsoft's type mapping no longer has ${documented.parentType}.${segment} → ${type}; check ${documented.reference}`,
    );
  }
  return documented.segment;
}

export function extract(gitDir: string): unknown {
  const versions: Record<string, unknown> = {};
  for (const version of ['v1.0', 'beta'] as const) {
    const { model, mapping, sources } = loadVersion(gitDir, version);
    const paths: Record<string, ExtractedPath> = {};
    const typeNames = new Set<string>();
    for (const template of graphPathTemplates()) {
      const documentedPath = DOCUMENTED_PATHS[template];
      const resolved = resolve(model, template);
      const fromReference =
        !resolved && documentedPath?.version === version
          ? checkedDocumentedPath(template, documentedPath, mapping)
          : undefined;
      const segment = resolved ?? fromReference;
      if (!segment) {
        paths[template] = { exists: false, methods: [] };
        continue;
      }
      const documented = DOCUMENTED_METHODS[template];
      const reference =
        documented?.reference ?? (fromReference ? documentedPath?.reference : undefined);
      paths[template] = {
        exists: true,
        kind: segment.kind,
        entityType: segment.type,
        methods: documented?.methods ?? conventionalMethods(segment, template),
        ...(reference ? { reference } : {}),
      };
      if (segment.kind !== 'property') typeNames.add(segment.type);
    }
    paths['/$batch'] = {
      exists: true,
      methods: ['POST'],
      reference: 'https://learn.microsoft.com/graph/json-batching',
    };
    const types: Record<string, ExtractedType> = {};
    for (const name of [...typeNames].sort()) types[name] = describeType(model, name, mapping);
    versions[version] = { sources, paths, types };
  }
  return {
    $comment:
      "Extracted from Microsoft's Graph metadata by scripts/contracts/graph-contract.ts (ADR 048). Do not edit by hand: regenerate.",
    repository: SOURCE_REPO,
    versions,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--metadata');
  const gitDir =
    at >= 0 ? (args[at + 1] ?? '') : (process.env['MSGRAPH_METADATA_GIT'] ?? DEFAULT_METADATA);
  if (!existsSync(gitDir)) {
    throw new Error(
      `No clone of ${SOURCE_REPO} at '${gitDir}': clone it and pass --metadata <its git dir>`,
    );
  }
  // formatted as the repository's `prettier --check` expects
  const options = await resolveConfig(OUTPUT);
  const text = await format(JSON.stringify(extract(gitDir)), {
    ...options,
    filepath: OUTPUT,
  });
  if (args.includes('--check')) {
    const committed = await readFile(OUTPUT, 'utf8').catch(() => '');
    if (committed !== text) {
      console.error(`${OUTPUT} differs from Microsoft's metadata: regenerate it`);
      process.exitCode = 1;
    } else {
      console.log(`${OUTPUT} is up to date`);
    }
    return;
  }
  await writeFile(OUTPUT, text);
  console.log(`wrote ${OUTPUT}`);
}

await main();
