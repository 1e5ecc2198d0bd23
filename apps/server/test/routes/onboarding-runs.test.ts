import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';
import { SAMPLE_USER } from '../helper';

const TENANT = 'c086217b-82aa-4623-a64c-f777842cf5e8';

describe('onboarding runs (spec 2 §7)', () => {
  let fixture: AppWithDevOps;
  beforeAll(async () => {
    fixture = await buildWithSeededDevOps({ pipelineDurationInMs: 60_000 });
  });
  afterAll(() => fixture.close());
  const stored = (id: number) => fixture.devops.emulator.state.data.runs.find((r) => r.id === id);

  const post = (url: string, payload: Record<string, unknown>) =>
    fixture.t.injectAs(SAMPLE_USER, { method: 'POST', url, payload });

  it('starts tenant onboarding (178) with its parameters and answers where to follow it', async () => {
    const response = await post('/api/onboarding/tenant/runs', {
      clientCode: 'TSP',
      domain: 'tailspintoys.com',
      subscriptionName: 'Options IT',
      tenantId: TENANT,
      enrollInPowerSupport: true,
      region: 'uksouth',
    });
    expect(response.statusCode).toBe(201);
    const run = response.json<{ id: number; pipelineId: number; project: string; state: string }>();
    expect(run.pipelineId).toBe(178);
    const status = await fixture.t.injectAs(SAMPLE_USER, {
      method: 'GET',
      url: `/api/projects/${encodeURIComponent(run.project)}/pipelines/178/runs/${run.id}`,
    });
    expect(status.statusCode).toBe(200);
    expect(['notStarted', 'inProgress']).toContain(status.json<{ state: string }>().state);
  });

  it('passes the form to 178 as its template parameters', async () => {
    const response = await post('/api/onboarding/tenant/runs', {
      clientCode: 'LIT',
      domain: 'litware.com',
      subscriptionName: 'Litware Production',
      tenantId: TENANT,
      enrollInPowerSupport: false,
      region: 'eastus',
    });
    expect(response.statusCode).toBe(201);
    expect(stored(response.json<{ id: number }>().id)?.templateParameters).toEqual({
      ClientCode: 'LIT',
      Domain: 'litware.com',
      subscriptionForLogin: 'Litware Production',
      TenantId: TENANT,
      EnrollInPowerSupport: 'false',
      Region: 'eastus',
    });
  });

  it('starts legacy tenant onboarding (75) with the credentials as secret variables, never echoed', async () => {
    // what the run's task is given (the emulator keeps secret values for the task only, ADR 047)
    const given = new Promise<Readonly<Record<string, string>>>((resolve) => {
      fixture.devops.emulator.runner.register(75, async ({ parameters }) => resolve(parameters));
    });
    try {
      const response = await post('/api/onboarding/tenant-legacy/runs', {
        clientCode: 'LIT',
        domain: 'litware.com',
        subscriptionName: 'Options IT',
        username: 'marcus.reed@litware.com',
        password: 'Legacy-S3cret!',
      });
      expect(response.statusCode).toBe(201);
      const run = response.json<{ id: number; pipelineId: number }>();
      expect(run.pipelineId).toBe(75);
      expect(response.body).not.toContain('Legacy-S3cret!');
      expect(stored(run.id)?.variables).toEqual({
        ClientCode: { value: 'LIT', isSecret: false },
        Domain: { value: 'litware.com', isSecret: false },
        subscriptionForLogin: { value: 'Options IT', isSecret: false },
        TenantAdminUserName: { value: '', isSecret: true },
        TenantAdminUserPW: { value: '', isSecret: true },
      });
      expect(await given).toMatchObject({
        ClientCode: 'LIT',
        TenantAdminUserName: 'marcus.reed@litware.com',
        TenantAdminUserPW: 'Legacy-S3cret!',
      });
    } finally {
      fixture.devops.emulator.runner.unregister(75);
    }
  });

  it('refuses legacy onboarding without a password, naming the field', async () => {
    const response = await post('/api/onboarding/tenant-legacy/runs', {
      clientCode: 'LIT',
      domain: 'litware.com',
      subscriptionName: 'Options IT',
      username: 'marcus.reed@litware.com',
      password: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ field: string }>().field).toContain('password');
  });

  it('names the bad field', async () => {
    const response = await post('/api/onboarding/tenant/runs', {
      clientCode: 'tsp',
      domain: 'tailspintoys.com',
      subscriptionName: 'Options IT',
      tenantId: TENANT,
      enrollInPowerSupport: false,
      region: 'uksouth',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ field: string }>().field).toContain('clientCode');
  });

  it('refuses app-deploy onboarding of an onboarded client with 409, and never echoes the password', async () => {
    const onboarded = await post('/api/onboarding/app-deploy/runs', {
      clientCode: 'ABC',
      domain: 'abcaccounting.com',
      username: 'admin@abcaccounting.com',
      password: 'S3cret-P@ss',
    });
    expect(onboarded.statusCode).toBe(409);
    expect(onboarded.json<{ message: string }>().message).toBe(
      'Client is already onboarded. Please check the existing pipeline.',
    );
    const started = await post('/api/onboarding/app-deploy/runs', {
      clientCode: 'QRS',
      domain: 'qrs.example',
      username: 'admin@qrs.example',
      password: 'S3cret-P@ss',
    });
    expect(started.statusCode).toBe(201);
    expect(started.json<{ pipelineId: number }>().pipelineId).toBe(55);
    expect(started.body).not.toContain('S3cret-P@ss');
  });

  it('reads a client with its app-deployment pipeline in any project as onboarded for app deployment (ADR 055)', async () => {
    const listed = await fixture.t.injectAs(SAMPLE_USER, {
      method: 'GET',
      url: '/api/onboarding/app-deploy/pipelines',
    });
    expect(listed.statusCode).toBe(200);
    const pipelines = listed.json<{ pipelines: { name: string; folder: string }[] }>().pipelines;
    // WGB has app deployment only, seeded in the app-deployment project; ABC its tenant pipeline
    expect(pipelines).toContainEqual(
      expect.objectContaining({ name: 'WGB - Workstation App Deployment', folder: 'WGB' }),
    );
    expect(pipelines).toContainEqual(
      expect.objectContaining({ name: 'ABC Tenant Configuration', folder: 'Tenants\\ABC' }),
    );
    expect(pipelines.every((p) => p.folder !== 'Aegis' && p.folder !== 'Onboarding')).toBe(true);

    for (const url of ['/api/onboarding/app-deploy/runs', '/api/onboarding/app-deploy-new/runs']) {
      const refused = await post(url, {
        clientCode: 'WGB',
        domain: 'woodgrovebank.com',
        ...(url.endsWith('new/runs')
          ? { clientTenantId: TENANT, enterpriseAppId: TENANT }
          : { username: 'admin@woodgrovebank.com', password: 'S3cret-P@ss' }),
      });
      expect(refused.statusCode).toBe(409);
    }
  });

  it("answers 502 when a project's pipelines cannot be listed: the check fails closed", async () => {
    fixture.devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      pathPattern: '/_apis/pipelines',
    });
    try {
      const listed = await fixture.t.injectAs(SAMPLE_USER, {
        method: 'GET',
        url: '/api/onboarding/app-deploy/pipelines',
      });
      expect(listed.statusCode).toBe(502);
    } finally {
      fixture.devops.emulator.faults.clear();
    }
  });
});
