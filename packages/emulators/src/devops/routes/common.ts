// Wire helpers shared by the DevOps routes: the error body, query parameters in their dotted /
// bracketed / bare forms, enums as strings or numbers, URLs and identities.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';

import type { DevOpsState, IdentityRecord, ProjectRecord, RepositoryRecord } from '../state';

/** The latest (released) REST API version of the emulated service. */
export const API_VERSION = '7.1';
/** The highest resource version of a `-preview.N` api-version the emulated resources accept. */
export const MAX_RESOURCE_VERSION = 3;

const GIT = 'Microsoft.TeamFoundation.Git.Server';
const WEB_API = 'Microsoft.VisualStudio.Services.WebApi';

/**
 * The .NET exception types the real service names in `typeName` for the errors emulated here: the
 * namespace and assembly each exception lives in (e.g. Git errors in Microsoft.TeamFoundation.Git.Server).
 */
const ERROR_TYPE_NAMES: Readonly<Record<string, string>> = {
  DefinitionExistsException:
    'Microsoft.TeamFoundation.Build.WebApi.DefinitionExistsException, Microsoft.TeamFoundation.Build2.WebApi',
  DefinitionNotFoundException:
    'Microsoft.TeamFoundation.Build.WebApi.DefinitionNotFoundException, Microsoft.TeamFoundation.Build2.WebApi',
  FolderNotFoundException:
    'Microsoft.TeamFoundation.Build.WebApi.FolderNotFoundException, Microsoft.TeamFoundation.Build2.WebApi',
  GitItemNotFoundException: `${GIT}.GitItemNotFoundException, ${GIT}`,
  GitObjectNotFoundException: `${GIT}.GitObjectNotFoundException, ${GIT}`,
  GitPullRequestExistsException: `${GIT}.GitPullRequestExistsException, ${GIT}`,
  GitPullRequestMergeConflictException: `${GIT}.GitPullRequestMergeConflictException, ${GIT}`,
  GitPullRequestNotFoundException: `${GIT}.GitPullRequestNotFoundException, ${GIT}`,
  GitRefNameAlreadyExistsException: `${GIT}.GitRefNameAlreadyExistsException, ${GIT}`,
  GitReferenceStaleException: `${GIT}.GitReferenceStaleException, ${GIT}`,
  GitRepositoryNotFoundException: `${GIT}.GitRepositoryNotFoundException, ${GIT}`,
  GitUnresolvableToCommitException: `${GIT}.GitUnresolvableToCommitException, ${GIT}`,
  InvalidArgumentValueException:
    'Microsoft.TeamFoundation.SourceControl.WebServer.InvalidArgumentValueException, Microsoft.TeamFoundation.SourceControl.WebServer',
  InvalidPullRequestStatusChangeException: `${GIT}.InvalidPullRequestStatusChangeException, ${GIT}`,
  PipelineNotFoundException:
    'Microsoft.Azure.Pipelines.WebApi.PipelineNotFoundException, Microsoft.Azure.Pipelines.WebApi',
  PipelineRunNotFoundException:
    'Microsoft.Azure.Pipelines.WebApi.PipelineRunNotFoundException, Microsoft.Azure.Pipelines.WebApi',
  PipelineValidationException:
    'Microsoft.Azure.Pipelines.WebApi.PipelineValidationException, Microsoft.Azure.Pipelines.WebApi',
  ProjectDoesNotExistWithNameException:
    'Microsoft.TeamFoundation.Core.WebApi.ProjectDoesNotExistWithNameException, Microsoft.TeamFoundation.Core.WebApi',
  InvalidRequestException: `${WEB_API}.InvalidRequestException, ${WEB_API}`,
  VssServiceException: `${WEB_API}.VssServiceException, ${WEB_API}`,
  VssVersionNotSpecifiedException: `${WEB_API}.VssVersionNotSpecifiedException, ${WEB_API}`,
  VssInvalidApiVersionException: `${WEB_API}.VssInvalidApiVersionException, ${WEB_API}`,
  VssVersionOutOfRangeException: `${WEB_API}.VssVersionOutOfRangeException, ${WEB_API}`,
  VssServiceResponseException: `${WEB_API}.VssServiceResponseException, ${WEB_API}`,
  VssRequestThrottledException: `${WEB_API}.VssRequestThrottledException, ${WEB_API}`,
};

