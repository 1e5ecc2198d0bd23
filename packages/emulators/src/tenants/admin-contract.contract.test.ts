// Exchange Online (and Defender) through the Exchange admin API and Teams through the Teams
// configuration service, against the tenant emulator that now speaks Microsoft's cmdlet
// reference (ADR 049): what the services refuse is refused, and the gateway sends only what they
// accept, pages through long lists and enables organisation customisation with its own cmdlet.
import { CMDLET_EXTRACTS, cmdletContract } from '@aegis/connectors/microsoft-contracts';
import { TENANT_WORKLOADS, workloadFor, type TenantWorkload } from '@aegis/domain';
import { HttpTenantGateway, objectsOfRead } from '@aegis/pipeline-tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { requestUrl } from '../request-url';

import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import { appToken, startTestTenantEmulator } from './test-support';
import { TenantWorld } from './world';

const tenant = SIMULATED_TENANTS.find((t) => t.clientCode === 'FAB')!;
const PAGE_SIZE = 5;
let world: TenantWorld;
let emulator: TenantEmulator;

interface SentRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
}

function recordingGateway(sent: SentRequest[] = []): HttpTenantGateway {
  const recording: typeof fetch = (input, init) => {
    const text = typeof init?.body === 'string' ? init.body : undefined;
    sent.push({
      method: init?.method ?? 'GET',
      path: decodeURIComponent(requestUrl(input).pathname),
      body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    });
    return fetch(input, init);
  };
  return new HttpTenantGateway({
    tenantId: tenant.tenantId,
    urls: { graph: emulator.url, exchange: emulator.url, teams: emulator.url, arm: emulator.url },
    getToken: () => Promise.resolve(appToken(tenant)),
    fetch: recording,
    retry: { sleep: () => Promise.resolve() },
  });
}

function workload(category: string, kind: string): TenantWorkload {
  const found = workloadFor(category, kind);
  if (!found) throw new Error(`no workload ${category}/${kind}`);
  return found;
}

function objectsOf(w: TenantWorkload) {
  return world.state(tenant.tenantId).workloadObjects(w);
}

