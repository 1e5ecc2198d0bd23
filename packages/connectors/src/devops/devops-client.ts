// A thin typed client for the Azure DevOps REST subset Aegis uses (docs/adr/002-devops-connector.md).
// Same code against dev.azure.com and the emulator: only the organization URL and token differ.
import { strFromU8, unzipSync } from 'fflate';

import {
  HttpPipeline,
  ServiceError,
  isServiceError,
  templateSegment,
  urlTemplate,
  type QueryValue,
} from '../shared';

import type {
  WireAnnotatedTag,
  WireBuild,
  WirePolicyConfiguration,
  WireCommitDiffs,
  WireCommitRef,
  WireErrorBody,
  WireItem,
  WireHookSubscription,
  WireList,
  WirePipeline,
  WireProject,
  WirePullRequest,
  WirePush,
  WirePushResult,
  WireRef,
  WireRefUpdateResult,
  WireRepository,
  WireRun,
  WireRunPipelineParameters,
} from './models';
import type {
  AnnotatedTag,
  BuildRecord,
  NewPolicyConfiguration,
  PolicyConfiguration,
  GitCommitRef,
  ListCommitsOptions,
  CommitDiff,
  CommitDiffChange,
  CreatePipelineRequest,
  CreatePullRequest,
  DevOpsApi,
  DevOpsClientOptions,
  PipelineDefinitionsPort,
  FolderSnapshot,
  GitItem,
  GitObjectType,
  GitRef,
  ItemsOptions,
  ListPullRequestsOptions,
  GitPushHook,
  GitPushHookRequest,
  Pipeline,
  PipelineRun,
  Project,
  PullRequest,
  PushRequest,
  PushResult,
  ReadFolderOptions,
  RefUpdate,
  RefUpdateResult,
  Repository,
  RepositoryFile,
  RepositoryRef,
  RequestOptions,
  RunPipelineRequest,
  RunResult,
  RunState,
  VersionSpec,
} from './types';
import { readZipStream, type ZipEntryHandler } from './zip-stream';

export const DEVOPS_API_VERSION = '7.1';

/** The all-zero object id: as a ref update's old id 'must not exist', as its new id 'delete'. */
export const ZERO_OBJECT_ID = '0'.repeat(40);

/** Pull requests read per request when the caller wants them all. */
const PULL_REQUEST_PAGE_SIZE = 100;
/** Azure DevOps resource for Entra tokens. */
/** Azure DevOps' resource id: the audience of a token for Azure DevOps. */
export const DEVOPS_RESOURCE = '499b84ac-1321-427f-aa17-267ca6975798';
export const DEVOPS_SCOPE = `${DEVOPS_RESOURCE}/.default`;

/** The branch policy type 'Minimum number of reviewers' (Policy Types - List). */
export const MINIMUM_REVIEWERS_POLICY_TYPE = 'fa4e907d-c16b-4a4c-9dfa-4906e5d171dd';

function toPolicyConfiguration(wire: WirePolicyConfiguration): PolicyConfiguration {
  const { scope, ...settings } = wire.settings;
  return {
    id: wire.id,
    typeId: wire.type.id,
    isEnabled: wire.isEnabled,
    isBlocking: wire.isBlocking,
    settings,
    scope: (scope ?? []).map((s) => ({
      repositoryId: s.repositoryId ?? null,
      ...(s.refName !== undefined ? { refName: s.refName } : {}),
      ...(s.matchKind
        ? { matchKind: s.matchKind.toLowerCase() === 'prefix' ? 'prefix' : 'exact' }
        : {}),
    })),
  };
}

function policyBody(policy: NewPolicyConfiguration) {
  return {
    isEnabled: policy.isEnabled,
    isBlocking: policy.isBlocking,
    type: { id: policy.typeId },
    settings: { ...policy.settings, scope: policy.scope },
  };
}

const RUN_STATES: readonly RunState[] = ['notStarted', 'inProgress', 'canceling', 'completed'];
const RUN_RESULTS: readonly RunResult[] = ['succeeded', 'failed', 'canceled'];

function parseDevOpsError(status: number, body: string): { code?: string; message?: string } {
  try {
    const parsed = JSON.parse(body) as WireErrorBody;
    return {
      ...(parsed.typeKey ? { code: parsed.typeKey } : {}),
      ...(parsed.message ? { message: parsed.message } : {}),
    };
  } catch {
    return status === 401 ? { code: 'Unauthorized' } : {};
  }
}

