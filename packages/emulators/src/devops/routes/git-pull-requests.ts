// Pull requests (reference §5.10–5.12): create, list by searchCriteria, get, and PATCH to complete
// (a real merge commit on the target) or abandon.
import { ZERO_OBJECT_ID } from '@aegis/connectors/devops';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { assertMayComplete } from '../branch-policies';
import type { DevOpsState, ProjectRecord, PullRequestRecord, RepositoryRecord } from '../state';

import {
  DevOpsError,
  PULL_REQUEST_STATUSES,
  callerIdentity,
  enumParam,
  identityRef,
  intParam,
  queryParam,
  repositoryUrl,
  requireProject,
  wrap,
  type Query,
} from './common';
import { repoContext, repositoryJson, type RepoParams } from './git-repository-context';

interface CreateBody {
  sourceRefName?: string;
  targetRefName?: string;
  title?: string;
  description?: string;
  isDraft?: boolean;
  labels?: { name?: string }[];
  reviewers?: { id?: string; isRequired?: boolean }[];
  completionOptions?: CompletionOptionsBody;
}

interface CompletionOptionsBody {
  deleteSourceBranch?: boolean;
  mergeCommitMessage?: string;
  bypassPolicy?: boolean;
  bypassReason?: string;
}

interface PatchBody {
  status?: string | number;
  title?: string;
  description?: string;
  completionOptions?: CompletionOptionsBody;
}

function completionOptionsOf(body: {
  completionOptions?: CompletionOptionsBody;
}): PullRequestRecord['completionOptions'] {
  const o = body.completionOptions;
  if (!o || typeof o !== 'object') return undefined;
  return {
    ...(o.deleteSourceBranch === true ? { deleteSourceBranch: true } : {}),
    ...(typeof o.mergeCommitMessage === 'string'
      ? { mergeCommitMessage: o.mergeCommitMessage }
      : {}),
    ...(o.bypassPolicy === true ? { bypassPolicy: true } : {}),
    ...(typeof o.bypassReason === 'string' ? { bypassReason: o.bypassReason } : {}),
  };
}

