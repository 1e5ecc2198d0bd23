// Issue 32 item 2, ADR 060: two server instances behind one load balancer, sharing nothing but
// Azure DevOps and Table storage. Each request goes over HTTP to one instance or the other, and
// what one instance did is what the other sees and enforces.
import { createTablesClient, odata } from '@aegis/connectors/tables';
import type { AcceptedDeviationsConfig } from '@aegis/domain';
import { AUDIT_TABLE } from '@aegis/domain';
import { BACKUP_PIPELINE_ID, backupEffect } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from './devops-fixture';
import type { TestApp } from './helper';

const ALEX = 'alex.morgan@aegis-msp.example'; // Administrator
const PRIYA = 'priya.shah@aegis-msp.example'; // Approver, ran capture 1017 of ABC
const APP = {
  AppName: '',
  Architecture: 'x64',
  Channel: '',
  CheckSum: '',
  CheckSum64: '',
  Description: 'An app added while the other instance adds its own.',
  Install: 'msiexec /i app.msi /qn',
  Publisher: 'Contoso',
  SoftwareName: '',
  Stream: '',
  InstallFileType: 'msi',
  UninstallFileType: 'msi',
  URI: 'https://downloads.contoso.example/app.msi',
  DownloadFileType: 'msi',
  Uninstall: '',
  UninstallerLocation: '',
  Version: '1.0.0',
  ExitCode: '@(0, 3010)',
  AssignmentScopeAvailable: 'All Users',
  AssignmentScopeRequired: 'All Devices',
  ProjectURL: 'https://contoso.example',
  TableVersion: '',
  IconPath: 'https://aegis-msp.example/icons/app.png',
  InstallExperience: 'system',
  Status: 'Enabled',
};

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One instance, listening on a port of its own, called over HTTP as the browser does. */
class Instance {
  constructor(
    readonly t: TestApp,
    readonly url: string,
  ) {}

  static async listen(t: TestApp): Promise<Instance> {
    return new Instance(t, await t.app.listen({ port: 0, host: '127.0.0.1' }));
  }

