import type { DevOpsApi, FileChange } from '@aegis/connectors/devops';
import type { Fleet, FleetTrend, FleetTrendList } from '@aegis/contracts';
import {
  buildCaptureManifest,
  captureManifestPath,
  FLEET_MISSING,
  renderCaptureManifest,
} from '@aegis/domain';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS, STAFF_ACCOUNTS } from '@aegis/emulators';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  buildWithSeededDevOps,
  mainWriterOf,
  type AppWithDevOps,
  type DevOpsFixture,
} from '../devops-fixture';
import { SAMPLE_USER, type TestApp } from '../helper';

const REPO = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };

describe('fleet routes', () => {
  let t: TestApp;
  let devops: DevOpsFixture;
  let env: AppWithDevOps;
  let git: DevOpsApi;

  beforeAll(async () => {
    env = await buildWithSeededDevOps();
    ({ t, devops } = env);
    // arranging main is a merge, so as the identity that may push there (ADR 051)
    git = mainWriterOf(t);
  });
  afterEach(() => devops.emulator.faults.clear());
  afterAll(() => env.close());

  const get = (url: string) => t.injectAs(SAMPLE_USER, { method: 'GET', url });
  /** One commit on main's tip. */
  const pushToMain = async (comment: string, changes: FileChange[]) => {
    const [main] = await git.listRefs(REPO, 'heads/main');
    return git.push(REPO, {
      branch: 'main',
      oldObjectId: main?.commitId ?? '',
      commits: [{ comment, changes }],
    });
  };
  const fleet = async () => {
    const response = await get('/api/fleet');
    expect(response.statusCode).toBe(200);
    return response.json() as Fleet;
  };

  it('needs a signed-in user and validates its input', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/fleet' })).statusCode).toBe(401);
    const bad = await get('/api/fleet/abc/trend');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'params.client' });
    const points = await get('/api/fleet/ABC/trend?points=0');
    expect(points.statusCode).toBe(400);
    expect(points.json()).toMatchObject({ field: 'querystring.points' });
  });

  /** Counts the zip downloads the server asks the emulator for while `work` runs. */
  const zipsDuring = async (work: () => Promise<unknown>) => {
    const id = devops.emulator.faults.add({
      kind: 'latency',
      latencyInMs: 0,
      queryPattern: 'format=zip',
    });
    try {
      await work();
      return devops.emulator.faults.list().find((f) => f.id === id)?.hits ?? 0;
    } finally {
      devops.emulator.faults.remove(id);
    }
  };

  it('gives every sample client real figures that agree with the compliance report', async () => {
    let body = undefined as unknown as Fleet;
    // cold: the client folders come from one zip of /Clients (ADR 036), the baseline from another,
    // the baseline layers from a third (ADR 068)
    expect(
      await zipsDuring(async () => {
        body = await fleet();
      }),
    ).toBe(3);
    expect(body.rows.map((r) => r.client)).toEqual(['ABC', 'CON', 'FAB', 'NWT', 'WGB', 'WWI']);
    for (const row of body.rows.filter((r) => r.client !== 'WGB')) {
      const report = (await get(`/api/compliance/${row.client}`)).json() as {
        compliance: {
          compliancePercentage: number;
          criticalCount: number;
          highCount: number;
          acceptedDeviationsCount: number;
        };
      };
      expect(row.compliancePercentage).toBe(report.compliance.compliancePercentage);
      expect(row.criticalCount).toBe(report.compliance.criticalCount);
      expect(row.highCount).toBe(report.compliance.highCount);
      expect(row.acceptedDeviations).toBe(report.compliance.acceptedDeviationsCount);
      expect(row.standardPercentage).toEqual(expect.any(Number));
      expect(row.lastCapture).toEqual(expect.any(String));
    }
    const byClient = new Map(body.rows.map((r) => [r.client, r]));
    // the seed's backup history: ABC daily (Healthy), CON 1 day late, FAB 6 days, WWI none
    expect(byClient.get('ABC')?.backupHealth).toBe('Healthy');
    expect(byClient.get('CON')?.backupHealth).toBe('Warning');
    expect(byClient.get('FAB')?.backupHealth).toBe('Critical');
    expect(byClient.get('WWI')?.backupHealth).toBe('No Backups');
    expect(byClient.get('WWI')?.status).toBe('critical');
    expect(byClient.get('WWI')?.missing).toContain(FLEET_MISSING.noBackups);
    // ABC has two capture branches waiting for review
    expect(byClient.get('ABC')?.pendingReviews).toBe(2);
    // WGB deploys apps (its pipeline YAML) but was never captured: listed, with what it lacks
    const wgb = byClient.get('WGB');
    expect(wgb).toMatchObject({
      compliancePercentage: null,
      criticalCount: null,
      standardPercentage: null,
      lastCapture: null,
      lastBackup: null,
      clientTreeId: null,
    });
    expect(wgb?.missing).toEqual(
      expect.arrayContaining([
        FLEET_MISSING.noConfiguration,
        FLEET_MISSING.noBackups,
        FLEET_MISSING.noCapture,
      ]),
    );
    // nothing of it can be judged: Data missing, and the summary counts it there, not as Critical
    expect(wgb?.status).toBe('incomplete');
    const counts = body.summary;
    expect(counts.incomplete).toBe(body.rows.filter((r) => r.status === 'incomplete').length);
    expect(counts.incomplete).toBeGreaterThanOrEqual(1);
    expect(counts.clients).toBe(6);
    expect(counts.compliant + counts.atRisk + counts.critical + counts.incomplete).toBe(6);
    expect(body.worstDeviations.length).toBeGreaterThan(0);
    expect(body.worstDeviations.length).toBeLessThanOrEqual(5);
    const [worst] = body.worstDeviations;
    expect(worst?.clientCount).toBe(worst?.clients.length);
  });

  it('says what is missing when a source fails, and never shows such a client compliant', async () => {
    devops.emulator.faults.add({ kind: 'error', statusCode: 500, pathPattern: '/pullrequests' });
    const body = await fleet();
    for (const row of body.rows) {
      expect(row.status).not.toBe('compliant');
      expect(row.lastCapture).toBeNull();
      expect(row.pendingReviews).toBeNull();
      expect(row.missing.some((m) => m.startsWith('Capture history could not be loaded'))).toBe(
        true,
      );
      // the other figures are still there (WGB never had any)
      expect(row.compliancePercentage === null).toBe(row.client === 'WGB');
    }
  });

  it('lists a client folder without configuration as missing data', async () => {
    await pushToMain('Add client folder NEW without a capture', [
      {
        changeType: 'add',
        path: '/Clients/NEW/.accepted-deviations.json',
        content: JSON.stringify({ acceptedDeviations: [] }),
      },
    ]);
    const body = await fleet();
    const row = body.rows.find((r) => r.client === 'NEW');
    expect(row).toBeDefined();
    expect(row?.compliancePercentage).toBeNull();
    expect(row?.missing).toContain(FLEET_MISSING.noConfiguration);
    expect(row?.missing).toContain(FLEET_MISSING.noCapture);
    expect(row?.status).not.toBe('compliant');
  });

  it('takes the first capture tenant onboarding commits to main as the last capture (no capture branch)', async () => {
    const readAt = '2026-11-20T09:30:00.000Z';
    await pushToMain('Onboard TSP: first capture of tailspintoys.com (run 900)', [
      {
        changeType: 'add',
        path: '/Clients/TSP/M365Config/Resources/Exchange/RemoteDomain/Default.json',
        content: JSON.stringify({ Identity: 'Default', AutoForwardEnabled: false }),
      },
      {
        changeType: 'add',
        path: captureManifestPath('TSP'),
        content: renderCaptureManifest(buildCaptureManifest(new Date(readAt), [])),
      },
    ]);
    const row = (await fleet()).rows.find((r) => r.client === 'TSP');
    expect(row?.lastCapture).toBe(readAt);
    expect(row?.missing).not.toContain(FLEET_MISSING.noCapture);
  });

  it("computes a client's trend from its merges and backups", async () => {
    const response = await get('/api/fleet/ABC/trend?points=30');
    expect(response.statusCode).toBe(200);
    const trend = response.json() as FleetTrend;
    expect(trend.points.length).toBeGreaterThan(3);
    expect(trend.points.length).toBeLessThanOrEqual(30);
    const dates = trend.points.map((p) => Date.parse(p.date));
    expect([...dates].sort((a, b) => a - b)).toEqual(dates);
    expect(trend.points.some((p) => p.source === 'merge')).toBe(true);
    expect(trend.points.some((p) => p.source === 'backup')).toBe(true);
    expect(trend.points.some((p) => p.label.startsWith('Merged PR: ABC'))).toBe(true);
    // the newest point is main's state, so it agrees with the fleet row
    const row = (await fleet()).rows.find((r) => r.client === 'ABC');
    const last = trend.points.at(-1);
    expect(last?.compliancePercentage).toBe(row?.compliancePercentage);
    // the baseline changed 92 days ago: ABC's compliance differs across its history
    const values = new Set(trend.points.map((p) => p.compliancePercentage));
    expect(values.size).toBeGreaterThan(1);

    const all = (await get('/api/fleet/trends?points=5')).json() as FleetTrendList;
    expect(all.trends.map((x) => x.client)).toContain('ABC');
    for (const x of all.trends) expect(x.points.length).toBeLessThanOrEqual(5);
    expect((await get('/api/fleet/ZZZ/trend')).statusCode).toBe(404);
  });

  it('follows main along first parents: a merged pull request is one point, its branch commits none', async () => {
    const file = '/Clients/CON/M365Config/Resources/Exchange/RemoteDomain/Default.json';
    const [main] = await git.listRefs(REPO, 'heads/main');
    const base = main?.commitId ?? '';
    const original = (await git.getFile(REPO, file))?.content ?? '';
    const edited = (n: number) =>
      JSON.stringify({ ...(JSON.parse(original) as object), AutoReplyEnabled: n % 2 === 0 });
    // a branch of two commits touching CON's folder
    const branch = 'fleet-test/con-two-commits';
    const commitTo = (oldObjectId: string, n: number) =>
      git.push(REPO, {
        branch,
        oldObjectId,
        commits: [
          {
            comment: `Branch commit ${n}`,
            changes: [{ changeType: 'edit', path: file, content: edited(n) }],
          },
        ],
      });
    const first = await commitTo(base, 1);
    const second = await commitTo(first.commitId, 2);
    // main moves on meanwhile, so the merge is a true merge of two lines
    await pushToMain('Unrelated change on main', [
      { changeType: 'add', path: '/docs/fleet-note.md', content: 'note\n' },
    ]);
    const pr = await git.createPullRequest(REPO, {
      sourceRefName: `refs/heads/${branch}`,
      targetRefName: 'refs/heads/main',
      title: 'CON settings',
    });
    const token = await t.idp.issueToken(SAMPLE_USER);
    const prUrl = `${devops.emulator.url}/${encodeURIComponent(REPO.project)}/_apis/git/repositories/${REPO.repository}/pullrequests/${pr.pullRequestId}`;
    // main's branch policy: a second person (Alex Morgan) approves before it completes
    const approved = await fetch(
      `${prUrl}/reviewers/5b1f6a0e-2f4c-4d8e-9a51-7c3e2b9d4f10?api-version=7.1`,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ vote: 10 }),
      },
    );
    expect(approved.status).toBe(200);
    const completed = await fetch(`${prUrl}?api-version=7.1`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'completed' }),
    });
    expect(completed.status).toBe(200);
    const [merged] = await git.listRefs(REPO, 'heads/main');
    const branchCommits = [first.commitId, second.commitId];
    // the service's default history follows the merged branch: its commits are listed
    const simplified = await git.listCommits(REPO, { itemPath: '/Clients/CON' });
    expect(simplified.map((c) => c.commitId)).toEqual(expect.arrayContaining(branchCommits));

    const trend = (await get('/api/fleet/CON/trend?points=100')).json() as FleetTrend;
    const merges = trend.points.filter((p) => p.source === 'merge');
    expect(merges.at(-1)).toMatchObject({
      commitId: merged?.commitId,
      label: `Merged PR ${pr.pullRequestId}: CON settings`,
    });
    expect(trend.points.some((p) => branchCommits.includes(p.commitId))).toBe(false);
    expect(trend.points.some((p) => p.label.startsWith('Branch commit'))).toBe(false);
    // the merge point's figures are main's at the merge
    const row = (await fleet()).rows.find((r) => r.client === 'CON');
    expect(trend.points.at(-1)?.compliancePercentage).toBe(row?.compliancePercentage);
  });

  it('reads the client folders one by one when the zip of all of them fails', async () => {
    const before = await fleet();
    // a baseline change: every client's summary is stale, so the fleet reads all folders again
    await pushToMain('Baseline: a note file', [
      {
        changeType: 'add',
        path: '/M365Config/Resources/notes.txt',
        content: 'not a policy',
      },
    ]);
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      queryPattern: 'path=%2FClients&%24format=zip',
      times: 1,
    });
    const zips = await zipsDuring(async () => {
      const after = await fleet();
      const figures = (f: Fleet) =>
        f.rows.map((r) => [r.client, r.compliancePercentage, r.criticalCount, r.missing.length]);
      expect(figures(after)).toEqual(figures(before));
      expect(after.commitId).not.toBe(before.commitId);
    });
    // the failed zip of /Clients, the new baseline, then one per client folder (WGB has none)
    expect(zips).toBe(2 + before.rows.filter((r) => r.clientTreeId !== null).length);
  });

  it('sixteen technicians opening the Fleet at once after a baseline change share one read of the client folders (ADR 088)', async () => {
    const before = await fleet();
    await pushToMain('Baseline: another note file', [
      {
        changeType: 'add',
        path: '/M365Config/Resources/another-note.txt',
        content: 'not a policy either',
      },
    ]);
    const clientsZip = devops.emulator.faults.add({
      kind: 'latency',
      latencyInMs: 0,
      queryPattern: 'path=%2FClients&%24format=zip',
    });
    // four accounts, each with as many heavy requests at once as one user may have (ADR 057)
    const technicians = STAFF_ACCOUNTS.filter((a) => a.roles.length > 0).flatMap((a) =>
      Array.from({ length: 4 }, () => a.upn),
    );
    expect(technicians).toHaveLength(16);
    let responses: { statusCode: number; json(): unknown }[] = [];
    const zips = await zipsDuring(async () => {
      responses = await Promise.all(
        technicians.map((upn) => t.injectAs(upn, { method: 'GET', url: '/api/fleet' })),
      );
    });
    expect(responses.map((r) => r.statusCode)).toEqual(technicians.map(() => 200));
    const pages = responses.map((r) => r.json() as Fleet);
    // one zip of /Clients and one of the new baseline, not one of /Clients per technician
    expect(devops.emulator.faults.list().find((f) => f.id === clientsZip)?.hits).toBe(1);
    expect(zips).toBe(2);
    const figures = (f: Fleet) =>
      f.rows.map((r) => [r.client, r.compliancePercentage, r.criticalCount, r.missing]);
    for (const page of pages) {
      expect(page.commitId).not.toBe(before.commitId);
      expect(figures(page)).toEqual(figures(before));
    }
  });

  it("leaves a workload the capture did not read out of the client's figures and names it", async () => {
    type Report = {
      compliance: {
        compliancePercentage: number;
        criticalCount: number;
        highCount: number;
        deviations: { path: string }[];
      };
    };
    const before = (await get('/api/compliance/CON')).json() as Report;
    const workloadOf = (path: string) =>
      path
        .replace(/^.*M365Config\/Resources\//, '')
        .split('/')
        .slice(0, 2)
        .join('/');
    const workload = workloadOf(before.compliance.deviations[0]?.path ?? '');
    expect(workload).toMatch(/^[^/]+\/[^/]+$/);
    const manifest = buildCaptureManifest(new Date('2026-11-01T00:00:00Z'), [
      [workload, { status: 'failed', httpStatus: 500, message: 'boom' }],
      ['Planner/TenantSettings', { status: 'noPublicApi' }],
    ]);
    await pushToMain('Capture of CON that could not read a workload', [
      {
        changeType: 'add',
        path: captureManifestPath('CON'),
        content: renderCaptureManifest(manifest),
      },
    ]);
    const failed = {
      workload,
      status: 'failed',
      text: 'Not captured: the service answered 500: boom',
    } as const;
    const row = (await fleet()).rows.find((r) => r.client === 'CON');
    expect(row?.notCaptured).toEqual([
      failed,
      {
        workload: 'Planner/TenantSettings',
        status: 'noPublicApi',
        text: 'Not captured: Microsoft publishes no API for it',
      },
    ]);
    // only the workload the tenant has but could not be read leaves the figures partial
    expect(row?.missing.filter((m) => m.includes('Not captured'))).toEqual([
      FLEET_MISSING.notCaptured(failed),
    ]);
    expect(row?.status).not.toBe('compliant');
    // the same figures as the report, which leaves the workload out too
    const after = (await get('/api/compliance/CON')).json() as Report;
    expect(after.compliance.deviations.filter((d) => workloadOf(d.path) === workload)).toEqual([]);
    expect(after.compliance.deviations.length).toBeLessThan(before.compliance.deviations.length);
    expect(row?.compliancePercentage).toBe(after.compliance.compliancePercentage);
    expect(row?.criticalCount).toBe(after.compliance.criticalCount);
    expect(row?.highCount).toBe(after.compliance.highCount);
  });
});
