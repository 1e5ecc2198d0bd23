// Azure Policy assignments and maintenance configurations through the gateway's ARM adapter,
// against a tenant emulator that keeps them where ARM does (ADR 049): maintenance configurations
// only inside a resource group, policy assignments inherited from management groups listed at
// the subscription unless $filter=atExactScope(), api-versions from contracts/arm.json (ADR 058).
import { workloadFor, type TenantWorkload } from '@aegis/domain';
import { HttpTenantGateway, objectsOfRead } from '@aegis/pipeline-tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import { appToken, startTestTenantEmulator } from './test-support';
import { TenantWorld } from './world';

const tenant = SIMULATED_TENANTS.find((t) => t.clientCode === 'FAB')!;
const subscription = `/subscriptions/${tenant.subscriptions[0]!.subscriptionId}`;
const world = new TenantWorld();
let emulator: TenantEmulator;

function gateway(): HttpTenantGateway {
  return new HttpTenantGateway({
    tenantId: tenant.tenantId,
    urls: { graph: emulator.url, exchange: emulator.url, teams: emulator.url, arm: emulator.url },
    subscriptionId: tenant.subscriptions[0]!.subscriptionId,
    getToken: () => Promise.resolve(appToken(tenant)),
    retry: { sleep: () => Promise.resolve() },
  });
}

function workload(category: string, kind: string): TenantWorkload {
  const found = workloadFor(category, kind);
  if (!found) throw new Error(`no workload ${category}/${kind}`);
  return found;
}

async function arm(method: string, path: string, body?: unknown) {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${appToken(tenant)}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return response.status;
}

beforeAll(async () => {
  emulator = await startTestTenantEmulator({ world });
});
afterAll(() => emulator.close());

describe('maintenance configurations live in a resource group', () => {
  const maintenance = workload('AzureMaintenance', 'MaintenanceConfiguration');
  const config = {
    name: 'Aegis Patch Window',
    location: 'westeurope',
    properties: { maintenanceScope: 'InGuestPatch', visibility: 'Custom' },
  };

  it('ARM has no maintenance configuration at subscription scope', async () => {
    const path = `${subscription}/providers/Microsoft.Maintenance/maintenanceConfigurations/x?api-version=2023-04-01`;
    expect(await arm('PUT', path, config)).toBe(404);
  });

  it("a deploy creates one in Aegis's resource group, creating the group first", async () => {
    const outcome = await gateway().create(maintenance, config);
    expect(outcome).toMatchObject({
      status: 'done',
      object: {
        id: `${subscription}/resourceGroups/Aegis-Baseline/providers/Microsoft.Maintenance/maintenanceConfigurations/Aegis Patch Window`,
      },
    });
    const group = `${subscription}/resourcegroups/Aegis-Baseline?api-version=2021-04-01`;
    expect(await arm('GET', group)).toBe(200);
    const read = objectsOfRead(await gateway().readAll([maintenance])).get(maintenance) ?? [];
    expect(read.map((c) => c['name'])).toContain('Aegis Patch Window');
    const created = read.find((c) => c['name'] === 'Aegis Patch Window')!;
    await gateway().update(maintenance, created, { ...config, tags: { owner: 'aegis' } });
    await gateway().remove(maintenance, created);
    const after = objectsOfRead(await gateway().readAll([maintenance])).get(maintenance) ?? [];
    expect(after.map((c) => c['name'])).not.toContain('Aegis Patch Window');
  });
});

describe('policy assignments of the subscription itself', () => {
  const assignments = workload('AzurePolicy', 'PolicyAssignment');
  const type = 'providers/Microsoft.Authorization/policyAssignments';

  it('a capture leaves out what a management group or a resource group assigns', async () => {
    const objects = world.state(tenant.tenantId).workloadObjects(assignments);
    const properties = { policyDefinitionId: '/providers/Microsoft.Authorization/x' };
    objects.set('inherited-from-root', {
      id: `/providers/Microsoft.Management/managementGroups/root/${type}/inherited-from-root`,
      name: 'inherited-from-root',
      properties,
    });
    objects.set('rg-only', {
      id: `${subscription}/resourceGroups/rg-apps/${type}/rg-only`,
      name: 'rg-only',
      properties,
    });
    objects.set('at-subscription', {
      id: `${subscription}/${type}/at-subscription`,
      name: 'at-subscription',
      properties,
    });
    const read = objectsOfRead(await gateway().readAll([assignments])).get(assignments) ?? [];
    const names = read.map((a) => a['name']);
    expect(names).toContain('at-subscription');
    expect(names).not.toContain('inherited-from-root');
    expect(names).not.toContain('rg-only');
  });

  it("refuses an api-version Microsoft's specification does not define for the list", async () => {
    const response = await fetch(`${emulator.url}${subscription}/${type}?api-version=1999-01-01`, {
      headers: { authorization: `Bearer ${appToken(tenant)}` },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'NoRegisteredProviderFound' } });
  });
});

describe('calls outside the extract fail as ARM fails them', () => {
  const assignment = `${subscription}/providers/Microsoft.Authorization/policyAssignments/a`;

  async function answer(method: string, path: string, body?: unknown) {
    const response = await fetch(`${emulator.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${appToken(tenant)}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  it('a method the operations do not have is 405', async () => {
    expect(await answer('PATCH', `${assignment}?api-version=2023-04-01`, {})).toEqual({
      status: 405,
      body: {
        error: {
          code: 'MethodNotAllowed',
          message: "The requested resource does not support http method 'PATCH'.",
        },
      },
    });
  });

  it('a path outside any subscription is MissingSubscription', async () => {
    const path = '/providers/Microsoft.Authorization/policyAssignments?api-version=2023-04-01';
    expect(await answer('GET', path)).toMatchObject({
      status: 400,
      body: { error: { code: 'MissingSubscription' } },
    });
  });

  it('a body without what the specification requires is refused, naming the property', async () => {
    const group = `${subscription}/resourcegroups/no-location?api-version=2021-04-01`;
    expect(await answer('PUT', group, { tags: {} })).toMatchObject({
      status: 400,
      body: { error: { code: 'InvalidRequestContent', message: /'location'/ } },
    });
    const role = `${subscription}/providers/Microsoft.Authorization/roleAssignments/${crypto.randomUUID()}?api-version=2022-04-01`;
    expect(await answer('PUT', role, { properties: { principalId: 'x' } })).toMatchObject({
      status: 400,
      body: { error: { code: 'InvalidRequestContent', message: /'roleDefinitionId'/ } },
    });
  });

  it("a policy assignment PUT answers 201, the only success Microsoft's specification gives it", async () => {
    const body = { properties: { policyDefinitionId: '/providers/Microsoft.Authorization/x' } };
    expect((await answer('PUT', `${assignment}?api-version=2023-04-01`, body)).status).toBe(201);
    expect((await answer('PUT', `${assignment}?api-version=2023-04-01`, body)).status).toBe(201);
  });
});
