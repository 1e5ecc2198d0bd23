// Commits - Get Commits / Get, and Diffs - Get (commit diffs).
import { ZERO_OBJECT_ID } from '@aegis/connectors/devops';
import type { FastifyInstance } from 'fastify';

import type { DevOpsState } from '../state';

import {
  DevOpsError,
  HISTORY_MODES,
  VERSION_TYPES,
  enumParam,
  intParam,
  normalisePath,
  queryParam,
  wrap,
  type Query,
} from './common';
import {
  REPOSITORIES_PATH,
  repoContext,
  commitJson,
  type RepoParams,
} from './git-repository-context';

export function registerGitCommitRoutes(app: FastifyInstance, state: DevOpsState): void {
  const base = REPOSITORIES_PATH;

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