  async call(user: string | undefined, method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = {};
    if (user) headers.authorization = `Bearer ${await this.t.idp.issueToken(user)}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    } satisfies Answer;
  }
}

describe('two instances against the same DevOps and Table storage (ADR 060)', () => {
  let env: AppWithDevOps;
  let a: Instance;
  let b: Instance;
  // the instances' one clock (tally windows, claims): moved by the test, never read from the wall
  let clock = new Date();
  clock.setUTCSeconds(0, 0);
  const now = () => clock;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ pipelineDurationInMs: 200, tables: true, ports: { now } });
    a = await Instance.listen(env.t);
    b = await Instance.listen(await env.another());
  });
  afterAll(() => env?.close());

  const through = (i: number) => (i % 2 === 0 ? a : b);

  it('loses no app added through either: 50 adds at once, split across the instances, are all stored', async () => {
    expect(a.url).not.toBe(b.url);
    expect((await a.call(ALEX, 'POST', '/api/app-tables', { clientCode: 'TWO' })).status).toBe(201);
    const names = Array.from({ length: 50 }, (_, i) => `Shared App ${String(i).padStart(2, '0')}`);
    const answers = await Promise.all(
      names.map((name, i) =>
        through(i).call(ALEX, 'POST', '/api/app-tables/TWOWorkstationApps/apps', {
          app: { ...APP, AppName: name, SoftwareName: name },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 200));
    for (const reader of [a, b]) {
      const rows = (await reader.call(ALEX, 'GET', '/api/app-tables/TWOWorkstationApps/rows')).body
        .rows as { AppName: string; RowKey: string }[];
      expect(rows.map((row) => row.AppName).sort()).toEqual(names);
      expect(new Set(rows.map((row) => row.RowKey)).size).toBe(50);
    }
  });

  it('starts one manual backup of a client, whichever instances the clicks reach', async () => {
    // the backup run waits for the test to let it finish, so "still running" does not depend on timing
    let finish: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (finish = resolve));
    env.devops.emulator.runner.register(BACKUP_PIPELINE_ID, async (context) => {
      await running;
      return backupEffect(context);
    });
    const [first, second] = await Promise.all([
      a.call(ALEX, 'POST', '/api/backups/WWI/runs'),
      b.call(ALEX, 'POST', '/api/backups/WWI/runs'),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    const started = first.status === 201 ? first : second;
    const refused = first.status === 409 ? first : second;
    expect(refused.body.message).toBe(
      `A manual backup of WWI is already running (run ${String(started.body.runId)}). Wait until it completes, then start another.`,
    );
    // the instance that did not start it refuses too while the run is active
    const other = first.status === 201 ? b : a;
    expect((await other.call(ALEX, 'POST', '/api/backups/WWI/runs')).status).toBe(409);
    finish();
    await env.devops.emulator.runner.waitForIdle();
    env.devops.emulator.runner.register(BACKUP_PIPELINE_ID, backupEffect);
    // once it completed, the other instance starts the next one
    const next = await other.call(ALEX, 'POST', '/api/backups/WWI/runs');
    expect(next.status).toBe(201);
    expect(next.body.runId).not.toBe(started.body.runId);
    await env.devops.emulator.runner.waitForIdle();
  });

  it('approves a capture once: the other instance sees the pull request and refuses a second approval', async () => {
    const approval = {
      branch: 'client-ABC-capture-1017',
      comments: 'Reviewed every change with the client before approving.',
      acknowledged: true,
      summary: { modified: 1, added: 0, deleted: 0 },
    };
    const [first, second] = await Promise.all([
      a.call(ALEX, 'POST', '/api/capture/clients/ABC/pull-requests', approval),
      b.call(ALEX, 'POST', '/api/capture/clients/ABC/pull-requests', approval),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    const created = first.status === 201 ? first : second;
    for (const reader of [a, b]) {
      const branches = (await reader.call(ALEX, 'GET', '/api/capture/clients/ABC/branches')).body
        .branches as { name: string; pullRequest?: { pullRequestId: number; status: string } }[];
      expect(branches.find((branch) => branch.name === approval.branch)?.pullRequest).toMatchObject(
        { pullRequestId: created.body.pullRequestId, status: 'active' },
      );
      const again = await reader.call(
        ALEX,
        'POST',
        '/api/capture/clients/ABC/pull-requests',
        approval,
      );
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(
        `Pull request #${String(created.body.pullRequestId)} for ${approval.branch} is already open and awaiting approval in Azure DevOps.`,
      );
    }
  });

  it('keeps every acceptance made through either, and a critical one is decided once', async () => {
    const report = (await a.call(PRIYA, 'GET', '/api/compliance/FAB')).body as {
      compliance: {
        deviations: {
          path: string;
          policyName: string;
          category: string;
          deviations: { property: string; severity: string }[];
        }[];
      };
    };
    const groups = report.compliance.deviations;
    const critical = groups.find((g) => g.deviations.some((d) => d.severity === 'critical'));
    const plain = groups.filter(
      (g) => g !== critical && g.deviations.every((d) => d.severity !== 'critical'),
    );
    expect(critical).toBeDefined();
    expect(plain.length).toBeGreaterThanOrEqual(2);
    const accept = (group: (typeof groups)[number], properties: string[]) => ({
      path: group.path,
      policyName: group.policyName,
      category: group.category,
      properties,
      reason: 'Reviewed with the client; they keep their own setting for now',
    });
    // two acceptances at once through the two instances: both land in the one file on main
    const both = await Promise.all(
      plain.slice(0, 2).map((group, i) =>
        through(i).call(
          PRIYA,
          'POST',
          '/api/compliance/FAB/accepted-deviations',
          accept(
            group,
            group.deviations.map((d) => d.property),
          ),
        ),
      ),
    );
    expect(both.map((answer) => answer.status)).toEqual([200, 200]);

    // a critical one asked on one instance waits; approved on the other; decided only once
    const properties = critical!.deviations
      .filter((d) => d.severity === 'critical')
      .map((d) => d.property);
    const asked = await a.call(
      PRIYA,
      'POST',
      '/api/compliance/FAB/accepted-deviations',
      accept(critical!, properties),
    );
    expect(asked.status).toBe(202);
    const decide = (instance: Instance) =>
      instance.call(ALEX, 'POST', '/api/compliance/FAB/accepted-deviations/decisions', {
        path: critical!.path,
        decision: 'approve',
      });
    const approved = await decide(b);
    expect(approved.status).toBe(200);
    expect((await decide(a)).status).toBe(404);

    const file = approved.body as unknown as AcceptedDeviationsConfig;
    for (const group of [...plain.slice(0, 2), critical!]) {
      expect(file.acceptedDeviations.map((d) => d.path)).toContain(group.path);
    }
    expect(file.pendingAcceptances ?? []).toEqual([]);
    const seenByA = (await a.call(PRIYA, 'GET', '/api/compliance/FAB')).body as typeof report;
    const open = seenByA.compliance.deviations.map((g) => g.path);
    for (const group of [...plain.slice(0, 2), critical!]) {
      expect(open).not.toContain(group.path);
    }
  });

  it('writes the tally of refused changes once per window, with both instances counting', async () => {
    const tables = createTablesClient({ connectionString: env.azurite!.connectionString });
    const action = 'POST /api/app-tables';
    const tallies = async () =>
      (
        await tables.queryEntities(AUDIT_TABLE, {
          filter: odata`Action eq ${action} and ActorUpn eq ${'(unauthenticated)'}`,
        })
      ).entities.map((row) => ({
        at: row.At,
        details: JSON.parse(String(row.Details)) as { attempts: number; noToken: number },
      }));
    const refuse = (count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          through(i).call(undefined, 'POST', '/api/app-tables', { clientCode: 'NOP' }),
        ),
      );
    const first = clock.toISOString();
    expect((await refuse(30)).every((answer) => answer.status === 401)).toBe(true);
    // the next window: each instance closes the first as its next attempt arrives
    clock = new Date(clock.getTime() + 60_000);
    const second = clock.toISOString();
    expect((await refuse(12)).every((answer) => answer.status === 401)).toBe(true);
    await vi.waitFor(async () => {
      expect(await tallies()).toEqual([
        expect.objectContaining({ at: first, details: expect.objectContaining({ attempts: 30 }) }),
      ]);
    }, 20_000);
    // stopping closes the open window on both instances: still one row for it
    await b.t.close();
    await a.t.close();
    const rows = await tallies();
    expect(rows).toHaveLength(2);
    expect(rows).toContainEqual(
      expect.objectContaining({ at: second, details: expect.objectContaining({ attempts: 12 }) }),
    );
  });
});