/** The real `typeName` of an exception type key (a generic server type for unknown keys). */
function typeNameOf(typeKey: string): string {
  return (
    ERROR_TYPE_NAMES[typeKey] ??
    `Microsoft.TeamFoundation.Framework.Server.${typeKey}, Microsoft.TeamFoundation.Framework.Server`
  );
}

/** An error answered with the DevOps error body (reference §1.5). */
export class DevOpsError extends Error {
  override readonly name = 'DevOpsError';
  constructor(
    readonly statusCode: number,
    readonly typeKey: string,
    message: string,
    readonly typeName = typeNameOf(typeKey),
  ) {
    super(message);
  }
}

export function errorBody(message: string, typeKey: string, typeName?: string) {
  return {
    $id: '1',
    innerException: null,
    message,
    typeName: typeName ?? typeNameOf(typeKey),
    typeKey,
    errorCode: 0,
    eventId: 3000,
  };
}

/**
 * Why the service refuses an api-version, or undefined when it serves it: released versions up to
 * 7.1 (`7.1`, `6.0`…), previews up to 7.1 with a resource version up to MAX_RESOURCE_VERSION.
 * Anything higher is out of range, with the real service's message (VssVersionOutOfRangeException).
 */
export function apiVersionProblem(
  version: string,
): { typeKey: string; message: string } | undefined {
  const match = /^(\d+)\.(\d+)(-preview(?:\.(\d+))?)?$/i.exec(version);
  if (!match) {
    return {
      typeKey: 'VssInvalidApiVersionException',
      message: `The resource version '${version}' is not valid.`,
    };
  }
  const requested = Number(match[1]) * 1000 + Number(match[2]);
  const [latestMajor, latestMinor] = API_VERSION.split('.').map(Number) as [number, number];
  const latest = latestMajor * 1000 + latestMinor;
  const resourceVersion = match[4] === undefined ? undefined : Number(match[4]);
  const outOfRange =
    requested > latest ||
    requested < 1000 ||
    (resourceVersion !== undefined &&
      (resourceVersion < 1 || resourceVersion > MAX_RESOURCE_VERSION));
  if (!outOfRange) return undefined;
  return {
    typeKey: 'VssVersionOutOfRangeException',
    message: `The requested REST API version of ${version} is out of range for this server. The latest REST API version this server supports is ${API_VERSION}.`,
  };
}

export type Query = Record<string, string | string[] | undefined>;

/**
 * Reads a query parameter by any of its names, accepting `a.b`, `a[b]` and the bare `b`
 * (reference §1.3), case-insensitively.
 */
export function queryParam(query: Query, name: string): string | undefined {
  const dot = name.indexOf('.');
  const candidates =
    dot === -1
      ? [name]
      : [name, `${name.slice(0, dot)}[${name.slice(dot + 1)}]`, name.slice(dot + 1)];
  const lowered = candidates.map((c) => c.toLowerCase());
  for (const candidate of lowered) {
    for (const [key, value] of Object.entries(query)) {
      if (key.toLowerCase() === candidate && value !== undefined) {
        return Array.isArray(value) ? value[0] : value;
      }
    }
  }
  return undefined;
}

export function boolParam(query: Query, name: string): boolean {
  return (queryParam(query, name) ?? '').toLowerCase() === 'true';
}

export function intParam(query: Query, name: string): number | undefined {
  const raw = queryParam(query, name);
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new DevOpsError(
      400,
      'InvalidArgumentValueException',
      `The value '${raw}' of the parameter '${name}' is not valid.`,
    );
  }
  return value;
}

