// The Parameters screen's routes (issue 30 §1–2, ADR 073) against the seeded DevOps emulator with
// main's branch policy: a change of a client's parameters or layers is a pull request that its
// author cannot complete and someone else can, and main holds the new value only after that.
import { DEVOPS_SCOPE } from '@aegis/connectors/devops';
import type {
  ClientParametersDto,
  PromotionPreviewDto,
  ProposedSettingsChangeDto,
} from '@aegis/contracts';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS, STAFF_ACCOUNTS } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';

const ALEX = 'alex.morgan@aegis-msp.example'; // Administrator
const PRIYA = 'priya.shah@aegis-msp.example'; // Approver
const SAM = 'sam.taylor@aegis-msp.example'; // Operator
const NIGHT = 'night.shift@aegis-msp.example'; // Reader
const GROUP_POLICY = 'AzureAD/DirectorySetting/Group.Unified.json';
const NEW_GROUP = '0f1e2d3c-4b5a-4697-8877-665544332211';

describe("a client's parameters and layers", () => {
  let env: AppWithDevOps;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ pipelineDurationInMs: 0 });
  }, 60_000);
  afterAll(() => env?.close());

  const get = (client: string, as = NIGHT) =>
    env.t.injectAs(as, { method: 'GET', url: `/api/clients/${client}/parameters` });
  const parametersOf = async (client: string) => {
    const response = await get(client);
    expect(response.statusCode).toBe(200);
    return response.json() as ClientParametersDto;
  };
  const proposeParameters = (client: string, payload: object, as = SAM) =>
    env.t.injectAs(as, {
      method: 'POST',
      url: `/api/clients/${client}/parameters/changes`,
      payload,
    });
  const proposeLayers = (client: string, payload: object, as = ALEX) =>
    env.t.injectAs(as, { method: 'POST', url: `/api/clients/${client}/layers/changes`, payload });

  /** Azure DevOps directly, with a technician's own token (as a reviewer acts on a pull request). */
  const devops = async (upn: string, method: string, path: string, body?: unknown) => {
    const token = (await (
      await fetch(`${env.t.idp.url}/oauth2/v2.0/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: upn, scope: DEVOPS_SCOPE }),
      })
    ).json()) as { access_token: string };
    const url = `${env.devops.emulator.url}/${encodeURIComponent(SAMPLE_PROJECTS.tenantManagement)}/_apis/git/repositories/${CONFIG_REPOSITORY_NAME}${path}${path.includes('?') ? '&' : '?'}api-version=7.1`;
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token.access_token}`,
        'content-type': 'application/json',
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const fileAt = async (path: string, branch: string) => {
    const response = await devops(
      PRIYA,
      'GET',
      `/items?path=${encodeURIComponent(path)}&includeContent=true&versionDescriptor.version=${encodeURIComponent(branch)}&versionDescriptor.versionType=branch`,
    );
    return JSON.parse(String(response.body['content'])) as Record<string, unknown>;
  };
  const approveAndComplete = async (pullRequestId: number, upn: string) => {
    const oid = STAFF_ACCOUNTS.find((a) => a.upn === upn)?.oid ?? '';
    const vote = await devops(upn, 'PUT', `/pullRequests/${pullRequestId}/reviewers/${oid}`, {
      vote: 10,
    });
    expect(vote.status).toBe(200);
    return devops(upn, 'PATCH', `/pullRequests/${pullRequestId}`, { status: 'completed' });
  };

  it('shows each parameter with the policies of the effective baseline that use it', async () => {
    const nwt = await parametersOf('NWT');
    const group = nwt.parameters.find((p) => p.name === 'groupCreatorsGroupId');
    expect(group?.value).toMatch(/^[0-9a-f-]{36}$/);
    expect(group?.usedBy).toContainEqual({
      path: GROUP_POLICY,
      sourcePath: `/M365Config/Resources/${GROUP_POLICY}`,
      layer: null,
    });
    expect(nwt.missing).toEqual([]);
    expect(nwt.layers).toEqual([]);
    expect(nwt.availableLayers).toContain('Healthcare');
    // each tenant holds its own value
    const wwi = await parametersOf('WWI');
    expect(wwi.parameters.find((p) => p.name === 'groupCreatorsGroupId')?.value).not.toBe(
      group?.value,
    );
  });

  it("lists a client's layers", async () => {
    expect((await parametersOf('CON')).layers).toEqual(['Healthcare']);
  });

  it('answers 404 for a client the repository does not hold, and 400 for a code that is not one', async () => {
    expect((await get('ZZZ')).statusCode).toBe(404);
    const bad = await get('abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'params.client' });
  });

  it('proposes a parameter change as a pull request that its author cannot complete and another person can', async () => {
    const before = await parametersOf('NWT');
    const proposed = await proposeParameters('NWT', {
      set: { groupCreatorsGroupId: NEW_GROUP },
      reason: 'The client renamed its licensed-staff group',
    });
    expect(proposed.statusCode).toBe(201);
    const change = proposed.json() as ProposedSettingsChangeDto;
    expect(change.branch).toMatch(/^parameters\/NWT\/[0-9a-f]{12}$/);

    // main is unchanged; the branch holds the new value, the rest of the file as it was
    const pending = await parametersOf('NWT');
    expect(pending.parameters).toEqual(before.parameters);
    expect(pending.pending.map((p) => p.pullRequestId)).toContain(change.pullRequestId);
    const onBranch = await fileAt('/Clients/NWT/.parameters.json', change.branch);
    expect(onBranch).toEqual({ parameters: { groupCreatorsGroupId: NEW_GROUP } });
    const pr = await devops(PRIYA, 'GET', `/pullRequests/${change.pullRequestId}`);
    expect(String(pr.body['description'])).toContain(
      `- Change 'groupCreatorsGroupId' from "${String(before.parameters[0]?.value)}" to "${NEW_GROUP}"`,
    );
    expect(String(pr.body['description'])).toContain(`/M365Config/Resources/${GROUP_POLICY}`);

    // the same proposal again finds the first one's pull request
    expect(
      (await proposeParameters('NWT', { set: { groupCreatorsGroupId: NEW_GROUP } })).statusCode,
    ).toBe(409);

    // four eyes: the author approving their own change cannot complete it
    const own = await approveAndComplete(change.pullRequestId, SAM);
    expect(own.status).toBe(403);
    expect((await parametersOf('NWT')).parameters[0]?.value).toBe(before.parameters[0]?.value);

    const approved = await approveAndComplete(change.pullRequestId, PRIYA);
    expect(approved.status).toBe(200);
    const after = await parametersOf('NWT');
    expect(after.parameters.find((p) => p.name === 'groupCreatorsGroupId')?.value).toBe(NEW_GROUP);
    expect(after.pending.map((p) => p.pullRequestId)).not.toContain(change.pullRequestId);
  });

  it('shows a parameter the baseline uses as missing once it is removed', async () => {
    const proposed = await proposeParameters('WWI', { remove: ['groupCreatorsGroupId'] });
    expect(proposed.statusCode).toBe(201);
    const change = proposed.json() as ProposedSettingsChangeDto;
    const pr = await devops(PRIYA, 'GET', `/pullRequests/${change.pullRequestId}`);
    expect(String(pr.body['description'])).toContain(
      'the baseline still uses it, so deploys of WWI will refuse until it is set again',
    );
    expect((await approveAndComplete(change.pullRequestId, PRIYA)).status).toBe(200);
    const wwi = await parametersOf('WWI');
    expect(wwi.parameters.map((p) => p.name)).not.toContain('groupCreatorsGroupId');
    expect(wwi.missing).toEqual([
      {
        name: 'groupCreatorsGroupId',
        usedBy: [
          { path: GROUP_POLICY, sourcePath: `/M365Config/Resources/${GROUP_POLICY}`, layer: null },
        ],
      },
    ]);
  });

  it('refuses a bad change naming the field, and answers 409 when nothing would change', async () => {
    const badName = await proposeParameters('FAB', { set: { '1st': 'x' } });
    expect(badName.statusCode).toBe(400);
    expect(badName.json()).toMatchObject({ field: expect.stringMatching(/^body\.set/) });
    const badValue = await proposeParameters('FAB', { set: { groupId: { nested: true } } });
    expect(badValue.statusCode).toBe(400);
    expect(badValue.json()).toMatchObject({ field: expect.stringMatching(/^body\.set/) });
    const empty = await proposeParameters('FAB', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ field: 'body.set' });
    const unknown = await proposeParameters('FAB', { remove: ['neverSet'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ field: 'remove.0' });
    const current = (await parametersOf('FAB')).parameters[0];
    const same = await proposeParameters('FAB', { set: { [current!.name]: current!.value } });
    expect(same.statusCode).toBe(409);
  });

  it('lets Operators propose parameters and only Administrators propose layers', async () => {
    expect((await proposeParameters('FAB', { set: { x1: 'abc' } }, NIGHT)).statusCode).toBe(403);
    expect((await proposeLayers('FAB', { layers: ['Healthcare'] }, SAM)).statusCode).toBe(403);
    expect((await proposeLayers('FAB', { layers: ['Healthcare'] }, PRIYA)).statusCode).toBe(403);
  });

  it('proposes layers in order as a pull request, refusing a layer the repository does not hold', async () => {
    const unknown = await proposeLayers('FAB', { layers: ['Healthcare', 'Kiosk devices'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ field: 'layers.1' });
    const twice = await proposeLayers('FAB', { layers: ['Healthcare', 'healthcare'] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ field: 'body.layers.1' });
    expect((await proposeLayers('CON', { layers: ['Healthcare'] })).statusCode).toBe(409);

    const proposed = await proposeLayers('FAB', { layers: ['healthcare'] });
    expect(proposed.statusCode).toBe(201);
    const change = proposed.json() as ProposedSettingsChangeDto;
    expect(change.branch).toMatch(/^layers\/FAB\//);
    // the folder's spelling is what the file names
    expect(await fileAt('/Clients/FAB/.layers.json', change.branch)).toEqual({
      layers: ['Healthcare'],
    });
    expect((await parametersOf('FAB')).layers).toEqual([]);
    expect((await approveAndComplete(change.pullRequestId, PRIYA)).status).toBe(200);
    expect((await parametersOf('FAB')).layers).toEqual(['Healthcare']);
  });

  describe('promotion of a captured policy into the baseline', () => {
    const preview = (client: string, query: string) =>
      env.t.injectAs(NIGHT, { method: 'GET', url: `/api/clients/${client}/promotions?${query}` });
    const promote = (client: string, payload: object, as = SAM) =>
      env.t.injectAs(as, { method: 'POST', url: `/api/clients/${client}/promotions`, payload });
    const q = (path: string, layer?: string) =>
      `path=${encodeURIComponent(path)}${layer ? `&layer=${encodeURIComponent(layer)}` : ''}`;

    it("replaces the tenant's values with the names of its parameters, shown before anything is written", async () => {
      const abc = await parametersOf('ABC');
      const groupId = abc.parameters.find((p) => p.name === 'groupCreatorsGroupId')?.value;
      const response = await preview('ABC', q(GROUP_POLICY));
      expect(response.statusCode).toBe(200);
      const shown = response.json() as PromotionPreviewDto;
      expect(shown.sourcePath).toBe(`/Clients/ABC/M365Config/Resources/${GROUP_POLICY}`);
      expect(shown.targetPath).toBe(`/M365Config/Resources/${GROUP_POLICY}`);
      expect(shown.replaces).toBe(true);
      expect(shown.substitutions).toHaveLength(1);
      expect(shown.substitutions[0]).toMatchObject({
        value: groupId,
        name: 'groupCreatorsGroupId',
      });
      const text = JSON.stringify(shown.content);
      expect(text).toContain('{{aegis:param:groupCreatorsGroupId}}');
      expect(text).not.toContain(String(groupId));

      const proposed = await promote('ABC', { path: GROUP_POLICY, reason: 'ABC got it right' });
      expect(proposed.statusCode).toBe(201);
      const change = proposed.json() as ProposedSettingsChangeDto;
      expect(change.branch).toMatch(/^promote\/ABC\//);
      expect(await fileAt(shown.targetPath, change.branch)).toEqual(shown.content);
      const pr = await devops(PRIYA, 'GET', `/pullRequests/${change.pullRequestId}`);
      expect(String(pr.body['description'])).toContain(
        `- ${shown.substitutions[0]!.path}: "${String(groupId)}" → {{aegis:param:groupCreatorsGroupId}}`,
      );
    });

    it('promotes into a layer the repository holds, as a new file there', async () => {
      const response = await preview('ABC', q(GROUP_POLICY, 'healthcare'));
      expect(response.statusCode).toBe(200);
      const shown = response.json() as PromotionPreviewDto;
      expect(shown.targetPath).toBe(`/Layers/Healthcare/M365Config/Resources/${GROUP_POLICY}`);
      expect(shown.replaces).toBe(false);
    });

    it('answers 404 for a policy the client does not have, 400 naming the field for bad input, 403 for a Reader', async () => {
      expect((await preview('ABC', q('AzureAD/X/Nothing.json'))).statusCode).toBe(404);
      const traversal = await preview('ABC', q('../M365Config/x.json'));
      expect(traversal.statusCode).toBe(400);
      expect(traversal.json()).toMatchObject({ field: 'querystring.path' });
      const layer = await preview('ABC', q(GROUP_POLICY, 'Kiosk devices'));
      expect(layer.statusCode).toBe(400);
      expect(layer.json()).toMatchObject({ field: 'layer' });
      expect((await promote('ABC', { path: GROUP_POLICY }, NIGHT)).statusCode).toBe(403);
    });
  });

  describe('the policies a dropped layer left in the tenant (ADR 079)', () => {
    const CA900 =
      'ConditionalAccess/Policy/CA900-CON-Contractors-AnyApp-AnyPlatform-BLOCK-OutsideOffice.json';
    const offboard = (client: string, payload: object, as = ALEX) =>
      env.t.injectAs(as, {
        method: 'POST',
        url: `/api/clients/${client}/dropped-layers/runs`,
        payload,
      });

    it('offers, once the layer change merged, what only the layer held and the tenant still has; the run removes those', async () => {
      // Healthcare takes over CON's own contractor policy (merged), so CON's tenant holds a policy
      // of the layer; its other policy overrides the company's Password Rule Settings
      const promoted = await env.t.injectAs(SAM, {
        method: 'POST',
        url: '/api/clients/CON/promotions',
        payload: { path: CA900, layer: 'Healthcare' },
      });
      expect(promoted.statusCode).toBe(201);
      const promotion = promoted.json() as ProposedSettingsChangeDto;
      expect((await approveAndComplete(promotion.pullRequestId, PRIYA)).status).toBe(200);
      // while CON has the layer, its policies are its baseline: nothing is offered or removed
      expect((await parametersOf('CON')).droppedLayers).toEqual([]);
      const early = await offboard('CON', { layers: ['Healthcare'] });
      expect(early.statusCode).toBe(400);
      expect(early.json()).toMatchObject({ field: 'layers.0' });

      const dropped = await proposeLayers('CON', { layers: [], reason: 'no longer a clinic' });
      expect(dropped.statusCode).toBe(201);
      const change = dropped.json() as ProposedSettingsChangeDto;
      const pr = await devops(PRIYA, 'GET', `/pullRequests/${change.pullRequestId}`);
      expect(String(pr.body['description'])).toContain("the client's Parameters screen offers");
      // not merged yet: still nothing to offer
      expect((await parametersOf('CON')).droppedLayers).toEqual([]);
      expect((await approveAndComplete(change.pullRequestId, PRIYA)).status).toBe(200);

      expect((await parametersOf('CON')).droppedLayers).toEqual([
        {
          layer: 'Healthcare',
          path: CA900,
          sourcePath: `/Layers/Healthcare/M365Config/Resources/${CA900}`,
        },
      ]);

      expect((await offboard('CON', { layers: ['Healthcare'] }, SAM)).statusCode).toBe(403);
      const none = await offboard('CON', { layers: [] });
      expect(none.statusCode).toBe(400);
      expect(none.json()).toMatchObject({ field: 'body.layers' });
      const other = await offboard('CON', { layers: ['Kiosk devices'] });
      expect(other.statusCode).toBe(400);
      expect(other.json()).toMatchObject({ field: 'layers.0' });
      expect((await offboard('ZZZ', { layers: ['Healthcare'] })).statusCode).toBe(404);

      const started = await offboard('CON', { layers: ['healthcare'] });
      expect(started.statusCode).toBe(201);
      expect(started.json()).toMatchObject({ clientCode: 'CON', pipelineId: 231 });
      const runId = (started.json() as { id: number }).id;
      const run = await env.t.injectAs(ALEX, {
        method: 'GET',
        url: `/api/projects/${encodeURIComponent(SAMPLE_PROJECTS.tenantManagement)}/pipelines/231/runs/${runId}`,
      });
      expect(run.statusCode).toBe(200);
    });
  });
});
