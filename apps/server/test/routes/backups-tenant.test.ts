// A manual backup made by the backup pipeline's task against the tenant emulator (issue 11 §4), as
// `npm start` wires it: the tag holds the tenant's live configuration (ABC's drift included) on a
// commit that is not on main, and the Tenant Backups operations (content, compare, download,
// restore) work on it as on any backup.
import type {
  BackupComparison,
  BackupContent,
  BackupList,
  BackupRestore,
  BackupRun,
  ManualBackup,
  StreamEvent,
} from '@aegis/contracts';
import { TenantWorld } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';
import { SAMPLE_USER } from '../helper';

const DRIFT = {
  changed: [
    'M365Config/Resources/ConditionalAccess/Policy/CA004-Global-IdentityProtection-AnyApp-AnyPlatform-MFA-RiskySignIn.json',
    'M365Config/Resources/Exchange/OrganizationConfig/Organization Config.json',
  ],
  added:
    'M365Config/Resources/ConditionalAccess/Policy/CA900-ABC-Finance-AnyApp-AnyPlatform-BLOCK-Weekend.json',
  removed:
    'M365Config/Resources/Intune/DeviceConfiguration/Baseline - iOSiPadOS - Device Restrictions.json',
};

describe('a backup taken by the backup task from the live tenant', () => {
  let env: AppWithDevOps;
  let tag: string;
  const world = new TenantWorld({ propagationDelayInMs: 0 });
  /** ABC's live conditional access policies, by display name */
  const policies = () => {
    const tenant = world.find('ABC');
    if (!tenant) throw new Error('no ABC tenant');
    const live = world.state(tenant.tenantId).config.get('ConditionalAccess/Policy');
    if (!live) throw new Error('ABC has no conditional access policies');
    return live;
  };
  const policyNamed = (prefix: string) => {
    const found = [...policies()].find(([, p]) => String(p.displayName).startsWith(prefix));
    if (!found) throw new Error(`no policy ${prefix}`);
    return found;
  };
  /** someone changes a policy in the tenant, outside Aegis */
  const disable = (prefix: string) => {
    const [id, policy] = policyNamed(prefix);
    policies().set(id, { ...policy, state: 'disabled' });
  };

  const get = (url: string) => env.t.injectAs(SAMPLE_USER, { method: 'GET', url });
  const post = (url: string, payload?: object) =>
    env.t.injectAs(SAMPLE_USER, { method: 'POST', url, ...(payload ? { payload } : {}) });
  const q = (name: string) => `tag=${encodeURIComponent(name)}`;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({
      pipelineDurationInMs: 0,
      world,
      tables: true,
    });
    const before = ((await get('/api/backups/ABC')).json() as BackupList).backups.map(
      (b) => b.tagName,
    );
    const started = await post('/api/backups/ABC/runs');
    if (started.statusCode !== 201) throw new Error(`backup not started: ${started.body}`);
    await env.devops.emulator.runner.waitForIdle();
    const added = ((await get('/api/backups/ABC')).json() as BackupList).backups.filter(
      (b) => !before.includes(b.tagName),
    );
    if (added.length !== 1) throw new Error(`expected one new backup, got ${added.length}`);
    tag = added[0]!.tagName;
  }, 60_000);
  afterAll(() => env?.close());

  it('is a manual backup', () => {
    expect(tag).toMatch(/^backup\/ABC\/\d{8}_\d{6}$/);
  });

  it("holds the tenant's live configuration, drift included", async () => {
    const response = await get(`/api/backups/ABC/content?${q(tag)}`);
    expect(response.statusCode).toBe(200);
    const { content } = response.json() as BackupContent;
    expect(Object.keys(content)).toContain(DRIFT.added);
    expect(Object.keys(content)).not.toContain(DRIFT.removed);
    expect(JSON.stringify(content[DRIFT.changed[0]!])).toContain(
      'enabledForReportingButNotEnforced',
    );
    expect(JSON.stringify(content[DRIFT.changed[1]!])).toMatch(/"AuditDisabled":\s*true/);
  });

  it('compares with the current configuration: exactly the drift differs', async () => {
    const response = await get(`/api/backups/ABC/comparison?${q(tag)}`);
    expect(response.statusCode).toBe(200);
    const last = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as StreamEvent<BackupComparison>)
      .at(-1);
    if (last?.type !== 'result') throw new Error(`no result: ${JSON.stringify(last)}`);
    const differing = Object.entries(last.result.results).flatMap(([category, files]) =>
      Object.entries(files)
        .filter(([, rows]) => rows.some((row) => !row.Equal))
        .map(([file]) => `${category}: ${file}`),
    );
    const name = (path: string) => path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
    expect(differing.length).toBe(4);
    for (const path of [...DRIFT.changed, DRIFT.added, DRIFT.removed]) {
      expect(differing.some((d) => d.includes(name(path)))).toBe(true);
    }
  });

  it('downloads as a zip', async () => {
    const response = await get(`/api/backups/ABC/download?${q(tag)}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('restores through a pull request', async () => {
    const response = await post('/api/backups/ABC/restore', { tag });
    expect(response.statusCode).toBe(201);
    const restored = response.json() as BackupRestore;
    expect(restored.pullRequestId).toBeGreaterThan(0);
    expect(restored.branch).toBe(`restore/ABC/${tag.replace(/[^A-Za-z0-9]/g, '-')}`);
  });

  it('puts exactly the chosen policy back into the tenant, as the backup has it', async () => {
    const ca004 = DRIFT.changed[0]!.slice('M365Config/Resources/'.length);
    const inBackup = policyNamed('CA004')[1].state;
    expect(inBackup).toBe('enabledForReportingButNotEnforced');
    disable('CA004');
    disable('CA001');

    const started = await post('/api/backups/ABC/restore-runs', { tag, policies: [ca004] });
    expect(started.statusCode).toBe(201);
    const run = started.json() as ManualBackup;
    await env.devops.emulator.runner.waitForIdle();
    const done = await get(`/api/backups/ABC/restore-runs/${run.runId}`);
    expect(done.json() as BackupRun).toMatchObject({ state: 'completed', result: 'succeeded' });

    // read back from the tenant: the chosen policy as the backup has it, the other one untouched
    expect(policyNamed('CA004')[1].state).toBe(inBackup);
    expect(policyNamed('CA001')[1].state).toBe('disabled');
  });

  it('refuses a tenant restore without policies or of a policy it does not know', async () => {
    const none = await post('/api/backups/ABC/restore-runs', { tag, policies: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ field: 'body.policies' });
    const unknown = await post('/api/backups/ABC/restore-runs', {
      tag,
      policies: ['ConditionalAccess/Policy/Nothing.json'],
    });
    expect(unknown.statusCode).toBe(404);
    const operator = await env.t.injectAs('sam.taylor@aegis-msp.example', {
      method: 'POST',
      url: '/api/backups/ABC/restore-runs',
      payload: { tag, policies: ['ConditionalAccess/Policy/Nothing.json'] },
    });
    expect(operator.statusCode).toBe(403);
  });
});
