import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { SAMPLE_PROJECTS } from '@aegis/emulators';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps, type DevOpsFixture } from '../devops-fixture';
import { SAMPLE_USER, type TestApp } from '../helper';

describe('projects and pipelines routes', () => {
  let t: TestApp;
  let devops: DevOpsFixture;

  let env: AppWithDevOps;

  beforeAll(async () => {
    env = await buildWithSeededDevOps();
    ({ t, devops } = env);
  });
  afterEach(() => devops.emulator.faults.clear());
  afterAll(() => env.close());

  const get = (url: string) => t.injectAs(SAMPLE_USER, { method: 'GET', url });

  /** A GET over a real socket with the path exactly as written (inject normalises dot segments). */
  const rawGet = async (path: string): Promise<{ status: number; body: string }> => {
    const token = await t.idp.issueToken(SAMPLE_USER);
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      http
        .get(
          { host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${token}` } },
          (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        )
        .on('error', reject);
    });
  };

  it('lists the projects the user can see', async () => {
    const response = await get('/api/projects');
    expect(response.statusCode).toBe(200);
    const names = (response.json() as { projects: { name: string }[] }).projects.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(Object.values(SAMPLE_PROJECTS)));
  });

  it('lists only client pipelines (3-character folders) with the folder stripped', async () => {
    const projects = (await get('/api/projects')).json() as {
      projects: { id: string; name: string }[];
    };
    const appProject = projects.projects.find((p) => p.name === SAMPLE_PROJECTS.appDeployments);
    const response = await get(`/api/projects/${appProject?.id}/pipelines`);
    expect(response.statusCode).toBe(200);
    const { pipelines } = response.json() as { pipelines: { folder: string; project: string }[] };
    expect(pipelines.length).toBeGreaterThan(0);
    for (const pipeline of pipelines) {
      expect(pipeline.folder).toMatch(/^[^\\]{3}$/);
      expect(pipeline.project).toBe(appProject?.id);
    }
  });

  it('lists client pipelines across every project', async () => {
    const response = await get('/api/pipelines');
    const { pipelines } = response.json() as { pipelines: { folder: string }[] };
    expect(pipelines.length).toBeGreaterThan(0);
    expect(pipelines.every((p) => p.folder.length === 3)).toBe(true);
  });

  it('starts a run with the app as a single item and reads it completed once the runner is idle', async () => {
    const { pipelines } = (await get('/api/pipelines')).json() as {
      pipelines: { id: number; project: string }[];
    };
    const pipeline = pipelines[0];
    if (!pipeline) throw new Error('no client pipeline in the sample data');
    const started = await t.injectAs(SAMPLE_USER, {
      method: 'POST',
      url: `/api/projects/${pipeline.project}/pipelines/${pipeline.id}/runs`,
      payload: { appList: ['7zip'] },
    });
    expect(started.statusCode).toBe(201);
    const run = started.json() as { id: number; state: string };
    expect(['notStarted', 'inProgress']).toContain(run.state);

    const runUrl = `/api/projects/${pipeline.project}/pipelines/${pipeline.id}/runs/${run.id}`;
    await devops.emulator.runner.waitForIdle();
    const status = (await get(runUrl)).json() as { state: string; result: string | null };
    expect(status).toEqual({ id: run.id, state: 'completed', result: 'succeeded' });
  });

  it('refuses with 404 to start a pipeline that is not a client app-deployment pipeline, and starts nothing', async () => {
    const state = devops.emulator.state;
    const others = state.data.pipelines.filter((p) => !/^\\?[^\\]{3}$/.test(p.folder));
    expect(others.length).toBeGreaterThan(3); // deploy, remove, onboarding, capture, other projects
    const runsBefore = state.data.runs.length;
    for (const pipeline of others) {
      const response = await t.injectAs(SAMPLE_USER, {
        method: 'POST',
        url: `/api/projects/${pipeline.projectId}/pipelines/${pipeline.id}/runs`,
        payload: {},
      });
      expect({ pipeline: pipeline.name, status: response.statusCode }).toEqual({
        pipeline: pipeline.name,
        status: 404,
      });
      expect((response.json() as { message: string }).message).toContain(
        `Pipeline ${pipeline.id} is not a client app-deployment pipeline`,
      );
    }
    expect(state.data.runs.length).toBe(runsBefore);
  });

  it("serves a run's log, timestamps split off; a failing run's log ends with its error", async () => {
    const projects = (await get('/api/projects')).json() as {
      projects: { id: string; name: string }[];
    };
    const project = projects.projects.find((p) => p.name === SAMPLE_PROJECTS.tenantManagement);
    // The backup pipeline without ClientCode, started in Azure DevOps (the run route starts
    // client app-deployment pipelines only): its task fails and says why.
    const started = await fetch(
      `${devops.emulator.url}/${project?.id}/_apis/pipelines/212/runs?api-version=7.1`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await t.idp.issueToken(SAMPLE_USER)}`,
          'content-type': 'application/json',
        },
        body: '{}',
      },
    );
    const run = (await started.json()) as { id: number };
    await devops.emulator.runner.waitForIdle();
    const response = await get(`/api/projects/${project?.id}/pipelines/212/runs/${run.id}/log`);
    expect(response.statusCode).toBe(200);
    const { lines } = response.json() as { lines: { time: string | null; text: string }[] };
    expect(lines.at(-1)?.text).toMatch(/^##\[error\].*ClientCode/);
    expect(lines.at(-1)?.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('answers 404 for the log of a run that does not exist', async () => {
    const projects = (await get('/api/projects')).json() as {
      projects: { id: string; name: string }[];
    };
    const project = projects.projects.find((p) => p.name === SAMPLE_PROJECTS.tenantManagement);
    const response = await get(`/api/projects/${project?.id}/pipelines/212/runs/999999/log`);
    expect(response.statusCode).toBe(404);
  });

  it('answers 400 naming the field for an app list of two items', async () => {
    const response = await t.injectAs(SAMPLE_USER, {
      method: 'POST',
      url: '/api/projects/x/pipelines/1/runs',
      payload: { appList: ['7zip', 'Google Chrome'] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'body.appList' });
  });

  it('answers 400 naming the field for a non-numeric pipeline id', async () => {
    const response = await t.injectAs(SAMPLE_USER, {
      method: 'POST',
      url: '/api/projects/x/pipelines/abc/runs',
      payload: {},
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'params.pipelineId' });
  });

  it.each(['1e3', '0x10', '+1', '1.0', '2147483648'])(
    'answers 400 for the pipeline id %j: digits only',
    async (pipelineId) => {
      const response = await get(
        `/api/projects/x/pipelines/${encodeURIComponent(pipelineId)}/runs`,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field: 'params.pipelineId' });
      const run = await get(`/api/projects/x/pipelines/1/runs/${encodeURIComponent(pipelineId)}`);
      expect(run.statusCode).toBe(400);
      expect(run.json()).toMatchObject({ field: 'params.runId' });
    },
  );

  it.each(['..', '.', '%2E%2E', '..%2Fother', '_apis', 'a%5Cb', 'x%3Fy', 'a%2Fb'])(
    'answers 400 for the project id %j before any call to Azure DevOps',
    async (projectId) => {
      // any call that reached Azure DevOps would fail with a 502 and count a hit
      devops.emulator.faults.add({ kind: 'error', statusCode: 500 });
      // sent as written (no client-side dot-segment removal), as an attacker would
      const response = await rawGet(`/api/projects/${projectId}/pipelines`);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ field: 'params.projectId' });
      expect(devops.emulator.faults.list()[0]?.hits).toBe(0);
    },
  );

  it('answers 404 for a run that does not exist', async () => {
    const { pipelines } = (await get('/api/pipelines')).json() as {
      pipelines: { id: number; project: string }[];
    };
    const pipeline = pipelines[0];
    const response = await get(
      `/api/projects/${pipeline?.project}/pipelines/${pipeline?.id}/runs/999999`,
    );
    expect(response.statusCode).toBe(404);
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/projects' });
    expect(response.statusCode).toBe(401);
  });

  it('answers 502 with the service message when Azure DevOps fails', async () => {
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      pathPattern: '_apis/projects',
      message: 'VS402371: The service is unavailable.',
    });
    const response = await get('/api/projects');
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({
      error: 'ServiceError',
      message: expect.stringContaining('VS402371') as unknown,
    });
  });
});
