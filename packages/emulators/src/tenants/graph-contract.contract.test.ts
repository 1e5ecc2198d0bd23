// The tenant emulator serves Graph as Microsoft's published contract says (contracts/graph.json,
// ADR 048), and the pipeline tasks' gateway captures and deploys what that contract needs: a
// Settings Catalog policy with its settings, a compliance policy with its scheduled actions, the
// beta authorization policy as a collection of one, the two policies Microsoft updates with PUT,
// Forms at /admin/forms and directory settings with their template.
import { workloadFor, type GraphWorkload } from '@aegis/domain';
import {
  HttpTenantGateway,
  objectsOfRead,
  writableBody,
  type TenantObject,
} from '@aegis/pipeline-tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import { appToken, startTestTenantEmulator } from './test-support';
import { TenantWorld } from './world';

const source = SIMULATED_TENANTS.find((t) => t.clientCode === 'FAB')!;
const target = SIMULATED_TENANTS.find((t) => !t.onboarded)!;
const world = new TenantWorld();
let emulator: TenantEmulator;

beforeAll(async () => {
  emulator = await startTestTenantEmulator({ world, defaultPageSize: 3 });
});
afterAll(() => emulator.close());

function graphWorkload(key: string): GraphWorkload {
  const [category = '', kind = ''] = key.split('/');
  const found = workloadFor(category, kind);
  if (found?.transport !== 'graph') throw new Error(`no Graph workload ${key}`);
  return found;
}

function gateway(tenant = source): HttpTenantGateway {
  return new HttpTenantGateway({
    tenantId: tenant.tenantId,
    urls: { graph: emulator.url, exchange: emulator.url, teams: emulator.url, arm: emulator.url },
    getToken: () => Promise.resolve(appToken(tenant)),
    retry: { sleep: () => Promise.resolve() },
  });
}

/** The objects of one workload as the gateway reads them (a failed read fails the test). */
async function read(reader: HttpTenantGateway, workload: GraphWorkload) {
  return objectsOfRead(await reader.readAll([workload]));
}

