import { DevOpsClient } from '@aegis/connectors/devops';
import type {
  CaptureAnalysis,
  CaptureBranchList,
  CaptureFile,
  CaptureOverview,
  CapturePullRequestCreated,
  CaptureRun,
} from '@aegis/contracts';
import { buildCaptureManifest, captureManifestPath, renderCaptureManifest } from '@aegis/domain';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '@aegis/emulators';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps, type DevOpsFixture } from '../devops-fixture';
import { SAMPLE_USER, type TestApp } from '../helper';

const PENDING = 'client-ABC-capture-1042';
const OLDER = 'client-ABC-capture-1017';
const TRIGGERED_BY = 'sam.taylor@aegis-msp.example';
const APPROVER = 'priya.shah@aegis-msp.example';
/** The seed's "now": its capture branches and pull requests are dated back from it. */
const NOW = new Date('2026-03-10T12:00:00Z');
const COMMENT =
  'Reviewed every change with the client; the report-only CA000 state was requested by their CISO.';

describe('capture routes', () => {
  let t: TestApp;
  let devops: DevOpsFixture;
  let env: AppWithDevOps;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ pipelineDurationInMs: 200, now: NOW });
    ({ t, devops } = env);
  });
  afterEach(() => devops.emulator.faults.clear());
  afterAll(() => env.close());

  const get = (url: string, user = SAMPLE_USER) => t.injectAs(user, { method: 'GET', url });
  const post = (url: string, payload: object, user = SAMPLE_USER) =>
    t.injectAs(user, { method: 'POST', url, payload });
  const analyse = async (body: object) => {
    const response = await post('/api/capture/clients/ABC/analysis', body);
    expect(response.statusCode).toBe(200);
    return response.json() as CaptureAnalysis;
  };
  const branches = async (client = 'ABC') =>
    ((await get(`/api/capture/clients/${client}/branches`)).json() as CaptureBranchList).branches;

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/capture/clients/ABC/branches',
    });
    expect(response.statusCode).toBe(401);
  });

  it('gives a never-captured client no capture branches and an empty overview', async () => {
    expect(await branches('WGB')).toEqual([]);
    const overview = await get('/api/capture/clients/WGB/overview');
    expect(overview.statusCode).toBe(200);
    expect(overview.json()).toMatchObject({ pendingReviews: 0 });
  });

  it('lists pending branches with their metadata and merged captures from completed pull requests', async () => {
    const list = await branches();
    const pending = list.find((b) => b.name === PENDING);
    expect(pending).toMatchObject({
      exists: true,
      merged: false,
      metadata: { changeCount: 5, criticalCount: 1, baselineVersion: '1.0.0' },
    });
    expect(NOW.getTime() - Date.parse(pending?.date ?? '')).toBeLessThan(3 * 3_600_000);
    expect(list.find((b) => b.name === OLDER)?.metadata?.changeCount).toBeUndefined();
    const merged = list.filter((b) => b.merged);
    expect(merged).toHaveLength(5);
    for (const b of merged) {
      expect(b.exists).toBe(false);
      expect(b.mergedBy).toMatch(/^(Priya Shah|Sam Taylor)$/);
      expect(b.pullRequest?.status).toBe('completed');
    }
    expect(list.every((b) => b.name.startsWith('client-ABC-capture-'))).toBe(true);
  });

  it('gives the overview: last capture, last merge and pending reviews', async () => {
    const response = await get('/api/capture/clients/FAB/overview');
    expect(response.statusCode).toBe(200);
    const overview = response.json() as CaptureOverview;
    expect(overview.pendingReviews).toBe(1);
    const days = (iso: string | null) => (NOW.getTime() - Date.parse(iso ?? '')) / 86_400_000;
    expect(days(overview.lastMerge)).toBeCloseTo(20, 0);
    // FAB's only pending capture is 75 days old, older than its last merge's pull request
    expect(days(overview.lastCapture)).toBeLessThan(75);
    // shown again: the client's capture refs and one list of pull requests, the merged among them
    // (ADR 088); the branches' files are read at the tips listed, so from the cache
    const counter = devops.emulator.faults.add({ kind: 'latency', latencyInMs: 0 });
    const again = await get('/api/capture/clients/FAB/overview');
    expect(again.json()).toEqual(overview);
    expect(devops.emulator.faults.list().find((f) => f.id === counter)?.hits).toBe(2);
  });

  it("answers empty lists for a client without captures' data rather than failing", async () => {
    const response = await get('/api/capture/clients/ZZZ/branches');
    expect(response.statusCode).toBe(200);
    expect((response.json() as CaptureBranchList).branches).toEqual([]);
  });

  it('analyses drift from the git diff with property changes, and compliance with the capture-review severity', async () => {
    const analysis = await analyse({ branch: PENDING });
    const byPath = new Map(analysis.drift.changes.map((c) => [c.item.path, c]));
    const ca000 = byPath.get(
      'ConditionalAccess/Policy/CA000-Global-IdentityProtection-AnyApp-AnyPlatform-MFA.json',
    );
    expect(ca000?.changeType).toBe('edit');
    expect(ca000?.propertyChanges).toEqual([
      {
        property: 'state',
        oldValue: 'enabled',
        newValue: 'enabledForReportingButNotEnforced',
        changeType: 'modified',
      },
    ]);
    expect(byPath.get('Exchange/TransportRule/Block Client Auto-Forwarding.json')?.changeType).toBe(
      'delete',
    );
    expect(
      byPath.get('ConditionalAccess/Policy/CA900-Vendor-Remote-Support-Exception.json')?.changeType,
    ).toBe('add');
    // only WhenChanged changed there: excluded by default, so nothing to review
    expect(byPath.has('Teams/MeetingPolicy/Global.json')).toBe(false);
    // the metadata file is not a policy
    expect([...byPath.keys()].every((p) => p.endsWith('.json') && !p.startsWith('.'))).toBe(true);
    expect(analysis.drift.summary).toMatchObject({ modified: 3, added: 1, deleted: 1 });
    // the capture card counts the same thing (issue 27): the changes to review and, of them, the
    // critical ones (CA000's state); MeetingPolicy's timestamp edit is in neither
    const card = (await branches()).find((b) => b.name === PENDING)?.metadata;
    expect(card?.changeCount).toBe(analysis.drift.changes.length);
    expect(card?.criticalCount).toBe(analysis.drift.criticalCount);
    expect(analysis.drift.criticalCount).toBe(1);
    expect(analysis.drift.changeCounts).toEqual({ Add: 1, Edit: 3, Delete: 1 });
    expect(analysis.drift.summary.unchanged).toBeGreaterThan(50);

    const deviation = (path: string) => analysis.compliance.deviations.find((d) => d.path === path);
    expect(deviation('Exchange/TransportRule/Block Client Auto-Forwarding.json')).toMatchObject({
      severity: 'critical',
      isMissing: true,
    });
    expect(
      deviation(
        'ConditionalAccess/Policy/CA000-Global-IdentityProtection-AnyApp-AnyPlatform-MFA.json',
      )?.severity,
    ).toBe('critical');
    expect(analysis.compliance.totalCount).toBeGreaterThan(50);
    expect(analysis.compliance.prerequisiteTotal).toBeGreaterThan(0);
    // against the client's effective baseline (ADR 068): its own group in Group.Unified, which its
    // parameter names, is no deviation
    expect(deviation('AzureAD/DirectorySetting/Group.Unified.json')).toBeUndefined();
  });

  it('re-analyses with excluded properties and paths', async () => {
    const withProperty = await analyse({
      branch: PENDING,
      excludedProperties: ['MailTipsLargeAudienceThreshold'],
    });
    expect(withProperty.drift.changes.map((c) => c.item.path)).not.toContain(
      'Exchange/OrganizationConfig/Organization Config.json',
    );
    expect(withProperty.drift.summary.modified).toBe(2);
    const withPath = await analyse({ branch: PENDING, excludedPaths: ['/Exchange'] });
    expect(withPath.drift.changes.some((c) => c.item.path.startsWith('Exchange/'))).toBe(false);
    expect(withPath.compliance.deviations.some((d) => d.path.startsWith('Exchange/'))).toBe(false);
  });

  it('refuses a branch of another client or a malformed name (400 naming the field), and 404s an unknown branch', async () => {
    const other = await post('/api/capture/clients/ABC/analysis', {
      branch: 'client-FAB-capture-611',
    });
    expect(other.statusCode).toBe(404);
    const malformed = await post('/api/capture/clients/ABC/analysis', { branch: 'main' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ field: 'body.branch' });
    const missing = await post('/api/capture/clients/ABC/analysis', {
      branch: 'client-ABC-capture-999999',
    });
    expect(missing.statusCode).toBe(404);
  });

  it('reports a DevOps failure of the diff as 502 with the service message', async () => {
    devops.emulator.faults.add({ kind: 'error', statusCode: 500, pathPattern: '/diffs/commits' });
    const response = await post('/api/capture/clients/ABC/analysis', {
      branch: OLDER,
      excludedProperties: ['x-unique-to-miss-the-cache'],
    });
    expect(response.statusCode).toBe(502);
  });

  it('reads one file at a branch, confined to the client folder', async () => {
    const path =
      'ConditionalAccess/Policy/CA000-Global-IdentityProtection-AnyApp-AnyPlatform-MFA.json';
    const q = (branch: string, p: string) =>
      `/api/capture/clients/ABC/file?branch=${encodeURIComponent(branch)}&path=${encodeURIComponent(p)}`;
    const atBranch = (await get(q(PENDING, path))).json() as CaptureFile;
    const atMain = (await get(q('main', path))).json() as CaptureFile;
    expect((atBranch.content as { state: string }).state).toBe('enabledForReportingButNotEnforced');
    expect((atMain.content as { state: string }).state).toBe('enabled');
    expect((await get(q(PENDING, '../../../M365Config/x.json'))).statusCode).toBe(400);
    expect(((await get(q(PENDING, 'Nope/none.json'))).json() as CaptureFile).content).toBeNull();
  });

  it('creates the pull request with the approval, once, and never for whoever started the capture', async () => {
    const url = '/api/capture/clients/ABC/pull-requests';
    const body = {
      branch: PENDING,
      comments: COMMENT,
      acknowledged: true,
      summary: { modified: 3, added: 1, deleted: 1 },
    };
    const short = await post(url, { ...body, comments: 'too short' }, APPROVER);
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ field: 'body.comments' });
    const unticked = await post(url, { ...body, acknowledged: false }, APPROVER);
    expect(unticked.statusCode).toBe(400);

    const own = await post(url, body, TRIGGERED_BY);
    expect(own.statusCode).toBe(403);
    // The sample triggerer is an Operator, so the role check (issue 18) refuses before four eyes.
    expect(own.json()).toMatchObject({
      message: expect.stringMatching(/another Approver|needs the Aegis Approver role/),
    });

    const response = await post(url, body, APPROVER);
    expect(response.statusCode).toBe(201);
    const created = response.json() as CapturePullRequestCreated;
    expect(created).toMatchObject({ status: 'pending', createdBy: 'Priya Shah' });
    expect(created.approval).toMatchObject({ approvedBy: APPROVER, comments: COMMENT });
    expect(created.prUrl).toContain(`/pullrequest/${created.pullRequestId}`);

    const again = await post(url, body, APPROVER);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      message: `Pull request #${created.pullRequestId} for ${PENDING} is already open and awaiting approval in Azure DevOps.`,
    });

    // The PR carries the approval, and is completed in DevOps by someone else.
    const token = await t.idp.issueToken('alex.morgan@aegis-msp.example');
    const prUrl = `${devops.emulator.url}/${encodeURIComponent(SAMPLE_PROJECTS.tenantManagement)}/_apis/git/repositories/${CONFIG_REPOSITORY_NAME}/pullrequests/${created.pullRequestId}?api-version=7.1`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const pr = (await (await fetch(prUrl, { headers })).json()) as {
      description: string;
      completionOptions: { deleteSourceBranch: boolean };
      title: string;
    };
    expect(pr.title).toContain(PENDING);
    expect(pr.description).toContain(`Approved by: ${APPROVER}`);
    expect(pr.description).toContain(COMMENT);
    expect(pr.description).toContain('Summary: 3 modified, 1 added, 1 deleted.');
    expect(pr.completionOptions.deleteSourceBranch).toBe(true);

    const before = (await branches()).find((b) => b.name === PENDING);
    expect(before?.pullRequest).toMatchObject({ status: 'active', approvedBy: [] });
    // main's branch policy: completing needs an approval from someone other than its creator
    const unapproved = await fetch(prUrl, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ status: 'completed' }),
    });
    expect(unapproved.status).toBe(403);
    const alexId = '5b1f6a0e-2f4c-4d8e-9a51-7c3e2b9d4f10';
    const voted = await fetch(prUrl.replace('?', `/reviewers/${alexId}?`), {
      method: 'PUT',
      headers,
      body: JSON.stringify({ vote: 10 }),
    });
    expect(voted.status).toBe(200);
    const completed = await fetch(prUrl, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ status: 'completed' }),
    });
    expect(completed.status).toBe(200);
    const after = (await branches()).find((b) => b.name === PENDING);
    expect(after).toMatchObject({ merged: true, exists: false, mergedBy: 'Alex Morgan' });
    // a merged capture keeps its capture time (from the description), not the merge time
    expect(NOW.getTime() - Date.parse(after?.date ?? '')).toBeGreaterThan(3_600_000);
  });

  it('starts a capture run with the JSON-encoded exclusions and follows it', async () => {
    const response = await post('/api/capture/clients/ABC/runs', {
      excludedProperties: ['id', 'createdDateTime'],
      excludedPaths: [],
      baselineVersion: '2.1.0',
    });
    expect(response.statusCode).toBe(201);
    const run = response.json() as CaptureRun;
    expect(run.branch).toBe(`client-ABC-capture-${run.runId}`);
    // where the run lives: its log reads from the projects API (ADR 042)
    const log = await get(
      `/api/projects/${encodeURIComponent(run.project)}/pipelines/${run.pipelineId}/runs/${run.runId}/log`,
    );
    expect(log.statusCode).toBe(200);
    expect(run.pipelineId).toBe(216);
    const stored = devops.emulator.state.data.runs.find((r) => r.id === run.runId);
    expect(stored?.templateParameters).toEqual({
      ClientCode: 'ABC',
      ExcludedProperties: '["id","createdDateTime"]',
      BaselineVersion: '2.1.0',
    });
    const status = await get(`/api/capture/clients/ABC/runs/${run.runId}`);
    expect(status.statusCode).toBe(200);
    expect((status.json() as CaptureRun).runId).toBe(run.runId);
    expect((await get('/api/capture/clients/ABC/runs/987654')).statusCode).toBe(404);
    const bad = await post('/api/capture/clients/abc/runs', {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'params.client' });
  });

  it('reports a failed pipeline start as 502', async () => {
    devops.emulator.faults.add({ kind: 'error', statusCode: 500, pathPattern: '/runs' });
    const response = await post('/api/capture/clients/ABC/runs', {});
    expect(response.statusCode).toBe(502);
  });
});

