// Issue 26 §1: the attacks an outside probe made on four eyes, each reproduced against the app
// wired to the seeded DevOps emulator (its branch policies on main), and Aegis's own writes that
// must still land (ADR 051).
import { DEVOPS_SCOPE } from '@aegis/connectors/devops';
import type { ComplianceReport } from '@aegis/contracts';
import type { AcceptedDeviationsConfig } from '@aegis/domain';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '@aegis/emulators';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';
import type { TestApp } from '../helper';

// Priya Shah (Approver) ran the seeded capture 1017 of ABC; Sam Taylor (Operator) ran 1042.
const PRIYAS_CAPTURE = 'client-ABC-capture-1017';
const PRIYA = 'priya.shah@aegis-msp.example';
const SAM = 'sam.taylor@aegis-msp.example';
const ALEX = 'alex.morgan@aegis-msp.example';
const COMMENT =
  'Reviewed every change with the client; the report-only CA000 state was requested by their CISO.';

describe('four eyes against anyone with Azure DevOps access', () => {
  let env: AppWithDevOps;
  let t: TestApp;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ pipelineDurationInMs: 200 });
    ({ t } = env);
  });
  afterEach(() => env.devops.emulator.faults.clear());
  afterAll(() => env.close());

  const repoUrl = () =>
    `${env.devops.emulator.url}/${encodeURIComponent(SAMPLE_PROJECTS.tenantManagement)}/_apis/git/repositories/${CONFIG_REPOSITORY_NAME}`;
  /** A technician's own Azure DevOps token, as `az account get-access-token` gives one. */
  const devopsTokenOf = async (upn: string) => {
    const response = await fetch(`${t.idp.url}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: upn, scope: DEVOPS_SCOPE }),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  };
  const devops = async (upn: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(
      `${repoUrl()}${path}${path.includes('?') ? '&' : '?'}api-version=7.1`,
      {
        method,
        headers: {
          authorization: `Bearer ${await devopsTokenOf(upn)}`,
          'content-type': 'application/json',
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      },
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const tipOf = async (branch: string) => {
    const refs = await devops(PRIYA, 'GET', `/refs?filter=heads/${branch}`);
    const value = refs.body['value'] as { name: string; objectId: string }[];
    return value.find((r) => r.name === `refs/heads/${branch}`)?.objectId ?? '';
  };
  const approve = (branch: string, user: string) =>
    t.injectAs(user, {
      method: 'POST',
      url: '/api/capture/clients/ABC/pull-requests',
      payload: {
        branch,
        comments: COMMENT,
        acknowledged: true,
        summary: { modified: 1, added: 0, deleted: 0 },
      },
    });

  describe('the capturer is taken from the capture run, never from the branch', () => {
    it('refuses self-approval when the capture metadata cannot be read (it used to fail open)', async () => {
      env.devops.emulator.faults.add({
        kind: 'error',
        statusCode: 500,
        pathPattern: '/items',
        queryPattern: 'capture-metadata',
      });
      const response = await approve(PRIYAS_CAPTURE, PRIYA);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({
        message: 'You started this capture, so another Approver must approve it (four-eyes rule).',
      });
    });

    it('refuses self-approval after the capturer edited triggeredBy on the branch', async () => {
      const metadataPath = '/Clients/ABC/.capture-metadata.json';
      const pushed = await devops(PRIYA, 'POST', '/pushes', {
        refUpdates: [
          { name: `refs/heads/${PRIYAS_CAPTURE}`, oldObjectId: await tipOf(PRIYAS_CAPTURE) },
        ],
        commits: [
          {
            comment: 'not me',
            changes: [
              {
                changeType: 'edit',
                item: { path: metadataPath },
                newContent: {
                  content: JSON.stringify({ triggeredBy: SAM, baselineVersion: '1.0.0' }),
                  contentType: 'rawtext',
                },
              },
            ],
          },
        ],
      });
      expect(pushed.status).toBe(201);
      const response = await approve(PRIYAS_CAPTURE, PRIYA);
      expect(response.statusCode).toBe(403);
    });

    it('refuses a capture branch made by hand (no capture run made it)', async () => {
      const handMade = 'client-ABC-capture-777777';
      const pushed = await devops(PRIYA, 'POST', '/pushes', {
        refUpdates: [{ name: `refs/heads/${handMade}`, oldObjectId: await tipOf('main') }],
        commits: [
          {
            comment: 'a capture nobody ran',
            changes: [
              {
                changeType: 'add',
                item: { path: '/Clients/ABC/M365Config/Resources/Intune/x.json' },
                newContent: { content: '{}', contentType: 'rawtext' },
              },
            ],
          },
        ],
      });
      expect(pushed.status).toBe(201);
      for (const user of [PRIYA, ALEX]) {
        const response = await approve(handMade, user);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({
          message: `${handMade} was not made by a capture run of client ABC, so it cannot be approved.`,
        });
      }
    });

    it('refuses a branch named after a run of another pipeline', async () => {
      // run 1042's branch exists for ABC; a branch of ABC named after a FAB capture run does not count
      const runOfFab = 611;
      const branch = `client-ABC-capture-${runOfFab}`;
      const pushed = await devops(PRIYA, 'POST', '/refs', [
        {
          name: `refs/heads/${branch}`,
          oldObjectId: '0'.repeat(40),
          newObjectId: await tipOf('main'),
        },
      ]);
      expect(pushed.status).toBe(200);
      const response = await approve(branch, ALEX);
      expect(response.statusCode).toBe(403);
    });

    it('answers 503, never 201, when the run cannot be read (500, 429 with Retry-After)', async () => {
      env.devops.emulator.faults.add({
        kind: 'error',
        statusCode: 500,
        pathPattern: '/_apis/build/builds/1042$',
      });
      const failed = await approve('client-ABC-capture-1042', PRIYA);
      expect(failed.statusCode).toBe(503);
      expect(failed.json()).toMatchObject({
        message: expect.stringMatching(/^Who ran capture 1042 could not be read from Azure DevOps/),
      });
      env.devops.emulator.faults.clear();
      env.devops.emulator.faults.add({
        kind: 'throttle',
        retryAfterInSeconds: 7,
        pathPattern: '/_apis/build/builds/1042$',
      });
      const throttled = await approve('client-ABC-capture-1042', PRIYA);
      expect(throttled.statusCode).toBe(503);
      expect(throttled.headers['retry-after']).toBe('7');
    });
  });

  describe("a technician's own DevOps token cannot change main alone", () => {
    it('is refused a direct push to main (TF402455)', async () => {
      const response = await devops(ALEX, 'POST', '/pushes', {
        refUpdates: [{ name: 'refs/heads/main', oldObjectId: await tipOf('main') }],
        commits: [
          {
            comment: 'straight to main',
            changes: [
              {
                changeType: 'add',
                item: { path: '/Clients/ABC/M365Config/Resources/Intune/direct.json' },
                newContent: { content: '{}', contentType: 'rawtext' },
              },
            ],
          },
        ],
      });
      expect(response.status).toBe(403);
      expect(response.body['message']).toBe(
        'TF402455: Pushes to this branch are not permitted; you must use a pull request to update this branch.',
      );
    });

    it('cannot complete a pull request of their own capture that they approved themselves', async () => {
      const branch = 'client-ABC-capture-1042';
      const created = await devops(SAM, 'POST', '/pullrequests', {
        sourceRefName: `refs/heads/${branch}`,
        targetRefName: 'refs/heads/main',
        title: 'My own capture',
      });
      expect(created.status).toBe(201);
      const id = created.body['pullRequestId'] as number;
      const samId = 'c4a9e2f3-6b7d-48e1-a0f5-2d9c8b7e6a33';
      expect(
        (await devops(SAM, 'PUT', `/pullRequests/${id}/reviewers/${samId}`, { vote: 10 })).status,
      ).toBe(200);
      const completed = await devops(SAM, 'PATCH', `/pullRequests/${id}`, { status: 'completed' });
      expect(completed.status).toBe(403);
      const pr = await devops(SAM, 'GET', `/pullRequests/${id}`);
      expect(pr.body['status']).toBe('active');
      await devops(SAM, 'PATCH', `/pullRequests/${id}`, { status: 'abandoned' });
    });
  });

  describe("Aegis's own writes to main still land", () => {
    it("an accepted deviation (an Approver's) is pushed by the Aegis service identity with the technician as author", async () => {
      const before = await tipOf('main');
      const response = await t.injectAs(PRIYA, {
        method: 'POST',
        url: '/api/compliance/FAB/accepted-deviations',
        payload: {
          path: 'AzureAD/AuthorizationPolicy/Authorization Policy.json',
          policyName: 'Authorization Policy',
          category: 'AzureAD',
          properties: ['allowUserConsentForRiskyApps'],
          reason: 'Risky-app consent reviewed by the client CISO',
        },
      });
      expect(response.statusCode).toBe(200);
      const commits = await devops(
        SAM,
        'GET',
        '/commits?searchCriteria.$top=1&searchCriteria.itemVersion.version=main',
      );
      const [commit] = commits.body['value'] as {
        commitId: string;
        comment: string;
        author: { email: string };
        committer: { name: string };
      }[];
      expect(commit?.commitId).not.toBe(before);
      expect(commit?.author.email).toBe(PRIYA);
      expect(commit?.committer.name).toBe('Aegis - Deploy - Monitor - Fix');
      expect(commit?.comment).toContain(`On behalf of: Priya Shah <${PRIYA}>`);
    });
  });

  describe("main's branch policy is checked and set up by Aegis", () => {
    const protection = (user: string, method: 'GET' | 'POST' = 'GET') =>
      t.injectAs(user, { method, url: '/api/branch-protection' });

    it('reports the seeded policy as holding, to anyone signed in', async () => {
      const response = await protection('night.shift@aegis-msp.example');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        protected: true,
        gaps: [],
        serviceIdentity: true,
        repository: CONFIG_REPOSITORY_NAME,
        branch: 'main',
      });
    });

    it('names what a weakened policy lacks, and an Administrator (only) puts it right', async () => {
      const [policy] = env.devops.emulator.state.data.policyConfigurations;
      policy!.settings['creatorVoteCounts'] = true;
      policy!.settings['resetOnSourcePush'] = false;
      expect((await protection(SAM)).json()).toMatchObject({
        protected: false,
        gaps: ["the creator's own vote counts", 'votes are not reset when the source changes'],
      });
      expect((await protection(SAM, 'POST')).statusCode).toBe(403);
      const fixed = await protection(ALEX, 'POST');
      expect(fixed.statusCode).toBe(200);
      expect(fixed.json()).toMatchObject({ protected: true, gaps: [] });
      expect(policy!.settings).toMatchObject({ creatorVoteCounts: false, resetOnSourcePush: true });
    });

    it('sets the policy up when main has none, after which a direct push is refused again', async () => {
      for (const p of env.devops.emulator.state.data.policyConfigurations) p.isDeleted = true;
      expect((await protection(SAM)).json()).toMatchObject({
        protected: false,
        gaps: ['main has no required minimum reviewers policy'],
      });
      const unprotectedPush = await devops(ALEX, 'POST', '/pushes', {
        refUpdates: [{ name: 'refs/heads/main', oldObjectId: await tipOf('main') }],
        commits: [
          {
            comment: 'while unprotected',
            changes: [
              {
                changeType: 'add',
                item: { path: '/Clients/ABC/M365Config/Resources/Intune/unprotected.json' },
                newContent: { content: '{}', contentType: 'rawtext' },
              },
            ],
          },
        ],
      });
      expect(unprotectedPush.status).toBe(201);

      const setUp = await protection(ALEX, 'POST');
      expect(setUp.json()).toMatchObject({ protected: true });
      const refused = await devops(ALEX, 'POST', '/pushes', {
        refUpdates: [{ name: 'refs/heads/main', oldObjectId: await tipOf('main') }],
        commits: [
          {
            comment: 'after set-up',
            changes: [
              {
                changeType: 'add',
                item: { path: '/Clients/ABC/M365Config/Resources/Intune/protected.json' },
                newContent: { content: '{}', contentType: 'rawtext' },
              },
            ],
          },
        ],
      });
      expect(refused.status).toBe(403);
    });
  });

  describe('accepting a critical deviation needs a second Approver', () => {
    const reportOf = async (user: string) =>
      (
        await t.injectAs(user, { method: 'GET', url: '/api/compliance/FAB' })
      ).json() as ComplianceReport;
    const decide = (user: string, path: string, decision: 'approve' | 'reject') =>
      t.injectAs(user, {
        method: 'POST',
        url: '/api/compliance/FAB/accepted-deviations/decisions',
        payload: { path, decision },
      });

    it('waits for another Approver, who approves it; the one who asked cannot', async () => {
      const before = await reportOf(PRIYA);
      const critical = before.compliance.deviations.find((g) =>
        g.deviations.some((d) => d.severity === 'critical'),
      );
      expect(critical).toBeDefined();
      const properties = critical!.deviations
        .filter((d) => d.severity === 'critical')
        .map((d) => d.property);
      const asked = await t.injectAs(PRIYA, {
        method: 'POST',
        url: '/api/compliance/FAB/accepted-deviations',
        payload: {
          path: critical!.path,
          policyName: critical!.policyName,
          category: critical!.category,
          properties,
          reason: 'Client keeps its own policy for now; reviewed with their CISO',
        },
      });
      expect(asked.statusCode).toBe(202);
      expect(asked.json()).toMatchObject({
        pending: { path: critical!.path, requestedBy: PRIYA, properties },
      });
      // nothing is accepted yet: the deviation still counts
      const waiting = await reportOf(PRIYA);
      expect(waiting.compliance.acceptedDeviationsCount).toBe(
        before.compliance.acceptedDeviationsCount,
      );
      expect(waiting.acceptedDeviations.pendingAcceptances).toEqual([
        expect.objectContaining({ path: critical!.path, requestedBy: PRIYA }),
      ]);

      const own = await decide(PRIYA, critical!.path, 'approve');
      expect(own.statusCode).toBe(403);
      expect(own.json()).toMatchObject({
        message:
          'You asked for this acceptance, so another Approver must approve it (four-eyes rule).',
      });
      expect((await decide(SAM, critical!.path, 'approve')).statusCode).toBe(403);

      const approved = await decide(ALEX, critical!.path, 'approve');
      expect(approved.statusCode).toBe(200);
      const file = approved.json() as AcceptedDeviationsConfig;
      expect(file.pendingAcceptances).toEqual([]);
      expect(file.acceptedDeviations).toContainEqual(
        expect.objectContaining({ path: critical!.path, acceptedBy: PRIYA, approvedBy: ALEX }),
      );
      const after = await reportOf(PRIYA);
      expect(after.compliance.deviations.find((g) => g.path === critical!.path)).toBeUndefined();
    });

    it('a rejection accepts nothing; an unknown request is 404', async () => {
      const report = await reportOf(PRIYA);
      const critical = report.compliance.deviations.find((g) =>
        g.deviations.some((d) => d.severity === 'critical'),
      );
      const properties = critical!.deviations
        .filter((d) => d.severity === 'critical')
        .map((d) => d.property);
      const asked = await t.injectAs(ALEX, {
        method: 'POST',
        url: '/api/compliance/FAB/accepted-deviations',
        payload: {
          path: critical!.path,
          policyName: critical!.policyName,
          category: critical!.category,
          properties,
          reason: 'Asked by Alex',
        },
      });
      expect(asked.statusCode).toBe(202);
      expect((await decide(PRIYA, critical!.path, 'reject')).statusCode).toBe(200);
      const after = await reportOf(PRIYA);
      expect(after.acceptedDeviations.pendingAcceptances).toEqual([]);
      expect(after.compliance.deviations.some((g) => g.path === critical!.path)).toBe(true);
      expect((await decide(PRIYA, critical!.path, 'approve')).statusCode).toBe(404);
    });
  });
});
