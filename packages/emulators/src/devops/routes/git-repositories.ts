// Git area: the registrar of the Git resources (one module per resource: repositories, items,
// refs, annotated tags, blobs, commits and diffs; reference §5.1–5.7, §5.9), and Repositories -
// List / Get.
import type { FastifyInstance } from 'fastify';

import type { DevOpsState } from '../state';

import { projectReference, repositoryUrl, requireProject, wrap } from './common';
import { registerGitAnnotatedTagRoutes } from './git-annotated-tags';
import { registerGitBlobRoutes } from './git-blobs';
import { registerGitCommitRoutes } from './git-commits';
import { registerGitItemRoutes } from './git-items';
import { registerGitRefRoutes } from './git-refs';
import {
  REPOSITORIES_PATH,
  repoContext,
  repositoryJson,
  type RepoParams,
} from './git-repository-context';

export function registerGitRepositoryRoutes(app: FastifyInstance, state: DevOpsState): void {
  registerRepositoryResourceRoutes(app, state);
  registerGitItemRoutes(app, state);
  registerGitRefRoutes(app, state);
  registerGitAnnotatedTagRoutes(app, state);
  registerGitBlobRoutes(app, state);
  registerGitCommitRoutes(app, state);
}

function registerRepositoryResourceRoutes(app: FastifyInstance, state: DevOpsState): void {
  const base = REPOSITORIES_PATH;

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
}