/** Parses an enum sent as a camelCase / any-case string or as its numeric value. */
export function enumParam<T extends string>(
  raw: string | number | undefined,
  values: Record<T, number>,
  name: string,
): T | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = String(raw).trim().toLowerCase();
  for (const [key, number] of Object.entries(values) as [T, number][]) {
    if (key.toLowerCase() === text || String(number) === text) return key;
  }
  throw new DevOpsError(
    400,
    'InvalidArgumentValueException',
    `The value '${String(raw)}' is not a valid value for '${name}'.`,
  );
}

export const VERSION_TYPES = { branch: 0, tag: 1, commit: 2 } as const;
/** GitHistoryMode (Get Commits' searchCriteria.historyMode). */
export const HISTORY_MODES = {
  simplifiedHistory: 0,
  firstParent: 1,
  fullHistory: 2,
  fullHistorySimplifyMerges: 3,
} as const;
export const RECURSION_LEVELS = {
  none: 0,
  oneLevel: 1,
  oneLevelPlusNestedEmptyFolders: 4,
  full: 120,
} as const;
export const PULL_REQUEST_STATUSES = {
  notSet: 0,
  active: 1,
  abandoned: 2,
  completed: 3,
  all: 4,
} as const;
export const CHANGE_TYPES = { add: 1, edit: 2, rename: 8, delete: 16 } as const;
export const CONTENT_TYPES = { rawText: 0, base64Encoded: 1 } as const;

/** api-version from the query, else from the Accept header (reference §1.1). */
export function apiVersionOf(request: FastifyRequest): string | undefined {
  const fromQuery = queryParam(request.query as Query, 'api-version');
  if (fromQuery) return fromQuery;
  const accept = request.headers.accept ?? '';
  return /api-version=([\w.-]+)/i.exec(accept)?.[1];
}

export function baseUrl(request: FastifyRequest, organization: string): string {
  const proto = (request.headers['x-forwarded-proto'] as string | undefined) ?? request.protocol;
  return `${proto}://${request.headers.host ?? 'localhost'}/${organization}`;
}

export function projectUrl(request: FastifyRequest, state: DevOpsState, project: ProjectRecord) {
  return `${baseUrl(request, state.data.organization)}/${project.id}`;
}

export function repositoryUrl(
  request: FastifyRequest,
  state: DevOpsState,
  project: ProjectRecord,
  repo: RepositoryRecord,
): string {
  return `${projectUrl(request, state, project)}/_apis/git/repositories/${repo.id}`;
}

export function projectReference(
  request: FastifyRequest,
  state: DevOpsState,
  project: ProjectRecord,
) {
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    url: `${baseUrl(request, state.data.organization)}/_apis/projects/${project.id}`,
    state: 'wellFormed',
    revision: project.revision,
    visibility: 'private',
    lastUpdateTime: project.lastUpdateTime,
  };
}

/**
 * Who a credential that is not a JWT stands for: a pipeline job's System.AccessToken (or a PAT in
 * tests), the organisation's build service as Azure DevOps names it.
 */
export const BUILD_SERVICE_IDENTITY: IdentityRecord = {
  id: '5c2a5a8e-8f3d-4b59-9c61-3f6a2f0d8e11',
  displayName: 'Project Collection Build Service (aegis-msp)',
  uniqueName: 'Build\\5c2a5a8e-8f3d-4b59-9c61-3f6a2f0d8e11',
};

/**
 * The caller, read from the bearer JWT when there is one (verification is the hook's job): a
 * user by `oid` and UPN; an application's own token (no UPN) by its service principal's `oid`.
 */