export function registerGitPullRequestRoutes(app: FastifyInstance, state: DevOpsState): void {
  const base = '/:org/:project/_apis/git/repositories/:repositoryId/pullrequests';

  const prJson = (
    request: FastifyRequest,
    project: ProjectRecord,
    repo: RepositoryRecord,
    pr: PullRequestRecord,
    truncate: boolean,
  ) => {
    const repoUrl = repositoryUrl(request, state, project, repo);
    const url = `${repoUrl}/pullRequests/${pr.pullRequestId}`;
    return {
      repository: repositoryJson(request, state, project, repo, {
        defaultBranch: 'refs/heads/main',
        size: 0,
      }),
      pullRequestId: pr.pullRequestId,
      codeReviewId: pr.pullRequestId,
      status: pr.status,
      createdBy: identityRef(request, state, pr.createdBy),
      creationDate: pr.creationDate,
      ...(pr.closedDate ? { closedDate: pr.closedDate } : {}),
      ...(pr.closedBy ? { closedBy: identityRef(request, state, pr.closedBy) } : {}),
      ...(pr.completionOptions ? { completionOptions: pr.completionOptions } : {}),
      title: pr.title,
      description: truncate ? pr.description.slice(0, 400) : pr.description,
      sourceRefName: pr.sourceRefName,
      targetRefName: pr.targetRefName,
      mergeStatus: 'succeeded',
      isDraft: pr.isDraft,
      mergeId: `${pr.pullRequestId}`.padStart(8, '0') + '-0000-4000-8000-000000000000',
      lastMergeSourceCommit: {
        commitId: pr.lastMergeSourceCommit,
        url: `${repoUrl}/commits/${pr.lastMergeSourceCommit}`,
      },
      lastMergeTargetCommit: {
        commitId: pr.lastMergeTargetCommit,
        url: `${repoUrl}/commits/${pr.lastMergeTargetCommit}`,
      },
      ...(pr.lastMergeCommit
        ? {
            lastMergeCommit: {
              commitId: pr.lastMergeCommit,
              url: `${repoUrl}/commits/${pr.lastMergeCommit}`,
            },
          }
        : {}),
      reviewers: pr.reviewers.map((r) => ({
        id: r.id,
        displayName: r.displayName ?? r.id,
        uniqueName: r.uniqueName ?? r.id,
        vote: r.vote ?? 0,
        isRequired: r.isRequired,
        reviewerUrl: `${repoUrl}/pullRequests/${pr.pullRequestId}/reviewers/${r.id}`,
      })),
      labels: pr.labels.map((name) => ({ id: name, name, active: true })),
      url,
      supportsIterations: true,
      artifactId: `vstfs:///Git/PullRequestId/${project.id}%2f${repo.id}%2f${pr.pullRequestId}`,
      _links: {
        self: { href: url },
        repository: { href: repoUrl },
        workItems: { href: `${url}/workitems` },
        sourceBranch: { href: `${repoUrl}/refs/${pr.sourceRefName.slice('refs/'.length)}` },
        targetBranch: { href: `${repoUrl}/refs/${pr.targetRefName.slice('refs/'.length)}` },
        sourceCommit: { href: `${repoUrl}/commits/${pr.lastMergeSourceCommit}` },
        targetCommit: { href: `${repoUrl}/commits/${pr.lastMergeTargetCommit}` },
        createdBy: { href: identityRef(request, state, pr.createdBy).url },
        iterations: { href: `${url}/iterations` },
      },
    };
  };

  const notFound = (id: string | number) =>
    new DevOpsError(
      404,
      'GitPullRequestNotFoundException',
      `TF401180: The requested pull request ${id} was not found.`,
    );

  app.post<{ Params: RepoParams; Body: CreateBody | undefined }>(base, async (request, reply) => {
    const { git, repo, project } = repoContext(request, state);
    const body = request.body ?? {};
    const source = body.sourceRefName ?? '';
    const target = body.targetRefName ?? '';
    if (!body.title?.trim()) {
      throw new DevOpsError(
        400,
        'InvalidArgumentValueException',
        'The pull request title must not be empty.',
      );
    }
    const sourceCommit = source.startsWith('refs/heads/') ? await git.revParse(source) : undefined;
    const targetCommit = target.startsWith('refs/heads/') ? await git.revParse(target) : undefined;
    if (!sourceCommit || !targetCommit) {
      throw new DevOpsError(
        400,
        'GitPullRequestCannotBeActivated',
        'TF401398: The pull request cannot be activated because the source and/or the target branch no longer exists, or the requested refs are not branches',
      );
    }
    if (source === target) {
      throw new DevOpsError(
        400,
        'InvalidArgumentValueException',
        'The source and target branches of a pull request must be different.',
      );
    }
    const duplicate = state.data.pullRequests.find(
      (p) =>
        p.repositoryId === repo.id &&
        p.status === 'active' &&
        p.sourceRefName === source &&
        p.targetRefName === target,
    );
    if (duplicate) {
      throw new DevOpsError(
        409,
        'GitPullRequestExistsException',
        `TF401179: An active pull request for the source and target branch already exists.`,
      );
    }
    const pr: PullRequestRecord = {
      pullRequestId: state.data.nextPullRequestId++,
      repositoryId: repo.id,
      status: 'active',
      title: body.title,
      description: body.description ?? '',
      sourceRefName: source,
      targetRefName: target,
      createdBy: callerIdentity(request),
      creationDate: new Date().toISOString(),
      isDraft: body.isDraft === true,
      labels: (body.labels ?? []).map((l) => l.name ?? '').filter(Boolean),
      reviewers: (body.reviewers ?? [])
        .filter((r) => r.id)
        .map((r) => ({ id: r.id ?? '', isRequired: r.isRequired === true })),
      lastMergeSourceCommit: sourceCommit,
      lastMergeTargetCommit: targetCommit,
    };
    const completionOptions = completionOptionsOf(body);
    if (completionOptions) pr.completionOptions = completionOptions;
    state.data.pullRequests.push(pr);
    state.save();
    return reply.code(201).send(prJson(request, project, repo, pr, false));
  });

  const list = (
    request: FastifyRequest,
    project: ProjectRecord,
    repo: RepositoryRecord | undefined,
  ) => {
    const query = request.query as Query;
    const status =
      enumParam(queryParam(query, 'searchCriteria.status'), PULL_REQUEST_STATUSES, 'status') ??
      'active';
    const targetRefName = queryParam(query, 'searchCriteria.targetRefName');
    const sourceRefName = queryParam(query, 'searchCriteria.sourceRefName');
    const creatorId = queryParam(query, 'searchCriteria.creatorId');
    const top = intParam(query, '$top') ?? 101;
    const skip = intParam(query, '$skip') ?? 0;
    const repoIds = new Set(
      state.data.repositories.filter((r) => r.projectId === project.id).map((r) => r.id),
    );
    const matching = state.data.pullRequests
      .filter((p) => (repo ? p.repositoryId === repo.id : repoIds.has(p.repositoryId)))
      .filter((p) => status === 'all' || status === 'notSet' || p.status === status)
      .filter((p) => !targetRefName || p.targetRefName === targetRefName)
      .filter((p) => !sourceRefName || p.sourceRefName === sourceRefName)
      .filter((p) => !creatorId || p.createdBy.id === creatorId)
      .sort((a, b) => b.pullRequestId - a.pullRequestId)
      .slice(skip, skip + top);
    return wrap(
      matching.map((p) =>
        prJson(
          request,
          project,
          state.data.repositories.find((r) => r.id === p.repositoryId) ??
            (repo as RepositoryRecord),
          p,
          true,
        ),
      ),
    );
  };

  app.get<{ Params: RepoParams }>(base, (request) => {
    const { project, repo } = repoContext(request, state);
    return list(request, project, repo);
  });
  app.get<{ Params: { project: string } }>('/:org/:project/_apis/git/pullrequests', (request) =>
    list(request, requireProject(state, request.params.project), undefined),
  );

  const byId = (project: ProjectRecord, id: string, repo?: RepositoryRecord) => {
    const pr = state.data.pullRequests.find(
      (p) => p.pullRequestId === Number(id) && (!repo || p.repositoryId === repo.id),
    );
    const prRepo = pr && state.data.repositories.find((r) => r.id === pr.repositoryId);
    if (!pr || !prRepo || prRepo.projectId !== project.id) throw notFound(id);
    return { pr, repo: prRepo };
  };

  app.get<{ Params: RepoParams & { pullRequestId: string } }>(
    `${base}/:pullRequestId`,
    (request) => {
      const { project, repo } = repoContext(request, state);
      const found = byId(project, request.params.pullRequestId, repo);
      return prJson(request, project, found.repo, found.pr, false);
    },
  );
  app.get<{ Params: { project: string; pullRequestId: string } }>(
    '/:org/:project/_apis/git/pullrequests/:pullRequestId',
    (request) => {
      const project = requireProject(state, request.params.project);
      const found = byId(project, request.params.pullRequestId);
      return prJson(request, project, found.repo, found.pr, false);
    },
  );

  // Create or update a reviewer's vote (reference §5.10: 10 approved … -10 rejected).
  app.put<{
    Params: RepoParams & { pullRequestId: string; reviewerId: string };
    Body: { vote?: number; isRequired?: boolean } | undefined;
  }>(`${base}/:pullRequestId/reviewers/:reviewerId`, (request) => {
    const { project, repo } = repoContext(request, state);
    const { pr } = byId(project, request.params.pullRequestId, repo);
    const vote = Number(request.body?.vote ?? 0);
    if (![-10, -5, 0, 5, 10].includes(vote)) {
      throw new DevOpsError(400, 'InvalidArgumentValueException', `Invalid vote ${vote}.`);
    }
    const who = callerIdentity(request);
    const reviewerId = request.params.reviewerId === 'me' ? who.id : request.params.reviewerId;
    const existing = pr.reviewers.find((r) => r.id === reviewerId);
    const isSelf = reviewerId === who.id;
    const reviewer = existing ?? { id: reviewerId, isRequired: request.body?.isRequired === true };
    reviewer.vote = vote;
    if (isSelf) {
      reviewer.displayName = who.displayName;
      reviewer.uniqueName = who.uniqueName;
    }
    if (!existing) pr.reviewers.push(reviewer);
    state.save();
    const repoUrl = repositoryUrl(request, state, project, repo);
    return {
      id: reviewer.id,
      displayName: reviewer.displayName ?? reviewer.id,
      uniqueName: reviewer.uniqueName ?? reviewer.id,
      vote: reviewer.vote,
      isRequired: reviewer.isRequired,
      reviewerUrl: `${repoUrl}/pullRequests/${pr.pullRequestId}/reviewers/${reviewer.id}`,
    };
  });

  app.patch<{ Params: RepoParams & { pullRequestId: string }; Body: PatchBody | undefined }>(
    `${base}/:pullRequestId`,
    async (request) => {
      const { project, repo, git } = repoContext(request, state);
      const { pr } = byId(project, request.params.pullRequestId, repo);
      const body = request.body ?? {};
      const status = enumParam(body.status, PULL_REQUEST_STATUSES, 'status');
      if (status === 'completed' && pr.status === 'active') {
        // checked before anything of the request is applied, so a refusal changes nothing
        const completionOptions = { ...pr.completionOptions, ...completionOptionsOf(body) };
        assertMayComplete(state, { ...pr, completionOptions }, callerIdentity(request));
      }
      if (body.title !== undefined) pr.title = body.title;
      if (body.description !== undefined) pr.description = body.description;
      const completionOptions = completionOptionsOf(body);
      if (completionOptions)
        pr.completionOptions = { ...pr.completionOptions, ...completionOptions };
      if (status && status !== pr.status) {
        if (pr.status !== 'active') {
          throw new DevOpsError(
            409,
            'InvalidPullRequestStatusChangeException',
            `TF401181: The pull request ${pr.pullRequestId} is ${pr.status} and cannot be changed.`,
          );
        }
        if (status === 'completed') {
          pr.lastMergeCommit = await mergeInto(git, pr, callerIdentity(request));
          pr.status = 'completed';
          pr.closedDate = new Date().toISOString();
          pr.closedBy = callerIdentity(request);
          if (pr.completionOptions?.deleteSourceBranch) {
            const source = await git.revParse(pr.sourceRefName);
            if (source) await git.updateRef(pr.sourceRefName, ZERO_OBJECT_ID, source);
          }
        } else if (status === 'abandoned') {
          pr.status = 'abandoned';
          pr.closedDate = new Date().toISOString();
          pr.closedBy = callerIdentity(request);
        } else if (status === 'active') {
          pr.status = 'active';
        }
      }
      state.save();
      if (status === 'completed' && pr.lastMergeCommit && pr.lastMergeTargetCommit) {
        state.refUpdated({
          project,
          repository: repo,
          refName: pr.targetRefName,
          oldObjectId: pr.lastMergeTargetCommit,
          newObjectId: pr.lastMergeCommit,
          pushedBy: callerIdentity(request),
          pushId: state.data.nextPushId++,
          date: pr.closedDate ?? new Date().toISOString(),
          commits: [
            { commitId: pr.lastMergeCommit, comment: `Merged PR ${pr.pullRequestId}: ${pr.title}` },
          ],
        });
      }
      return prJson(request, project, repo, pr, false);
    },
  );
}

