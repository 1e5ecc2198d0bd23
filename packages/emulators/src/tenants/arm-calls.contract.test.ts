// Every ARM call Aegis makes is one Microsoft's specification has (contracts/arm.json, ADR 058):
// the pipeline tasks' gateway capturing, creating, updating and removing both ARM workloads, and
// the onboarding calls (subscriptions, a role assignment), are recorded, and each method × path ×
// api-version must be an operation of the extract.
import { AZURE_ROLE_IDS, ArmClient } from '@aegis/connectors/arm';
import { type ArmWorkload, TENANT_WORKLOADS, textOf } from '@aegis/domain';
import { HttpTenantGateway, objectsOfRead } from '@aegis/pipeline-tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { requestUrl } from '../request-url';

import { ARM_CONTRACT, operationOf } from './arm-contract';
import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import { appToken, delegatedToken, startTestTenantEmulator } from './test-support';
import { AEGIS_ENTERPRISE_APP, TenantWorld } from './world';

const source = SIMULATED_TENANTS.find((t) => t.clientCode === 'FAB')!;
const target = SIMULATED_TENANTS.find((t) => !t.onboarded && t.subscriptions.length > 0)!;
const world = new TenantWorld({ propagationDelayInMs: 0 });
let emulator: TenantEmulator;

const ARM_WORKLOADS = TENANT_WORKLOADS.filter((w): w is ArmWorkload => w.transport === 'arm');

interface RecordedCall {
  method: string;
  path: string;
  apiVersion: string | null;
  status: number;
}

function recording(calls: RecordedCall[]): typeof fetch {
  return async (input, init) => {
    const url = requestUrl(input);
    const response = await fetch(input, init);
    calls.push({
      method: (init?.method ?? 'GET').toUpperCase(),
      path: decodeURIComponent(url.pathname),
      apiVersion: url.searchParams.get('api-version'),
      status: response.status,
    });
    return response;
  };
}

function gateway(tenant: (typeof SIMULATED_TENANTS)[number], calls: RecordedCall[]) {
  return new HttpTenantGateway({
    tenantId: tenant.tenantId,
    urls: { graph: emulator.url, exchange: emulator.url, teams: emulator.url, arm: emulator.url },
    subscriptionId: tenant.subscriptions[0]!.subscriptionId,
    getToken: () => Promise.resolve(appToken(tenant)),
    retry: { sleep: () => Promise.resolve() },
    fetch: recording(calls),
  });
}

beforeAll(async () => {
  emulator = await startTestTenantEmulator({ world });
});
afterAll(() => emulator.close());

describe("every ARM call Aegis makes is in Microsoft's specification", () => {
  it('the gateway (capture, create, update, remove of both ARM workloads) and onboarding', async () => {
    const calls: RecordedCall[] = [];
    const captured = objectsOfRead(await gateway(source, calls).readAll(ARM_WORKLOADS));
    const into = gateway(target, calls);
    for (const workload of ARM_WORKLOADS) {
      const [first] = captured.get(workload) ?? [];
      expect(first).toBeDefined();
      const created = await into.create(workload, first!);
      expect(created.status).toBe('done');
      const [live] = objectsOfRead(await into.readAll([workload])).get(workload) ?? [];
      await into.update(workload, live!, first!);
      await into.remove(workload, live!);
    }

    world.adminConsent({ tenant: target.tenantId, clientId: AEGIS_ENTERPRISE_APP.appId });
    const servicePrincipal = world
      .state(target.tenantId)
      .objectsOfType('#microsoft.graph.servicePrincipal')
      .find((o) => o['appId'] === AEGIS_ENTERPRISE_APP.appId)!;
    const onboarding = new ArmClient({
      baseUrl: emulator.url,
      getToken: () => Promise.resolve(delegatedToken(target)),
      fetch: recording(calls),
    });
    const [subscription] = await onboarding.listSubscriptions();
    await onboarding.createRoleAssignment({
      scope: subscription!.id,
      roleDefinitionGuid: AZURE_ROLE_IDS.reader,
      principalId: textOf(servicePrincipal['id']),
      principalType: 'ServicePrincipal',
    });

    const outside = calls
      .filter((call) => !operationOf(call.method, call.path, call.apiVersion))
      .map((call) => `${call.method} ${call.path}?api-version=${call.apiVersion ?? ''}`);
    expect(outside).toEqual([]);
    const operations = new Set(
      calls.map((call) => operationOf(call.method, call.path, call.apiVersion)?.operationId),
    );
    // every operation of the extract is one Aegis calls (none kept that nothing uses)
    expect([...operations].sort()).toEqual(
      ARM_CONTRACT.operations.map((o) => o.operationId).sort(),
    );
    expect(calls.filter((call) => call.status >= 400 && call.status !== 404)).toEqual([]);
  });

  it('a call outside the extract is not an operation of it', () => {
    const subscription = '/subscriptions/00000000-0000-0000-0000-000000000000';
    const scoped = `${subscription}/providers/Microsoft.Maintenance/maintenanceConfigurations/x`;
    expect(operationOf('PUT', scoped, '2023-04-01')).toBeUndefined();
    const list = `${subscription}/providers/Microsoft.Authorization/policyAssignments`;
    expect(operationOf('GET', list, '2023-04-01')?.operationId).toBe('PolicyAssignments_List');
    expect(operationOf('GET', list, '1999-01-01')).toBeUndefined();
    expect(operationOf('PATCH', `${list}/a`, '2023-04-01')).toBeUndefined();
  });
});
