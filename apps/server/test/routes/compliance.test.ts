import type { DevOpsApi } from '@aegis/connectors/devops';
import type { AcceptDeviationsResult, ComplianceReport } from '@aegis/contracts';
import {
  effectiveBaseline,
  type AcceptedDeviationsConfig,
  type ConfirmedMatch,
  type MatchingConfig,
} from '@aegis/domain';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '@aegis/emulators';
import { ComplianceService, createComplianceCaches } from '@aegis/insights';
import type { ComplianceStore } from '@aegis/insights';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  buildWithSeededDevOps,
  mainWriterOf,
  type AppWithDevOps,
  type DevOpsFixture,
} from '../devops-fixture';
import { SAMPLE_USER, type TestApp } from '../helper';

const REPO = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };
const CA000 =
  'ConditionalAccess/Policy/CA000-Global-IdentityProtection-AnyApp-AnyPlatform-MFA.json';
const AUTHORIZATION = 'AzureAD/AuthorizationPolicy/Authorization Policy.json';

/** The app's and the seed's "now": expiry checks do not depend on the day the test runs. */
const NOW = new Date('2026-03-10T12:00:00Z');
/** A day relative to the server's fixed clock, yyyy-mm-dd. */
const daysFromNow = (days: number) =>
  new Date(NOW.getTime() + days * 86_400_000).toISOString().slice(0, 10);
const IN_30_DAYS = daysFromNow(30);

