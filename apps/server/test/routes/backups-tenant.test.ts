// A manual backup made by the backup pipeline's task against the tenant emulator (issue 11 §4), as
// `npm start` wires it: the tag holds the tenant's live configuration (ABC's drift included) on a
// commit that is not on main, and the Tenant Backups operations (content, compare, download,
// restore) work on it as on any backup.
import type {
  BackupComparison,
  BackupContent,
  BackupList,
  BackupRestore,
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

  const get = (url: string) => env.t.injectAs(SAMPLE_USER, { method: 'GET', url });
  const post = (url: string, payload?: object) =>
    env.t.injectAs(SAMPLE_USER, { method: 'POST', url, ...(payload ? { payload } : {}) });
  const q = (name: string) => `tag=${encodeURIComponent(name)}`;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({
      pipelineDurationInMs: 0,
      world: new TenantWorld({ propagationDelayInMs: 0 }),
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
});
