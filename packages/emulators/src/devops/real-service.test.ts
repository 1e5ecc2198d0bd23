// Issue 9 §6: the emulator answers as the real Azure DevOps service does where Aegis (or
// Microsoft's own azure-devops-node-api client) can tell the difference: api-version ranges,
// default page sizes with continuation tokens, the commits list, build folders and error bodies.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { DevOpsClient } from '@aegis/connectors/devops';
import * as azdev from 'azure-devops-node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '../seed/seed-devops';

import type { DevOpsEmulator } from './server';

import { startDevOpsEmulator } from './index';

const PROJECT = SAMPLE_PROJECTS.tenantManagement;
const TOKEN = 'good-token';

let dataDir: string;
let emulator: DevOpsEmulator;

const get = async (url: string, apiVersion: string | undefined = '7.1') => {
  const full = new URL(url.startsWith('http') ? url : `${emulator.url}/${url}`);
  if (apiVersion) full.searchParams.set('api-version', apiVersion);
  const response = await fetch(full, { headers: { authorization: `Bearer ${TOKEN}` } });
  return {
    status: response.status,
    continuation: response.headers.get('x-ms-continuationtoken'),
    body: (await response.json()) as Record<string, unknown> & {
      value?: Record<string, unknown>[];
    },
  };
};

const repoPath = (rest: string) =>
  `${encodeURIComponent(PROJECT)}/_apis/git/repositories/${CONFIG_REPOSITORY_NAME}/${rest}`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-devops-real-'));
  emulator = await startDevOpsEmulator({
    dataDir,
    port: 0,
    pipelineDurationInMs: 100,
    verifyToken: (token) => Promise.resolve(token === TOKEN),
  });
});

