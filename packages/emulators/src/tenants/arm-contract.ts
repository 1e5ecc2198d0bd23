// The ARM operations Aegis calls, as Microsoft's specifications define them (contracts/arm.json,
// extracted by scripts/contracts/arm-contract.ts from Azure/azure-rest-api-specs, ADR 058): the
// emulator serves exactly these, at their paths, methods and api-versions, and refuses the rest
// the way ARM does.
import { readFileSync } from 'node:fs';

import type { FastifyRequest } from 'fastify';

import { EmulatorError } from './wire';

/** One operation of the extract, as scripts/contracts/arm-openapi.ts reads it from the specification. */
export interface ArmContractOperation {
  operationId: string;
  method: 'GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE' | 'HEAD';
  /** as Microsoft writes it, e.g. `/{scope}/providers/Microsoft.Authorization/roleAssignments/{roleAssignmentName}` */
  path: string;
  apiVersions: string[];
  /** dotted paths of the body properties the request must have (`properties.principalId`) */
  requiredBody: string[];
  /** 2xx statuses the specification lists */
  successStatuses: number[];
  longRunning: boolean;
  /** the list's next-link property; null when the list has one page (x-ms-pageable nextLinkName null) */
  pageable?: { nextLinkName: string | null };
  sources: { path: string; commit: string }[];
  /** which Aegis code calls it (scripts/contracts/arm-calls.ts) */
  usedBy?: string;
}

export interface ArmContract {
  repository: string;
  operations: ArmContractOperation[];
}

export const ARM_CONTRACT = JSON.parse(
  readFileSync(new URL('../../contracts/arm.json', import.meta.url), 'utf8'),
) as ArmContract;

export function armOperation(operationId: string): ArmContractOperation {
  const operation = ARM_CONTRACT.operations.find((o) => o.operationId === operationId);
  if (!operation) throw new Error(`${operationId} is not in contracts/arm.json`);
  return operation;
}

/**
 * The scopes the emulator keeps resources at: a `{scope}` of Microsoft's path (an extension
 * resource such as a role or policy assignment) is served at a subscription.
 */
const SCOPES = ['/subscriptions/{subscriptionId}'];

/** Fastify route paths of an operation: `{scope}` expanded, `{name}` → `:name`. */
export function routePathsOf(operation: ArmContractOperation): string[] {
  const concrete = operation.path.startsWith('/{scope}/')
    ? SCOPES.map((scope) => `${scope}${operation.path.slice('/{scope}'.length)}`)
    : [operation.path];
  return concrete.map((path) => path.replace(/\{([^}]+)\}/g, ':$1'));
}

/** Microsoft.Resources' own types (no `/providers/` segment) answer InvalidApiVersionParameter. */
function resourceTypeOf(path: string): string | undefined {
  const segments = path.split('/').filter(Boolean);
  const at = segments.lastIndexOf('providers');
  if (at < 0) return undefined;
  return segments
    .slice(at + 1)
    .filter((s) => !s.startsWith('{'))
    .join('/');
}

function valueAt(body: unknown, dotted: string): unknown {
  return dotted
    .split('.')
    .reduce<unknown>(
      (value, key) =>
        typeof value === 'object' && value !== null
          ? (value as Record<string, unknown>)[key]
          : undefined,
      body,
    );
}

/**
 * ARM's checks before an operation runs: an api-version the specification defines it in, and the
 * body properties it requires.
 */
export function checkArmRequest(request: FastifyRequest, operation: ArmContractOperation): void {
  const version = (request.query as Record<string, unknown>)['api-version'];
  if (typeof version !== 'string' || version === '') {
    throw new EmulatorError(
      400,
      'MissingApiVersionParameter',
      'The api-version query parameter (?api-version=) is required for all requests.',
    );
  }
  if (!operation.apiVersions.includes(version)) {
    const type = resourceTypeOf(operation.path);
    const supported = operation.apiVersions.join(', ');
    if (!type) {
      throw new EmulatorError(
        400,
        'InvalidApiVersionParameter',
        `The api-version '${version}' is invalid. The supported versions are '${supported}'.`,
      );
    }
    throw new EmulatorError(
      400,
      'NoRegisteredProviderFound',
      `No registered resource provider found for location 'global' and API version '${version}' for type '${type.split('/').slice(1).join('/')}'. The supported api-versions are '${supported}'. The supported locations are ', global'.`,
    );
  }
  for (const property of operation.requiredBody) {
    if (valueAt(request.body, property) === undefined) {
      throw new EmulatorError(
        400,
        'InvalidRequestContent',
        `The request content was invalid and could not be deserialized: 'Required property '${property.split('.').pop() ?? property}' not found in JSON. Path '${property.split('.').slice(0, -1).join('.')}'.'`,
      );
    }
  }
}

/** The status to answer a success with: the one asked for when the specification lists it. */
export function successStatus(operation: ArmContractOperation, preferred: number): number {
  return operation.successStatuses.includes(preferred)
    ? preferred
    : (operation.successStatuses[0] ?? preferred);
}

/** A path template as a pattern: `{scope}` is one or more segments, any other `{name}` one. */
function patternOf(template: string): RegExp {
  const source = template
    .split('/')
    .map((segment) =>
      segment === '{scope}'
        ? '.+'
        : segment.startsWith('{')
          ? '[^/]+'
          : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`, 'i');
}

/**
 * The operation of the extract a request is (method, path without query, api-version), or
 * undefined when Microsoft's specification, as extracted, has no such call.
 */
export function operationOf(
  method: string,
  path: string,
  apiVersion: string | null,
): ArmContractOperation | undefined {
  return ARM_CONTRACT.operations.find(
    (operation) =>
      operation.method === method.toUpperCase() &&
      patternOf(operation.path).test(path) &&
      apiVersion !== null &&
      operation.apiVersions.includes(apiVersion),
  );
}
