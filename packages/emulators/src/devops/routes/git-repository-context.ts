// What the Git resources share: the repository a request names, and the JSON of a repository
// and of a commit.
import type { FastifyRequest } from 'fastify';

import type { CommitInfo, GitRepo } from '../git';
import type { DevOpsState, ProjectRecord, RepositoryRecord } from '../state';

import { projectReference, repositoryUrl, requireProject, requireRepository } from './common';

export const REPOSITORIES_PATH = '/:org/:project/_apis/git/repositories';

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
