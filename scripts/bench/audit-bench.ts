/**
 * Audit reader benchmark (issue 28 §3, ADR 064): what a quick check's reads cost a tenant, counted
 * at the tenant emulator's doors, through the pipeline tasks' gateway:
 * - the audit logs since the last check (Entra and Intune in one Graph $batch, one Exchange search)
 *   plus the workloads no audit log covers, for a tenant where nothing changed (goal ≤ 5 Graph);
 * - the same after one Conditional Access change (the touched workload is read again);
 * - a full read of every workload, for comparison.
 */
import {
  TENANT_WORKLOADS,
  quickCheckWorkloads,
  textOf,
  workloadFor,
  workloadKey,
  type TenantWorkload,
} from '@aegis/domain';
import {
  AEGIS_ENTERPRISE_APP,
  TenantWorld,
  buildTenantEmulator,
  listenTenantEmulator,
} from '@aegis/emulators';
import {
  HttpTenantGateway,
  MICROSOFT_CLOUD_DOORS,
  type TenantGateway,
  type TenantService,
} from '@aegis/pipeline-tasks';

type Counts = Record<'graph' | 'other', number>;

export interface AuditBench {
  unchanged: { audit: Counts; reread: Counts; workloads: number };
  oneChange: { audit: Counts; reread: Counts; workloads: number };
  full: Counts;
}

async function quickCheck(
  gateway: TenantGateway,
  counts: Counts,
  since: Date,
  until: Date,
): Promise<AuditBench['unchanged']> {
  const { entries, reads } = await gateway.readAuditLogs(since, { until });
  const audit = { ...counts };
  const keys = quickCheckWorkloads(entries, reads);
  const workloads = TENANT_WORKLOADS.filter((w) => keys.includes(workloadKey(w)));
  const read = await gateway.readAll(workloads);
  const failed = [...read].filter(([, outcome]) => outcome.status !== 'read');
  if (failed.length > 0) {
    throw new Error(`not read: ${failed.map(([w]) => workloadKey(w)).join(', ')}`);
  }
  return {
    audit,
    reread: { graph: counts.graph - audit.graph, other: counts.other - audit.other },
    workloads: workloads.length,
  };
}

export async function runAuditBench(): Promise<AuditBench> {
  const start = Date.parse('2026-11-27T10:00:00Z');
  let now = start;
  const world = new TenantWorld({ now: () => now });
  const abc = world.find('ABC')!;
  world.state(abc.tenantId);
  // a token per door, of that door's audience, as Entra issues them
  const emulator = await listenTenantEmulator(
    buildTenantEmulator({
      world,
      verifyToken: (token) => {
        const service = token as TenantService;
        const door = MICROSOFT_CLOUD_DOORS[service];
        return Promise.resolve(
          door
            ? {
                tenantId: abc.tenantId,
                audience: door.audience,
                appOnly: true,
                appId: AEGIS_ENTERPRISE_APP.appId,
              }
            : undefined,
        );
      },
    }),
  );
  const counts: Counts = { graph: 0, other: 0 };
  const gateway = new HttpTenantGateway({
    tenantId: abc.tenantId,
    urls: { graph: emulator.url, exchange: emulator.url, teams: emulator.url, arm: emulator.url },
    ...(abc.subscriptions[0] ? { subscriptionId: abc.subscriptions[0].subscriptionId } : {}),
    getToken: (service) => Promise.resolve(service),
    fetch: (input, init) => {
      const graph = /^\/(v1\.0|beta)\//.test(
        new URL(input instanceof Request ? input.url : input).pathname,
      );
      counts[graph ? 'graph' : 'other'] += 1;
      return fetch(input, init);
    },
  });
  const reset = () => Object.assign(counts, { graph: 0, other: 0 });
  try {
    now = start + 10 * 60_000;
    reset();
    const unchanged = await quickCheck(gateway, counts, new Date(start), new Date(now));

    const policy: TenantWorkload = workloadFor('ConditionalAccess', 'Policy')!;
    const [first] = world.state(abc.tenantId).workloadObjects(policy).values();
    world
      .state(abc.tenantId)
      .changeByAdministrator(policy, textOf(first?.['id']), { set: { state: 'disabled' } });
    const since = new Date(now);
    now += 10 * 60_000;
    reset();
    const oneChange = await quickCheck(gateway, counts, since, new Date(now));

    reset();
    await gateway.readAll(TENANT_WORKLOADS);
    return { unchanged, oneChange, full: { ...counts } };
  } finally {
    await emulator.close();
  }
}

export function printAuditBench(b: AuditBench): void {
  const line = (label: string, q: AuditBench['unchanged']) =>
    console.log(
      `  ${label.padEnd(34)} ${q.audit.graph + q.reread.graph} Graph (audit logs ${q.audit.graph}, ${q.workloads} workloads re-read ${q.reread.graph}), ${q.audit.other + q.reread.other} Exchange/Teams/ARM`,
    );
  console.log(`\nQuick check reads (audit logs since the last check, then what they touched)`);
  line('tenant where nothing changed', b.unchanged);
  console.log(`  ${''.padEnd(34)} goal ≤ 5 Graph requests`);
  line('after one Conditional Access edit', b.oneChange);
  console.log(
    `  ${'full read of every workload'.padEnd(34)} ${b.full.graph} Graph, ${b.full.other} Exchange/Teams/ARM`,
  );
}
