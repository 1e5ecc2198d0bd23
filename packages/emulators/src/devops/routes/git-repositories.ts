// Git area, read side: repositories, items (JSON / raw / text / zip), refs (list and update),
// annotated tags, commits and commit diffs (reference §5.1–5.7, §5.9).
import { ZERO_OBJECT_ID } from '@aegis/connectors/devops';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { zipSync } from 'fflate';

import {
  blockingPoliciesOf,
  GIT_PERMISSION,
  hasGitPermission,
  recordPush,
} from '../branch-policies';
import { type CommitInfo, type GitRepo, type TreeEntry } from '../git';
import type { DevOpsState, ProjectRecord, RepositoryRecord } from '../state';

import {
  DevOpsError,
  HISTORY_MODES,
  RECURSION_LEVELS,
  VERSION_TYPES,
  boolParam,
  callerIdentity,
  enumParam,
  identityRef,
  intParam,
  normalisePath,
  pageByContinuation,
  projectReference,
  queryParam,
  repositoryUrl,
  requireProject,
  requireRepository,
  wrap,
  type Query,
} from './common';

export interface RepoParams {
  project: string;
  repositoryId: string;
}

export interface RepoContext {
  project: ProjectRecord;
  repo: RepositoryRecord;
  git: GitRepo;
  url: string;
}

export function repoContext(
  request: FastifyRequest<{ Params: RepoParams }>,
  state: DevOpsState,
): RepoContext {
  const project = requireProject(state, request.params.project);
  const repo = requireRepository(state, project, request.params.repositoryId);
  return {
    project,
    repo,
    git: state.git(repo.id),
    url: repositoryUrl(request, state, project, repo),
  };
}

export function repositoryJson(
  request: FastifyRequest,
  state: DevOpsState,
  project: ProjectRecord,
  repo: RepositoryRecord,
  extra: { defaultBranch?: string; size: number },
) {
  const webUrl = `${request.protocol}://${request.headers.host ?? 'localhost'}/${state.data.organization}/${encodeURIComponent(project.name)}/_git/${encodeURIComponent(repo.name)}`;
  return {
    id: repo.id,
    name: repo.name,
    url: repositoryUrl(request, state, project, repo),
    project: projectReference(request, state, project),
    ...(extra.defaultBranch ? { defaultBranch: extra.defaultBranch } : {}),
    size: extra.size,
    remoteUrl: webUrl.replace('://', `://${state.data.organization}@`),
    sshUrl: `git@ssh.dev.azure.com:v3/${state.data.organization}/${encodeURIComponent(project.name)}/${encodeURIComponent(repo.name)}`,
    webUrl,
    isDisabled: false,
    isInMaintenance: false,
    isFork: false,
  };
}

type VersionType = keyof typeof VERSION_TYPES;

export interface ResolvedVersion {
  commit: string;
  describe: string;
  versionType: VersionType;
}

/** Resolves the request's versionDescriptor (default: the default branch). */
export async function resolveVersion(
  git: GitRepo,
  query: Query,
  prefix = 'versionDescriptor',
): Promise<ResolvedVersion> {
  const version = queryParam(query, `${prefix}.version`) ?? 'main';
  const versionType =
    enumParam(queryParam(query, `${prefix}.versionType`), VERSION_TYPES, 'versionType') ?? 'branch';
  const options = (queryParam(query, `${prefix}.versionOptions`) ?? 'none').toLowerCase();
  const label = versionType.charAt(0).toUpperCase() + versionType.slice(1);
  const describe = `<${label}: ${version} >`;
  let commit = await git.resolveCommit(version, versionType);
  if (
    commit &&
    (options === 'previouschange' ||
      options === '1' ||
      options === 'firstparent' ||
      options === '2')
  ) {
    commit = await git.revParse(`${commit}^1`);
  }
  if (!commit) {
    throw new DevOpsError(
      404,
      'GitUnresolvableToCommitException',
      `TF401175: The version descriptor ${describe} could not be resolved to a version commit.`,
    );
  }
  return { commit, describe, versionType };
}