async function mergeInto(
  git: ReturnType<DevOpsState['git']>,
  pr: PullRequestRecord,
  who: { displayName: string; uniqueName: string },
): Promise<string> {
  const source = await git.revParse(pr.sourceRefName);
  const target = await git.revParse(pr.targetRefName);
  if (!source || !target) {
    throw new DevOpsError(
      400,
      'GitPullRequestCannotBeActivated',
      'TF401398: The pull request cannot be activated because the source and/or the target branch no longer exists, or the requested refs are not branches',
    );
  }
  let tree: string;
  try {
    tree =
      (await git.run(['merge-tree', '--write-tree', target, source]))
        .toString('utf8')
        .split('\n')[0] ?? '';
  } catch {
    throw new DevOpsError(
      409,
      'GitPullRequestMergeConflictException',
      `TF401192: The pull request ${pr.pullRequestId} has merge conflicts and cannot be completed.`,
    );
  }
  const date = `${Math.floor(Date.now() / 1000)} +0000`;
  const merge = (
    await git.run(
      [
        'commit-tree',
        tree,
        '-p',
        target,
        '-p',
        source,
        '-m',
        `Merged PR ${pr.pullRequestId}: ${pr.title}`,
      ],
      {
        env: {
          GIT_AUTHOR_NAME: who.displayName,
          GIT_AUTHOR_EMAIL: who.uniqueName,
          GIT_AUTHOR_DATE: date,
          GIT_COMMITTER_NAME: who.displayName,
          GIT_COMMITTER_EMAIL: who.uniqueName,
          GIT_COMMITTER_DATE: date,
        },
      },
    )
  )
    .toString('utf8')
    .trim();
  if (!(await git.updateRef(pr.targetRefName, merge, target))) {
    throw new DevOpsError(
      409,
      'GitReferenceStaleException',
      `TF401028: The reference '${pr.targetRefName}' has already been updated by another client, so you cannot update it. Please try again.`,
    );
  }
  pr.lastMergeSourceCommit = source;
  pr.lastMergeTargetCommit = target;
  return merge;
}