describe('compliance routes', () => {
  let t: TestApp;
  let devops: DevOpsFixture;
  let env: AppWithDevOps;
  let git: DevOpsApi;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ now: NOW });
    ({ t, devops } = env);
    // arranging main is a merge, so as the identity that may push there (ADR 051)
    git = mainWriterOf(t);
  });
  afterEach(() => devops.emulator.faults.clear());
  afterAll(() => env.close());

  const get = (url: string) => t.injectAs(SAMPLE_USER, { method: 'GET', url });
  const post = (url: string, payload: object) =>
    t.injectAs(SAMPLE_USER, { method: 'POST', url, payload });
  const del = (url: string) => t.injectAs(SAMPLE_USER, { method: 'DELETE', url });
  const report = async (client: string) => {
    const response = await get(`/api/compliance/${client}`);
    expect(response.statusCode).toBe(200);
    return response.json() as ComplianceReport;
  };
  const readMainFile = async <T>(path: string) => {
    const file = await git.getFile(REPO, path, { version: { branch: 'main' } });
    return file ? (JSON.parse(file.content) as T) : undefined;
  };

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/compliance/FAB' })).statusCode).toBe(
      401,
    );
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/compliance/FAB/accepted-deviations',
          payload: {},
        })
      ).statusCode,
    ).toBe(401);
  });

  it('rejects bad input with a 400 naming the field', async () => {
    const bad = await get('/api/compliance/fab');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'params.client' });
    const branch = await get('/api/compliance/FAB?branch=../../etc');
    expect(branch.statusCode).toBe(400);
    expect(branch.json()).toMatchObject({ field: 'querystring.branch' });
    const escape = await post('/api/compliance/FAB/accepted-deviations', {
      path: '../../Clients/ABC/secret.json',
      policyName: 'x',
      category: 'y',
      properties: ['a'],
    });
    expect(escape.statusCode).toBe(400);
    expect(escape.json()).toMatchObject({ field: 'body.path' });
    const none = await post('/api/compliance/FAB/accepted-deviations', {
      path: AUTHORIZATION,
      policyName: 'x',
      category: 'y',
      properties: [],
    });
    expect(none.json()).toMatchObject({ statusCode: 400, field: 'body.properties' });
    const date = await post('/api/compliance/FAB/accepted-deviations', {
      path: AUTHORIZATION,
      policyName: 'x',
      category: 'y',
      properties: ['a'],
      reason: 'Reviewed with the client',
      expiresAt: '31/12/2026',
    });
    expect(date.json()).toMatchObject({ statusCode: 400, field: 'body.expiresAt' });
    // the probe's loose acceptances (issue 26 §2): not a date, past, beyond the cap, no reason
    const accept = (extra: object) =>
      post('/api/compliance/FAB/accepted-deviations', {
        path: AUTHORIZATION,
        policyName: 'Authorization Policy',
        category: 'AzureAD',
        properties: ['allowUserConsentForRiskyApps'],
        reason: 'Reviewed with the client',
        ...extra,
      });
    for (const expiresAt of ['2027-02-30', daysFromNow(-1), '9999-12-31', daysFromNow(366)]) {
      const refused = await accept({ expiresAt });
      expect({ expiresAt, answer: refused.json() as object }).toMatchObject({
        expiresAt,
        answer: { statusCode: 400, field: 'body.expiresAt' },
      });
    }
    for (const reason of ['', '   ']) {
      const refused = await accept({ reason });
      expect(refused.json()).toMatchObject({ statusCode: 400, field: 'body.reason' });
    }
    const noReason = await post('/api/compliance/FAB/accepted-deviations', {
      path: AUTHORIZATION,
      policyName: 'Authorization Policy',
      category: 'AzureAD',
      properties: ['allowUserConsentForRiskyApps'],
    });
    expect(noReason.json()).toMatchObject({ statusCode: 400, field: 'body.reason' });
    expect(
      (await readMainFile<AcceptedDeviationsConfig>('/Clients/FAB/.accepted-deviations.json'))
        ?.acceptedDeviations ?? [],
    ).toEqual([]);
    const match = await post('/api/compliance/FAB/matching/matches', { matches: [{}] });
    expect(match.statusCode).toBe(400);
  });

  it('reports a client against the baseline with both documents defaulting when absent (404)', async () => {
    const body = await report('FAB');
    expect(body.client).toBe('FAB');
    expect(body.branch).toBe('main');
    expect(body.warnings).toEqual([]);
    expect(body.matching).toMatchObject({ version: '1.0', clientCode: 'FAB', matches: [] });
    expect(body.acceptedDeviations).toMatchObject({
      version: '1.0',
      clientCode: 'FAB',
      acceptedDeviations: [],
    });
    const c = body.compliance;
    expect(c.totalCount).toBeGreaterThan(20);
    expect(c.deviationCount).toBe(c.deviations.length);
    expect(c.compliantCount).toBe(c.totalCount - c.deviationCount);
    expect(
      c.deviations.find((g) => g.path === AUTHORIZATION)?.deviations.map((d) => d.property),
    ).toContain('allowUserConsentForRiskyApps');
    // the excluded folders of the baseline view are never compared
    expect(
      c.deviations.some((g) =>
        /^(Office365|PowerPlatform|SecurityCompliance|Planner)\//.test(g.path),
      ),
    ).toBe(false);
    // the hand-made copy of CA000 is suggested for the missing baseline policy
    const ca000 = body.unmatched.find((u) => u.path === CA000);
    expect(ca000?.suggestions[0]?.clientName).toBe('CA000 - Require MFA for All Users');
    expect(ca000?.suggestions[0]?.score).toBeGreaterThanOrEqual(60);
    // the report leaves the policy documents out: the views show properties, not whole policies
    for (const g of c.deviations) {
      expect(g).not.toHaveProperty('baselinePolicy');
      expect(g).not.toHaveProperty('clientPolicy');
    }
    for (const p of c.clientOnlyPolicies) expect(p).not.toHaveProperty('clientPolicy');
    expect(ca000?.suggestions[0]).not.toHaveProperty('policy');
  });

  it("names the layer each of a layered client's policies comes from (ADR 068)", async () => {
    expect((await report('FAB')).policyLayers).toEqual({});
    const con = await report('CON');
    expect(con.layers).toEqual(['Healthcare']);
    // CON uses 'Healthcare', which replaces the company's password rules
    expect(con.policyLayers).toEqual({
      'AzureAD/DirectorySetting/Password Rule Settings.json': 'Healthcare',
    });
  });

  it('serves one policy document at a time, for View Detailed Comparison', async () => {
    const best = (await report('FAB')).unmatched.find((u) => u.path === CA000)!.suggestions[0]!;
    const client = await get(
      `/api/compliance/FAB/policy?side=client&path=${encodeURIComponent(best.clientPath)}`,
    );
    expect(client.statusCode).toBe(200);
    expect(client.json()).toMatchObject({
      path: best.clientPath,
      policy: { displayName: best.clientName },
    });
    const baseline = await get(
      `/api/compliance/FAB/policy?side=baseline&path=${encodeURIComponent(CA000)}`,
    );
    expect((baseline.json() as { policy: { id?: string } }).policy).toBeDefined();
    expect(
      (await get('/api/compliance/FAB/policy?side=client&path=Nope/none.json')).statusCode,
    ).toBe(404);
    const escape = await get(
      `/api/compliance/FAB/policy?side=client&path=${encodeURIComponent('../../M365Config/x.json')}`,
    );
    expect(escape.statusCode).toBe(400);
  });

  it('previews matches held only in the browser, writing nothing', async () => {
    const before = await report('FAB');
    const unmatched = before.unmatched.find((u) => u.path === CA000);
    const best = unmatched!.suggestions[0]!;
    const pending: ConfirmedMatch = {
      baselineName: unmatched!.baselineName,
      clientName: best.clientName,
      ...(best.clientId ? { clientId: best.clientId } : {}),
      score: best.score,
      scores: best.scores,
      confirmedAt: NOW.toISOString(),
      baselinePath: CA000,
    };
    const preview = await post('/api/compliance/FAB/preview', { pendingMatches: [pending] });
    expect(preview.statusCode).toBe(200);
    const previewed = preview.json() as ComplianceReport;
    expect(previewed.compliance.matchesAppliedCount).toBe(1);
    expect(previewed.unmatched.some((u) => u.path === CA000)).toBe(false);
    expect(previewed.matching.matches).toEqual([]);
    expect(await readMainFile('/Clients/FAB/.matching-config.json')).toBeUndefined();
    const unknownField = await post('/api/compliance/FAB/preview', {
      pendingMatches: [pending],
      save: true,
    });
    expect(unknownField.statusCode).toBe(400);
  });

  it('answers 404 for a client or branch without configuration', async () => {
    // on main the body says why in a code the screen keys on, not in words (ADR 042)
    const none = await get('/api/compliance/ZZZ');
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ error: 'NotFoundError', code: 'NoClientConfiguration' });
    const branch = await get('/api/compliance/FAB?branch=client-FAB-capture-404');
    expect(branch.statusCode).toBe(404);
    expect(branch.json()).not.toHaveProperty('code');
  });

  it('accepts deviations into .accepted-deviations.json on main, with who, why and until when', async () => {
    const response = await post('/api/compliance/FAB/accepted-deviations', {
      path: AUTHORIZATION,
      policyName: 'Authorization Policy',
      category: 'AzureAD',
      properties: ['allowUserConsentForRiskyApps'],
      reason: 'Risky-app consent reviewed by the client CISO',
      expiresAt: IN_30_DAYS,
    });
    expect(response.statusCode).toBe(200);
    const result = response.json() as AcceptDeviationsResult;
    expect(result.message).toBe('Successfully accepted 1 deviation(s) for Authorization Policy');

    const file = await readMainFile<AcceptedDeviationsConfig>(
      '/Clients/FAB/.accepted-deviations.json',
    );
    expect(file).toMatchObject({ version: '1.0', clientCode: 'FAB' });
    expect(file?.acceptedDeviations).toEqual([
      expect.objectContaining({
        path: AUTHORIZATION,
        policyName: 'Authorization Policy',
        category: 'AzureAD',
        properties: ['allowUserConsentForRiskyApps'],
        acceptedBy: SAMPLE_USER,
        reason: 'Risky-app consent reviewed by the client CISO',
        expiresAt: IN_30_DAYS,
        acceptedValues: { allowUserConsentForRiskyApps: true },
      }),
    ]);

    const after = await report('FAB');
    const group = after.compliance.deviations.find((g) => g.path === AUTHORIZATION);
    expect(group?.deviations.map((d) => d.property) ?? []).not.toContain(
      'allowUserConsentForRiskyApps',
    );
    expect(after.compliance.acceptedDeviationsCount).toBe(1);
    expect(after.compliance.acceptedGroups?.[0]).toMatchObject({
      path: AUTHORIZATION,
      acceptedBy: SAMPLE_USER,
    });
    const read = await get('/api/compliance/FAB/accepted-deviations');
    expect((read.json() as AcceptedDeviationsConfig).acceptedDeviations).toHaveLength(1);
  });

  it('answers 409 for a property that no longer deviates, and writes nothing', async () => {
    const before = await readMainFile<AcceptedDeviationsConfig>(
      '/Clients/FAB/.accepted-deviations.json',
    );
    const response = await post('/api/compliance/FAB/accepted-deviations', {
      path: AUTHORIZATION,
      policyName: 'Authorization Policy',
      category: 'AzureAD',
      properties: ['displayName'],
      reason: 'Reviewed with the client',
    });
    expect(response.statusCode).toBe(409);
    expect(await readMainFile('/Clients/FAB/.accepted-deviations.json')).toEqual(before);
  });

  it('retries a push that met a stale tip, and answers 409 when the file keeps changing', async () => {
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 409,
      pathPattern: '/pushes$',
      times: 2,
    });
    const ok = await post('/api/compliance/FAB/matching/matches', {
      matches: [
        {
          baselineName: 'Retry Test',
          clientName: 'Retry Client',
          score: 80,
          scores: { conditions: 80, grantControls: 80, sessionControls: 80 },
          confirmedAt: NOW.toISOString(),
        },
      ],
    });
    expect(ok.statusCode).toBe(200);
    // the writer spends its whole retry budget (60 jittered attempts) before the 409, hence the
    // test's longer budget on a loaded machine
    devops.emulator.faults.add({ kind: 'error', statusCode: 409, pathPattern: '/pushes$' });
    const conflict = await del('/api/compliance/FAB/matching/matches?baselineName=Retry%20Test');
    expect(conflict.statusCode).toBe(409);
    devops.emulator.faults.clear();
    const cleaned = await del('/api/compliance/FAB/matching/matches?baselineName=Retry%20Test');
    expect((cleaned.json() as MatchingConfig).matches).toEqual([]);
  }, 120_000);

  it('answers 502 when DevOps fails on a write, and the report still loads', async () => {
    devops.emulator.faults.add({ kind: 'error', statusCode: 500, pathPattern: '/pushes$' });
    const response = await post('/api/compliance/FAB/accepted-deviations', {
      path: AUTHORIZATION,
      policyName: 'Authorization Policy',
      category: 'AzureAD',
      properties: ['allowUserConsentForRiskyApps'],
      reason: 'Reviewed with the client',
    });
    expect(response.statusCode).toBe(502);
    expect((await report('FAB')).compliance.acceptedDeviationsCount).toBe(1);
  });

  it('saves, applies, deletes and clears confirmed matches in .matching-config.json', async () => {
    const before = await report('FAB');
    const unmatched = before.unmatched.find((u) => u.path === CA000);
    const best = unmatched?.suggestions[0];
    expect(best).toBeDefined();
    const match: ConfirmedMatch = {
      baselineName: unmatched!.baselineName,
      clientName: best!.clientName,
      ...(best!.clientId ? { clientId: best!.clientId } : {}),
      score: best!.score,
      scores: best!.scores,
      confirmedAt: NOW.toISOString(),
      baselinePath: CA000,
    };
    const saved = await post('/api/compliance/FAB/matching/matches', { matches: [match, match] });
    expect(saved.statusCode).toBe(200);
    expect((saved.json() as MatchingConfig).matches).toHaveLength(1);
    const file = await readMainFile<MatchingConfig>('/Clients/FAB/.matching-config.json');
    expect(file).toMatchObject({
      version: '1.0',
      clientCode: 'FAB',
      matches: [expect.objectContaining({ baselineName: match.baselineName })],
    });

    const after = await report('FAB');
    const group = after.compliance.deviations.find((g) => g.path === CA000);
    expect(group?.matchStatus ?? 'compliant').not.toBe(undefined);
    expect(group === undefined || group.changeType === 'modified').toBe(true);
    expect(after.compliance.matchesAppliedCount).toBe(1);
    expect(after.unmatched.some((u) => u.path === CA000)).toBe(false);
    expect(after.compliance.clientOnlyPolicies.some((p) => p.policyName === match.clientName)).toBe(
      false,
    );
    expect(after.compliance.criticalCount).toBeLessThan(before.compliance.criticalCount);

    const removed = await del(
      `/api/compliance/FAB/matching/matches?baselineName=${encodeURIComponent(match.baselineName)}`,
    );
    expect((removed.json() as MatchingConfig).matches).toEqual([]);
    await post('/api/compliance/FAB/matching/matches', { matches: [match] });
    const cleared = await del('/api/compliance/FAB/matching');
    expect((cleared.json() as MatchingConfig).matches).toEqual([]);
    expect((await report('FAB')).unmatched.some((u) => u.path === CA000)).toBe(true);
  });

  it('keeps all 50 of 50 concurrent critical accepts and their approvals on different policies', async () => {
    // make 50 of NWT's policies missing, so that 50 policies deviate
    const root = '/Clients/NWT/M365Config/Resources';
    const listing = await git.listItems(REPO, root, { recursion: 'full' });
    const inBaseline = new Set(
      (await git.listItems(REPO, '/M365Config/Resources', { recursion: 'full' })).map((i) =>
        i.path.slice('/M365Config/Resources/'.length),
      ),
    );
    const files = listing
      .filter((i) => !i.isFolder && i.path.endsWith('.json'))
      .map((i) => i.path.slice(root.length + 1))
      .filter((p) => inBaseline.has(p))
      .filter(
        (p) => !/^(Office365|PowerPlatform|SecurityCompliance|Planner|Descriptions)\//.test(p),
      )
      .slice(0, 50);
    expect(files).toHaveLength(50);
    const [main] = await git.listRefs(REPO, 'heads/main');
    await git.push(REPO, {
      branch: 'main',
      oldObjectId: main!.commitId,
      commits: [
        {
          comment: 'test: NWT loses 50 policies',
          changes: files.map((p) => ({ changeType: 'delete' as const, path: `${root}/${p}` })),
        },
      ],
    });
    const nwt = await report('NWT');
    const targets = nwt.compliance.deviations.filter((g) => files.includes(g.path));
    expect(targets).toHaveLength(50);

    const responses = await Promise.all(
      targets.map((g) =>
        post('/api/compliance/NWT/accepted-deviations', {
          path: g.path,
          policyName: g.policyName,
          category: g.category,
          properties: g.deviations.map((d) => d.property),
          reason: 'Accepted for the whole policy',
        }),
      ),
    );
    // a missing policy is a critical deviation (a prerequisite one is not): its acceptance waits
    // for a second Approver (ADR 051), who approves them all at once
    const isCritical = (g: (typeof targets)[number]) =>
      g.deviations.some((d) => d.severity === 'critical');
    const critical = targets.filter(isCritical);
    expect(critical.length).toBeGreaterThan(0);
    expect(responses.map((r) => r.statusCode)).toEqual(
      targets.map((g) => (isCritical(g) ? 202 : 200)),
    );
    // ten approvals at a time: concurrent writes to one file, within the upstream timeout
    const approvals = [];
    for (let i = 0; i < critical.length; i += 10) {
      approvals.push(
        ...(await Promise.all(
          critical.slice(i, i + 10).map((g) =>
            t.injectAs('priya.shah@aegis-msp.example', {
              method: 'POST',
              url: '/api/compliance/NWT/accepted-deviations/decisions',
              payload: { path: g.path, decision: 'approve' },
            }),
          ),
        )),
      );
    }
    expect(approvals.map((r) => r.statusCode)).toEqual(critical.map(() => 200));
    const file = await readMainFile<AcceptedDeviationsConfig>(
      '/Clients/NWT/.accepted-deviations.json',
    );
    expect(file?.acceptedDeviations).toHaveLength(50);
    expect(new Set(file?.acceptedDeviations.map((d) => d.path))).toEqual(new Set(files));
    const after = await report('NWT');
    expect(after.compliance.deviations.filter((g) => files.includes(g.path))).toEqual([]);
    expect(after.compliance.acceptedGroups).toHaveLength(50);
  }, 120_000);

  it('asks DevOps only for the tips when a report is shown again; a new commit on main or on the branch is seen next (ADR 088)', async () => {
    const counter = devops.emulator.faults.add({ kind: 'latency', latencyInMs: 0 });
    const requests = () => devops.emulator.faults.list().find((f) => f.id === counter)?.hits ?? 0;
    const requestsFor = async (work: () => Promise<unknown>) => {
      const before = requests();
      await work();
      return requests() - before;
    };
    const client = '/Clients/CON/M365Config/Resources';
    const treeOf = async (folder: string, branch: string) =>
      (await git.listItems(REPO, folder, { recursion: 'full', version: { branch } }))[0]?.objectId;
    const first = await report('CON');
    // shown again: main's ref only; everything else is read at the commit it named
    expect(await requestsFor(() => report('CON'))).toBe(1);
    const [main] = await git.listRefs(REPO, 'heads/main');
    await git.push(REPO, {
      branch: 'main',
      oldObjectId: main!.commitId,
      commits: [
        {
          comment: 'test: a new CON policy and a new baseline note on main',
          changes: [
            {
              changeType: 'add',
              path: `${client}/AzureAD/X/new.json`,
              content: JSON.stringify({ displayName: 'New' }),
            },
            { changeType: 'add', path: '/M365Config/Resources/notes.txt', content: 'a note' },
          ],
        },
      ],
    });
    const after = await report('CON');
    expect(after.clientTreeId).not.toBe(first.clientTreeId);
    expect(after.clientTreeId).toBe(await treeOf(client, 'main'));
    expect(after.baselineTreeId).not.toBe(first.baselineTreeId);
    expect(after.baselineTreeId).toBe(await treeOf('/M365Config/Resources', 'main'));

    // a capture branch: its tip and main's, then nothing until one of them moves
    const branch = 'client-ABC-capture-1042';
    const onBranch = async () => {
      const response = await get(`/api/compliance/ABC?branch=${branch}`);
      expect(response.statusCode).toBe(200);
      return response.json() as ComplianceReport;
    };
    const captured = await onBranch();
    expect(await requestsFor(onBranch)).toBe(2);
    const [head] = await git.listRefs(REPO, `heads/${branch}`);
    await git.push(REPO, {
      branch,
      oldObjectId: head!.commitId,
      commits: [
        {
          comment: 'test: the capture found one more policy',
          changes: [
            {
              changeType: 'add',
              path: '/Clients/ABC/M365Config/Resources/AzureAD/X/found.json',
              content: JSON.stringify({ displayName: 'Found' }),
            },
          ],
        },
      ],
    });
    const recaptured = await onBranch();
    expect(recaptured.clientTreeId).not.toBe(captured.clientTreeId);
    expect(recaptured.clientTreeId).toBe(await treeOf('/Clients/ABC/M365Config/Resources', branch));
  });
});

