// Every Graph call Aegis makes is one Microsoft's contract has (contracts/graph.json, ADR 048):
// the pipeline tasks' gateway capturing, creating, updating and removing every Graph workload and
// the onboarding directory calls are recorded (each $batch sub-request too) and each path
// template × method × version must be in the extract. Then Microsoft's own client,
// `@microsoft/microsoft-graph-client`, makes every documented call the gateway uses against the
// emulator: one the emulator does not serve fails here.
import { DIRECTORY_ROLE_TEMPLATE_IDS, DirectoryClient, GraphClient } from '@aegis/connectors/graph';
import { DIRECTORY_USERS_WORKLOAD, TENANT_WORKLOADS, type GraphWorkload } from '@aegis/domain';
import { HttpTenantGateway, objectIdOf, objectsOfRead, writableBody } from '@aegis/pipeline-tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { requestUrl } from '../request-url';

import {
  GRAPH_CONTRACT,
  contractPath,
  templateOf,
  type GraphApiVersion,
  type GraphMethod,
} from './graph-contract';
import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import { appToken, microsoftGraphClient, startTestTenantEmulator } from './test-support';
import { AEGIS_ENTERPRISE_APP, TenantWorld } from './world';

const source = SIMULATED_TENANTS.find((t) => t.clientCode === 'ADW')!;
const target = SIMULATED_TENANTS.find((t) => !t.onboarded)!;
const world = new TenantWorld({ propagationDelayInMs: 0 });
let emulator: TenantEmulator;

const GRAPH_WORKLOADS = TENANT_WORKLOADS.filter((w): w is GraphWorkload => w.transport === 'graph');

interface RecordedCall {
  method: string;
  version: GraphApiVersion;
  path: string;
}

beforeAll(async () => {
  emulator = await startTestTenantEmulator({ world, defaultPageSize: 4 });
});
afterAll(() => emulator.close());

/** A fetch that notes each Graph call, opening `$batch` into its sub-requests. */
function recording(calls: RecordedCall[]): typeof fetch {
  return async (input, init) => {
    const url = requestUrl(input);
    const match = /^\/(v1\.0|beta)(\/.*)$/.exec(url.pathname);
    if (match) {
      const version = match[1] as GraphApiVersion;
      const method = (init?.method ?? 'GET').toUpperCase();
      calls.push({ method, version, path: match[2]! });
      if (match[2] === '/$batch' && typeof init?.body === 'string') {
        const batch = JSON.parse(init.body) as { requests: { method: string; url: string }[] };
        for (const request of batch.requests) {
          const path = new URL(request.url, 'https://graph.invalid').pathname;
          calls.push({ method: request.method.toUpperCase(), version, path });
        }
      }
    }
    return fetch(input, init);
  };
}

function gateway(tenant: (typeof SIMULATED_TENANTS)[number], calls: RecordedCall[]) {
  return new HttpTenantGateway({
    tenantId: tenant.tenantId,
    urls: { graph: emulator.url, exchange: emulator.url, teams: emulator.url, arm: emulator.url },
    getToken: () => Promise.resolve(appToken(tenant)),
    retry: { sleep: () => Promise.resolve() },
    fetch: recording(calls),
  });
}