async function invoke(cmdlet: string, parameters: Record<string, unknown>) {
  const response = await fetch(`${emulator.url}/adminapi/beta/${tenant.tenantId}/InvokeCommand`, {
    method: 'POST',
    headers: { authorization: `Bearer ${appToken(tenant)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ CmdletInput: { CmdletName: cmdlet, Parameters: parameters } }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { error?: { code?: string; message?: string } },
  };
}

beforeAll(async () => {
  world = new TenantWorld();
  emulator = await startTestTenantEmulator({ world, defaultPageSize: PAGE_SIZE });
});
afterAll(() => emulator.close());

describe('the Exchange admin API refuses what the cmdlet does not accept', () => {
  it('answers 400 naming a read-only property of the Get- output (IsDefault, IsDehydrated)', async () => {
    const isDefault = await invoke('Set-HostedContentFilterPolicy', {
      Identity: 'Default',
      IsDefault: true,
    });
    expect(isDefault).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 'ParameterBindingException',
          message: "A parameter cannot be found that matches parameter name 'IsDefault'.",
        },
      },
    });
    const dehydrated = await invoke('Set-OrganizationConfig', { IsDehydrated: false });
    expect(dehydrated.status).toBe(400);
    expect(dehydrated.body.error?.message).toContain("'IsDehydrated'");
  });

  it('refuses a cmdlet Microsoft does not publish, parameters of two sets and a missing mandatory one', async () => {
    expect(await invoke('New-AtpPolicyForO365', { Name: 'x' })).toMatchObject({
      status: 400,
      body: { error: { code: 'CommandNotFoundException' } },
    });
    const twoSets = await invoke('Set-OrganizationConfig', {
      ShortenEventScopeDefault: 'EndTime',
      DelayedDelicensingEnabled: true,
    });
    expect(twoSets.status).toBe(400);
    expect(twoSets.body.error?.message).toMatch(/^Parameter set cannot be resolved/);
    const noName = await invoke('New-TransportRule', { Mode: 'Enforce' });
    expect(noName.body.error?.message).toBe(
      'Cannot process command because of one or more missing mandatory parameters: Name.',
    );
  });
});

describe('Exchange and Defender through the gateway', () => {
  it('writes a captured Get- output back with only the Set- parameters', async () => {
    const filter = workload('Defender', 'HostedContentFilterPolicy');
    const sent: SentRequest[] = [];
    const gateway = recordingGateway(sent);
    const [captured] = objectsOfRead(await gateway.readAll([filter])).get(filter) ?? [];
    expect(captured?.['IsDefault']).toBe(true);
    const outcome = await gateway.update(filter, captured!, { ...captured, BulkThreshold: 4 });
    expect(outcome.status).toBe('done');
    const written = sent.at(-1)?.body?.['CmdletInput'] as {
      CmdletName: string;
      Parameters: Record<string, unknown>;
    };
    expect(written.CmdletName).toBe('Set-HostedContentFilterPolicy');
    expect(written.Parameters).toMatchObject({ Identity: 'Default', BulkThreshold: 4 });
    expect(Object.keys(written.Parameters)).not.toContain('IsDefault');
    const [reread] = objectsOfRead(await gateway.readAll([filter])).get(filter) ?? [];
    expect(reread?.['BulkThreshold']).toBe(4);
  });

  it('enables organisation customisation with Enable-OrganizationCustomization', async () => {
    const org = objectsOf(workload('Exchange', 'OrganizationConfig'));
    org.set('singleton', { ...org.get('singleton'), IsDehydrated: true });
    const sent: SentRequest[] = [];
    const outcome = await recordingGateway(sent).enableOrganizationCustomization();
    expect(outcome.status).toBe('done');
    expect(
      sent.map((r) => (r.body?.['CmdletInput'] as { CmdletName?: string }).CmdletName),
    ).toEqual(['Enable-OrganizationCustomization']);
    expect(org.get('singleton')?.['IsDehydrated']).toBe(false);
  });

  it('reads a list longer than a page by following @odata.nextLink', async () => {
    const rules = workload('Exchange', 'TransportRule');
    const items = objectsOf(rules);
    for (let n = 1; n <= 2 * PAGE_SIZE + 2; n += 1) {
      items.set(`paged rule ${n}`, { Name: `Paged rule ${n}`, Identity: `Paged rule ${n}` });
    }
    const sent: SentRequest[] = [];
    const read = objectsOfRead(await recordingGateway(sent).readAll([rules])).get(rules) ?? [];
    expect(read).toHaveLength(items.size);
    expect(sent).toHaveLength(Math.ceil(items.size / PAGE_SIZE));
    expect(new Set(read.map((r) => r['Name'])).size).toBe(items.size);
  });
});

describe("every cmdlet and parameter the gateway sends is in Microsoft's reference", () => {
  it('capturing and writing back every Exchange, Defender and Teams object', async () => {
    const admin = TENANT_WORKLOADS.filter(
      (w) => w.transport === 'adminCommand' && (w.service === 'exchange' || w.service === 'teams'),
    );
    const sent: SentRequest[] = [];
    const gateway = recordingGateway(sent);
    const read = objectsOfRead(await gateway.readAll(admin));
    for (const [w, objects] of read) {
      for (const object of objects) await gateway.update(w, object, object);
    }
    const rules = workload('Exchange', 'TransportRule');
    await gateway.create(rules, { Name: 'FAB - Contract probe', Mode: 'Audit', IsValid: true });
    await gateway.remove(rules, { Identity: 'FAB - Contract probe' });

    const exchange = sent.filter((r) => r.path.endsWith('/InvokeCommand'));
    const teams = sent.filter((r) => r.path.startsWith('/Skype.Policy/'));
    expect(exchange.length).toBeGreaterThan(admin.length);
    expect(teams.length).toBeGreaterThan(0);
    // `Cmdlet -Parameter` pairs that Microsoft's reference does not have
    const outside: string[] = [];
    for (const request of exchange) {
      const input = request.body?.['CmdletInput'] as {
        CmdletName: string;
        Parameters: Record<string, unknown>;
      };
      const contract = cmdletContract('exchange', input.CmdletName);
      for (const name of Object.keys(input.Parameters)) {
        if (!contract?.parameters[name]) outside.push(`${input.CmdletName} -${name}`);
      }
      if (!contract) outside.push(input.CmdletName);
    }
    for (const request of teams.filter((r) => r.method !== 'GET')) {
      const type = request.path.split('/')[3];
      const w = admin.find((x) => x.transport === 'adminCommand' && x.configurationType === type);
      const verb = { PUT: 'Set', POST: 'New', DELETE: 'Remove' }[request.method];
      const cmdlet = `${verb}-${w?.transport === 'adminCommand' ? w.noun : type}`;
      const contract = cmdletContract('teams', cmdlet);
      for (const name of Object.keys(request.body ?? {})) {
        if (!contract?.parameters[name]) outside.push(`${cmdlet} -${name}`);
      }
      if (!contract) outside.push(cmdlet);
    }
    expect(outside).toEqual([]);
    expect(CMDLET_EXTRACTS.exchange.commit).toMatch(/^[0-9a-f]{40}$/);
  });
});
