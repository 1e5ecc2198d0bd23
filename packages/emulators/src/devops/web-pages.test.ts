// A pull request's webUrl, opened in a browser without a token, shows the pull request on the
// emulator (the real portal signs in and shows it) instead of the API's 401 JSON (issue 27);
// the API itself still refuses a request without a token.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '../seed/seed-devops';

import type { DevOpsEmulator } from './server';

import { startDevOpsEmulator } from './index';

const PROJECT = encodeURIComponent(SAMPLE_PROJECTS.tenantManagement);
let dataDir: string;
let emulator: DevOpsEmulator;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-web-pages-'));
  emulator = await startDevOpsEmulator({ dataDir, port: 0, pipelineDurationInMs: 0 });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function seededPullRequest(): Promise<{ id: number; title: string; webUrl: string }> {
  const api = `${emulator.url}/${PROJECT}/_apis/git/repositories/${CONFIG_REPOSITORY_NAME}`;
  const headers = { authorization: 'Bearer any-token' };
  const list = (await (
    await fetch(`${api}/pullrequests?searchCriteria.status=all&api-version=7.1`, { headers })
  ).json()) as { value: { pullRequestId: number; title: string }[] };
  const repository = (await (await fetch(`${api}?api-version=7.1`, { headers })).json()) as {
    webUrl: string;
  };
  const [pr] = list.value;
  if (!pr) throw new Error('the sample data has no pull request');
  return {
    id: pr.pullRequestId,
    title: pr.title,
    webUrl: `${repository.webUrl}/pullrequest/${pr.pullRequestId}`,
  };
}

describe("a pull request's web link", () => {
  it('opens a page of the pull request without a token, saying it stands in for the portal', async () => {
    const pr = await seededPullRequest();
    const response = await fetch(pr.webUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain(`Pull request ${pr.id}: `);
    expect(html).toContain('Against real Azure DevOps this link opens the pull request');
  });

  it('answers an unknown pull request with a 404 page, and the API without a token with 401', async () => {
    const pr = await seededPullRequest();
    const unknown = await fetch(pr.webUrl.replace(/\/\d+$/, '/999999'));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Pull request 999999 not found');
    const api = await fetch(
      `${emulator.url}/${PROJECT}/_apis/git/repositories/${CONFIG_REPOSITORY_NAME}/pullrequests/${pr.id}?api-version=7.1`,
    );
    expect(api.status).toBe(401);
  });
});
