// Reads Microsoft's ARM OpenAPI (Swagger 2.0) files from Azure/azure-rest-api-specs: for an
// operationId, its path template, method, api-version (the file's info.version), the body
// properties the request must carry, whether it is long-running and its success statuses.
// Used by arm-contract.ts (ADR 058).
import type { ArmContractOperation } from '@aegis/emulators';

type Json = Record<string, unknown>;

export interface ArmSpecFile {
  /** the file's path in Azure/azure-rest-api-specs */
  path: string;
  commit: string;
  document: Json;
}

/** An operation as the extract records it; the emulator reads the same shape from arm.json. */
export type ArmOperation = Omit<ArmContractOperation, 'usedBy'>;

const METHODS = ['get', 'put', 'patch', 'post', 'delete', 'head'] as const;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `#/section/Name` reference inside the same file; other files' references are not followed. */
function local(document: Json, ref: unknown, file: string): Json | undefined {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  const [section, name] = ref.slice(2).split('/');
  const found = isObject(document[section ?? ''])
    ? (document[section ?? ''] as Json)[name ?? '']
    : undefined;
  if (!isObject(found)) throw new Error(`${file}: ${ref} is not in the file`);
  return found;
}

/** The required properties of a schema, following required properties into their own schemas. */
function requiredOf(document: Json, schema: Json, file: string, prefix = ''): string[] {
  const resolved = schema['$ref'] ? local(document, schema['$ref'], file) : schema;
  if (!resolved) return [];
  const required = Array.isArray(resolved['required']) ? (resolved['required'] as string[]) : [];
  const properties = isObject(resolved['properties']) ? resolved['properties'] : {};
  const inherited = Array.isArray(resolved['allOf'])
    ? (resolved['allOf'] as Json[]).flatMap((part) => requiredOf(document, part, file, prefix))
    : [];
  return [
    ...inherited,
    ...required.flatMap((name) => {
      const property = properties[name];
      const nested = isObject(property)
        ? requiredOf(document, property, file, `${prefix}${name}.`)
        : [];
      return [`${prefix}${name}`, ...nested];
    }),
  ];
}

/** Every operation of a file, keyed by operationId. */
export function operationsOf(file: ArmSpecFile): Map<string, ArmOperation> {
  const { document } = file;
  const info = isObject(document['info']) ? document['info'] : {};
  const version = info['version'];
  if (typeof version !== 'string') throw new Error(`${file.path}: no info.version`);
  const found = new Map<string, ArmOperation>();
  const paths = isObject(document['paths']) ? document['paths'] : {};
  const shared = document['parameters'];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation) || typeof operation['operationId'] !== 'string') continue;
      const parameters = (Array.isArray(operation['parameters']) ? operation['parameters'] : [])
        // a body parameter is inline or in the file's own `parameters`; the trimmed copies keep
        // no other shared parameter (api-version, subscriptionId), so those are not looked up
        .map((p: unknown): unknown =>
          isObject(p) && typeof p['$ref'] === 'string' && isObject(shared)
            ? shared[p['$ref'].replace('#/parameters/', '')]
            : p,
        )
        .filter(isObject);
      const body = parameters.find((p) => p['in'] === 'body');
      const responses = isObject(operation['responses']) ? operation['responses'] : {};
      const pageable = operation['x-ms-pageable'];
      found.set(operation['operationId'], {
        operationId: operation['operationId'],
        method: method.toUpperCase() as ArmOperation['method'],
        path,
        apiVersions: [version],
        requiredBody:
          body && isObject(body['schema']) ? requiredOf(document, body['schema'], file.path) : [],
        successStatuses: Object.keys(responses)
          .filter((status) => /^2\d\d$/.test(status))
          .map(Number)
          .sort((a, b) => a - b),
        longRunning: operation['x-ms-long-running-operation'] === true,
        ...(isObject(pageable)
          ? { pageable: { nextLinkName: (pageable['nextLinkName'] as string | null) ?? null } }
          : {}),
        sources: [{ path: file.path, commit: file.commit }],
      });
    }
  }
  return found;
}

/**
 * The named operations across every file: one entry per operationId, with every api-version a
 * file defines it in. An operation no file defines, or whose path, method or body rules differ
 * between versions, is an error: the extract would no longer say one thing.
 */
export function extractOperations(
  files: readonly ArmSpecFile[],
  operationIds: readonly string[],
): ArmOperation[] {
  const all = files.map(operationsOf);
  return operationIds.map((operationId) => {
    const versions = all.flatMap((operations) => {
      const operation = operations.get(operationId);
      return operation ? [operation] : [];
    });
    const [first, ...rest] = versions;
    if (!first) throw new Error(`No specification file defines ${operationId}`);
    for (const other of rest) {
      const same =
        other.path.toLowerCase() === first.path.toLowerCase() &&
        other.method === first.method &&
        other.requiredBody.join() === first.requiredBody.join();
      if (!same) {
        throw new Error(
          `${operationId} differs between ${first.sources[0]?.path} and ${other.sources[0]?.path}`,
        );
      }
    }
    return {
      ...first,
      apiVersions: [...new Set(versions.flatMap((v) => v.apiVersions))].sort(),
      successStatuses: [...new Set(versions.flatMap((v) => v.successStatuses))].sort(
        (a, b) => a - b,
      ),
      longRunning: versions.some((v) => v.longRunning),
      sources: versions.flatMap((v) => v.sources),
    };
  });
}