const MIME_BY_EXTENSION: Record<string, string> = {
  json: 'application/json',
  yml: 'text/plain',
  yaml: 'text/plain',
  md: 'text/plain',
  txt: 'text/plain',
  ps1: 'text/plain',
  xml: 'application/xml',
  png: 'image/png',
  zip: 'application/zip',
};

function contentMetadata(entry: TreeEntry) {
  const fileName = entry.path.split('/').pop() || '/';
  if (entry.type === 'tree') return { fileName };
  const dot = fileName.lastIndexOf('.');
  const extension = dot > 0 ? fileName.slice(dot + 1) : undefined;
  return {
    encoding: 65001,
    contentType:
      (extension && MIME_BY_EXTENSION[extension.toLowerCase()]) ?? 'application/octet-stream',
    fileName,
    ...(extension ? { extension } : {}),
  };
}

export function itemJson(
  repoUrl: string,
  entry: TreeEntry,
  commit: string,
  options: { includeContentMetadata?: boolean; content?: string } = {},
) {
  const itemPath = `/${entry.path}`;
  return {
    objectId: entry.objectId,
    gitObjectType: entry.type,
    commitId: commit,
    path: itemPath,
    ...(entry.type === 'tree' ? { isFolder: true } : {}),
    ...(options.includeContentMetadata ? { contentMetadata: contentMetadata(entry) } : {}),
    ...(options.content !== undefined ? { content: options.content } : {}),
    url: `${repoUrl}/items${encodeURI(itemPath)}?versionType=Commit&version=${commit}&versionOptions=None`,
  };
}

function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

type Format = 'json' | 'zip' | 'text' | 'octetStream';

function representation(request: FastifyRequest, query: Query): Format {
  const format = queryParam(query, '$format')?.toLowerCase();
  if (format === 'zip') return 'zip';
  if (format === 'text') return 'text';
  if (format === 'octetstream') return 'octetStream';
  if (format === 'json') return 'json';
  const accept = (request.headers.accept ?? '').toLowerCase();
  if (accept.includes('application/zip')) return 'zip';
  if (accept.includes('application/octet-stream')) return 'octetStream';
  if (accept.includes('text/plain')) return 'text';
  return 'json';
}

function attachment(reply: FastifyReply, download: boolean, fileName: string): void {
  if (download) {
    reply.header('Content-Disposition', `attachment; filename="${fileName.replace(/"/g, '')}"`);
  }
}