export function callerIdentity(request: FastifyRequest): IdentityRecord {
  const token = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return BUILD_SERVICE_IDENTITY;
  try {
    const claims = decodeJwt(token);
    const oid = (claims['oid'] as string | undefined) ?? claims.sub;
    const uniqueName =
      (claims['upn'] as string | undefined) ??
      (claims['preferred_username'] as string | undefined) ??
      (claims['email'] as string | undefined);
    if (!uniqueName) {
      if (!oid) return BUILD_SERVICE_IDENTITY;
      const appName = (claims['app_displayname'] as string | undefined) ?? oid;
      return { id: oid, displayName: appName, uniqueName: oid };
    }
    return {
      id: oid ?? BUILD_SERVICE_IDENTITY.id,
      displayName: (claims['name'] as string | undefined) ?? uniqueName,
      uniqueName,
    };
  } catch {
    return BUILD_SERVICE_IDENTITY;
  }
}

export function identityRef(request: FastifyRequest, state: DevOpsState, who: IdentityRecord) {
  return {
    displayName: who.displayName,
    url: `${baseUrl(request, state.data.organization)}/_apis/Identities/${who.id}`,
    id: who.id,
    uniqueName: who.uniqueName,
    imageUrl: `${baseUrl(request, state.data.organization)}/_api/_common/identityImage?id=${who.id}`,
    descriptor: `aad.${Buffer.from(who.id).toString('base64url')}`,
  };
}

export function wrap<T>(value: T[]): { count: number; value: T[] } {
  return { count: value.length, value };
}

/**
 * Page sizes of continuation-token lists when the caller sends no `$top` (the service pages them
 * itself): projects and pipelines come 100 at a time, build definitions in pages of 1000 (where a
 * caller can override everything with the emulator's `defaultPageSize`). Refs are not paged
 * unless asked (100 when only a continuation token is sent); pull requests answer at most 101
 * without `$top` and commits 100, both paged with `$skip`.
 */
export const DEFAULT_PAGE_SIZES = {
  projects: 100,
  pipelines: 100,
  buildDefinitions: 1000,
} as const;

/** Pages a list by `$top` + opaque continuation token (an offset), setting the header. */
export function pageByContinuation<T>(
  reply: FastifyReply,
  items: T[],
  top: number | undefined,
  token: string | undefined,
  defaultPageSize?: number,
): T[] {
  top ??= defaultPageSize;
  const start = token ? Number.parseInt(Buffer.from(token, 'base64url').toString('utf8'), 10) : 0;
  const offset = Number.isFinite(start) && start > 0 ? start : 0;
  const size = top ?? items.length;
  const page = items.slice(offset, offset + size);
  if (offset + size < items.length) {
    reply.header(
      'x-ms-continuationtoken',
      Buffer.from(String(offset + size), 'utf8').toString('base64url'),
    );
  }
  return page;
}

export function normalisePath(raw: string | undefined): string {
  if (!raw) return '';
  const parts = raw.replace(/\\/g, '/').split('/').filter(Boolean);
  if (parts.some((p) => p === '..' || p === '.')) {
    throw new DevOpsError(400, 'InvalidArgumentValueException', `The path '${raw}' is not valid.`);
  }
  return parts.join('/');
}

export function requireProject(state: DevOpsState, project: string): ProjectRecord {
  const found = state.findProject(project);
  if (!found) {
    throw new DevOpsError(
      404,
      'ProjectDoesNotExistWithNameException',
      `TF200016: The following project does not exist: ${decodeURIComponent(project)}. Verify that the name of the project is correct and that the project exists on the specified Azure DevOps Server.`,
    );
  }
  return found;
}

export function requireRepository(
  state: DevOpsState,
  project: ProjectRecord,
  repositoryId: string,
): RepositoryRecord {
  const found = state.findRepository(project, repositoryId);
  if (!found) {
    throw new DevOpsError(
      404,
      'GitRepositoryNotFoundException',
      `TF401019: The Git repository with name or identifier ${decodeURIComponent(repositoryId)} does not exist or you do not have permissions for the operation you are attempting.`,
    );
  }
  return found;
}
