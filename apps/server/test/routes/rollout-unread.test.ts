// A rollout whose plan could not read a workload of some tenants (issue 30, ADR 087): the plan
// flags those tenants in the service's words, and the rollout starts only once an Approver has
// acknowledged or excluded each, on the rollout as they read it.
import type { RolloutDto, RolloutPlanDto, RolloutPlanStarted } from '@aegis/contracts';
import { TenantWorld } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';
import { SAMPLE_USER } from '../helper';

const PRIYA = 'priya.shah@aegis-msp.example';
const SAM = 'sam.taylor@aegis-msp.example';

describe('a rollout planned from reads that could not see a workload', () => {
  let env: AppWithDevOps;
  const world = new TenantWorld({ propagationDelayInMs: 0 });
  let rollout: RolloutDto;

  const call = (user: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    env.t.injectAs(user, { method, url, ...(payload ? { payload } : {}) });
  const read = async () =>
    (await call(SAMPLE_USER, 'GET', `/api/rollouts/${rollout.id}`)).json() as RolloutDto;
  const decide = (user: string, body: object) =>
    call(user, 'POST', `/api/rollouts/${rollout.id}/unread-decisions`, body);

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ pipelineDurationInMs: 0, world, tables: true });
    // NWT's app is refused conditional access (Graph's 403), CON's service fails on it
    world.setScenarios(world.find('NWT')!.tenantId, {
      failingWorkload: { workload: 'ConditionalAccess/Policy', status: 403 },
    });
    world.setScenarios(world.find('CON')!.tenantId, {
      failingWorkload: { workload: 'ConditionalAccess/Policy', status: 503 },
    });
  }, 120_000);
  afterAll(() => env?.close());

  it('flags the tenants whose read missed a workload, with the reason in the service’s words', async () => {
    const started = await call(SAMPLE_USER, 'POST', '/api/rollouts/plans', {
      clients: ['NWT', 'CON', 'FAB'],
    });
    expect(started.statusCode).toBe(201);
    const { captures } = started.json() as RolloutPlanStarted;
    await env.devops.emulator.runner.waitForIdle();
    const query = captures.map((c) => `${c.client}:${c.runId}`).join(',');
    const planned = await call(SAMPLE_USER, 'GET', `/api/rollouts/plan?captures=${query}`);
    expect(planned.statusCode).toBe(200);
    const plan = planned.json() as RolloutPlanDto;
    const byClient = Object.fromEntries(plan.tenants.map((t) => [t.client, t.plan]));
    expect(byClient['NWT']?.unread).toEqual([
      {
        workload: 'ConditionalAccess/Policy',
        status: 'notPermitted',
        text: expect.stringMatching(
          /^Not captured: the Aegis app lacks .+ \(Authorization_RequestDenied: Insufficient privileges to complete the operation\.\)$/,
        ),
        baselinePolicies: expect.any(Number),
      },
    ]);
    expect(byClient['CON']?.unread).toEqual([
      expect.objectContaining({
        workload: 'ConditionalAccess/Policy',
        status: 'failed',
        text: expect.stringMatching(/^Not captured: the service answered 503: /),
      }),
    ]);
    expect(byClient['FAB']?.unread).toBeUndefined();
    // the baseline's conditional access policies are planned all the same: the deploy writes them
    expect(byClient['NWT']?.unread?.[0]?.baselinePolicies).toBeGreaterThan(0);

    const created = await call(PRIYA, 'POST', '/api/rollouts', {
      captures,
      rings: [{ name: 'Ring 1', clients: ['NWT', 'CON', 'FAB'] }],
    });
    expect(created.statusCode).toBe(201);
    rollout = created.json() as RolloutDto;
    expect(rollout.rings[0]?.clients).toEqual(expect.arrayContaining(['NWT', 'CON']));
  }, 180_000);

  it('does not start while a flagged tenant is undecided (409 naming them)', async () => {
    const start = await call(PRIYA, 'POST', `/api/rollouts/${rollout.id}/start`);
    expect(start.statusCode).toBe(409);
    expect(start.json()).toMatchObject({
      message:
        'The plan could not read some workloads of NWT, CON: acknowledge or exclude each of these tenants before the rollout starts.',
    });
    expect((await read()).status).toBe('planned');
  });

  it('refuses a decision with a bad field (400 naming it) or from an Operator (403)', async () => {
    const { etag } = await read();
    expect(etag).toEqual(expect.any(String));
    const badDecision = await decide(PRIYA, { client: 'NWT', decision: 'maybe', etag });
    expect(badDecision.statusCode).toBe(400);
    expect(badDecision.json()).toMatchObject({ field: 'body.decision' });
    const noEtag = await decide(PRIYA, { client: 'NWT', decision: 'acknowledged' });
    expect(noEtag.statusCode).toBe(400);
    expect(noEtag.json()).toMatchObject({ field: 'body.etag' });
    const badClient = await decide(PRIYA, { client: 'nwt!', decision: 'acknowledged', etag });
    expect(badClient.statusCode).toBe(400);
    expect(badClient.json()).toMatchObject({ field: 'body.client' });
    const operator = await decide(SAM, { client: 'NWT', decision: 'acknowledged', etag });
    expect(operator.statusCode).toBe(403);
    expect((await read()).unreadDecisions).toBeUndefined();
  });

  it('records an acknowledgement on the rollout as read; a stale etag is a 409', async () => {
    const { etag: first } = await read();
    const acknowledged = await decide(PRIYA, {
      client: 'NWT',
      decision: 'acknowledged',
      etag: first,
    });
    expect(acknowledged.statusCode).toBe(200);
    const after = acknowledged.json() as RolloutDto;
    expect(after.unreadDecisions).toEqual({
      NWT: { decision: 'acknowledged', by: PRIYA, at: expect.any(String) },
    });
    expect(after.etag).not.toBe(first);

    const stale = await decide(PRIYA, { client: 'CON', decision: 'excluded', etag: first });
    expect(stale.statusCode).toBe(409);
    expect((await read()).unreadDecisions?.['CON']).toBeUndefined();

    const excluded = await decide(PRIYA, { client: 'CON', decision: 'excluded', etag: after.etag });
    expect(excluded.statusCode).toBe(200);
    const decided = excluded.json() as RolloutDto;
    expect(decided.rings[0]?.clients).not.toContain('CON');
    expect(decided.deploys['CON']).toBeUndefined();
    // the plan still says why CON was left out
    expect(decided.plan.find((p) => p.client === 'CON')?.unread).toHaveLength(1);
  });

  it('starts once every flagged tenant is decided, and the audit trail names the decisions', async () => {
    const start = await call(PRIYA, 'POST', `/api/rollouts/${rollout.id}/start`);
    expect(start.statusCode).toBe(200);
    expect((start.json() as RolloutDto).status).toBe('running');
    const action = encodeURIComponent('POST /api/rollouts/:id/unread-decisions');
    const succeeded = async () => {
      const audit = await call(SAMPLE_USER, 'GET', `/api/audit?actor=${PRIYA}&action=${action}`);
      const { events } = audit.json() as {
        events: { action: string; result: { outcome: string } }[];
      };
      return events.filter((e) => e.result.outcome === 'succeeded').length;
    };
    // the acknowledgement of NWT and the exclusion of CON
    await expect.poll(succeeded).toBe(2);
  });
});
