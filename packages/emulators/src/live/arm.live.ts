// The ARM contract checks against a real subscription (`npm run test:live`, scripts/test-live.ts):
// the pipeline tasks' gateway reads both ARM workloads with the app's own token through
// Microsoft's SDKs, and every call it and onboarding's subscription listing make is an operation
// of the extract from azure-rest-api-specs (contracts/arm.json, ADR 058). Read-only unless
// AEGIS_LIVE_WRITE=1; then it creates a maintenance configuration of its own in
// AEGIS_LIVE_RESOURCE_GROUP (which must already exist, so the suite never leaves a group behind),
// updates and removes it.
import { ArmClient } from '@aegis/connectors/arm';
import { TENANT_WORKLOADS, type ArmWorkload } from '@aegis/domain';
import { HttpTenantGateway, objectIdOf } from '@aegis/pipeline-tasks';
import { ClientSecretCredential } from '@azure/identity';
import { describe, expect, it } from 'vitest';

import { requestUrl } from '../request-url';
import { operationOf } from '../tenants/arm-contract';

const ARM = 'https://management.azure.com';
const env = (name: string): string => process.env[name]?.trim() ?? '';
const tenantId = env('AEGIS_LIVE_TENANT_ID');
const subscriptionId = env('AEGIS_LIVE_SUBSCRIPTION_ID');
const resourceGroup = env('AEGIS_LIVE_RESOURCE_GROUP');
const credential = new ClientSecretCredential(
  tenantId,
  env('AEGIS_LIVE_CLIENT_ID'),
  env('AEGIS_LIVE_CLIENT_SECRET'),
);
const ARM_WORKLOADS = TENANT_WORKLOADS.filter((w): w is ArmWorkload => w.transport === 'arm');

const calls: { method: string; path: string; apiVersion: string | null }[] = [];

/** Notes each ARM call before sending it. */
const recording: typeof fetch = async (input, init) => {
  const url = requestUrl(input);
  calls.push({
    method: (init?.method ?? 'GET').toUpperCase(),
    path: decodeURIComponent(url.pathname),
    apiVersion: url.searchParams.get('api-version'),
  });
  return fetch(input, init);
};

async function armToken(): Promise<string> {
  const token = await credential.getToken(`${ARM}/.default`);
  if (!token) throw new Error('No ARM token for the live subscription');
  return token.token;
}

const gateway = new HttpTenantGateway({
  tenantId,
  urls: { graph: ARM, exchange: ARM, teams: ARM, arm: ARM },
  subscriptionId,
  ...(resourceGroup ? { resourceGroup } : {}),
  getToken: armToken,
  fetch: recording,
});

function callsOutsideTheExtract(): string[] {
  return calls
    .filter((call) => !operationOf(call.method, call.path, call.apiVersion))
    .map((call) => `${call.method} ${call.path}?api-version=${call.apiVersion ?? ''}`);
}

describe('ARM in the live subscription', () => {
  it("reads both ARM workloads and lists the subscription, each call in Microsoft's specification", async () => {
    const read = await gateway.readAll(ARM_WORKLOADS);
    for (const workload of ARM_WORKLOADS) {
      expect({ workload: workload.kind, outcome: read.get(workload)?.status }).toEqual({
        workload: workload.kind,
        outcome: 'read',
      });
    }
    const onboarding = new ArmClient({ baseUrl: ARM, getToken: armToken, fetch: recording });
    const subscriptions = await onboarding.listSubscriptions();
    expect(subscriptions.map((s) => s.subscriptionId)).toContain(subscriptionId);
    expect(callsOutsideTheExtract()).toEqual([]);
  });

  it.runIf(process.env['AEGIS_LIVE_WRITE'] === '1')(
    'creates, updates and removes a maintenance configuration of its own',
    async () => {
      // AEGIS_LIVE_RESOURCE_GROUP must name a group that exists already
      expect(resourceGroup).not.toBe('');
      const onboarding = new ArmClient({ baseUrl: ARM, getToken: armToken, fetch: recording });
      expect(await onboarding.findResourceGroup(subscriptionId, resourceGroup)).toBeTruthy();
      const workload = ARM_WORKLOADS.find((w) => w.kind === 'MaintenanceConfiguration')!;
      const body = {
        name: `aegis-live-check-${Date.now()}`,
        location: 'westeurope',
        properties: {
          maintenanceScope: 'InGuestPatch',
          visibility: 'Custom',
          maintenanceWindow: {
            startDateTime: '2030-01-06 02:00',
            duration: '02:00',
            timeZone: 'UTC',
            recurEvery: '1Week Sunday',
          },
          installPatches: {
            rebootSetting: 'IfRequired',
            linuxParameters: { classificationsToInclude: ['Critical', 'Security'] },
          },
          extensionProperties: { InGuestPatchMode: 'User' },
        },
      };
      const created = await gateway.create(workload, body);
      const object = created.status === 'done' ? created.object : undefined;
      expect(objectIdOf(workload, object ?? {})).toBeDefined();
      try {
        await gateway.update(workload, object!, {
          ...body,
          properties: {
            ...body.properties,
            maintenanceWindow: { ...body.properties.maintenanceWindow, duration: '03:00' },
          },
        });
      } finally {
        await gateway.remove(workload, object!);
      }
      expect(callsOutsideTheExtract()).toEqual([]);
    },
  );
});
