// Microsoft's own ARM clients, used as Microsoft documents them (a TokenCredential, the endpoint;
// only their bearer policy swapped for one that signs plain-http requests, which the emulator
// needs and the SDK's refuses), make every operation of contracts/arm.json against the tenant emulator (ADR 058): subscriptions
// (@azure/arm-resources-subscriptions), a role assignment (@azure/arm-authorization), policy
// assignments (@azure/arm-policy), resource groups and resources by id (@azure/arm-resources). An
// operation of the extract the emulator does not serve fails here; so does one no client makes.
import { bearerTokenPolicy, withAegisAuthentication } from '@aegis/connectors';
import { textOf } from '@aegis/domain';
import { AuthorizationManagementClient } from '@azure/arm-authorization';
import { PolicyClient } from '@azure/arm-policy';
import { ResourceManagementClient } from '@azure/arm-resources';
import { SubscriptionClient } from '@azure/arm-resources-subscriptions';
import type { TokenCredential } from '@azure/core-auth';
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ARM_CONTRACT, operationOf } from './arm-contract';
import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import { appToken, delegatedToken, startTestTenantEmulator } from './test-support';
import { AEGIS_ENTERPRISE_APP, TenantWorld } from './world';

const tenant = SIMULATED_TENANTS.find((t) => t.clientCode === 'FAB')!;
const subscriptionId = tenant.subscriptions[0]!.subscriptionId;
const world = new TenantWorld({ propagationDelayInMs: 0 });
let emulator: TenantEmulator;

const operations = new Set<string>();
/** Notes which operation of the extract each request is (or that it is none). */
const recording: PipelinePolicy = {
  name: 'record',
  async sendRequest(request, next) {
    const url = new URL(request.url);
    const operation = operationOf(
      request.method,
      decodeURIComponent(url.pathname),
      url.searchParams.get('api-version'),
    );
    operations.add(
      operation?.operationId ?? `none: ${request.method} ${url.pathname}${url.search}`,
    );
    return next(request);
  },
};

function credential(token: string): TokenCredential {
  return { getToken: () => Promise.resolve({ token, expiresOnTimestamp: Date.now() + 3_600_000 }) };
}

function options(token: string) {
  return {
    endpoint: emulator.url,
    allowInsecureConnection: true,
    additionalPolicies: [
      { policy: recording, position: 'perCall' as const },
      { policy: bearerTokenPolicy(credential(token)), position: 'perRetry' as const },
    ],
  };
}

beforeAll(async () => {
  emulator = await startTestTenantEmulator({ world, defaultPageSize: 1 });
});
afterAll(() => emulator.close());

