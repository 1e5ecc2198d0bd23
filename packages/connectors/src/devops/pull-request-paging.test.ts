// Issue 9 §6: pull-request lists carry no continuation token and the service answers at most 101
// without $top, so the connector reads every page by $skip.
import { describe, expect, it } from 'vitest';

import { requestUrl } from '../testing/request-url';

import { DevOpsClient } from './devops-client';

const TOTAL = 230;

function pullRequest(id: number) {
  return {
    pullRequestId: id,
    status: 'active',
    title: `PR ${id}`,
    sourceRefName: `refs/heads/restore/ABC/${id}`,
    targetRefName: 'refs/heads/main',
    createdBy: { id: 'u', displayName: 'U', uniqueName: 'u@example.test' },
    creationDate: '2026-11-23T00:00:00Z',
    repository: { id: 'r', name: 'M365Config', webUrl: 'https://dev.example/_git/M365Config' },
    url: `https://dev.example/_apis/git/pullRequests/${id}`,
  };
}

/** The real service's paging: $top (101 when absent) and $skip, no continuation header. */
const service: typeof fetch = (input) => {
  const url = new URL(requestUrl(input));
  const top = Number(url.searchParams.get('$top') ?? 101);
  const skip = Number(url.searchParams.get('$skip') ?? 0);
  const ids = Array.from({ length: TOTAL }, (_, i) => i + 1).slice(skip, skip + Math.min(top, 101));
  const body = { count: ids.length, value: ids.map(pullRequest) };
  return Promise.resolve(
    new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    }),
  );
};

describe('listPullRequests', () => {
  const client = new DevOpsClient({
    organizationUrl: 'https://dev.example/org',
    getToken: () => Promise.resolve('token'),
    fetch: service,
  });
  const repo = { project: 'P', repository: 'M365Config' };

  it('reads every page when no top is given', async () => {
    const all = await client.listPullRequests(repo);
    expect(all).toHaveLength(TOTAL);
    expect(new Set(all.map((pr) => pr.pullRequestId)).size).toBe(TOTAL);
  });

  it('reads one page when a top is given', async () => {
    const page = await client.listPullRequests(repo, { top: 10, skip: 5 });
    expect(page.map((pr) => pr.pullRequestId)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
  });
});
