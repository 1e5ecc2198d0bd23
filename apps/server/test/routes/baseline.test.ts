import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, mainWriterOf, type AppWithDevOps } from '../devops-fixture';
import { SAMPLE_USER } from '../helper';

const READER = 'night.shift@aegis-msp.example';
const OPERATOR = 'sam.taylor@aegis-msp.example';

describe('baseline deployment and off-boarding (spec 2 §7)', () => {
  let fixture: AppWithDevOps;
  let abcPipeline: number;
  let conPipeline: number;
  beforeAll(async () => {
    fixture = await buildWithSeededDevOps({ pipelineDurationInMs: 60_000 });
    const list = await fixture.t.injectAs(SAMPLE_USER, {
      method: 'GET',
      url: '/api/onboarding/tenant-pipelines',
    });
    const pipelines = list.json<{ pipelines: { id: number; folder: string }[] }>().pipelines;
    abcPipeline = pipelines.find((p) => p.folder === 'Tenants\\ABC')!.id;
    conPipeline = pipelines.find((p) => p.folder === 'Tenants\\CON')!.id;
  });
  afterAll(() => fixture.close());

  const post = (url: string, payload: Record<string, unknown>, user = SAMPLE_USER) =>
    fixture.t.injectAs(user, { method: 'POST', url, payload });
  const stored = (id: number) => fixture.devops.emulator.state.data.runs.find((r) => r.id === id);

  it('lists the tenant pipelines to every role, so a Reader sees the tabs (runs stay Administrator)', async () => {
    const list = await fixture.t.injectAs(READER, {
      method: 'GET',
      url: '/api/onboarding/tenant-pipelines',
    });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ pipelines: unknown[] }>().pipelines.length).toBeGreaterThan(0);
    const run = await post(
      '/api/baseline/deploy/runs',
      { pipelineId: abcPipeline, components: ['Device Compliance'] },
      READER,
    );
    expect(run.statusCode).toBe(403);
  });

  it('deploys components for the client the tenant pipeline names, on the Aegis folder pipeline', async () => {
    const response = await post('/api/baseline/deploy/runs', {
      pipelineId: abcPipeline,
      components: ['Device Compliance', 'Anti Phishing'],
    });
    expect(response.statusCode).toBe(201);
    const run = response.json<{
      id: number;
      pipelineId: number;
      clientCode: string;
      state: string;
    }>();
    expect(run).toMatchObject({ clientCode: 'ABC', pipelineId: 230 });
    expect(['notStarted', 'inProgress']).toContain(run.state);
    expect(stored(run.id)?.templateParameters).toEqual({
      ClientCode: 'ABC',
      Components: '["Device Compliance","Anti Phishing"]',
    });
  });

  it('runs the full baseline deploy without components', async () => {
    const response = await post('/api/baseline/deploy/runs', { pipelineId: abcPipeline });
    expect(response.statusCode).toBe(201);
    expect(stored(response.json<{ id: number }>().id)?.templateParameters).toEqual({
      ClientCode: 'ABC',
    });
  });

  it('off-boards with the components array on the remove pipeline', async () => {
    const response = await post('/api/baseline/offboard/runs', {
      pipelineId: abcPipeline,
      components: ['Remove Transport Rules'],
    });
    expect(response.statusCode).toBe(201);
    const run = response.json<{ id: number; pipelineId: number }>();
    expect(run.pipelineId).toBe(231);
    expect(stored(run.id)?.templateParameters).toEqual({
      ClientCode: 'ABC',
      Components: '["Remove Transport Rules"]',
    });
  });

  it('answers 400 naming the field for an empty or unknown component list, a bad pipeline id', async () => {
    const empty = await post('/api/baseline/offboard/runs', {
      pipelineId: abcPipeline,
      components: [],
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ field: string }>().field).toContain('components');
    const unknown = await post('/api/baseline/deploy/runs', {
      pipelineId: abcPipeline,
      components: ['No Such Component'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ field: string; message: string }>()).toMatchObject({
      field: 'components',
      message: expect.stringContaining('No Such Component'),
    });
    // an off-board name is not a deploy component
    const wrongCatalogue = await post('/api/baseline/deploy/runs', {
      pipelineId: abcPipeline,
      components: ['Remove Transport Rules'],
    });
    expect(wrongCatalogue.statusCode).toBe(400);
    const badId = await post('/api/baseline/deploy/runs', { pipelineId: 'x' });
    expect(badId.statusCode).toBe(400);
    expect(badId.json<{ field: string }>().field).toContain('pipelineId');
  });

  it("answers 404 'Selected pipeline not found.' for a pipeline outside the Tenants folder", async () => {
    const response = await post('/api/baseline/deploy/runs', { pipelineId: 212 });
    expect(response.statusCode).toBe(404);
    expect(response.json<{ message: string }>().message).toBe('Selected pipeline not found.');
  });

  it('is for Administrators: an Operator is refused with 403 and nothing runs', async () => {
    const before = fixture.devops.emulator.state.data.runs.length;
    const response = await post(
      '/api/baseline/offboard/runs',
      { pipelineId: abcPipeline, components: ['Remove Safe Links'] },
      OPERATOR,
    );
    expect(response.statusCode).toBe(403);
    expect(fixture.devops.emulator.state.data.runs.length).toBe(before);
  });

  it('lists and reads baseline files for the configuration preview (Reader)', async () => {
    const files = await fixture.t.injectAs(READER, {
      method: 'GET',
      url: `/api/baseline/files?path=${encodeURIComponent('M365Config/Resources/Intune/DeviceCompliancePolicy')}`,
    });
    expect(files.statusCode).toBe(200);
    const listed = files.json<{ files: { path: string; name: string }[] }>().files;
    expect(listed.length).toBe(4);
    expect(listed[0]?.path.startsWith('M365Config/Resources/Intune/DeviceCompliancePolicy/')).toBe(
      true,
    );
    const file = await fixture.t.injectAs(READER, {
      method: 'GET',
      url: `/api/baseline/file?path=${encodeURIComponent(listed[0]!.path)}`,
    });
    expect(file.statusCode).toBe(200);
    expect(file.json<{ content: { displayName: string } }>().content.displayName).toBe(
      listed[0]!.name,
    );
  });

  it('confines preview reads to the baseline: 400 outside it, 404 for a missing path', async () => {
    const outside = await fixture.t.injectAs(READER, {
      method: 'GET',
      url: `/api/baseline/file?path=${encodeURIComponent('Clients/ABC/M365Config/Resources/x.json')}`,
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json<{ field: string }>().field).toBe('path');
    const climbing = await fixture.t.injectAs(READER, {
      method: 'GET',
      url: `/api/baseline/files?path=${encodeURIComponent('M365Config/Resources/../../Clients')}`,
    });
    expect(climbing.statusCode).toBe(400);
    const missing = await fixture.t.injectAs(READER, {
      method: 'GET',
      url: `/api/baseline/files?path=${encodeURIComponent('M365Config/Resources/Intune/Nothing')}`,
    });
    expect(missing.statusCode).toBe(404);
  });

  it("previews a deploy from the client's last capture: creates what it lacks, updates what deviates", async () => {
    const response = await post('/api/baseline/deploy/preview', {
      pipelineId: abcPipeline,
      components: ['Conditional Access Policies', 'Device Compliance'],
    });
    expect(response.statusCode).toBe(200);
    const preview = response.json<{
      clientCode: string;
      components: { name: string; items: { name: string; action: string }[] }[];
    }>();
    expect(preview.clientCode).toBe('ABC');
    const ca = preview.components.find((c) => c.name === 'Conditional Access Policies')!;
    expect(ca.items.length).toBeGreaterThan(5);
    expect(new Set(ca.items.map((i) => i.action)).size).toBeGreaterThan(1);
    const compliance = preview.components.find((c) => c.name === 'Device Compliance')!;
    expect(compliance.items.map((i) => i.action)).toContain('unchanged');
  });

  it("previews against the client's effective baseline: its layer and its parameters (ADR 068)", async () => {
    // CON names the 'Healthcare' layer (lockout after 5) and holds its own group creators' group:
    // against the company baseline both policies would be updates
    const response = await post('/api/baseline/deploy/preview', {
      pipelineId: conPipeline,
      components: ['Password Protection'],
    });
    expect(response.statusCode).toBe(200);
    const items = response
      .json<{ components: { items: { name: string; action: string }[] }[] }>()
      .components.flatMap((c) => c.items);
    expect(items.find((i) => i.name === 'Password Rule Settings')?.action).toBe('unchanged');
    expect(items.find((i) => i.name === 'Group.Unified')?.action).toBe('unchanged');
  });

  it('refuses a preview naming the parameter the client lacks (400)', async () => {
    const git = mainWriterOf(fixture.t);
    const repo = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };
    const path = '/Clients/CON/.parameters.json';
    const write = async (content: string, comment: string) => {
      const [main] = await git.listRefs(repo, 'heads/main');
      await git.push(repo, {
        branch: 'main',
        oldObjectId: main?.commitId ?? '',
        commits: [{ comment, changes: [{ changeType: 'edit', path, content }] }],
      });
    };
    const original = (await git.getFile(repo, path, { version: { branch: 'main' } }))!.content;
    await write('{ "parameters": {} }\n', 'test: CON without its parameters');
    try {
      const response = await post('/api/baseline/deploy/preview', {
        pipelineId: conPipeline,
        components: ['Password Protection'],
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        field: 'components',
        message:
          "CON has no value for parameter 'groupCreatorsGroupId' (used by AzureAD/DirectorySetting/Group.Unified.json). Set it on the client's Parameters screen before deploying.",
      });
      // components that do not use it preview as before
      const other = await post('/api/baseline/deploy/preview', {
        pipelineId: conPipeline,
        components: ['Device Compliance'],
      });
      expect(other.statusCode).toBe(200);
    } finally {
      await write(original, 'test: CON parameters back');
    }
  });
});