function versionQuery(version: VersionSpec | undefined, prefix = 'versionDescriptor.') {
  if (!version) return {};
  if ('branch' in version) {
    return {
      [`${prefix}version`]: version.branch.replace(/^refs\/heads\//, ''),
      [`${prefix}versionType`]: 'branch',
    };
  }
  if ('tag' in version) {
    return {
      [`${prefix}version`]: version.tag.replace(/^refs\/tags\//, ''),
      [`${prefix}versionType`]: 'tag',
    };
  }
  return { [`${prefix}version`]: version.commit, [`${prefix}versionType`]: 'commit' };
}

function diffVersionQuery(side: 'base' | 'target', version: VersionSpec): Record<string, string> {
  const [type, value] =
    'branch' in version
      ? ['branch', version.branch.replace(/^refs\/heads\//, '')]
      : 'tag' in version
        ? ['tag', version.tag.replace(/^refs\/tags\//, '')]
        : ['commit', version.commit];
  return { [`${side}Version`]: value, [`${side}VersionType`]: type };
}

function withSlash(path: string): string {
  const trimmed = path.replace(/\\/g, '/').replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed || '/' : `/${trimmed}`;
}

function toProject(wire: WireProject): Project {
  return {
    id: wire.id,
    name: wire.name,
    ...(wire.description ? { description: wire.description } : {}),
    ...(wire.lastUpdateTime ? { lastUpdateTime: wire.lastUpdateTime } : {}),
  };
}

/** The project of a pipeline is the 5th path segment of its self link (spec 1 §3). */
export function projectIdFromSelfLink(href: string): string {
  return href.split('/')[4] ?? '';
}

function toPipeline(wire: WirePipeline): Pipeline {
  const href = wire._links['self']?.href ?? wire.url;
  return {
    id: wire.id,
    name: wire.name,
    folder: wire.folder,
    revision: wire.revision,
    projectId: projectIdFromSelfLink(href),
    url: wire.url,
  };
}

function toRun(wire: WireRun): PipelineRun {
  const state = RUN_STATES.find((s) => s === wire.state) ?? 'unknown';
  const result = wire.result
    ? (RUN_RESULTS.find((r) => r === wire.result) ?? 'unknown')
    : undefined;
  return {
    id: wire.id,
    pipelineId: wire.pipeline.id,
    name: wire.name,
    state,
    ...(result ? { result } : {}),
    createdDate: wire.createdDate,
    ...(wire.finishedDate ? { finishedDate: wire.finishedDate } : {}),
  };
}

function toRepository(wire: WireRepository): Repository {
  return {
    id: wire.id,
    name: wire.name,
    projectId: wire.project.id,
    ...(wire.defaultBranch ? { defaultBranch: wire.defaultBranch } : {}),
    ...(wire.size !== undefined ? { size: wire.size } : {}),
    ...(wire.webUrl ? { webUrl: wire.webUrl } : {}),
  };
}

function toItem(wire: WireItem): GitItem {
  return {
    path: wire.path,
    objectId: wire.objectId,
    gitObjectType: wire.gitObjectType as GitObjectType,
    commitId: wire.commitId,
    isFolder: wire.isFolder === true || wire.gitObjectType === 'tree',
  };
}

function toPullRequest(wire: WirePullRequest): PullRequest {
  const repoWeb = wire.repository.webUrl ?? '';
  return {
    pullRequestId: wire.pullRequestId,
    status:
      (['active', 'abandoned', 'completed'] as const).find((s) => s === wire.status) ?? 'active',
    title: wire.title,
    description: wire.description ?? '',
    sourceRefName: wire.sourceRefName,
    targetRefName: wire.targetRefName,
    createdBy: {
      id: wire.createdBy.id,
      displayName: wire.createdBy.displayName,
      uniqueName: wire.createdBy.uniqueName,
    },
    creationDate: wire.creationDate,
    ...(wire.closedDate ? { closedDate: wire.closedDate } : {}),
    ...(wire.closedBy
      ? {
          closedBy: {
            id: wire.closedBy.id,
            displayName: wire.closedBy.displayName,
            uniqueName: wire.closedBy.uniqueName,
          },
        }
      : {}),
    reviewers: (wire.reviewers ?? []).map((r) => ({
      id: r.id,
      displayName: r.displayName,
      uniqueName: r.uniqueName,
      vote: r.vote ?? 0,
    })),
    ...(wire.completionOptions ? { completionOptions: wire.completionOptions } : {}),
    ...(wire.mergeStatus ? { mergeStatus: wire.mergeStatus } : {}),
    ...(wire.lastMergeCommit ? { lastMergeCommitId: wire.lastMergeCommit.commitId } : {}),
    labels: (wire.labels ?? []).map((l) => l.name),
    repositoryId: wire.repository.id,
    webUrl: repoWeb ? `${repoWeb}/pullrequest/${wire.pullRequestId}` : wire.url,
  };
}

function toAnnotatedTag(wire: WireAnnotatedTag): AnnotatedTag {
  return {
    name: wire.name,
    objectId: wire.objectId,
    commitId: wire.taggedObject.objectId,
    message: wire.message,
    taggedBy: wire.taggedBy,
  };
}

/**
 * A DevOps URL's shape for telemetry (ADR 061): the organisation, the project and the repository
 * named as such (`{organization}/{project}/_apis/git/repositories/{repository}/items`), the rest
 * as {@link urlTemplate} makes it.
 */
export function devOpsUrlTemplate(organizationUrl: string, url: URL): string {
  const organization = new URL(organizationUrl);
  const prefix = organization.pathname.replace(/\/+$/, '');
  if (url.origin !== organization.origin || !url.pathname.startsWith(`${prefix}/`)) {
    return urlTemplate(url);
  }
  const segments = url.pathname.slice(prefix.length + 1).split('/');
  const apis = segments.indexOf('_apis');
  const path = segments.map((segment, index) => {
    if (apis > 0 && index < apis) return '{project}';
    if (index > apis && segments[index - 1] === 'repositories') return '{repository}';
    return templateSegment(segment);
  });
  return `${url.origin}${prefix === '' ? '' : '/{organization}'}/${path.join('/')}`;
}

export class DevOpsClient implements DevOpsApi, PipelineDefinitionsPort {
  private readonly http: HttpPipeline;
  private readonly base: string;

  constructor(options: DevOpsClientOptions) {
    this.base = options.organizationUrl.replace(/\/+$/, '');
    this.http = new HttpPipeline({
      service: 'devops',
      getToken: options.getToken,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.timeoutInMs ? { timeoutInMs: options.timeoutInMs } : {}),
      parseError: parseDevOpsError,
      requestIdHeaders: ['activityid', 'x-vss-e2eid', 'x-ms-request-id'],
      urlTemplate: (url) => devOpsUrlTemplate(this.base, url),
      // Azure DevOps answers bad credentials with 203 and an HTML sign-in page (reference §1.4).
      checkResponse: (response) => {
        const type = response.headers.get('content-type') ?? '';
        if (response.status === 203 || type.includes('text/html')) {
          return new ServiceError(
            'Azure DevOps did not accept the credentials: it answered with a sign-in page (HTTP 203).',
            { service: 'devops', statusCode: 401, code: 'SignInPageReturned' },
          );
        }
        return undefined;
      },
    });
  }

  // ---- plumbing -------------------------------------------------------------------------

  private url(project: string | undefined, path: string): string {
    return project === undefined
      ? `${this.base}/_apis/${path}`
      : `${this.base}/${encodeURIComponent(project)}/_apis/${path}`;
  }

  private repoUrl(repo: RepositoryRef, path: string): string {
    return this.url(
      repo.project,
      `git/repositories/${encodeURIComponent(repo.repository)}/${path}`,
    );
  }

  private async json<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT',
    url: string,
    query: Record<string, QueryValue>,
    options: RequestOptions | undefined,
    body?: unknown,
  ): Promise<{ body: T; headers: Headers }> {
    const response = await this.http.send<T>({
      method,
      url,
      query: { ...query, 'api-version': DEVOPS_API_VERSION },
      headers: { accept: 'application/json' },
      ...(body !== undefined ? { body } : {}),
      responseType: 'json',
      ...(options?.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    if (response.body === undefined || response.body === null) {
      throw new ServiceError('No content returned from API', {
        service: 'devops',
        statusCode: response.status,
        code: 'EmptyResponse',
      });
    }
    return { body: response.body, headers: response.headers };
  }

  /** Follows x-ms-continuationtoken until the list is complete. */
  private async all<T>(
    url: string,
    query: Record<string, QueryValue>,
    options: RequestOptions | undefined,
  ): Promise<T[]> {
    const items: T[] = [];
    let token: string | undefined;
    for (let page = 0; page < 1000; page += 1) {
      const { body, headers } = await this.json<WireList<T>>(
        'GET',
        url,
        { ...query, ...(token ? { continuationToken: token } : {}) },
        options,
      );
      items.push(...(body.value ?? []));
      token = headers.get('x-ms-continuationtoken') ?? undefined;
      if (!token) break;
    }
    return items;
  }

  private async optional<T>(operation: () => Promise<T>): Promise<T | undefined> {
    try {
      return await operation();
    } catch (error) {
      if (isServiceError(error) && error.statusCode === 404) return undefined;
      throw error;
    }
  }

  // ---- projects and pipelines -----------------------------------------------------------

  async listProjects(options?: RequestOptions): Promise<Project[]> {
    const wire = await this.all<WireProject>(this.url(undefined, 'projects'), {}, options);
    return wire.map(toProject);
  }

  /** The organization's web hook subscriptions to `git.push` (Service Hooks 7.1). */
  async listGitPushHooks(options?: RequestOptions): Promise<GitPushHook[]> {
    const { body } = await this.json<WireList<WireHookSubscription>>(
      'GET',
      this.url(undefined, 'hooks/subscriptions'),
      {},
      options,
    );
    return body.value
      .filter(
        (s) => s.publisherId === 'tfs' && s.eventType === 'git.push' && s.consumerId === 'webHooks',
      )
      .map(toGitPushHook);
  }

  /** Subscribes a web hook to pushes of one branch of one repository (Service Hooks 7.1). */
  async createGitPushHook(
    request: GitPushHookRequest,
    options?: RequestOptions,
  ): Promise<GitPushHook> {
    const { body } = await this.json<WireHookSubscription>(
      'POST',
      this.url(undefined, 'hooks/subscriptions'),
      {},
      options,
      gitPushSubscriptionBody(request),
    );
    return toGitPushHook(body);
  }

  /**
   * Replaces a `git.push` subscription whole (Service Hooks 7.1 'Replace Subscription'): the
   * service never gives a password back, so new credentials can only be set, never compared.
   */
  async replaceGitPushHook(
    id: string,
    request: GitPushHookRequest,
    options?: RequestOptions,
  ): Promise<GitPushHook> {
    const { body } = await this.json<WireHookSubscription>(
      'PUT',
      this.url(undefined, `hooks/subscriptions/${encodeURIComponent(id)}`),
      {},
      options,
      gitPushSubscriptionBody(request),
    );
    return toGitPushHook(body);
  }

  async listPipelines(project: string, options?: RequestOptions): Promise<Pipeline[]> {
    const wire = await this.all<WirePipeline>(this.url(project, 'pipelines'), {}, options);
    return wire.map(toPipeline);
  }

  async createPipeline(
    project: string,
    request: CreatePipelineRequest,
    options?: RequestOptions,
  ): Promise<Pipeline> {
    const { body } = await this.json<WirePipeline>(
      'POST',
      this.url(project, 'pipelines'),
      {},
      options,
      {
        name: request.name,
        folder: request.folder,
        configuration: {
          type: 'yaml',
          path: request.yamlPath,
          repository: { id: request.repositoryId, type: 'azureReposGit' },
        },
      },
    );
    return toPipeline(body);
  }

  async runPipeline(
    project: string,
    pipelineId: number,
    request: RunPipelineRequest = {},
    options?: RequestOptions,
  ): Promise<PipelineRun> {
    const body: WireRunPipelineParameters = {
      resources: { repositories: { self: { refName: request.refName ?? 'refs/heads/main' } } },
      ...(request.templateParameters ? { templateParameters: request.templateParameters } : {}),
      ...(request.variables ? { variables: request.variables } : {}),
      ...(request.stagesToSkip ? { stagesToSkip: request.stagesToSkip } : {}),
    };
    const { body: run } = await this.json<WireRun>(
      'POST',
      this.url(project, `pipelines/${pipelineId}/runs`),
      {},
      options,
      body,
    );
    return toRun(run);
  }

  async getRun(
    project: string,
    pipelineId: number,
    runId: number,
    options?: RequestOptions,
  ): Promise<PipelineRun | undefined> {
    return this.optional(async () => {
      const { body } = await this.json<WireRun>(
        'GET',
        this.url(project, `pipelines/${pipelineId}/runs/${runId}`),
        {},
        options,
      );
      return toRun(body);
    });
  }

  async getBuild(
    project: string,
    buildId: number,
    options?: RequestOptions,
  ): Promise<BuildRecord | undefined> {
    return this.optional(async () => {
      const { body } = await this.json<WireBuild>(
        'GET',
        this.url(project, `build/builds/${buildId}`),
        {},
        options,
      );
      const identity = (i: WireBuild['requestedBy']) =>
        i ? { id: i.id, displayName: i.displayName, uniqueName: i.uniqueName } : undefined;
      const requestedBy = identity(body.requestedBy);
      const requestedFor = identity(body.requestedFor);
      return {
        id: body.id,
        definitionId: body.definition.id,
        ...(body.sourceBranch ? { sourceBranch: body.sourceBranch } : {}),
        templateParameters: Object.fromEntries(
          Object.entries(body.templateParameters ?? {}).map(([k, v]) => [k, String(v)]),
        ),
        ...(requestedBy ? { requestedBy } : {}),
        ...(requestedFor ? { requestedFor } : {}),
      };
    });
  }

  // ---- branch policies ------------------------------------------------------------------

  async listPolicyConfigurations(
    project: string,
    options?: RequestOptions,
  ): Promise<PolicyConfiguration[]> {
    const { body } = await this.json<WireList<WirePolicyConfiguration>>(
      'GET',
      this.url(project, 'policy/configurations'),
      {},
      options,
    );
    return body.value.filter((p) => !p.isDeleted).map(toPolicyConfiguration);
  }

  async createPolicyConfiguration(
    project: string,
    policy: NewPolicyConfiguration,
    options?: RequestOptions,
  ): Promise<PolicyConfiguration> {
    const { body } = await this.json<WirePolicyConfiguration>(
      'POST',
      this.url(project, 'policy/configurations'),
      {},
      options,
      policyBody(policy),
    );
    return toPolicyConfiguration(body);
  }

  async updatePolicyConfiguration(
    project: string,
    id: number,
    policy: NewPolicyConfiguration,
    options?: RequestOptions,
  ): Promise<PolicyConfiguration> {
    const { body } = await this.json<WirePolicyConfiguration>(
      'PUT',
      this.url(project, `policy/configurations/${id}`),
      {},
      options,
      policyBody(policy),
    );
    return toPolicyConfiguration(body);
  }

  /** Deletes a branch policy; one already gone (404) is no error (Azure SDK: delete succeeds if missing). */
  async deletePolicyConfiguration(
    project: string,
    id: number,
    options?: RequestOptions,
  ): Promise<void> {
    try {
      await this.http.send({
        method: 'DELETE',
        url: this.url(project, `policy/configurations/${id}`),
        query: { 'api-version': DEVOPS_API_VERSION },
        headers: { accept: 'application/json' },
        responseType: 'none',
        ...(options?.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
    } catch (error) {
      if (isServiceError(error) && error.statusCode === 404) return;
      throw error;
    }
  }

  async getRunLog(
    project: string,
    runId: number,
    options?: RequestOptions,
  ): Promise<string[] | undefined> {
    return this.optional(async () => {
      const { body } = await this.json<WireList<{ id: number }>>(
        'GET',
        this.url(project, `build/builds/${runId}/logs`),
        {},
        options,
      );
      const lines: string[] = [];
      for (const log of [...body.value].sort((a, b) => a.id - b.id)) {
        const response = await this.http.send<string>({
          method: 'GET',
          url: this.url(project, `build/builds/${runId}/logs/${log.id}`),
          query: { 'api-version': DEVOPS_API_VERSION },
          headers: { accept: 'text/plain' },
          responseType: 'text',
          ...(options?.abortSignal ? { abortSignal: options.abortSignal } : {}),
        });
        if (response.body) lines.push(...response.body.split(/\r?\n/));
      }
      return lines;
    });
  }

  async listRuns(
    project: string,
    pipelineId: number,
    options?: RequestOptions,
  ): Promise<PipelineRun[]> {
    const wire = await this.all<WireRun>(
      this.url(project, `pipelines/${pipelineId}/runs`),
      {},
      options,
    );
    return wire.map(toRun);
  }

  // ---- repositories and items -----------------------------------------------------------

  async listRepositories(project: string, options?: RequestOptions): Promise<Repository[]> {
    const { body } = await this.json<WireList<WireRepository>>(
      'GET',
      this.url(project, 'git/repositories'),
      {},
      options,
    );
    return body.value.map(toRepository);
  }

  async getRepository(
    repo: RepositoryRef,
    options?: RequestOptions,
  ): Promise<Repository | undefined> {
    return this.optional(async () => {
      const { body } = await this.json<WireRepository>(
        'GET',
        this.url(repo.project, `git/repositories/${encodeURIComponent(repo.repository)}`),
        {},
        options,
      );
      return toRepository(body);
    });
  }

  async listItems(
    repo: RepositoryRef,
    scopePath: string,
    options?: ItemsOptions,
  ): Promise<GitItem[]> {
    const result = await this.optional(async () => {
      const { body } = await this.json<WireList<WireItem>>(
        'GET',
        this.repoUrl(repo, 'items'),
        {
          scopePath: withSlash(scopePath),
          recursionLevel: options?.recursion ?? 'oneLevel',
          ...versionQuery(options?.version),
        },
        options,
      );
      return body.value.map(toItem);
    });
    return result ?? [];
  }

  /** Items as a zip (one request), held whole (`bytes`) or read as it arrives (`stream`). */
  private zipOf<T>(
    repo: RepositoryRef,
    path: string,
    options: ItemsOptions | undefined,
    responseType: 'bytes' | 'stream',
  ): Promise<T | undefined> {
    return this.optional(async () => {
      const response = await this.http.send<T>({
        method: 'GET',
        url: this.repoUrl(repo, 'items'),
        query: {
          path: withSlash(path),
          $format: 'zip',
          download: true,
          ...versionQuery(options?.version),
          'api-version': DEVOPS_API_VERSION,
        },
        headers: { accept: 'application/zip' },
        responseType,
        ...(options?.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
      return response.body;
    });
  }

  getZip(
    repo: RepositoryRef,
    path: string,
    options?: ItemsOptions,
  ): Promise<Uint8Array | undefined> {
    return this.zipOf<Uint8Array>(repo, path, options, 'bytes');
  }

  async forEachZipEntry(
    repo: RepositoryRef,
    path: string,
    onEntry: ZipEntryHandler,
    options?: ItemsOptions & { wanted?: (name: string) => boolean },
  ): Promise<boolean> {
    const chunks = await this.zipOf<AsyncIterable<Uint8Array>>(repo, path, options, 'stream');
    if (!chunks) return false;
    await readZipStream(chunks, onEntry, options?.wanted);
    return true;
  }

  async readFolder(
    repo: RepositoryRef,
    folderPath: string,
    options?: ReadFolderOptions,
  ): Promise<FolderSnapshot | undefined> {
    const folder = withSlash(folderPath);
    const { listing, ...itemsOptions } = options ?? {};
    const items =
      listing ?? (await this.listItems(repo, folder, { ...itemsOptions, recursion: 'full' }));
    const root = items[0];
    if (!root) return undefined;
    const blobs = items.filter((i) => i.gitObjectType === 'blob');
    if (blobs.length === 0) return { commitId: root.commitId, files: [] };
    // Pin the zip to the listing's commit so both reads see the same tree.
    const zip = await this.getZip(repo, folder, {
      ...itemsOptions,
      version: { commit: root.commitId },
    });
    if (!zip) return undefined;
    const entries = unzipSync(zip);
    const names = Object.keys(entries).filter((n) => !n.endsWith('/'));
    const prefix = folder === '/' ? '/' : `${folder}/`;
    const files: RepositoryFile[] = blobs.map((blob) => {
      const relative = blob.path.startsWith(prefix) ? blob.path.slice(prefix.length) : blob.path;
      // Entry naming inside the archive is not documented: accept relative, folder-prefixed or
      // full paths (reference §5.4).
      const name =
        names.find((n) => n === relative) ??
        names.find((n) => n.replace(/^\/+/, '') === blob.path.slice(1)) ??
        names.find((n) => n.endsWith(`/${relative}`));
      const bytes = name ? entries[name] : undefined;
      if (!bytes) {
        throw new ServiceError(`Unable to find content in response for ${blob.path}`, {
          service: 'devops',
          code: 'MissingZipEntry',
        });
      }
      return { path: blob.path, objectId: blob.objectId, content: strFromU8(bytes) };
    });
    return { commitId: root.commitId, files };
  }

  async getFile(
    repo: RepositoryRef,
    path: string,
    options?: ItemsOptions,
  ): Promise<RepositoryFile | undefined> {
    return this.optional(async () => {
      const { body } = await this.json<WireItem>(
        'GET',
        this.repoUrl(repo, 'items'),
        { path: withSlash(path), includeContent: true, ...versionQuery(options?.version) },
        options,
      );
      if (body.isFolder || body.gitObjectType === 'tree') {
        throw new ServiceError(`${withSlash(path)} is a folder`, {
          service: 'devops',
          statusCode: 400,
          code: 'NotAFile',
        });
      }
      return { path: body.path, objectId: body.objectId, content: body.content ?? '' };
    });
  }

  async getBlobs(
    repo: RepositoryRef,
    objectIds: readonly string[],
    options?: RequestOptions,
  ): Promise<Map<string, string>> {
    const result = new Map<string, string>();
    const ids = [...new Set(objectIds)];
    if (ids.length === 0) return result;
    const response = await this.http.send<Uint8Array>({
      method: 'POST',
      url: this.repoUrl(repo, 'blobs'),
      query: { $format: 'zip', 'api-version': DEVOPS_API_VERSION },
      headers: { accept: 'application/zip' },
      body: ids,
      responseType: 'bytes',
      ...(options?.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    const entries = unzipSync(response.body);
    for (const [name, bytes] of Object.entries(entries)) {
      const id = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
      result.set(id, strFromU8(bytes));
    }
    for (const id of ids) {
      if (!result.has(id.toLowerCase())) {
        throw new ServiceError(`Unable to find content in response for blob ${id}`, {
          service: 'devops',
          code: 'MissingZipEntry',
        });
      }
    }
    return result;
  }

  // ---- refs, tags, pushes ---------------------------------------------------------------

  async listRefs(
    repo: RepositoryRef,
    filter?: string,
    options?: RequestOptions,
  ): Promise<GitRef[]> {
    const wire = await this.all<WireRef>(
      this.repoUrl(repo, 'refs'),
      { ...(filter ? { filter: filter.replace(/^refs\//, '') } : {}), peelTags: true },
      options,
    );
    return wire.map((r) => ({
      name: r.name,
      objectId: r.objectId,
      commitId: r.peeledObjectId ?? r.objectId,
      ...(r.creator
        ? { creator: { displayName: r.creator.displayName, uniqueName: r.creator.uniqueName } }
        : {}),
    }));
  }

  async updateRefs(
    repo: RepositoryRef,
    updates: RefUpdate[],
    options?: RequestOptions,
  ): Promise<RefUpdateResult[]> {
    const { body } = await this.json<WireList<WireRefUpdateResult>>(
      'POST',
      this.repoUrl(repo, 'refs'),
      {},
      options,
      updates,
    );
    return body.value.map((r) => ({
      name: r.name,
      oldObjectId: r.oldObjectId,
      newObjectId: r.newObjectId,
      success: r.success,
      updateStatus: r.updateStatus,
    }));
  }

  async createAnnotatedTag(
    repo: RepositoryRef,
    tag: { name: string; commitId: string; message: string },
    options?: RequestOptions,
  ): Promise<AnnotatedTag> {
    const { body } = await this.json<WireAnnotatedTag>(
      'POST',
      this.repoUrl(repo, 'annotatedtags'),
      {},
      options,
      { name: tag.name, message: tag.message, taggedObject: { objectId: tag.commitId } },
    );
    return toAnnotatedTag(body);
  }

  async getAnnotatedTag(
    repo: RepositoryRef,
    objectId: string,
    options?: RequestOptions,
  ): Promise<AnnotatedTag | undefined> {
    return this.optional(async () => {
      const { body } = await this.json<WireAnnotatedTag>(
        'GET',
        this.repoUrl(repo, `annotatedtags/${objectId}`),
        {},
        options,
      );
      return toAnnotatedTag(body);
    });
  }

  async push(
    repo: RepositoryRef,
    push: PushRequest,
    options?: RequestOptions,
  ): Promise<PushResult> {
    const refName = push.branch.startsWith('refs/') ? push.branch : `refs/heads/${push.branch}`;
    const body: WirePush = {
      refUpdates: [{ name: refName, oldObjectId: push.oldObjectId }],
      commits: push.commits.map((commit) => ({
        comment: commit.comment,
        ...(commit.author ? { author: commit.author } : {}),
        changes: commit.changes.map((change) => {
          if (change.changeType === 'delete') {
            return { changeType: 'delete', item: { path: withSlash(change.path) } };
          }
          if (change.changeType === 'rename') {
            return {
              changeType: 'rename',
              sourceServerItem: withSlash(change.sourcePath),
              item: { path: withSlash(change.path) },
            };
          }
          return {
            changeType: change.changeType,
            item: { path: withSlash(change.path) },
            newContent: {
              content: change.content,
              contentType: change.encoding === 'base64' ? 'base64encoded' : 'rawtext',
            },
          };
        }),
      })),
    };
    const { body: result } = await this.json<WirePushResult>(
      'POST',
      this.repoUrl(repo, 'pushes'),
      {},
      options,
      body,
    );
    const update = result.refUpdates[0];
    return {
      pushId: result.pushId,
      refName: update?.name ?? refName,
      oldObjectId: update?.oldObjectId ?? push.oldObjectId,
      commitId: update?.newObjectId ?? result.commits[result.commits.length - 1]?.commitId ?? '',
      date: result.date,
    };
  }

  // ---- pull requests and diffs ----------------------------------------------------------

  async createPullRequest(
    repo: RepositoryRef,
    request: CreatePullRequest,
    options?: RequestOptions,
  ): Promise<PullRequest> {
    const { body } = await this.json<WirePullRequest>(
      'POST',
      this.repoUrl(repo, 'pullrequests'),
      {},
      options,
      {
        sourceRefName: request.sourceRefName,
        targetRefName: request.targetRefName,
        title: request.title,
        description: request.description ?? '',
        reviewers: request.reviewers ?? [],
        labels: (request.labels ?? []).map((name) => ({ name })),
        isDraft: request.isDraft ?? false,
        ...(request.completionOptions ? { completionOptions: request.completionOptions } : {}),
      },
    );
    return toPullRequest(body);
  }

  /**
   * Pull requests matching the criteria. With `top` one page is read; otherwise every page, by
   * `$skip`, since the service answers at most 101 without `$top` and sends no continuation token.
   */
  async listPullRequests(
    repo: RepositoryRef,
    options?: ListPullRequestsOptions,
  ): Promise<PullRequest[]> {
    const page = async (top: number | undefined, skip: number | undefined) => {
      const { body } = await this.json<WireList<WirePullRequest>>(
        'GET',
        this.repoUrl(repo, 'pullrequests'),
        {
          'searchCriteria.status': options?.status ?? 'active',
          'searchCriteria.targetRefName': options?.targetRefName,
          'searchCriteria.sourceRefName': options?.sourceRefName,
          $top: top,
          $skip: skip,
        },
        options,
      );
      return body.value.map(toPullRequest);
    };
    if (options?.top !== undefined) return page(options.top, options.skip);
    const all: PullRequest[] = [];
    for (let skip = options?.skip ?? 0; ; skip += PULL_REQUEST_PAGE_SIZE) {
      const found = await page(PULL_REQUEST_PAGE_SIZE, skip);
      all.push(...found);
      if (found.length < PULL_REQUEST_PAGE_SIZE) return all;
    }
  }

  async getPullRequest(
    repo: RepositoryRef,
    pullRequestId: number,
    options?: RequestOptions,
  ): Promise<PullRequest | undefined> {
    return this.optional(async () => {
      const { body } = await this.json<WirePullRequest>(
        'GET',
        this.repoUrl(repo, `pullrequests/${pullRequestId}`),
        {},
        options,
      );
      return toPullRequest(body);
    });
  }

  async listCommits(
    repo: RepositoryRef,
    options: ListCommitsOptions = {},
  ): Promise<GitCommitRef[]> {
    const person = (p: WireCommitRef['author']) => ({
      name: p?.name ?? '',
      email: p?.email ?? '',
      date: p?.date ?? '',
    });
    const { body } = await this.json<WireList<WireCommitRef>>(
      'GET',
      this.repoUrl(repo, 'commits'),
      {
        ...(options.itemPath ? { 'searchCriteria.itemPath': withSlash(options.itemPath) } : {}),
        ...(options.historyMode ? { 'searchCriteria.historyMode': options.historyMode } : {}),
        ...versionQuery(options.version, 'searchCriteria.itemVersion.'),
        'searchCriteria.$top': options.top ?? 100,
      },
      options,
    );
    return body.value.map((c) => ({
      commitId: c.commitId,
      comment: c.comment ?? '',
      author: person(c.author),
      committer: person(c.committer),
    }));
  }

  async getCommitDiff(
    repo: RepositoryRef,
    base: VersionSpec,
    target: VersionSpec,
    options?: RequestOptions & { diffCommonCommit?: boolean },
  ): Promise<CommitDiff> {
    const changes: CommitDiffChange[] = [];
    let first: WireCommitDiffs | undefined;
    const top = 1000;
    for (let skip = 0; ; skip += top) {
      const { body } = await this.json<WireCommitDiffs>(
        'GET',
        this.repoUrl(repo, 'diffs/commits'),
        {
          ...diffVersionQuery('base', base),
          ...diffVersionQuery('target', target),
          diffCommonCommit: options?.diffCommonCommit ?? true,
          $top: top,
          $skip: skip,
        },
        options,
      );
      first ??= body;
      for (const c of body.changes) {
        changes.push({
          path: c.item.path,
          changeType:
            (['add', 'edit', 'delete', 'rename'] as const).find((t) => c.changeType.includes(t)) ??
            'edit',
          objectId: c.item.objectId,
          ...(c.item.originalObjectId ? { originalObjectId: c.item.originalObjectId } : {}),
          isFolder: c.item.isFolder === true || c.item.gitObjectType === 'tree',
        });
      }
      if (body.allChangesIncluded || body.changes.length === 0) break;
    }
    return {
      baseCommit: first.baseCommit,
      targetCommit: first.targetCommit,
      commonCommit: first.commonCommit,
      aheadCount: first.aheadCount,
      behindCount: first.behindCount,
      changeCounts: first.changeCounts,
      changes,
    };
  }
}

function gitPushSubscriptionBody(request: GitPushHookRequest) {
  return {
    publisherId: 'tfs',
    eventType: 'git.push',
    resourceVersion: '1.0',
    consumerId: 'webHooks',
    consumerActionId: 'httpRequest',
    publisherInputs: {
      projectId: request.projectId,
      repository: request.repositoryId,
      branch: request.branch,
    },
    consumerInputs: {
      url: request.url,
      basicAuthUsername: request.basicAuthUsername,
      basicAuthPassword: request.basicAuthPassword,
    },
  };
}

function toGitPushHook(s: WireHookSubscription): GitPushHook {
  return {
    id: s.id,
    url: s.consumerInputs?.['url'] ?? '',
    status: s.status ?? 'enabled',
    ...(s.publisherInputs?.['projectId'] ? { projectId: s.publisherInputs['projectId'] } : {}),
    ...(s.publisherInputs?.['repository'] ? { repositoryId: s.publisherInputs['repository'] } : {}),
    ...(s.publisherInputs?.['branch'] ? { branch: s.publisherInputs['branch'] } : {}),
  };
}
