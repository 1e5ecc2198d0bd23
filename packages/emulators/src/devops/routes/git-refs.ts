// Refs - List / Update Refs: branches and tags, created, moved and deleted under branch policies.
import { ZERO_OBJECT_ID } from '@aegis/connectors/devops';
import type { FastifyInstance } from 'fastify';

import {
  blockingPoliciesOf,
  GIT_PERMISSION,
  hasGitPermission,
  recordPush,
} from '../branch-policies';
import type { DevOpsState } from '../state';

import {
  DevOpsError,
  boolParam,
  callerIdentity,
  identityRef,
  intParam,
  pageByContinuation,
  queryParam,
  wrap,
  type Query,
} from './common';
import { REPOSITORIES_PATH, repoContext, type RepoParams } from './git-repository-context';

export function registerGitRefRoutes(app: FastifyInstance, state: DevOpsState): void {
  const base = REPOSITORIES_PATH;

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
    const { git, repo, project } = repoContext(request, state);
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
        state.refUpdated({
          project,
          repository: repo,
          refName: name,
          oldObjectId,
          newObjectId,
          pushedBy: who,
          pushId: state.data.nextPushId++,
          date: new Date().toISOString(),
          commits: [],
        });
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
}
