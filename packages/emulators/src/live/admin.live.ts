// The Exchange admin API and the Teams admin configuration service against a real tenant
// (`npm run test:live`, scripts/test-live.ts): the pipeline tasks' gateway reads every Exchange,
// Defender and Teams workload with the app's own token for each service's audience, and every
// cmdlet it invokes is one of Microsoft's cmdlet reference (the extract of ADR 049). Read-only:
// a policy written in a real tenant's Exchange or Teams applies to its users at once, so writes
// are proven against the tenant emulator only.
import { cmdletContract } from '@aegis/connectors/microsoft-contracts';
import { TENANT_WORKLOADS, type AdminCommandWorkload } from '@aegis/domain';
import { HttpTenantGateway, MICROSOFT_CLOUD_DOORS, defaultScopeOf } from '@aegis/pipeline-tasks';
import { ClientSecretCredential } from '@azure/identity';
import { describe, expect, it } from 'vitest';

import { requestUrl } from '../request-url';

const env = (name: string): string => process.env[name]?.trim() ?? '';
const tenantId = env('AEGIS_LIVE_TENANT_ID');
const credential = new ClientSecretCredential(
  tenantId,
  env('AEGIS_LIVE_CLIENT_ID'),
  env('AEGIS_LIVE_CLIENT_SECRET'),
);
const ADMIN_WORKLOADS = TENANT_WORKLOADS.filter(
  (w): w is AdminCommandWorkload =>
    w.transport === 'adminCommand' && (w.service === 'exchange' || w.service === 'teams'),
);

const invoked: string[] = [];

/** Notes the cmdlet of each Exchange admin API call before sending it. */
const recording: typeof fetch = async (input, init) => {
  if (requestUrl(input).pathname.endsWith('/InvokeCommand') && typeof init?.body === 'string') {
    const body = JSON.parse(init.body) as { CmdletInput?: { CmdletName?: string } };
    invoked.push(body.CmdletInput?.CmdletName ?? '');
  }
  return fetch(input, init);
};

const gateway = new HttpTenantGateway({
  tenantId,
  urls: {
    graph: MICROSOFT_CLOUD_DOORS.graph.url,
    exchange: MICROSOFT_CLOUD_DOORS.exchange.url,
    teams: MICROSOFT_CLOUD_DOORS.teams.url,
    arm: MICROSOFT_CLOUD_DOORS.arm.url,
  },
  getToken: async (service) => {
    const token = await credential.getToken(defaultScopeOf(MICROSOFT_CLOUD_DOORS[service]));
    if (!token) throw new Error(`No ${service} token for the live tenant`);
    return token.token;
  },
  fetch: recording,
});

describe('Exchange, Defender and Teams in the live tenant', () => {
  it("reads every workload, each cmdlet one of Microsoft's reference", async () => {
    const read = await gateway.readAll(ADMIN_WORKLOADS);
    const notRead = ADMIN_WORKLOADS.map((w) => ({
      workload: `${w.category}/${w.kind}`,
      outcome: read.get(w),
    })).filter((r) => r.outcome?.status !== 'read');
    expect(notRead).toEqual([]);
    expect(invoked.filter((name) => !cmdletContract('exchange', name))).toEqual([]);
  });
});