describe('capture analysis reads through the configuration repository', () => {
  let env: AppWithDevOps;
  beforeAll(async () => {
    env = await buildWithSeededDevOps({ pipelineDurationInMs: 200, now: NOW });
  });
  afterAll(() => env.close());

  it('uses the trees another screen already loaded: no second download of the same folders', async () => {
    // the Baseline Compliance report of the capture loads the baseline and the captured folder
    const report = await env.t.injectAs(SAMPLE_USER, {
      method: 'GET',
      url: `/api/compliance/ABC?branch=${PENDING}`,
    });
    expect(report.statusCode).toBe(200);
    // from now on every folder download fails: the analysis must not need one
    env.devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      pathPattern: '/items$',
      queryPattern: 'format=zip',
      message: 'folder downloads are off',
    });
    const analysis = await env.t.injectAs(SAMPLE_USER, {
      method: 'POST',
      url: '/api/capture/clients/ABC/analysis',
      payload: { branch: PENDING, excludedProperties: [], excludedPaths: [] },
    });
    expect(analysis.statusCode).toBe(200);
    expect((analysis.json() as CaptureAnalysis).drift.changes.length).toBeGreaterThan(0);
  });
});

describe('a partial capture (ADR 050)', () => {
  let env: AppWithDevOps;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ pipelineDurationInMs: 200, now: NOW });
    // the older capture's manifest: conditional access policies could not be read
    const token = await env.t.idp.issueToken('alex.morgan@aegis-msp.example');
    const devops = new DevOpsClient({
      organizationUrl: env.devops.emulator.url,
      getToken: async () => token,
    });
    const repo = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };
    const head = (await devops.listRefs(repo, `heads/${OLDER}`))[0]!;
    const manifest = buildCaptureManifest(new Date('2026-11-01T00:00:00Z'), [
      ['ConditionalAccess/Policy', { status: 'failed', httpStatus: 500, message: 'boom' }],
      ['Intune/DeviceConfiguration', { status: 'read', count: 4 }],
    ]);
    await devops.push(repo, {
      branch: OLDER,
      oldObjectId: head.objectId,
      commits: [
        {
          comment: 'Capture manifest',
          changes: [
            {
              changeType: 'add',
              path: captureManifestPath('ABC'),
              content: renderCaptureManifest(manifest),
            },
          ],
        },
      ],
    });
  });
  afterAll(() => env.close());

  const post = (url: string, payload: object, user = SAMPLE_USER) =>
    env.t.injectAs(user, { method: 'POST', url, payload });

  it('is marked partial on the selector, naming what was not captured', async () => {
    const list = (
      await env.t.injectAs(SAMPLE_USER, { method: 'GET', url: '/api/capture/clients/ABC/branches' })
    ).json() as CaptureBranchList;
    const older = list.branches.find((b) => b.name === OLDER);
    expect(older).toMatchObject({
      partial: true,
      notCaptured: [
        {
          workload: 'ConditionalAccess/Policy',
          status: 'failed',
          text: 'Not captured: the service answered 500: boom',
        },
      ],
    });
    expect(list.branches.find((b) => b.name === PENDING)).toMatchObject({
      partial: false,
      notCaptured: [],
    });
  });

  it('shows none of the workload not read as a deviation, and says it was not captured', async () => {
    const response = await post('/api/capture/clients/ABC/analysis', { branch: OLDER });
    expect(response.statusCode).toBe(200);
    const analysis = response.json() as CaptureAnalysis;
    expect(analysis.partial).toBe(true);
    expect(analysis.notCaptured.map((w) => w.workload)).toEqual(['ConditionalAccess/Policy']);
    expect(
      analysis.compliance.deviations.filter((d) => d.path.startsWith('ConditionalAccess/Policy/')),
    ).toEqual([]);
    const full = (
      await post('/api/capture/clients/ABC/analysis', { branch: PENDING })
    ).json() as CaptureAnalysis;
    // the same client's full capture does compare its conditional access policies
    expect(full.compliance.totalCount).toBeGreaterThan(analysis.compliance.totalCount);
  });

  it('Baseline Compliance of the capture leaves the workload out and says it was not captured', async () => {
    const response = await env.t.injectAs(SAMPLE_USER, {
      method: 'GET',
      url: `/api/compliance/ABC?branch=${OLDER}`,
    });
    expect(response.statusCode).toBe(200);
    const { compliance } = response.json() as {
      compliance: {
        notCaptured: { workload: string; text: string }[];
        deviations: { path: string }[];
        clientOnlyPolicies: { path: string }[];
      };
    };
    expect(compliance.notCaptured).toEqual([
      {
        workload: 'ConditionalAccess/Policy',
        status: 'failed',
        text: 'Not captured: the service answered 500: boom',
      },
    ]);
    const of = (list: { path: string }[]) =>
      list.filter((d) => d.path.startsWith('ConditionalAccess/Policy/'));
    expect(of(compliance.deviations)).toEqual([]);
    expect(of(compliance.clientOnlyPolicies)).toEqual([]);
  });

  it('is approved only with a comment that says it is partial (400 naming comments)', async () => {
    const url = '/api/capture/clients/ABC/pull-requests';
    const body = {
      branch: OLDER,
      comments: COMMENT,
      acknowledged: true,
      summary: { modified: 1, added: 0, deleted: 0 },
    };
    // Priya started this capture: Alex (an Administrator) approves it
    const silent = await post(url, body);
    expect(silent.statusCode).toBe(400);
    expect(silent.json()).toMatchObject({
      field: 'comments',
      message:
        "This capture is partial (not captured: ConditionalAccess/Policy). Say so in the approval comment (mention 'partial' or 'not captured') to approve it.",
    });
    const said = await post(url, {
      ...body,
      comments: `${COMMENT} Partial: conditional access was not captured.`,
    });
    expect(said.statusCode).toBe(201);
  });

  it('fails closed when the manifest cannot be read (502, no pull request)', async () => {
    env.devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      pathPattern: '/items$',
      queryPattern: 'capture-manifest',
    });
    const response = await post(
      '/api/capture/clients/ABC/pull-requests',
      {
        branch: PENDING,
        comments: COMMENT,
        acknowledged: true,
        summary: { modified: 1, added: 0, deleted: 0 },
      },
      APPROVER,
    );
    env.devops.emulator.faults.clear();
    expect(response.statusCode).toBe(502);
  });

  it("reads a branch's manifest again only when the branch moved: none stale, none read twice", async () => {
    const older = async () =>
      (
        (
          await env.t.injectAs(SAMPLE_USER, {
            method: 'GET',
            url: '/api/capture/clients/ABC/branches',
          })
        ).json() as CaptureBranchList
      ).branches.find((b) => b.name === OLDER);
    expect(await older()).toMatchObject({ partial: true });
    // the manifest at the branch's tip was read: a list shown again does not read it
    env.devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      pathPattern: '/items$',
      queryPattern: 'capture-manifest',
    });
    const again = await older();
    env.devops.emulator.faults.clear();
    expect(again).toMatchObject({ partial: true });
    // a new capture manifest on the branch (everything read) is what the list shows next
    const token = await env.t.idp.issueToken('alex.morgan@aegis-msp.example');
    const devops = new DevOpsClient({
      organizationUrl: env.devops.emulator.url,
      getToken: async () => token,
    });
    const repo = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };
    const head = (await devops.listRefs(repo, `heads/${OLDER}`))[0]!;
    const manifest = buildCaptureManifest(new Date('2026-11-02T00:00:00Z'), [
      ['ConditionalAccess/Policy', { status: 'read', count: 3 }],
      ['Intune/DeviceConfiguration', { status: 'read', count: 4 }],
    ]);
    await devops.push(repo, {
      branch: OLDER,
      oldObjectId: head.objectId,
      commits: [
        {
          comment: 'Capture manifest, all read',
          changes: [
            {
              changeType: 'edit',
              path: captureManifestPath('ABC'),
              content: renderCaptureManifest(manifest),
            },
          ],
        },
      ],
    });
    expect(await older()).toMatchObject({ partial: false, notCaptured: [] });
  });
});