describe("every Graph call Aegis makes is in Microsoft's contract", () => {
  it('the gateway (capture, create, update, remove of every Graph workload) and the onboarding directory calls', async () => {
    const calls: RecordedCall[] = [];
    const from = gateway(source, calls);
    const into = gateway(target, calls);
    const captured = objectsOfRead(await from.readAll(GRAPH_WORKLOADS));
    const live = objectsOfRead(await into.readAll(GRAPH_WORKLOADS));
    const failedWrites: string[] = [];
    for (const workload of GRAPH_WORKLOADS) {
      const [first] = captured.get(workload) ?? [];
      const existing = live.get(workload)?.[0];
      if (workload.singleton) {
        // a tenant-wide object: written over with the source tenant's
        const outcome = existing
          ? await into.update(workload, existing, writableBody(first ?? existing, workload))
          : undefined;
        if (outcome?.status !== 'done') failedWrites.push(`update ${workload.path}`);
        continue;
      }
      if (!first) continue;
      const body = writableBody(first, workload);
      const nameProperty = workload.nameProperty ?? 'displayName';
      if (nameProperty !== 'id') body[nameProperty] = `${String(body[nameProperty])} (contract)`;
      if (workload.path === '/groups') body['mailNickname'] = 'contractcopy';
      const created = await into.create(workload, body);
      const object = created.status === 'done' ? created.object : undefined;
      if (!object || !objectIdOf(workload, object)) {
        failedWrites.push(`create ${workload.path}`);
        continue;
      }
      await into.update(workload, object, { [nameProperty]: body[nameProperty] ?? null });
      // authentication method configurations (named by id) exist once per tenant: never removed
      if (nameProperty !== 'id') await into.remove(workload, object);
    }
    expect(failedWrites).toEqual([]);
    const user = await into.create(DIRECTORY_USERS_WORKLOAD, {
      accountEnabled: true,
      displayName: 'Contract Check',
      mailNickname: 'contractcheck',
      userPrincipalName: `contractcheck@${target.initialDomain}`,
      passwordProfile: { password: 'Correct-Horse-7-Battery' },
    });
    await into.remove(DIRECTORY_USERS_WORKLOAD, user.status === 'done' ? user.object! : {});
    expect(await into.initialDomain()).toBe(target.initialDomain);

    world.adminConsent({ tenant: target.tenantId, clientId: AEGIS_ENTERPRISE_APP.appId });
    const directory = new DirectoryClient(
      new GraphClient({
        baseUrl: emulator.url,
        getToken: () => Promise.resolve(appToken(target)),
        fetch: recording(calls),
      }),
    );
    await directory.organization();
    const sp = await directory.findServicePrincipalByAppId(AEGIS_ENTERPRISE_APP.appId);
    await directory.findServicePrincipalsByDisplayName('Aegis - Deploy - Monitor - Fix');
    await directory.getDirectoryRoleTemplate(DIRECTORY_ROLE_TEMPLATE_IDS.exchangeAdministrator);
    const role = await directory.ensureDirectoryRole(
      DIRECTORY_ROLE_TEMPLATE_IDS.exchangeAdministrator,
    );
    expect(await directory.addDirectoryRoleMember(role.id, sp!.id)).toBe('added');

    const outside = calls.filter((call) => {
      const template = templateOf(call.version, call.path);
      return (
        !template ||
        !contractPath(call.version, template).methods.includes(call.method as GraphMethod)
      );
    });
    expect(outside).toEqual([]);
    // the recording saw the whole surface: every workload's path, its writes and the batch
    const seen = new Set(calls.map((c) => `${c.method} ${templateOf(c.version, c.path)}`));
    expect(seen).toContain('POST /$batch');
    expect(seen).toContain('PATCH /policies/authorizationPolicy/{id}');
    expect(seen).toContain('PUT /policies/deviceRegistrationPolicy');
    expect(seen).toContain('POST /directoryRoles/{id}/members/$ref');
    expect(calls).toContainEqual({
      method: 'PATCH',
      version: 'v1.0',
      path: '/admin/sharepoint/settings',
    });
    for (const workload of GRAPH_WORKLOADS) expect(seen).toContain(`GET ${workload.path}`);
  });
});

describe('what a deploy writes', () => {
  it("leaves out every property Microsoft's contract calls read-only for the workload's type", () => {
    const sent: string[] = [];
    for (const workload of GRAPH_WORKLOADS) {
      const version = workload.version ?? 'beta';
      const type = contractPath(version, workload.path).entityType;
      const readOnly = type
        ? (GRAPH_CONTRACT.versions[version].types[type]?.readOnly?.properties ?? [])
        : [];
      const body = writableBody(Object.fromEntries(readOnly.map((p) => [p, 'x'])), workload);
      sent.push(...Object.keys(body).map((p) => `${workload.path}: ${p}`));
    }
    expect(sent).toEqual([]);
    // the check has something to check
    expect(
      GRAPH_CONTRACT.versions['v1.0'].types['microsoft.graph.sharepointSettings']?.readOnly
        ?.properties,
    ).toContain('availableManagedPathsForSiteCreation');
  });
});