describe("Microsoft's ARM SDKs against the tenant emulator", () => {
  it('onboarding: subscriptions (across pages) and a role assignment', async () => {
    const subscriptions = withAegisAuthentication(
      new SubscriptionClient(credential(delegatedToken(tenant)), options(delegatedToken(tenant))),
    );
    const names: string[] = [];
    for await (const s of subscriptions.subscriptions.list()) names.push(s.displayName ?? '');
    expect(names.sort()).toEqual(tenant.subscriptions.map((s) => s.displayName).sort());

    world.adminConsent({ tenant: tenant.tenantId, clientId: AEGIS_ENTERPRISE_APP.appId });
    const servicePrincipal = world
      .state(tenant.tenantId)
      .objectsOfType('#microsoft.graph.servicePrincipal')
      .find((o) => o['appId'] === AEGIS_ENTERPRISE_APP.appId)!;
    const authorization = withAegisAuthentication(
      new AuthorizationManagementClient(
        credential(delegatedToken(tenant)),
        subscriptionId,
        options(delegatedToken(tenant)),
      ),
    );
    // the scope as Microsoft's samples write it, without a leading slash
    const scope = `subscriptions/${subscriptionId}`;
    const assignment = await authorization.roleAssignments.create(scope, crypto.randomUUID(), {
      roleDefinitionId: `/${scope}/providers/Microsoft.Authorization/roleDefinitions/acdd72a7-3385-48ef-bd42-f606fba81ae7`,
      principalId: textOf(servicePrincipal['id']),
      principalType: 'ServicePrincipal',
    });
    expect(assignment.principalId).toBe(textOf(servicePrincipal['id']).toLowerCase());
  });

  it('policy assignments: list at the exact scope, get, create, delete', async () => {
    const policy = withAegisAuthentication(
      new PolicyClient(credential(appToken(tenant)), subscriptionId, {
        ...options(appToken(tenant)),
        apiVersion: '2023-04-01',
      }),
    );
    const scope = `subscriptions/${subscriptionId}`;
    const created = await policy.policyAssignments.create(scope, 'sdk-assignment', {
      displayName: 'Made by @azure/arm-policy',
      policyDefinitionId:
        '/providers/Microsoft.Authorization/policyDefinitions/871b6d14-10aa-478d-b590-94f262ecfa99',
    });
    expect(created.id).toBe(
      `/${scope}/providers/Microsoft.Authorization/policyAssignments/sdk-assignment`,
    );
    const listed: string[] = [];
    for await (const a of policy.policyAssignments.list({ filter: 'atExactScope()' })) {
      listed.push(a.name ?? '');
    }
    expect(listed).toContain('sdk-assignment');
    const read = await policy.policyAssignments.get(scope, 'sdk-assignment');
    expect(read.displayName).toBe('Made by @azure/arm-policy');
    await policy.policyAssignments.delete(scope, 'sdk-assignment');
    await expect(policy.policyAssignments.get(scope, 'sdk-assignment')).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('resource groups, the resource list and maintenance configurations by id', async () => {
    const resources = withAegisAuthentication(
      new ResourceManagementClient(credential(appToken(tenant)), subscriptionId, {
        ...options(appToken(tenant)),
        apiVersion: '2021-04-01',
      }),
    );
    await expect(resources.resourceGroups.get('rg-sdk')).rejects.toMatchObject({ statusCode: 404 });
    const group = await resources.resourceGroups.createOrUpdate('rg-sdk', {
      location: 'westeurope',
    });
    expect(group.name).toBe('rg-sdk');
    expect((await resources.resourceGroups.get('rg-sdk')).location).toBe('westeurope');

    const id = `/subscriptions/${subscriptionId}/resourceGroups/rg-sdk/providers/Microsoft.Maintenance/maintenanceConfigurations/sdk-window`;
    const put = await resources.resources.createOrUpdateById(id.slice(1), '2023-04-01', {
      location: 'westeurope',
      properties: { maintenanceScope: 'InGuestPatch', visibility: 'Custom' },
    });
    expect(put.id).toBe(id);
    const listed: string[] = [];
    const filter = "resourceType eq 'Microsoft.Maintenance/maintenanceConfigurations'";
    for await (const r of resources.resources.list({ filter })) listed.push(r.id ?? '');
    expect(listed).toContain(id);
    const read = await resources.resources.getById(id.slice(1), '2023-04-01');
    expect(read.properties).toMatchObject({ maintenanceScope: 'InGuestPatch' });
    await resources.resources.deleteById(id.slice(1), '2023-04-01');
    await expect(resources.resources.getById(id.slice(1), '2023-04-01')).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('made every operation of the extract, and nothing outside it', () => {
    expect([...operations].sort()).toEqual(
      ARM_CONTRACT.operations.map((o) => o.operationId).sort(),
    );
  });

  it("refuses @azure/arm-policy 7's default api-version, which no input of the extract holds", async () => {
    const policy = withAegisAuthentication(
      new PolicyClient(credential(appToken(tenant)), subscriptionId, options(appToken(tenant))),
    );
    const list = policy.policyAssignments.list({ filter: 'atExactScope()' });
    await expect(list.next()).rejects.toMatchObject({
      statusCode: 400,
      code: 'NoRegisteredProviderFound',
    });
  });
});