afterAll(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('api-version', () => {
  it('refuses versions the emulated service does not support with the real "out of range" error', async () => {
    for (const version of ['9.9', '7.2', '7.1-preview.9', '0.5']) {
      const { status, body } = await get('_apis/projects', version);
      expect([version, status]).toEqual([version, 400]);
      expect(body).toMatchObject({
        message: `The requested REST API version of ${version} is out of range for this server. The latest REST API version this server supports is 7.1.`,
        typeKey: 'VssVersionOutOfRangeException',
        typeName:
          'Microsoft.VisualStudio.Services.WebApi.VssVersionOutOfRangeException, Microsoft.VisualStudio.Services.WebApi',
      });
    }
  });

  it('serves released and preview versions up to 7.1', async () => {
    for (const version of ['7.1', '7.0', '6.0', '7.1-preview', '7.1-preview.1', '5.1-preview.3']) {
      const { status } = await get('_apis/projects', version);
      expect([version, status]).toEqual([version, 200]);
    }
    const invalid = await get('_apis/projects', 'latest');
    expect(invalid.status).toBe(400);
    expect(invalid.body.typeKey).toBe('VssInvalidApiVersionException');
  });
});

describe('default page sizes', () => {
  it('pages projects and pipelines by 100 without $top, with continuation tokens the connector follows', async () => {
    const template = emulator.state.data.projects[0]!;
    const projectsBefore = emulator.state.data.projects.length;
    for (let i = 0; i < 120; i++) {
      emulator.state.data.projects.push({
        ...template,
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        name: `Paged project ${String(i).padStart(3, '0')}`,
      });
    }
    const pipelineTemplate = emulator.state.data.pipelines.find(
      (p) => p.projectId === template.id,
    )!;
    const pipelinesBefore = emulator.state.data.pipelines.filter(
      (p) => p.projectId === template.id,
    ).length;
    for (let i = 0; i < 150; i++) {
      emulator.state.data.pipelines.push({
        ...pipelineTemplate,
        id: 90_000 + i,
        name: `Paged pipeline ${i}`,
      });
    }
    try {
      const first = await get('_apis/projects');
      expect(first.body.value).toHaveLength(100);
      expect(first.continuation).toBe('100');
      const pipelines = await get(`${encodeURIComponent(template.name)}/_apis/pipelines`);
      expect(pipelines.body.value).toHaveLength(100);
      expect(pipelines.continuation).toBeTruthy();

      const client = new DevOpsClient({
        organizationUrl: emulator.url,
        getToken: () => Promise.resolve(TOKEN),
      });
      expect(await client.listProjects()).toHaveLength(projectsBefore + 120);
      expect(await client.listPipelines(template.name)).toHaveLength(pipelinesBefore + 150);
    } finally {
      emulator.state.data.projects.splice(projectsBefore);
      emulator.state.data.pipelines = emulator.state.data.pipelines.filter((p) => p.id < 90_000);
    }
  });
});

describe('commits, build folders and error bodies', () => {
  it('lists commits of a branch, newest first, 100 by default, by path and with $top/$skip', async () => {
    const all = await get(repoPath('commits'));
    expect(all.status).toBe(200);
    const commits = all.body.value!;
    expect(commits.length).toBeGreaterThan(0);
    expect(commits.length).toBeLessThanOrEqual(100);
    expect(commits[0]).toMatchObject({
      commitId: expect.stringMatching(/^[0-9a-f]{40}$/) as unknown,
      author: { name: expect.any(String) as unknown, email: expect.any(String) as unknown },
      comment: expect.any(String) as unknown,
    });
    const main = await get(repoPath('refs?filter=heads/main'));
    expect(commits[0]!.commitId).toBe(main.body.value![0]!.objectId);

    const two = await get(repoPath('commits?searchCriteria.$top=2&searchCriteria.$skip=1'));
    expect(two.body.value!.map((c) => c.commitId)).toEqual(
      commits.slice(1, 3).map((c) => c.commitId),
    );
    const missing = await get(repoPath('commits?searchCriteria.itemVersion.version=nope'));
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      typeKey: 'GitUnresolvableToCommitException',
      typeName:
        'Microsoft.TeamFoundation.Git.Server.GitUnresolvableToCommitException, Microsoft.TeamFoundation.Git.Server',
    });
  });

  it('lists build folders below a path', async () => {
    const root = await get(`${encodeURIComponent(PROJECT)}/_apis/build/folders`);
    expect(root.status).toBe(200);
    const paths = root.body.value!.map((f) => f.path as string);
    expect(paths[0]).toBe('\\');
    const folders = new Set(emulator.state.data.pipelines.map((p) => p.folder));
    const nested = [...folders].find((f) => f.split('\\').filter(Boolean).length >= 1)!;
    expect(paths).toContain(nested);
    const top = `\\${nested.split('\\').filter(Boolean)[0]!}`;
    const below = await get(
      `${encodeURIComponent(PROJECT)}/_apis/build/folders/${encodeURIComponent(top)}`,
    );
    const belowPaths = below.body.value!.map((f) => f.path as string);
    expect(belowPaths.length).toBeGreaterThan(0);
    expect(belowPaths.every((p) => p === top || p.startsWith(`${top}\\`))).toBe(true);
  });

  it('names the real exception types in error bodies', async () => {
    const project = await get(`${encodeURIComponent('No Such Project')}/_apis/pipelines`);
    expect(project.body.typeName).toBe(
      'Microsoft.TeamFoundation.Core.WebApi.ProjectDoesNotExistWithNameException, Microsoft.TeamFoundation.Core.WebApi',
    );
    const repo = await get(`${encodeURIComponent(PROJECT)}/_apis/git/repositories/Nope`);
    expect(repo.body.typeName).toBe(
      'Microsoft.TeamFoundation.Git.Server.GitRepositoryNotFoundException, Microsoft.TeamFoundation.Git.Server',
    );
    const pipeline = await get(`${encodeURIComponent(PROJECT)}/_apis/pipelines/424242`);
    expect(pipeline.body.typeName).toBe(
      'Microsoft.Azure.Pipelines.WebApi.PipelineNotFoundException, Microsoft.Azure.Pipelines.WebApi',
    );
  });
});

describe("Microsoft's azure-devops-node-api against the emulator", () => {
  const connect = () =>
    new azdev.WebApi(emulator.url, azdev.getBearerHandler(TOKEN), { allowRetries: false });

  it('reads projects, refs, commits, pull requests, pipelines and build folders', async () => {
    const api = connect();
    const core = await api.getCoreApi();
    const projects = await core.getProjects();
    expect(projects.map((p) => p.name)).toContain(PROJECT);

    const git = await api.getGitApi();
    const refs = await git.getRefs(CONFIG_REPOSITORY_NAME, PROJECT, 'heads/main');
    expect(refs[0]?.name).toBe('refs/heads/main');
    const commits = await git.getCommits(CONFIG_REPOSITORY_NAME, { $top: 3 }, PROJECT);
    expect(commits).toHaveLength(3);
    expect(commits[0]?.commitId).toBe(refs[0]?.objectId);
    const pullRequests = await git.getPullRequests(CONFIG_REPOSITORY_NAME, {}, PROJECT);
    expect(Array.isArray(pullRequests)).toBe(true);

    const pipelinesApi = await api.getPipelinesApi();
    const pipelines = await pipelinesApi.listPipelines(PROJECT);
    expect(pipelines.length).toBeGreaterThan(0);

    const build = await api.getBuildApi();
    const folders = await build.getFolders(PROJECT);
    expect(folders.map((f) => f.path)).toContain('\\');
  });
});
