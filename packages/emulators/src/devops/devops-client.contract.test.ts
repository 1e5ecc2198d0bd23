// Contract tests: the real DevOps connector against the emulator (random port, temp data dir).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { isServiceError, type ServiceError } from '@aegis/connectors';
import { ZERO_OBJECT_ID } from '@aegis/connectors/devops';
import { DevOpsClient, type RepositoryRef } from '@aegis/connectors/devops';
import { UnsecuredJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { generateSampleConfigRepo } from '../seed/sample-config';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '../seed/seed-devops';

import type { DevOpsEmulator } from './server';

import { startDevOpsEmulator } from './index';

const PROJECT = SAMPLE_PROJECTS.tenantManagement;
const REPO: RepositoryRef = { project: PROJECT, repository: CONFIG_REPOSITORY_NAME };

/** A second person: main's branch policy does not count the pull request creator's own vote. */
const REVIEWER = new UnsecuredJWT({
  oid: '8d2e4c71-91b3-4f0a-b6c2-3e5f7a9d1b22',
  upn: 'priya.shah@aegis-msp.example',
}).encode();

let dataDir: string;
let emulator: DevOpsEmulator;
let client: DevOpsClient;
const sleeps: number[] = [];

async function caught(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (isServiceError(error)) return error;
    throw error;
  }
  throw new Error('expected a ServiceError');
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-devops-'));
  emulator = await startDevOpsEmulator({
    dataDir,
    port: 0,
    pipelineDurationInMs: 300,
    defaultPageSize: 2,
    verifyToken: async (token) => token === 'good-token' || token === REVIEWER,
  });
  client = new DevOpsClient({
    organizationUrl: emulator.url,
    getToken: async () => 'good-token',
    retry: {
      maxRetries: 2,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
  });
});

afterAll(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
});

afterEach(() => {
  emulator.faults.clear();
  sleeps.length = 0;
});

describe('authentication', () => {
  it('answers 401 with the DevOps error body without a token', async () => {
    const response = await fetch(`${emulator.url}/_apis/projects?api-version=7.1`);
    expect(response.status).toBe(401);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body['typeKey']).toBe('UnauthorizedRequestException');
    expect(body['message']).toMatch(/^TF400813/);
  });

  it('surfaces a rejected token as a ServiceError 401', async () => {
    const bad = new DevOpsClient({ organizationUrl: emulator.url, getToken: async () => 'nope' });
    const error = await caught(bad.listProjects());
    expect(error.statusCode).toBe(401);
    expect(error.code).toBe('UnauthorizedRequestException');
  });

  it('treats the 203 sign-in page as an authentication failure', async () => {
    emulator.faults.add({ kind: 'signInPage', pathPattern: '/_apis/projects', times: 1 });
    const error = await caught(client.listProjects());
    expect(error).toMatchObject({ statusCode: 401, code: 'SignInPageReturned', service: 'devops' });
  });

  it('rejects a request without api-version', async () => {
    const response = await fetch(`${emulator.url}/_apis/projects`, {
      headers: { authorization: 'Bearer good-token' },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { typeKey: string }).typeKey).toBe(
      'VssVersionNotSpecifiedException',
    );
  });
});