export function registerGitRepositoryRoutes(app: FastifyInstance, state: DevOpsState): void {
  const base = '/:org/:project/_apis/git/repositories';

  app.get<{ Params: { project: string } }>(
    '/:org/:project/_apis/git/repositories',
    async (request) => {
      const project = requireProject(state, request.params.project);
      const repos = state.data.repositories.filter((r) => r.projectId === project.id);
      const value = await Promise.all(
        repos.map(async (repo) => {
          const git = state.git(repo.id);
          const main = await git.revParse('refs/heads/main');
          return repositoryJson(request, state, project, repo, {
            ...(main ? { defaultBranch: 'refs/heads/main' } : {}),
            size: await git.sizeInBytes(),
          });
        }),
      );
      return wrap(value);
    },
  );

  app.get<{ Params: RepoParams }>(`${base}/:repositoryId`, async (request) => {
    const { project, repo, git } = repoContext(request, state);
    const main = await git.revParse('refs/heads/main');
    return {
      ...repositoryJson(request, state, project, repo, {
        ...(main ? { defaultBranch: 'refs/heads/main' } : {}),
        size: await git.sizeInBytes(),
      }),
      _links: {
        self: { href: repositoryUrl(request, state, project, repo) },
        project: { href: projectReference(request, state, project).url },
      },
    };
  });

  const items = async (
    request: FastifyRequest<{ Params: RepoParams & { '*'?: string } }>,
    reply: FastifyReply,
  ) => {
    const { git, url, repo } = repoContext(request, state);
    const query = request.query as Query;
    const pathParam = queryParam(query, 'path') ?? request.params['*'];
    const scopePath = queryParam(query, 'scopePath');
    const itemPath = normalisePath(pathParam ?? scopePath ?? '/');
    const recursion =
      enumParam(queryParam(query, 'recursionLevel'), RECURSION_LEVELS, 'recursionLevel') ?? 'none';
    const includeContentMetadata = boolParam(query, 'includeContentMetadata');
    const download = boolParam(query, 'download');
    const version = await resolveVersion(git, query);
    const entry = await git.entryAt(version.commit, itemPath);
    if (!entry) {
      throw new DevOpsError(
        404,
        'GitItemNotFoundException',
        `TF401174: The item '/${itemPath}' could not be found in the repository '${repo.name}' at the version specified by '${version.describe}' (resolved to commit '${version.commit}').`,
      );
    }
    const format = representation(request, query);
    const name = itemPath.split('/').pop() || repo.name;

    if (format === 'zip') {
      attachment(reply, true, `${name}.zip`);
      reply.type('application/zip');
      if (entry.type === 'tree') return reply.send(git.archiveZip(version.commit, itemPath));
      const bytes = await git.readBlob(version.commit, itemPath);
      return reply.send(Buffer.from(zipSync({ [name]: new Uint8Array(bytes) })));
    }
    if (format === 'octetStream' || format === 'text') {
      if (entry.type !== 'blob') {
        throw new DevOpsError(
          400,
          'InvalidArgumentValueException',
          `The item '/${itemPath}' is a folder; ask for $format=zip or json.`,
        );
      }
      const bytes = await git.readBlob(version.commit, itemPath);
      attachment(reply, download, name);
      reply.type(format === 'text' ? 'text/plain; charset=utf-8' : 'application/octet-stream');
      return reply.send(bytes);
    }

    const listRequested = scopePath !== undefined || recursion !== 'none';
    if (!listRequested) {
      let content: string | undefined;
      if (boolParam(query, 'includeContent') && entry.type === 'blob') {
        const bytes = await git.readBlob(version.commit, itemPath);
        content = isBinary(bytes) ? bytes.toString('base64') : bytes.toString('utf8');
      }
      attachment(reply, download, `${name}.json`);
      return itemJson(url, entry, version.commit, {
        includeContentMetadata: includeContentMetadata || entry.type === 'tree',
        ...(content !== undefined ? { content } : {}),
      });
    }

    const entries: TreeEntry[] = [entry];
    if (entry.type === 'tree' && recursion !== 'none') {
      entries.push(...(await git.listTree(version.commit, itemPath, recursion === 'full')));
    }
    return wrap(
      entries.map((e) =>
        itemJson(url, e, version.commit, {
          includeContentMetadata: includeContentMetadata || (e === entry && e.type === 'tree'),
        }),
      ),
    );
  };
  app.get(`${base}/:repositoryId/items`, items);
  app.get(`${base}/:repositoryId/items/*`, items);

  app.get<{ Params: RepoParams }>(`${base}/:repositoryId/refs`, async (request, reply) => {
    const { git, url } = repoContext(request, state);
    const query = request.query as Query;
    const filter = queryParam(query, 'filter');
    const contains = queryParam(query, 'filterContains');
    const peelTags = boolParam(query, 'peelTags');
    const refs = (await git.listRefs()).filter(
      (r) =>
        !r.name.startsWith('refs/aegis-import/') &&
        (!filter || r.name.slice('refs/'.length).startsWith(filter.replace(/^refs\//, ''))) &&
        (!contains || r.name.toLowerCase().includes(contains.toLowerCase())),
    );
    const top = intParam(query, '$top');
    const token = queryParam(query, 'continuationToken');
    const page = pageByContinuation(
      reply,
      refs,
      top ?? (token ? 100 : undefined),
      token,
      state.defaultPageSize,
    );
    return wrap(
      page.map((r) => ({
        name: r.name,
        objectId: r.objectId,
        ...(peelTags && r.peeledObjectId ? { peeledObjectId: r.peeledObjectId } : {}),
        creator: identityRef(request, state, {
          id: '00000000-0000-0000-0000-000000000000',
          displayName: r.creatorName,
          uniqueName: r.creatorEmail,
        }),
        url: `${url}/refs?filter=${encodeURIComponent(r.name.slice('refs/'.length))}`,
      })),
    );
  });

  app.post<{ Params: RepoParams; Body: unknown }>(`${base}/:repositoryId/refs`, async (request) => {
    const { git, repo } = repoContext(request, state);
    const updates = request.body;
    if (!Array.isArray(updates)) {
      throw new DevOpsError(
        400,
        'InvalidArgumentValueException',
        'The body must be an array of ref updates.',
      );
    }
    const who = callerIdentity(request);
    const mayBypass = hasGitPermission(state, repo.id, who.id, GIT_PERMISSION.PolicyExempt);
    const results = [];
    for (const raw of updates as { name?: string; oldObjectId?: string; newObjectId?: string }[]) {
      const name = raw.name ?? '';
      const oldObjectId = (raw.oldObjectId ?? ZERO_OBJECT_ID).toLowerCase();
      const newObjectId = (raw.newObjectId ?? ZERO_OBJECT_ID).toLowerCase();
      let updateStatus = 'succeeded';
      if (
        !/^refs\/(heads|tags)\/[^\s~^:?*[\\]+$/.test(name) ||
        name.endsWith('/') ||
        name.includes('..')
      ) {
        updateStatus = 'invalidRefName';
      } else if (
        newObjectId !== ZERO_OBJECT_ID &&
        !(await git.revParse(`${newObjectId}^{object}`))
      ) {
        updateStatus = 'invalidRefName';
      } else if (blockingPoliciesOf(state, repo.id, name).length > 0 && !mayBypass) {
        // The refs API reports a branch policy refusal per ref, as it does a stale id.
        updateStatus = 'rejectedByPolicy';
      } else if (!(await git.updateRef(name, newObjectId, oldObjectId))) {
        updateStatus = 'staleOldObjectId';
      } else if (name.startsWith('refs/heads/') && newObjectId !== ZERO_OBJECT_ID) {
        recordPush(state, repo.id, name, who);
      }
      results.push({
        repositoryId: repo.id,
        name,
        oldObjectId,
        newObjectId,
        isLocked: false,
        updateStatus,
        success: updateStatus === 'succeeded',
      });
    }
    state.save();
    return wrap(results);
  });

  const annotatedTagJson = async (
    git: GitRepo,
    url: string,
    objectId: string,
  ): Promise<Record<string, unknown> | undefined> => {
    const tag = await git.catTag(objectId);
    if (!tag) return undefined;
    return {
      name: tag.tag,
      objectId,
      taggedObject: { objectId: tag.object, objectType: tag.type },
      taggedBy: {
        name: tag.tagger.name,
        email: tag.tagger.email,
        date: tag.tagger.date.toISOString(),
      },
      message: tag.message,
      url: `${url}/annotatedTags/${objectId}`,
    };
  };

  app.post<{
    Params: RepoParams;
    Body: { name?: string; message?: string; taggedObject?: { objectId?: string } };
  }>(`${base}/:repositoryId/annotatedtags`, async (request, reply) => {
    const { git, url } = repoContext(request, state);
    const body = request.body ?? {};
    const name = (body.name ?? '').replace(/^refs\/tags\//, '');
    const target = body.taggedObject?.objectId ?? '';
    if (!name || !/^[^\s~^:?*[\\]+$/.test(name) || name.includes('..')) {
      throw new DevOpsError(
        400,
        'InvalidArgumentValueException',
        `The tag name '${name}' is not valid.`,
      );
    }
    const commit = await git.revParse(`${target}^{commit}`);
    if (!commit) {
      throw new DevOpsError(
        404,
        'GitObjectNotFoundException',
        `TF401181: The object '${target}' does not exist.`,
      );
    }
    if (await git.revParse(`refs/tags/${name}`)) {
      throw new DevOpsError(
        409,
        'GitRefNameAlreadyExistsException',
        `TF401289: The ref name 'refs/tags/${name}' already exists.`,
      );
    }
    const who = callerIdentity(request);
    const objectId = await git.createAnnotatedTag(name, commit, body.message ?? '', {
      name: who.displayName,
      email: who.uniqueName,
      date: new Date(),
    });
    const json = await annotatedTagJson(git, url, objectId);
    return reply.code(201).send({ ...json, name: `refs/tags/${name}` });
  });

  app.get<{ Params: RepoParams & { objectId: string } }>(
    `${base}/:repositoryId/annotatedtags/:objectId`,
    async (request) => {
      const { git, url } = repoContext(request, state);
      const json = await annotatedTagJson(git, url, request.params.objectId);
      if (!json) {
        throw new DevOpsError(
          404,
          'GitObjectNotFoundException',
          `TF401181: The object '${request.params.objectId}' does not exist.`,
        );
      }
      return json;
    },
  );

  // Blobs - Get Blobs Zip: many blobs by object id in one request, a zip whose entries are the ids.
  app.post<{ Params: RepoParams; Body: unknown }>(
    `${base}/:repositoryId/blobs`,
    async (request, reply) => {
      const { git } = repoContext(request, state);
      const ids = request.body;
      if (
        !Array.isArray(ids) ||
        ids.some((id) => typeof id !== 'string' || !/^[0-9a-f]{40}$/i.test(id))
      ) {
        throw new DevOpsError(
          400,
          'InvalidArgumentValueException',
          'The request body must be a list of blob object ids.',
        );
      }
      const blobs = await git.readBlobs(ids as string[]);
      const missing = (ids as string[]).find((id) => !blobs.has(id));
      if (missing) {
        throw new DevOpsError(
          404,
          'GitObjectNotFoundException',
          `TF401181: The object '${missing}' does not exist.`,
        );
      }
      const name = (request.query as Query)['filename'];
      attachment(reply, true, typeof name === 'string' && name ? name : 'blobs.zip');
      reply.type('application/zip');
      const entries: Record<string, Uint8Array> = {};
      for (const [id, bytes] of blobs) entries[id] = new Uint8Array(bytes);
      return reply.send(Buffer.from(zipSync(entries)));
    },
  );

  // Commits - Get Commits: the history of a branch, tag or commit (default: the default branch),
  // optionally of one path; `searchCriteria.$top` defaults to 100 as on the real service.
  app.get<{ Params: RepoParams }>(`${base}/:repositoryId/commits`, async (request) => {
    const { git, url } = repoContext(request, state);
    const query = request.query as Query;
    const criteria = (name: string) =>
      queryParam(query, `searchCriteria.${name}`) ?? queryParam(query, name);
    const version = criteria('itemVersion.version') ?? 'main';
    const versionType =
      enumParam(criteria('itemVersion.versionType'), VERSION_TYPES, 'versionType') ?? 'branch';
    const start = await git.resolveCommit(version, versionType);
    if (!start) {
      const label = versionType.charAt(0).toUpperCase() + versionType.slice(1);
      throw new DevOpsError(
        404,
        'GitUnresolvableToCommitException',
        `TF401175: The version descriptor <${label}: ${version} > could not be resolved to a version commit.`,
      );
    }
    const top = intParam(query, 'searchCriteria.$top') ?? intParam(query, '$top') ?? 100;
    const skip = intParam(query, 'searchCriteria.$skip') ?? intParam(query, '$skip') ?? 0;
    const itemPath = criteria('itemPath');
    const historyMode = enumParam(criteria('historyMode'), HISTORY_MODES, 'historyMode');
    const commits = await git.logInfo(start, {
      skip,
      max: top,
      ...(itemPath ? { path: normalisePath(itemPath) } : {}),
      ...(historyMode ? { historyMode } : {}),
    });
    return wrap(
      commits.map((info) => {
        const { treeId: _tree, ...json } = commitJson(url, info.sha, info);
        return json;
      }),
    );
  });

  app.get<{ Params: RepoParams & { commitId: string } }>(
    `${base}/:repositoryId/commits/:commitId`,
    async (request) => {
      const { git, url } = repoContext(request, state);
      const sha = await git.resolveCommit(request.params.commitId, 'commit');
      if (!sha) {
        throw new DevOpsError(
          404,
          'GitObjectNotFoundException',
          `TF401181: The object '${request.params.commitId}' does not exist.`,
        );
      }
      return commitJson(url, sha, await git.commitInfo(sha));
    },
  );

  app.get<{ Params: RepoParams }>(`${base}/:repositoryId/diffs/commits`, async (request) => {
    const { git, url } = repoContext(request, state);
    const query = request.query as Query;
    const resolveSide = async (side: 'base' | 'target') => {
      const version = queryParam(query, `${side}Version`) ?? 'main';
      const type =
        enumParam(queryParam(query, `${side}VersionType`), VERSION_TYPES, `${side}VersionType`) ??
        'branch';
      const sha = await git.resolveCommit(version, type);
      if (!sha) {
        const label = type.charAt(0).toUpperCase() + type.slice(1);
        throw new DevOpsError(
          404,
          'GitUnresolvableToCommitException',
          `TF401175: The version descriptor <${label}: ${version} > could not be resolved to a version commit.`,
        );
      }
      return sha;
    };
    // The versions are read as given: a request naming neither side compares the default branch
    // with itself, an empty diff, as the real service answers it (ADR 012).
    const baseCommit = await resolveSide('base');
    const targetCommit = await resolveSide('target');
    const commonCommit = (await git.mergeBase(baseCommit, targetCommit)) ?? baseCommit;
    const diffCommon = (queryParam(query, 'diffCommonCommit') ?? 'true').toLowerCase() !== 'false';
    const changes = await git.diff(diffCommon ? commonCommit : baseCommit, targetCommit);
    const { ahead, behind } = await git.aheadBehind(baseCommit, targetCommit);
    const top = intParam(query, '$top') ?? 100;
    const skip = intParam(query, '$skip') ?? 0;
    const page = changes.slice(skip, skip + top);
    const changeCounts: Record<string, number> = {};
    for (const change of changes) {
      if (change.type !== 'blob') continue;
      const key = change.changeType.charAt(0).toUpperCase() + change.changeType.slice(1);
      changeCounts[key] = (changeCounts[key] ?? 0) + 1;
    }
    return {
      allChangesIncluded: skip + top >= changes.length,
      changeCounts,
      changes: page.map((c) => ({
        item: {
          objectId: c.changeType === 'delete' ? c.originalObjectId : c.objectId,
          originalObjectId: c.originalObjectId === ZERO_OBJECT_ID ? undefined : c.originalObjectId,
          gitObjectType: c.type,
          commitId: targetCommit,
          path: `/${c.path}`,
          ...(c.type === 'tree' ? { isFolder: true } : {}),
          url: `${url}/items${encodeURI(`/${c.path}`)}?versionType=Commit&version=${targetCommit}`,
        },
        changeType: c.changeType,
      })),
      commonCommit,
      baseCommit,
      targetCommit,
      aheadCount: ahead,
      behindCount: behind,
    };
  });
}

export function commitJson(repoUrl: string, sha: string, info: CommitInfo) {
  const person = (p: { name: string; email: string; date: Date }) => ({
    name: p.name,
    email: p.email,
    date: p.date.toISOString(),
  });
  return {
    treeId: info.treeId,
    commitId: sha,
    author: person(info.author),
    committer: person(info.committer),
    comment: info.comment,
    parents: info.parents,
    url: `${repoUrl}/commits/${sha}`,
  };
}