describe('compliance service soft failures', () => {
  const tree = (files: { path: string; content: unknown }[]) => ({
    treeId: JSON.stringify(files).length.toString(),
    files,
  });
  const baseline = tree([
    {
      path: '/M365Config/Resources/AzureAD/X/a.json',
      content: { displayName: 'A', enabled: true },
    },
  ]);
  const client = tree([
    {
      path: '/Clients/ABC/M365Config/Resources/AzureAD/X/a.json',
      content: { displayName: 'A', enabled: false },
    },
  ]);
  const store = (failing: RegExp): ComplianceStore => ({
    readTree: async (folder) => (folder.startsWith('/Clients') ? client : baseline),
    readClientBaseline: async () => ({
      sourceKey: baseline.treeId,
      baselineTreeId: baseline.treeId,
      files: effectiveBaseline(baseline.files, [], {}).files,
      layers: [],
    }),
    findBranchTip: async () => 'a'.repeat(40),
    readJson: async (path) => {
      if (failing.test(path)) throw new Error('boom');
      return undefined;
    },
    updateJsonFile: async () => {
      throw new Error('not used');
    },
  });
  const warnings: object[] = [];
  const log = { warn: (o: object) => void warnings.push(o) };

  it('a configuration that cannot be loaded is logged, ignored and named in the warnings', async () => {
    const service = new ComplianceService(store(/matching-config/), createComplianceCaches(), log);
    const r = await service.report('ABC');
    expect(r.compliance.deviationCount).toBe(1);
    expect(r.matching.matches).toEqual([]);
    expect(r.warnings).toEqual([
      'The matching configuration could not be loaded and was not applied.',
    ]);
    expect(warnings).toHaveLength(1);
    expect(r.unmatched).toEqual([]);
  });

  it('the same for the accepted deviations', async () => {
    const service = new ComplianceService(
      store(/accepted-deviations/),
      createComplianceCaches(),
      log,
    );
    const r = await service.report('ABC');
    expect(r.warnings).toEqual([
      'The accepted-deviations configuration could not be loaded and was not applied.',
    ]);
  });
});