describe('projects and pipelines', () => {
  it('follows continuation tokens across pages', async () => {
    const first = await fetch(`${emulator.url}/_apis/projects?$top=2`, {
      headers: { authorization: 'Bearer good-token', accept: 'application/json;api-version=7.1' },
    });
    expect(first.headers.get('x-ms-continuationtoken')).toBe('2');
    const projects = await client.listProjects();
    expect(projects.map((p) => p.name).sort()).toEqual(Object.values(SAMPLE_PROJECTS).sort());
    const pipelines = await client.listPipelines(PROJECT);
    expect(pipelines.length).toBeGreaterThan(10);
    const project = projects.find((p) => p.name === PROJECT);
    expect(pipelines.every((p) => p.projectId === project?.id)).toBe(true);
    const ids = pipelines.map((p) => p.id);
    for (const fixed of [55, 75, 178, 191, 212, 216]) expect(ids).toContain(fixed);
    expect(pipelines.filter((p) => p.folder === '\\Aegis').map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'Deploy Baseline Tenant Configuration',
        'Remove Baseline Tenant Configuration',
      ]),
    );
    const apps = await client.listPipelines(SAMPLE_PROJECTS.appDeployments);
    expect(apps.filter((p) => /^\\[A-Z]{3}$/.test(p.folder)).length).toBeGreaterThanOrEqual(5);
  });

  it('runs a pipeline: notStarted → inProgress → completed/succeeded', async () => {
    // the run's work is held until the test has seen it in progress
    let entered!: () => void;
    const inProgress = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    emulator.runner.register(178, async () => {
      entered();
      await released;
    });
    try {
      const run = await client.runPipeline(PROJECT, 178, {
        templateParameters: { ClientCode: 'ABC', Domain: 'abc.example' },
        variables: { TenantAdminUserPW: { value: 'secret', isSecret: true } },
        stagesToSkip: [],
      });
      expect(run.state).toBe('notStarted');
      await inProgress;
      expect(await client.getRun(PROJECT, 178, run.id)).toMatchObject({ state: 'inProgress' });
      release();
      await emulator.runner.waitForIdle();
      expect(await client.getRun(PROJECT, 178, run.id)).toMatchObject({
        state: 'completed',
        result: 'succeeded',
      });
      expect(await client.getRun(PROJECT, 178, 999_999)).toBeUndefined();
    } finally {
      release();
      emulator.runner.unregister(178);
    }
  });

  it('backs a client up when pipeline 212 runs with ClientCode and ManualRun', async () => {
    const before = await client.listRefs(REPO, 'tags/backup/NWT/');
    const run = await client.runPipeline(PROJECT, 212, {
      templateParameters: { ClientCode: 'NWT', ManualRun: 'true' },
    });
    await emulator.runner.waitForIdle();
    expect((await client.getRun(PROJECT, 212, run.id))?.result).toBe('succeeded');
    const after = await client.listRefs(REPO, 'tags/backup/NWT/');
    const added = after.filter((r) => !before.some((b) => b.name === r.name));
    expect(added).toHaveLength(1);
    expect(added[0]?.name).toMatch(/^refs\/tags\/backup\/NWT\/\d{8}_\d{6}$/);
    const main = (await client.listRefs(REPO, 'heads/main'))[0];
    expect(added[0]?.commitId).toBe(main?.commitId);
    const tag = await client.getAnnotatedTag(REPO, added[0]?.objectId ?? '');
    expect(tag?.message).toContain('Backup-Type: manual');
  });

  it('fails the backup run for an unknown client', async () => {
    const run = await client.runPipeline(PROJECT, 212, {
      templateParameters: { ClientCode: 'ZZZ', ManualRun: 'true' },
    });
    await emulator.runner.waitForIdle();
    expect((await client.getRun(PROJECT, 212, run.id))?.result).toBe('failed');
  });
});

