// The Graph contract checks against a real tenant (`npm run test:live`, scripts/test-live.ts): the
// pipeline tasks' gateway reads every Graph workload with the app's own token, every call it makes
// is in Microsoft's contract extract, and what real Graph answers follows the representation rules
// the emulator applies (no navigation property in a response unless `$expand`ed, the shape of each
// path). Read-only unless AEGIS_LIVE_WRITE=1; then it creates a named location of its own (a
// documentation address range), renames and removes it. The audit logs Aegis reads who changed
// what from (ADR 064) are read and held to the contract extract's property shapes.
import { TENANT_WORKLOADS, type GraphWorkload } from '@aegis/domain';
import { HttpTenantGateway, objectIdOf } from '@aegis/pipeline-tasks';
import { ClientSecretCredential } from '@azure/identity';
import { describe, expect, it } from 'vitest';

import { requestUrl } from '../request-url';
import { departures, shapesOf } from '../tenants/contract-shapes';
import {
  contractPath,
  expandedNames,
  navigationOf,
  templateOf,
  type GraphApiVersion,
  type GraphMethod,
} from '../tenants/graph-contract';

const GRAPH = 'https://graph.microsoft.com';
const env = (name: string): string => process.env[name]?.trim() ?? '';
const tenantId = env('AEGIS_LIVE_TENANT_ID');
const credential = new ClientSecretCredential(
  tenantId,
  env('AEGIS_LIVE_CLIENT_ID'),
  env('AEGIS_LIVE_CLIENT_SECRET'),
);
const GRAPH_WORKLOADS = TENANT_WORKLOADS.filter((w): w is GraphWorkload => w.transport === 'graph');

const calls: { method: string; version: GraphApiVersion; path: string }[] = [];

/** Notes each Graph call (each $batch sub-request too) before sending it. */
const recording: typeof fetch = async (input, init) => {
  const match = /^\/(v1\.0|beta)(\/.*)$/.exec(requestUrl(input).pathname);
  if (match) {
    const version = match[1] as GraphApiVersion;
    calls.push({ method: (init?.method ?? 'GET').toUpperCase(), version, path: match[2]! });
    if (match[2] === '/$batch' && typeof init?.body === 'string') {
      const batch = JSON.parse(init.body) as { requests: { method: string; url: string }[] };
      for (const r of batch.requests) {
        const path = new URL(r.url, 'https://graph.invalid').pathname;
        calls.push({ method: r.method.toUpperCase(), version, path });
      }
    }
  }
  return fetch(input, init);
};

const gateway = new HttpTenantGateway({
  tenantId,
  urls: { graph: GRAPH, exchange: GRAPH, teams: GRAPH, arm: GRAPH },
  getToken: async () => {
    const token = await credential.getToken(`${GRAPH}/.default`);
    if (!token) throw new Error('No Graph token for the live tenant');
    return token.token;
  },
  fetch: recording,
});

describe('Graph in the live tenant', () => {
  it("reads every Graph workload, as Microsoft's contract shapes it", async () => {
    const read = await gateway.readAll(GRAPH_WORKLOADS);
    const problems: string[] = [];
    for (const workload of GRAPH_WORKLOADS) {
      const outcome = read.get(workload);
      if (outcome?.status !== 'read') {
        problems.push(`${workload.path}: ${JSON.stringify(outcome)}`);
        continue;
      }
      const navigation = navigationOf('beta', `${workload.path}/{id}`);
      const kind = contractPath('beta', workload.path).kind;
      const allowed = new Set(expandedNames(workload.expand));
      for (const object of outcome.objects) {
        const extra = Object.keys(object).filter((k) => navigation.has(k) && !allowed.has(k));
        if (extra.length > 0) problems.push(`${workload.path}: navigation ${extra.join(', ')}`);
      }
      if (kind === 'collection' && workload.singleton && !workload.servedAsCollection) {
        problems.push(`${workload.path}: Microsoft serves a collection`);
      }
    }
    expect(problems).toEqual([]);
    const outside = calls.filter((c) => {
      const template = templateOf(c.version, c.path);
      return (
        !template || !contractPath(c.version, template).methods.includes(c.method as GraphMethod)
      );
    });
    expect(outside).toEqual([]);
  });

  it("reads the last day of the Entra and Intune audit logs, in Microsoft's shapes", async () => {
    const since = new Date(Date.now() - 24 * 60 * 60_000);
    const { entries, reads } = await gateway.readAuditLogs(since);
    // a log the tenant's licence or the app's consent does not cover says so; nothing else fails
    for (const log of ['entraDirectoryAudits', 'intuneAuditEvents'] as const) {
      expect(['read', 'notLicensed', 'notPermitted']).toContain(reads[log]?.status);
    }
    expect(entries.every((e) => e.id && !Number.isNaN(Date.parse(e.time)))).toBe(true);
    const token = await credential.getToken(`${GRAPH}/.default`);
    const problems: string[] = [];
    const logs = [
      { log: 'entraDirectoryAudits', path: '/auditLogs/directoryAudits' },
      { log: 'intuneAuditEvents', path: '/deviceManagement/auditEvents' },
    ] as const;
    for (const { log, path } of logs) {
      if (reads[log]?.status !== 'read') continue;
      const response = await fetch(`${GRAPH}/v1.0${path}?$top=20`, {
        headers: { authorization: `Bearer ${token?.token ?? ''}` },
      });
      const body = (await response.json()) as { value?: Record<string, unknown>[] };
      for (const item of body.value ?? []) {
        problems.push(...departures(shapesOf('v1.0', path), item).map((p) => `${path}: ${p}`));
      }
    }
    expect(problems).toEqual([]);
  });

  it.runIf(process.env['AEGIS_LIVE_WRITE'] === '1')(
    'creates, renames and removes a named location of its own',
    async () => {
      const workload = GRAPH_WORKLOADS.find((w) => w.kind === 'NamedLocation')!;
      const name = `Aegis live check ${new Date().toISOString()}`;
      const created = await gateway.create(workload, {
        '@odata.type': '#microsoft.graph.ipNamedLocation',
        displayName: name,
        isTrusted: false,
        ipRanges: [
          { '@odata.type': '#microsoft.graph.iPv4CidrRange', cidrAddress: '192.0.2.0/24' },
        ],
      });
      const object = created.status === 'done' ? created.object : undefined;
      expect(objectIdOf(workload, object ?? {})).toBeDefined();
      try {
        await gateway.update(workload, object!, {
          '@odata.type': '#microsoft.graph.ipNamedLocation',
          displayName: `${name} (renamed)`,
        });
      } finally {
        await gateway.remove(workload, object!);
      }
    },
  );
});
