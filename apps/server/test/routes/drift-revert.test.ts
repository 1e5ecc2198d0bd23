// Reverting drift (issue 28 §5, ADR 071) on the stack `npm start` runs: ABC's sample drift (two
// changed policies, one added, one removed) is found by a check, then chosen objects are put back
// by the deploy pipeline's task into the tenant emulator, and the tenant is read back.
import type { BackupRun, ClientDriftDto, DriftRevertStartedDto } from '@aegis/contracts';
import { TenantWorld } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';

const READER = 'night.shift@aegis-msp.example';
const OPERATOR = 'sam.taylor@aegis-msp.example';
const APPROVER = 'priya.shah@aegis-msp.example';

const ROOT = '/Clients/ABC/M365Config/Resources';
const CA004 = `${ROOT}/ConditionalAccess/Policy/CA004-Global-IdentityProtection-AnyApp-AnyPlatform-MFA-RiskySignIn.json`;
const CA900 = `${ROOT}/ConditionalAccess/Policy/CA900-ABC-Finance-AnyApp-AnyPlatform-BLOCK-Weekend.json`;
const ORGANIZATION = `${ROOT}/Exchange/OrganizationConfig/Organization Config.json`;
const IOS = `${ROOT}/Intune/DeviceConfiguration/Baseline - iOSiPadOS - Device Restrictions.json`;

describe('reverting drift into the tenant', () => {
  let env: AppWithDevOps;
  const world = new TenantWorld({ propagationDelayInMs: 0 });
  /** ABC's live objects of a workload, as the tenant emulator holds them */
  const live = (workload: string) => {
    const tenant = world.find('ABC');
    if (!tenant) throw new Error('no ABC tenant');
    return [...(world.state(tenant.tenantId).config.get(workload)?.values() ?? [])];
  };
  const named = (workload: string, prefix: string) =>
    live(workload).filter((o) => String(o.displayName ?? '').startsWith(prefix));

  const drift = async () =>
    (await env.t.injectAs(READER, { method: 'GET', url: '/api/drift/ABC' })).json<ClientDriftDto>();
  const check = async () => {
    const started = await env.t.injectAs(OPERATOR, {
      method: 'POST',
      url: '/api/drift/ABC/checks',
    });
    expect(started.statusCode).toBe(202);
    await env.devops.emulator.runner.waitForIdle();
    return drift();
  };
  const revert = (objects: unknown, as = APPROVER) =>
    env.t.injectAs(as, {
      method: 'POST',
      url: '/api/drift/ABC/revert-runs',
      payload: { objects },
    });
  const revertAndWait = async (objects: string[]) => {
    const started = await revert(objects);
    expect(started.statusCode).toBe(201);
    const { runId } = started.json<DriftRevertStartedDto>();
    await env.devops.emulator.runner.waitForIdle();
    const run = await env.t.injectAs(READER, {
      method: 'GET',
      url: `/api/backups/ABC/restore-runs/${runId}`,
    });
    return run.json<BackupRun>();
  };

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ pipelineDurationInMs: 0, world, tables: true });
  }, 60_000);
  afterAll(() => env?.close());

  it('puts back exactly the chosen objects, then the rest, and the drift resolves', async () => {
    const first = await check();
    expect(first.check?.objects.map((o) => o.path).sort()).toEqual(
      [CA004, CA900, IOS, ORGANIZATION].sort(),
    );
    expect(named('ConditionalAccess/Policy', 'CA004')[0]?.state).toBe(
      'enabledForReportingButNotEnforced',
    );
    expect(named('ConditionalAccess/Policy', 'CA900')).toHaveLength(1);

    // the changed CA004 and the added CA900 only
    expect(await revertAndWait([CA004, CA900])).toMatchObject({
      state: 'completed',
      result: 'succeeded',
    });
    // read back from the tenant: CA004 as main approves it, CA900 gone, the others untouched
    expect(named('ConditionalAccess/Policy', 'CA004')[0]?.state).toBe('enabled');
    expect(named('ConditionalAccess/Policy', 'CA900')).toHaveLength(0);
    expect(named('Intune/DeviceConfiguration', 'Baseline - iOSiPadOS')).toHaveLength(0);
    expect(JSON.stringify(live('Exchange/OrganizationConfig'))).toMatch(/"AuditDisabled":true/);

    const second = await check();
    expect(second.check?.objects.map((o) => o.path).sort()).toEqual([IOS, ORGANIZATION].sort());
    expect(second.check?.status).toBe('drifted');

    expect(await revertAndWait([IOS, ORGANIZATION])).toMatchObject({ result: 'succeeded' });
    expect(named('Intune/DeviceConfiguration', 'Baseline - iOSiPadOS')).toHaveLength(1);
    expect(JSON.stringify(live('Exchange/OrganizationConfig'))).toMatch(/"AuditDisabled":false/);
    const third = await check();
    expect(third.check).toMatchObject({ status: 'inSync', driftedCount: 0 });
    expect(third.check?.resolvedAt).toBe(third.check?.checkedAt);
  });

  it('refuses an Operator, an object that is not drifted (409) and a bad body (400 naming it)', async () => {
    const operator = await revert([CA004], OPERATOR);
    expect(operator.statusCode).toBe(403);

    // ABC is in sync after the first test: nothing to revert
    const notDrifted = await revert([CA004]);
    expect(notDrifted.statusCode).toBe(409);
    expect(notDrifted.json<{ message: string }>().message).toMatch(/not drifted/);

    const none = await revert([]);
    expect(none.statusCode).toBe(400);
    expect(none.json<{ field: string }>().field).toBe('body.objects');
    const outside = await revert([
      '/Clients/CON/M365Config/Resources/ConditionalAccess/Policy/X.json',
    ]);
    expect(outside.statusCode).toBe(400);
    expect(outside.json<{ field: string }>().field).toBe('objects');
    const climbing = await revert([`${ROOT}/../../../../Baseline/x.json`]);
    expect(climbing.statusCode).toBe(400);
    expect(climbing.json<{ field: string }>().field).toBe('objects');
  });
});