describe('repository reads', () => {
  it('reads a folder in two requests (listing + zip) with the sample content', async () => {
    const sample = generateSampleConfigRepo();
    const folder = '/Clients/ABC/M365Config/Resources/Exchange';
    const snapshot = await client.readFolder(REPO, folder);
    expect(snapshot?.commitId).toMatch(/^[0-9a-f]{40}$/);
    const expected = [...sample].filter(([p]) => `/${p}`.startsWith(`${folder}/`));
    expect(snapshot?.files).toHaveLength(expected.length);
    for (const [p, text] of expected) {
      expect(snapshot?.files.find((f) => f.path === `/${p}`)?.content).toBe(text);
    }
    expect(await client.readFolder(REPO, '/Clients/XYZ')).toBeUndefined();
  });

  it('lists items one level and reads a file at a tag', async () => {
    const clients = await client.listItems(REPO, '/Clients');
    expect(clients.filter((i) => i.isFolder && i.path !== '/Clients').map((i) => i.path)).toEqual([
      '/Clients/ABC',
      '/Clients/CON',
      '/Clients/FAB',
      '/Clients/NWT',
      '/Clients/WWI',
    ]);
    const tags = await client.listRefs(REPO, 'tags/backup/ABC/');
    const tag = tags[0]?.name.replace('refs/tags/', '') ?? '';
    const file = await client.getFile(
      REPO,
      '/Clients/ABC/M365Config/Resources/Exchange/RemoteDomain/Default.json',
      {
        version: { tag },
      },
    );
    expect(JSON.parse(file?.content ?? '{}')).toMatchObject({ DomainName: '*' });
    expect(await client.getFile(REPO, '/nope.json')).toBeUndefined();
  });

  it("lists a path's commits newest first, from a version, at most top", async () => {
    const all = await client.listCommits(REPO, { itemPath: '/Clients/ABC' });
    expect(all.length).toBeGreaterThan(1);
    expect(all.some((c) => c.comment.startsWith('Onboard ABC'))).toBe(true);
    const dates = all.map((c) => Date.parse(c.committer.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    const older = all[1]?.commitId ?? '';
    const fromOlder = await client.listCommits(REPO, {
      itemPath: '/Clients/ABC',
      version: { commit: older },
      top: 1,
    });
    expect(fromOlder.map((c) => c.commitId)).toEqual([older]);
  });
});

describe('writes', () => {
  it('pushes a new branch, rejects a stale oldObjectId with 409 TF401028, and opens a PR', async () => {
    const main = (await client.listRefs(REPO, 'heads/main')).find(
      (r) => r.name === 'refs/heads/main',
    );
    const base = main?.commitId ?? '';
    const branch = 'restore/ABC/backup-ABC-test';
    const pushed = await client.push(REPO, {
      branch,
      oldObjectId: base,
      commits: [
        {
          comment: 'Restore ABC',
          changes: [
            { changeType: 'add', path: '/Clients/ABC/restore-note.md', content: 'restored\n' },
            {
              changeType: 'edit',
              path: '/Clients/ABC/M365Config/Resources/Exchange/RemoteDomain/Default.json',
              content: '{}\n',
            },
          ],
        },
      ],
    });
    expect(pushed.oldObjectId).toBe(ZERO_OBJECT_ID);
    const stale = await caught(
      client.push(REPO, {
        branch,
        oldObjectId: base,
        commits: [
          {
            comment: 'again',
            changes: [{ changeType: 'delete', path: '/Clients/ABC/restore-note.md' }],
          },
        ],
      }),
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.code).toBe('GitReferenceStaleException');
    expect(stale.message).toBe(
      `TF401028: The reference 'refs/heads/${branch}' has already been updated by another client, so you cannot update it. Please try again.`,
    );

    const diff = await client.getCommitDiff(REPO, { branch: 'main' }, { branch });
    expect(diff.aheadCount).toBe(1);
    expect(diff.changeCounts).toEqual({ Add: 1, Edit: 1 });

    const pr = await client.createPullRequest(REPO, {
      sourceRefName: `refs/heads/${branch}`,
      targetRefName: 'refs/heads/main',
      title: 'Restore ABC',
      description: 'Restore from backup',
      labels: ['restore'],
    });
    expect(pr).toMatchObject({ status: 'active', labels: ['restore'] });
    const duplicate = await caught(
      client.createPullRequest(REPO, {
        sourceRefName: `refs/heads/${branch}`,
        targetRefName: 'refs/heads/main',
        title: 'again',
      }),
    );
    expect(duplicate).toMatchObject({ statusCode: 409, code: 'GitPullRequestExistsException' });
    const active = await client.listPullRequests(REPO, {
      status: 'active',
      targetRefName: 'refs/heads/main',
    });
    expect(active.map((p) => p.pullRequestId)).toContain(pr.pullRequestId);
    const completed = await client.listPullRequests(REPO, { status: 'completed' });
    expect(completed.map((p) => p.pullRequestId)).not.toContain(pr.pullRequestId);
    expect((await client.getPullRequest(REPO, pr.pullRequestId))?.title).toBe('Restore ABC');
    expect(await client.getPullRequest(REPO, 99_999)).toBeUndefined();
  });
  it('reads changed blobs in one request, and completing a PR deletes its source branch when asked', async () => {
    const main = (await client.listRefs(REPO, 'heads/main')).find(
      (r) => r.name === 'refs/heads/main',
    );
    const branch = 'client-ABC-capture-contract';
    const file = '/Clients/ABC/M365Config/Resources/Exchange/RemoteDomain/Default.json';
    await client.push(REPO, {
      branch,
      oldObjectId: main?.commitId ?? '',
      commits: [
        { comment: 'Capture', changes: [{ changeType: 'edit', path: file, content: '{"a":1}\n' }] },
      ],
    });
    const diff = await client.getCommitDiff(
      REPO,
      { branch: 'main' },
      { branch },
      { diffCommonCommit: false },
    );
    const change = diff.changes.find((c) => c.path === file);
    expect(change?.originalObjectId).toMatch(/^[0-9a-f]{40}$/);
    const ids = [change?.objectId ?? '', change?.originalObjectId ?? ''];
    const blobs = await client.getBlobs(REPO, ids);
    expect(blobs.get(ids[0] ?? '')).toBe('{"a":1}\n');
    expect(JSON.parse(blobs.get(ids[1] ?? '') ?? '')).toBeTypeOf('object');
    const missing = await caught(client.getBlobs(REPO, [ZERO_OBJECT_ID]));
    expect(missing.statusCode).toBe(404);

    const pr = await client.createPullRequest(REPO, {
      sourceRefName: `refs/heads/${branch}`,
      targetRefName: 'refs/heads/main',
      title: 'Capture ABC',
      completionOptions: { deleteSourceBranch: true },
    });
    expect(pr.completionOptions).toEqual({ deleteSourceBranch: true });
    const prUrl = `${emulator.url}/${encodeURIComponent(PROJECT)}/_apis/git/repositories/${CONFIG_REPOSITORY_NAME}/pullrequests/${pr.pullRequestId}`;
    const headers = { authorization: 'Bearer good-token', 'content-type': 'application/json' };
    const vote = await fetch(`${prUrl}/reviewers/me?api-version=7.1`, {
      method: 'PUT',
      headers: { ...headers, authorization: `Bearer ${REVIEWER}` },
      body: JSON.stringify({ vote: 10 }),
    });
    expect(vote.status).toBe(200);
    const done = await fetch(`${prUrl}?api-version=7.1`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ status: 'completed' }),
    });
    expect(done.status).toBe(200);
    const completed = await client.listPullRequests(REPO, {
      status: 'completed',
      targetRefName: 'refs/heads/main',
      top: 1000,
    });
    const found = completed.find((p) => p.pullRequestId === pr.pullRequestId);
    expect(found?.closedBy?.uniqueName).toBeTruthy();
    expect(found?.reviewers.map((r) => r.vote)).toEqual([10]);
    expect(await client.listRefs(REPO, `heads/${branch}`)).toEqual([]);
  });
});

