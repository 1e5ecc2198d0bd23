// Rollouts in rings (issue 30 §3, ADR 074) on the emulators as `npm start` wires them: the plan
// from fresh captures, ring 1 deployed by the deploy pipeline's task, a halt when a tenant of ring
// 1 fails, resume after the fix, ring 2, and a rollback that puts the tenants' objects back.
import type {
  BaselineCommitList,
  RolloutDto,
  RolloutPlanDto,
  RolloutPlanStarted,
} from '@aegis/contracts';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS, TenantWorld } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, mainWriterOf, type AppWithDevOps } from '../devops-fixture';
import { SAMPLE_USER } from '../helper';

const REPO = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };
const PRIYA = 'priya.shah@aegis-msp.example';
const SAM = 'sam.taylor@aegis-msp.example';
const CA = 'ConditionalAccess/Policy';

describe('a rollout of a baseline change in two rings', () => {
  let env: AppWithDevOps;
  const world = new TenantWorld({ propagationDelayInMs: 0 });
  /** the baseline policy the change edits, and the state it gives it */
  let changed: { resourcePath: string; displayName: string; after: string };
  let captures: RolloutPlanStarted['captures'];
  /** each tenant's state of the policy before the rollout: what the rollback must give back */
  const before: Record<string, unknown> = {};
  let rollout: RolloutDto;

  const call = (user: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    env.t.injectAs(user, { method, url, ...(payload ? { payload } : {}) });
  const liveState = (code: string) => {
    const tenant = world.find(code);
    if (!tenant) throw new Error(`no tenant ${code}`);
    const policies = world.state(tenant.tenantId).config.get(CA);
    const policy = [...(policies?.values() ?? [])].find(
      (p) => p['displayName'] === changed.displayName,
    );
    return policy?.['state'];
  };
  /** one pass of the ring loop, then the pipelines it started run to their end */
  const pass = async () => {
    const runner = env.t.app.rolloutRunner;
    if (!runner) throw new Error('the app has no rollout runner');
    await runner.pass();
    await env.devops.emulator.runner.waitForIdle();
  };
  /** a tenant's deploy with its run's log, so a failure says why */
  const deployOf = async (rolloutNow: RolloutDto, code: string) => {
    const run = rolloutNow.deploys[code];
    const log =
      run?.runId === undefined
        ? ''
        : (
            (
              await call(
                SAMPLE_USER,
                'GET',
                `/api/projects/${rolloutNow.project}/pipelines/${rolloutNow.pipelineId}/runs/${run.runId}/log`,
              )
            ).json() as { lines: { text: string }[] }
          ).lines
            .map((l) => l.text)
            .join('\n');
    return { status: run?.status, log };
  };
  const read = async () =>
    (await call(SAMPLE_USER, 'GET', `/api/rollouts/${rollout.id}`)).json() as RolloutDto;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ pipelineDurationInMs: 0, world, tables: true });
    // the change: a conditional access policy of the baseline goes to report-only
    const git = mainWriterOf(env.t);
    const items = await git.listItems(REPO, `/M365Config/Resources/${CA}`, {
      recursion: 'full',
      version: { branch: 'main' },
    });
    const first = items.find((i) => !i.isFolder && i.path.endsWith('.json'));
    if (!first) throw new Error('the baseline has no conditional access policy');
    const file = await git.getFile(REPO, first.path, { version: { branch: 'main' } });
    const policy = JSON.parse(file?.content ?? '{}') as Record<string, unknown>;
    const after = policy['state'] === 'disabled' ? 'enabled' : 'disabled';
    changed = {
      resourcePath: first.path.slice('/M365Config/Resources/'.length),
      displayName: String(policy['displayName']),
      after,
    };
    const [main] = await git.listRefs(REPO, 'heads/main');
    await git.push(REPO, {
      branch: 'main',
      oldObjectId: main!.commitId,
      commits: [
        {
          comment: 'Baseline: a conditional access policy changes state',
          changes: [
            {
              changeType: 'edit',
              path: first.path,
              content: JSON.stringify({ ...policy, state: after }, null, 2),
            },
          ],
        },
      ],
    });
  }, 120_000);
  afterAll(() => env?.close());

  it('plans from a fresh capture of each tenant', async () => {
    for (const code of ['NWT', 'CON', 'FAB']) before[code] = liveState(code);
    // the change is a change for every tenant, so the rollback has something to undo
    for (const code of ['NWT', 'CON', 'FAB']) expect(before[code]).not.toBe(changed.after);
    const started = await call(SAMPLE_USER, 'POST', '/api/rollouts/plans', {
      clients: ['NWT', 'CON', 'FAB'],
    });
    expect(started.statusCode).toBe(201);
    captures = (started.json() as RolloutPlanStarted).captures;
    expect(captures.map((c) => c.client)).toEqual(['NWT', 'CON', 'FAB']);
    await env.devops.emulator.runner.waitForIdle();

    const query = captures.map((c) => `${c.client}:${c.runId}`).join(',');
    const response = await call(SAMPLE_USER, 'GET', `/api/rollouts/plan?captures=${query}`);
    expect(response.statusCode).toBe(200);
    const plan = response.json() as RolloutPlanDto;
    expect(plan.tenants.map((t) => t.status)).toEqual(['planned', 'planned', 'planned']);
    for (const tenant of plan.tenants) {
      expect(tenant.plan?.policies).toContain(changed.resourcePath);
      expect(tenant.plan?.updates).toBeGreaterThan(0);
    }
  }, 120_000);

  it("lists main's baseline commits newest first, and plans and records an earlier one", async () => {
    const listed = await call(SAMPLE_USER, 'GET', '/api/rollouts/commits');
    expect(listed.statusCode).toBe(200);
    const { commits } = listed.json() as BaselineCommitList;
    expect(commits[0]).toMatchObject({
      subject: 'Baseline: a conditional access policy changes state',
      author: expect.any(String),
      date: expect.any(String),
    });
    expect(commits.length).toBeGreaterThan(1);
    const dates = commits.map((c) => Date.parse(c.date));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const earlier = commits[1]!.commitId;

    const query = captures.map((c) => `${c.client}:${c.runId}`).join(',');
    const plan = await call(
      SAMPLE_USER,
      'GET',
      `/api/rollouts/plan?captures=${query}&commit=${earlier}`,
    );
    expect(plan.statusCode).toBe(200);
    expect((plan.json() as RolloutPlanDto).commitId).toBe(earlier);
    const malformed = await call(
      SAMPLE_USER,
      'GET',
      `/api/rollouts/plan?captures=${query}&commit=x`,
    );
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ field: 'querystring.commit' });
    const unknown = await call(
      SAMPLE_USER,
      'GET',
      `/api/rollouts/plan?captures=${query}&commit=${'f'.repeat(40)}`,
    );
    expect(unknown.statusCode).toBe(404);

    const created = await call(SAMPLE_USER, 'POST', '/api/rollouts', {
      captures,
      commitId: earlier,
      rings: [{ name: 'Ring 1', clients: ['NWT', 'CON', 'FAB'] }],
    });
    expect(created.statusCode).toBe(201);
    expect((created.json() as RolloutDto).commitId).toBe(earlier);
  }, 120_000);

  it('refuses rings that name a client without a plan (400 naming rings)', async () => {
    const response = await call(SAMPLE_USER, 'POST', '/api/rollouts', {
      captures,
      rings: [{ name: 'Ring 1', clients: ['ABC'] }],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'rings' });
  });

  it('creates the rollout in two rings; one of 50 concurrent starts starts it', async () => {
    const created = await call(SAMPLE_USER, 'POST', '/api/rollouts', {
      captures,
      rings: [
        { name: 'Ring 1', clients: ['NWT', 'CON'] },
        { name: 'Ring 2', clients: ['FAB'] },
      ],
    });
    expect(created.statusCode).toBe(201);
    rollout = created.json() as RolloutDto;
    expect(rollout).toMatchObject({ status: 'planned', createdBy: SAMPLE_USER });
    expect(rollout.rings.map((r) => r.maxFailures)).toEqual([0, 0]);

    const starts = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(SAMPLE_USER, 'POST', `/api/rollouts/${rollout.id}/start`),
      ),
    );
    expect(starts.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(starts.filter((r) => r.statusCode === 409)).toHaveLength(49);
  }, 120_000);

  it('halts when a tenant of ring 1 fails, naming it with its run', async () => {
    const wwi = world.find('CON')!;
    world.setScenarios(wwi.tenantId, {
      failingWorkload: { workload: 'ConditionalAccess', status: 503 },
    });
    await pass();
    await pass();
    const halted = await read();
    expect(halted.status).toBe('halted');
    expect(halted.failed).toEqual(['CON']);
    expect(halted.deploys['CON']).toMatchObject({ status: 'failed', runId: expect.any(Number) });
    expect(halted.deploys['NWT']).toMatchObject({ status: 'succeeded' });
    expect(halted.deploys['FAB']).toMatchObject({ status: 'pending' });
    expect(liveState('NWT')).toBe(changed.after);
    // ring 2 does not start while halted
    await pass();
    expect((await read()).deploys['FAB']?.status).toBe('pending');
  }, 120_000);

  it('resumes after the fix: CON deployed again, then ring 2, then succeeded', async () => {
    world.setScenarios(world.find('CON')!.tenantId, { failingWorkload: null });
    expect((await call(SAM, 'POST', `/api/rollouts/${rollout.id}/resume`)).statusCode).toBe(403);
    const resumed = await call(PRIYA, 'POST', `/api/rollouts/${rollout.id}/resume`);
    expect(resumed.statusCode).toBe(200);
    for (let i = 0; i < 4 && (await read()).status !== 'succeeded'; i += 1) await pass();
    const done = await read();
    for (const code of ['NWT', 'CON', 'FAB']) {
      const deploy = await deployOf(done, code);
      // the log is in the message when it failed
      expect(deploy.status === 'succeeded' ? deploy.status : deploy.log).toBe('succeeded');
    }
    expect(done.status).toBe('succeeded');
    expect(Object.values(done.deploys).map((d) => d.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    for (const code of ['NWT', 'CON', 'FAB']) expect(liveState(code)).toBe(changed.after);
  }, 180_000);

  it("rolls back: each tenant's changed objects return to their state before the rollout", async () => {
    const started = await call(PRIYA, 'POST', `/api/rollouts/${rollout.id}/rollback`);
    expect(started.statusCode).toBe(200);
    expect((started.json() as RolloutDto).status).toBe('rolling-back');
    for (let i = 0; i < 3 && (await read()).status === 'rolling-back'; i += 1) await pass();
    const back = await read();
    expect(back.status).toBe('rolled-back');
    for (const code of ['NWT', 'CON', 'FAB']) expect(liveState(code)).toBe(before[code]);
  }, 180_000);
});