/** A raw call, to see the emulator's own answer (status and body). */
async function call(
  method: string,
  path: string,
  body?: unknown,
  tenant = source,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${appToken(tenant)}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

const CATALOG = '/beta/deviceManagement/configurationPolicies';

describe("the emulator serves Graph as Microsoft's contract says", () => {
  it('a list carries navigation properties only when $expand-ed, pages at the page size and honours $select', async () => {
    const plain = await call('GET', `${CATALOG}?$top=1`);
    expect(plain.status).toBe(200);
    const items = plain.body['value'] as Record<string, unknown>[];
    expect(items).toHaveLength(1);
    expect(plain.body['@odata.nextLink']).toEqual(expect.stringMatching(/skiptoken=/));
    expect(items.every((p) => !('settings' in p) && typeof p['name'] === 'string')).toBe(true);
    const expanded = await call('GET', `${CATALOG}?$expand=settings`);
    const withSettings = expanded.body['value'] as Record<string, unknown>[];
    expect(
      withSettings.every(
        (p) => Array.isArray(p['settings']) && p['settings'].length === p['settingCount'],
      ),
    ).toBe(true);
    const selected = await call('GET', `${CATALOG}?$select=name`);
    expect(Object.keys((selected.body['value'] as object[])[0]!).sort()).toEqual(['id', 'name']);
    const one = await call('GET', `${CATALOG}/${String(items[0]!['id'])}`);
    expect(one.body).not.toHaveProperty('settings');
  });

  it('refuses an $expand of something that is not a navigation property', async () => {
    const answer = await call('GET', `${CATALOG}?$expand=platforms`);
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toMatchObject({ code: 'BadRequest' });
  });

  it('beta /policies/authorizationPolicy is a collection of one; v1.0 a singleton', async () => {
    const beta = await call('GET', '/beta/policies/authorizationPolicy');
    expect(beta.body['value']).toEqual([
      expect.objectContaining({ id: 'authorizationPolicy', allowedToUseSSPR: true }),
    ]);
    expect((await call('PATCH', '/beta/policies/authorizationPolicy', { a: 1 })).status).toBe(405);
    expect(
      (
        await call('PATCH', '/beta/policies/authorizationPolicy/authorizationPolicy', {
          allowedToUseSSPR: false,
        })
      ).status,
    ).toBe(204);
    const v1 = await call('GET', '/v1.0/policies/authorizationPolicy');
    expect(v1.body).toMatchObject({ id: 'authorizationPolicy', allowedToUseSSPR: false });
    expect(v1.body).not.toHaveProperty('value');
  });

  it('device registration and admin consent request policies are replaced with PUT, not PATCH', async () => {
    for (const path of [
      '/beta/policies/deviceRegistrationPolicy',
      '/beta/policies/adminConsentRequestPolicy',
    ]) {
      const current = (await call('GET', path)).body;
      const patched = await call('PATCH', path, { description: 'x' });
      expect(patched.status).toBe(405);
      expect(patched.body['error']).toMatchObject({ code: 'Request_BadRequest' });
      const { ['@odata.context']: _context, ...object } = current;
      expect((await call('PUT', path, object)).status).toBe(204);
    }
  });

  it('serves Forms settings as the settings property of /admin/forms (beta)', async () => {
    const forms = await call('GET', '/beta/admin/forms');
    expect(forms.body['settings']).toMatchObject({ isInOrgFormsPhishingScanEnabled: true });
    expect(
      (await call('PATCH', '/beta/admin/forms', { settings: { isBingImageSearchEnabled: false } }))
        .status,
    ).toBe(204);
    expect((await call('GET', '/v1.0/admin/forms')).status).toBe(400);
  });

  it('lists directory setting templates, and creating a setting needs its templateId', async () => {
    const templates = await call('GET', '/beta/directorySettingTemplates?$top=20');
    const ids = (templates.body['value'] as { id: string }[]).map((t) => t.id);
    expect(ids).toContain('08d542b9-071f-4e16-94b0-74abb372e3d9');
    const values = [{ name: 'AllowToAddGuests', value: 'false' }];
    const without = await call('POST', '/beta/settings', { displayName: 'Guests', values }, target);
    expect(without.status).toBe(400);
    expect(JSON.stringify(without.body)).toMatch(/templateId/);
    const created = await call(
      'POST',
      '/beta/settings',
      { displayName: 'Guests', templateId: '08d542b9-071f-4e16-94b0-74abb372e3d9', values },
      target,
    );
    expect(created.status).toBe(201);
  });

  it('a path the version does not have is not served (Settings Catalog is beta only)', async () => {
    const answer = await call('GET', '/v1.0/deviceManagement/configurationPolicies');
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toMatchObject({ code: 'BadRequest' });
  });
});

describe("the gateway captures and deploys what Microsoft's contract needs", () => {
  it('a Settings Catalog policy is captured with its settings and deployed into another tenant with every one', async () => {
    const catalog = graphWorkload('Intune/ConfigurationPolicy');
    const captured = (await read(gateway(), catalog)).get(catalog) ?? [];
    expect(captured.length).toBeGreaterThan(0);
    const policy = captured[0]!;
    const settings = policy['settings'] as unknown[];
    expect(settings).toHaveLength(Number(policy['settingCount']));
    expect(settings.length).toBeGreaterThan(0);

    const outcome = await gateway(target).create(catalog, writableBody(policy, catalog));
    expect(outcome.status).toBe('done');
    const deployed = ((await read(gateway(target), catalog)).get(catalog) ?? []).find(
      (p) => p['name'] === policy['name'],
    );
    expect(deployed?.['settings']).toEqual(settings);
  });

  it('a compliance policy is captured with its scheduled actions, which its creation needs', async () => {
    const compliance = graphWorkload('Intune/DeviceCompliancePolicy');
    const captured = (await read(gateway(), compliance)).get(compliance) ?? [];
    const policy = captured[0]!;
    expect(policy['scheduledActionsForRule']).toEqual([
      expect.objectContaining({
        scheduledActionConfigurations: [expect.objectContaining({ actionType: 'block' })],
      }),
    ]);
    const outcome = await gateway(target).create(compliance, writableBody(policy, compliance));
    expect(outcome.status).toBe('done');
  });

  it('the authorization policy is captured as the object and updated at its id', async () => {
    const authorization = graphWorkload('AzureAD/AuthorizationPolicy');
    const [policy, ...more] = (await read(gateway(), authorization)).get(authorization) ?? [];
    expect(more).toEqual([]);
    expect(policy).toMatchObject({ id: 'authorizationPolicy' });
    expect(policy).not.toHaveProperty('value');
    await gateway().update(authorization, policy!, { allowInvitesFrom: 'none' });
    const after = (await read(gateway(), authorization)).get(authorization)?.[0];
    expect(after?.['allowInvitesFrom']).toBe('none');
  });

  it('device registration and admin consent request policies are written with PUT', async () => {
    for (const key of ['AzureAD/DeviceRegistrationPolicy', 'AzureAD/AdminConsentRequestPolicy']) {
      const policy = graphWorkload(key);
      const [current] = (await read(gateway(), policy)).get(policy) ?? [];
      const body = { ...writableBody(current!, policy), description: `${key} by deploy` };
      expect((await gateway().update(policy, current!, body)).status).toBe('done');
      const after = (await read(gateway(), policy)).get(policy)?.[0];
      expect(after?.['description']).toBe(`${key} by deploy`);
    }
  });

  it('Forms settings are written at /admin/forms', async () => {
    const forms = graphWorkload('Forms/FormsSettings');
    const [current] = (await read(gateway(), forms)).get(forms) ?? [];
    const settings = { ...(current!['settings'] as TenantObject), isExternalSendFormEnabled: true };
    await gateway().update(forms, current!, { settings });
    const after = (await read(gateway(), forms)).get(forms)?.[0];
    expect(after?.['settings']).toMatchObject({ isExternalSendFormEnabled: true });
  });

  it('a directory setting is deployed with its templateId', async () => {
    const directorySetting = graphWorkload('AzureAD/DirectorySetting');
    const captured = (await read(gateway(), directorySetting)).get(directorySetting) ?? [];
    const setting = captured.find((s) => s['displayName'] === 'Password Rule Settings')!;
    const body = writableBody(setting, directorySetting);
    expect(body['templateId']).toBe('5cf42378-d67d-4f36-ba46-e8b86229381d');
    expect((await gateway(target).create(directorySetting, body)).status).toBe('done');
  });
});
