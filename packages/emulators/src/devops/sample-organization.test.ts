// The emulator's sample organization as the DevOps connector reads it: the sample projects and
// pipelines, the backup pipeline's effect, the sample configuration. The connector's contract
// itself runs in devops-client.contract.test.ts.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { DevOpsClient, type RepositoryRef } from '@aegis/connectors/devops';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { generateSampleConfigRepo } from '../seed/sample-config';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '../seed/seed-devops';

import type { DevOpsEmulator } from './server';

import { startDevOpsEmulator } from './index';

const PROJECT = SAMPLE_PROJECTS.tenantManagement;
const REPO: RepositoryRef = { project: PROJECT, repository: CONFIG_REPOSITORY_NAME };

let dataDir: string;
let emulator: DevOpsEmulator;
let client: DevOpsClient;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-devops-'));
  emulator = await startDevOpsEmulator({
    dataDir,
    port: 0,
    pipelineDurationInMs: 300,
    defaultPageSize: 2,
    verifyToken: (token) => Promise.resolve(token === 'good-token'),
  });
  client = new DevOpsClient({
    organizationUrl: emulator.url,
    getToken: () => Promise.resolve('good-token'),
  });
});

afterAll(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
});

afterEach(() => emulator.faults.clear());

describe('projects and pipelines', () => {
  it('lists the sample projects and pipelines, page by page', async () => {
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
});

describe('fault rules', () => {
  it('answers through latency', async () => {
    emulator.faults.add({ kind: 'latency', latencyInMs: 20, times: 1 });
    expect(await client.getRepository(REPO)).toMatchObject({ name: CONFIG_REPOSITORY_NAME });
    // the rule held one request; how it holds one is faults.test.ts
    expect(emulator.faults.list()).toEqual([]);
  });
});