describe("Microsoft's Graph client makes every documented call the gateway uses", () => {
  it('reads every Graph workload (expanded where the configuration is a navigation property) and each object by id', async () => {
    const client = microsoftGraphClient(emulator.url, appToken(source));
    const problems: string[] = [];
    for (const workload of GRAPH_WORKLOADS) {
      const version = workload.version ?? 'beta';
      const at = contractPath(version, workload.path);
      if (!at.exists) problems.push(`${workload.path} is not in Microsoft's ${version} contract`);
      let request = client.api(workload.path).version(version);
      if (workload.expand) request = request.expand(workload.expand);
      const answer = (await request.get()) as Record<string, unknown>;
      const listed = Array.isArray(answer['value']);
      if (listed !== (at.kind === 'collection')) problems.push(`${workload.path}: shape`);
      const [first] = listed ? (answer['value'] as Record<string, unknown>[]) : [];
      if (!first) continue;
      const expanded = workload.expand?.replace(/\(.*$/, '');
      if (expanded && first[expanded] === undefined) {
        problems.push(`${workload.path}: $expand=${expanded} answered no ${expanded}`);
      }
      const byId = (await client
        .api(`${workload.path}/${String(first['id'])}`)
        .version(version)
        .get()) as Record<string, unknown>;
      if (byId['id'] !== first['id']) problems.push(`${workload.path}/{id}: another object`);
    }
    expect(problems).toEqual([]);
  });

  it('writes with the method Microsoft documents: POST, PATCH, PUT and DELETE', async () => {
    const client = microsoftGraphClient(emulator.url, appToken(target));
    const catalog = GRAPH_WORKLOADS.find((w) => w.kind === 'ConfigurationPolicy')!;
    const created = (await client
      .api(catalog.path)
      .version('beta')
      .post({
        name: 'Contract - Settings Catalog',
        platforms: 'windows10',
        technologies: 'mdm',
        settings: [
          {
            '@odata.type': '#microsoft.graph.deviceManagementConfigurationSetting',
            settingInstance: {
              '@odata.type': '#microsoft.graph.deviceManagementConfigurationChoiceSettingInstance',
              settingDefinitionId: 'device_vendor_msft_policy_config_defender_allowcloudprotection',
              choiceSettingValue: {
                value: 'device_vendor_msft_policy_config_defender_allowcloudprotection_1',
                children: [],
              },
            },
          },
        ],
      })) as { id: string };
    await client.api(`${catalog.path}/${created.id}`).version('beta').patch({ description: 'x' });
    const settings = (await client
      .api(`${catalog.path}/${created.id}/settings`)
      .version('beta')
      .get()) as { value: unknown[] };
    expect(settings.value).toHaveLength(1);
    await client.api(`${catalog.path}/${created.id}`).version('beta').delete();

    const registration = (await client
      .api('/policies/deviceRegistrationPolicy')
      .version('beta')
      .get()) as Record<string, unknown>;
    const { ['@odata.context']: _context, ...policy } = registration;
    await client.api('/policies/deviceRegistrationPolicy').version('beta').put(policy);
    const refused: unknown = await client
      .api('/policies/deviceRegistrationPolicy')
      .version('beta')
      .patch(policy)
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ statusCode: 405 });

    await client
      .api('/policies/authorizationPolicy/authorizationPolicy')
      .version('beta')
      .patch({ allowedToUseSSPR: true });
    await client
      .api('/admin/forms')
      .version('beta')
      .patch({ settings: { isBingImageSearchEnabled: false } });
    const forms = (await client.api('/admin/forms').version('beta').get()) as {
      settings: Record<string, unknown>;
    };
    expect(forms.settings['isBingImageSearchEnabled']).toBe(false);
  });

  it("reads and writes SharePoint's tenant settings at v1.0 /admin/sharepoint/settings as Graph types them", async () => {
    const client = microsoftGraphClient(emulator.url, appToken(target));
    const settings = client.api('/admin/sharepoint/settings').version('v1.0');
    await settings.patch({
      sharingCapability: 'existingExternalUserSharingOnly',
      sharingAllowedDomainList: ['contoso.com'],
      idleSessionSignOut: { isEnabled: true, warnAfterInSeconds: 600, signOutAfterInSeconds: 900 },
    });
    const read = (await client.api('/admin/sharepoint/settings').version('v1.0').get()) as Record<
      string,
      unknown
    >;
    expect(read).toMatchObject({
      sharingCapability: 'existingExternalUserSharingOnly',
      sharingAllowedDomainList: ['contoso.com'],
      idleSessionSignOut: { isEnabled: true, warnAfterInSeconds: 600, signOutAfterInSeconds: 900 },
    });
    const refusal = (body: Record<string, unknown>) =>
      client
        .api('/admin/sharepoint/settings')
        .version('v1.0')
        .patch(body)
        .then(
          () => 'accepted',
          (e: { statusCode?: number; message?: string }) => `${e.statusCode}: ${e.message}`,
        );
    // what Microsoft's API reference calls read-only, a property the type lacks, values of the
    // wrong type: refused as Graph refuses them, and nothing of the body is kept
    expect(await refusal({ availableManagedPathsForSiteCreation: ['/x/'] })).toMatch(
      /^400: Property 'availableManagedPathsForSiteCreation' is read-only/,
    );
    expect(await refusal({ SharingCapability: 'Disabled' })).toMatch(
      /^400: The property 'SharingCapability' does not exist on type 'microsoft.graph.sharepointSettings'/,
    );
    expect(await refusal({ sharingCapability: 'Disabled' })).toMatch(/^400: .*sharingCapabilities/);
    expect(await refusal({ isLoopEnabled: 'yes' })).toMatch(/^400: .*Edm\.Boolean/);
    expect(await refusal({ idleSessionSignOut: { signOutAfter: 5 } })).toMatch(/^400: /);
    expect(await refusal({ sharingCapability: 'disabled', isLoopEnabled: 1 })).toMatch(/^400: /);
    const after = (await client.api('/admin/sharepoint/settings').version('v1.0').get()) as Record<
      string,
      unknown
    >;
    expect(after['sharingCapability']).toBe('existingExternalUserSharingOnly');
    expect(after['availableManagedPathsForSiteCreation']).toEqual(
      read['availableManagedPathsForSiteCreation'],
    );
  });
});
