// The browser links Azure DevOps hands out (a pull request's webUrl) lead to its web portal, which
// signs the technician in and shows the pull request. The emulator has no portal, so that link
// answered its API's 401 JSON; it serves a plain, read-only page of the pull request instead and
// says that the real link opens Azure DevOps.
import type { FastifyInstance } from 'fastify';

import { escapeHtml } from '../../identity/pages';
import type { DevOpsState } from '../state';

import { requireProject, requireRepository } from './common';

/** The web portal's pull request address: /{org}/{project}/_git/{repo}/pullrequest/{id}. */
export const PULL_REQUEST_PAGE = /^\/[^/?]+\/[^/?]+\/_git\/[^/?]+\/pullrequest\/\d+\/?(?:\?.*)?$/i;

const VOTES: Readonly<Record<number, string>> = {
  10: 'Approved',
  5: 'Approved with suggestions',
  0: 'No vote',
  [-5]: 'Waiting for author',
  [-10]: 'Rejected',
};

const STYLE = `
  body { font-family: "Segoe UI", Arial, sans-serif; margin: 0; color: #1b1b1b; background: #f8f8f8; }
  main { max-width: 760px; margin: 32px auto; background: #fff; padding: 24px 32px; box-shadow: 0 1px 4px rgba(0,0,0,.2); }
  h1 { font-size: 22px; margin: 0 0 12px; }
  h2 { font-size: 16px; margin: 20px 0 8px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  pre { white-space: pre-wrap; background: #f3f3f3; padding: 8px; }
  .note { background: #fff4ce; border-left: 4px solid #8a6d00; padding: 8px 12px; }
  table { border-collapse: collapse; }
  th, td { text-align: left; padding: 4px 12px 4px 0; }
`;

const branch = (ref: string) => ref.replace(/^refs\/heads\//, '');

export function registerWebPages(app: FastifyInstance, state: DevOpsState): void {
  app.get<{ Params: { org: string; project: string; repo: string; pullRequestId: string } }>(
    '/:org/:project/_git/:repo/pullrequest/:pullRequestId',
    async (request, reply) => {
      const project = requireProject(state, request.params.project);
      const repo = requireRepository(state, project, request.params.repo);
      const pr = state.data.pullRequests.find(
        (p) =>
          p.pullRequestId === Number(request.params.pullRequestId) && p.repositoryId === repo.id,
      );
      if (!pr) {
        return reply
          .code(404)
          .type('text/html; charset=utf-8')
          .send(
            page(
              'Pull request not found',
              `<h1>Pull request ${escapeHtml(request.params.pullRequestId)} not found</h1><p>Repository ${escapeHtml(repo.name)} has no such pull request.</p>`,
            ),
          );
      }
      const reviewers = pr.reviewers.length
        ? `<table><thead><tr><th scope="col">Reviewer</th><th scope="col">Vote</th></tr></thead><tbody>${pr.reviewers
            .map(
              (r) =>
                `<tr><td>${escapeHtml(r.displayName ?? r.uniqueName ?? r.id)}</td><td>${escapeHtml(VOTES[r.vote ?? 0] ?? String(r.vote))}</td></tr>`,
            )
            .join('')}</tbody></table>`
        : '<p>No reviewers yet.</p>';
      return reply.type('text/html; charset=utf-8').send(
        page(
          `Pull request ${pr.pullRequestId}: ${pr.title}`,
          `<p class="note">This is the Azure DevOps emulator of Aegis's embedded default. Against real Azure DevOps this link opens the pull request in the Azure DevOps web portal, where it is reviewed and completed.</p>
<h1>Pull request ${pr.pullRequestId}: ${escapeHtml(pr.title)}</h1>
<dl>
<dt>Status</dt><dd>${escapeHtml(pr.status)}</dd>
<dt>Repository</dt><dd>${escapeHtml(`${project.name} / ${repo.name}`)}</dd>
<dt>Merge</dt><dd>${escapeHtml(branch(pr.sourceRefName))} into ${escapeHtml(branch(pr.targetRefName))}</dd>
<dt>Created by</dt><dd>${escapeHtml(pr.createdBy.displayName)} (${escapeHtml(pr.createdBy.uniqueName)})</dd>
<dt>Created</dt><dd>${escapeHtml(pr.creationDate)}</dd>
</dl>
<h2>Reviewers</h2>${reviewers}
<h2>Description</h2><pre>${escapeHtml(pr.description || '(none)')}</pre>`,
        ),
      );
    },
  );
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} - Azure DevOps emulator</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}
