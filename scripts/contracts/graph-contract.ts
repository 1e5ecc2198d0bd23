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

import { format, resolveConfig } from 'prettier';

import {
  addCsdl,
  conventionalMethods,
  describeType,
  propertyShapes,
  resolve,
  type ExtractedPath,
  type ExtractedType,
  type Method,
  type Model,
  type Segment,
  type TypeMapping,
} from './csdl-model';
import { graphPathTemplates } from './graph-calls';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUTPUT = join(ROOT, 'packages/emulators/contracts/graph.json');
const DEFAULT_METADATA = '/work/.mirror/microsoftgraph+msgraph-metadata/repo';
const SOURCE_REPO = 'https://github.com/microsoftgraph/msgraph-metadata';

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

/**
 * Types whose writes the emulator checks property by property (types, enum members, read-only):
 * the shapes come from the CSDL; which properties are read-only from the API reference (the clean
 * metadata carries no such annotation). The entity's `id` is never written.
 */
const CHECKED_WRITES: Readonly<Record<string, { readOnly: string[]; reference: string }>> = {
  'microsoft.graph.sharepointSettings': {
    readOnly: ['availableManagedPathsForSiteCreation', 'id'],
    reference: 'https://learn.microsoft.com/graph/api/resources/sharepointsettings',
  },
};

/**
 * Types whose representation the emulator's tests check property by property, nested complex
 * types included: the audit logs Aegis reads who changed what from (ADR 064).
 */
const CHECKED_READS: ReadonlySet<string> = new Set([
  'microsoft.graph.directoryAudit',
  'microsoft.graph.auditEvent',
]);

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
  const model: Model = {
    types: new Map(),
    enums: new Map(),
    complexTypes: new Map(),
    roots: new Map(),
  };
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
    for (const name of [...typeNames].sort()) {
      const checked = CHECKED_WRITES[name];
      types[name] = {
        ...describeType(model, name, mapping, EXPANDED_BY_DEFAULT),
        ...(checked && model.types.has(name)
          ? {
              shapes: propertyShapes(model, name),
              readOnly: { properties: checked.readOnly, reference: checked.reference },
            }
          : {}),
        ...(CHECKED_READS.has(name) && model.types.has(name)
          ? { shapes: propertyShapes(model, name) }
          : {}),
      };
    }
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