describe('faults', () => {
  it('retries a 429 after the Retry-After the service gave', async () => {
    emulator.faults.add({
      kind: 'throttle',
      retryAfterInSeconds: 2,
      times: 1,
      pathPattern: '/_apis/projects',
    });
    const projects = await client.listProjects();
    expect(projects.length).toBe(4);
    expect(sleeps).toEqual([2000]);
  });

  it('gives up after the retries with the service message', async () => {
    emulator.faults.add({
      kind: 'throttle',
      retryAfterInSeconds: 1,
      pathPattern: '/_apis/projects',
    });
    const error = await caught(client.listProjects());
    expect(error).toMatchObject({ statusCode: 429, retryAfterInMs: 1000 });
    expect(error.message).toMatch(/^TF400733/);
    expect(sleeps).toEqual([1000, 1000]);
  });

  it('surfaces a 500 as a ServiceError with the service text and request id, without retrying', async () => {
    await fetch(`${emulator.origin}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        kind: 'error',
        statusCode: 500,
        message: 'VS402901: boom',
        pathPattern: '/pipelines$',
        times: 1,
      }),
    });
    const error = await caught(client.listPipelines(PROJECT));
    expect(error).toMatchObject({
      statusCode: 500,
      message: 'VS402901: boom',
      code: 'VssServiceException',
    });
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sleeps).toEqual([]);
  });

  it('answers through latency', async () => {
    emulator.faults.add({ kind: 'latency', latencyInMs: 20, times: 1 });
    expect(await client.getRepository(REPO)).toMatchObject({ name: CONFIG_REPOSITORY_NAME });
    // the rule held one request; how it holds one is faults.test.ts
    expect(emulator.faults.list()).toEqual([]);
  });
});
