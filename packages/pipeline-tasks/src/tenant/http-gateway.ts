// TenantGateway over HTTP: each workload through its service's own adapter and door (doors.ts,
// docs/adr/049-per-service-doors-and-contracts.md) — Microsoft Graph, the Exchange Online admin
// API (Exchange and Defender), the Teams admin configuration service and Azure Resource Manager.
// This module only dispatches; the wire protocols live in the adapters. The audit logs (ADR 064)
// are read through the same Graph and Exchange doors.
import { isServiceError, type RetryOptions } from '@aegis/connectors';
import {
  auditRetentionStart,
  hasPublicApi,
  workloadKey,
  type AdminCommandWorkload,
  type AuditLogRead,
  type AuditLogReads,
  type GraphWorkload,
  type TenantAuditEntry,
  type TenantAuditLog,
  type TenantWorkload,
} from '@aegis/domain';

import { TaskError } from '../log';

import { ArmTenantAdapter } from './arm-adapter';
import {
  auditLogNotRead,
  entraAuditEntry,
  exchangeAdminAuditEntry,
  intuneAuditEntry,
  newestFirst,
} from './audit-logs';
import type { ServiceAdapterOptions, TenantService } from './doors';
import { ExchangeAdminAdapter } from './exchange-adapter';
import {
  notReadOutcomeOfError,
  type AuditReadOptions,
  type TenantAuditRead,
  type TenantGateway,
  type TenantObject,
  type TenantRead,
  type WorkloadRead,
  type WriteOptions,
  type WriteOutcome,
} from './gateway';
import { GraphTenantAdapter, type PagesRead } from './graph-adapter';
import { TeamsConfigurationAdapter } from './teams-adapter';

/** The resource group Aegis creates maintenance configurations in (ADR 049). */
const DEFAULT_RESOURCE_GROUP = 'Aegis-Baseline';

export interface HttpTenantGatewayOptions {
  tenantId: string;
  /** each service's base URL: Microsoft's (MICROSOFT_CLOUD_DOORS) or the tenant emulator's */
  urls: Readonly<Record<TenantService, string>>;
  subscriptionId?: string;
  /** where Aegis creates resources ARM keeps in a resource group (default Aegis-Baseline) */
  resourceGroup?: string;
  /** an app-only token of the client tenant for the service's audience */
  getToken: (service: TenantService) => Promise<string>;
  retry?: RetryOptions;
  fetch?: typeof fetch;
  /** waits before retrying a throttled request (default: real time; tests make it instant) */
  sleep?: (ms: number) => Promise<void>;
}

/** A write of a workload Microsoft publishes no API for is refused here, never sent to another service. */
function noPublicApi(workload: TenantWorkload): Promise<never> {
  return Promise.reject(
    new TaskError(`${workloadKey(workload)}: Microsoft publishes no API for it`),
  );
}

export class HttpTenantGateway implements TenantGateway {
  private requests = 0;
  private readonly graph: GraphTenantAdapter;
  private readonly exchange: ExchangeAdminAdapter;
  private readonly teams: TeamsConfigurationAdapter;
  private readonly arm: ArmTenantAdapter;

  constructor(options: HttpTenantGatewayOptions) {
    const counting: typeof fetch = (input, init) => {
      this.requests += 1;
      return (options.fetch ?? fetch)(input, init);
    };
    const retry: RetryOptions | undefined =
      options.retry || options.sleep
        ? { ...options.retry, ...(options.sleep ? { sleep: options.sleep } : {}) }
        : undefined;
    const door = (service: TenantService): ServiceAdapterOptions => ({
      url: options.urls[service],
      getToken: () => options.getToken(service),
      fetch: counting,
      ...(retry ? { retry } : {}),
    });
    this.graph = new GraphTenantAdapter(door('graph'));
    this.exchange = new ExchangeAdminAdapter({ ...door('exchange'), tenantId: options.tenantId });
    this.teams = new TeamsConfigurationAdapter(door('teams'));
    this.arm = new ArmTenantAdapter({
      ...door('arm'),
      ...(options.subscriptionId ? { subscriptionId: options.subscriptionId } : {}),
      resourceGroup: options.resourceGroup ?? DEFAULT_RESOURCE_GROUP,
    });
  }

  get requestCount(): number {
    return this.requests;
  }

  private commandAdapter(
    workload: AdminCommandWorkload,
  ): ExchangeAdminAdapter | TeamsConfigurationAdapter {
    return workload.service === 'teams' ? this.teams : this.exchange;
  }

  async readAll(workloads: readonly TenantWorkload[]): Promise<TenantRead> {
    const result: TenantRead = new Map();
    const readable = workloads.filter((w) => {
      if (hasPublicApi(w)) return true;
      result.set(w, { status: 'noPublicApi' });
      return false;
    });
    const graphWorkloads = readable.filter((w): w is GraphWorkload => w.transport === 'graph');
    // each workload on its own: one that fails leaves the others' reads intact
    const readOne = async (w: TenantWorkload): Promise<WorkloadRead> => {
      try {
        const objects =
          w.transport === 'adminCommand'
            ? await this.commandAdapter(w).read(w)
            : w.transport === 'arm'
              ? await this.arm.read(w)
              : [];
        return { status: 'read', objects };
      } catch (error) {
        return notReadOutcomeOfError(w, error);
      }
    };
    await Promise.all([
      this.graph.readAll(graphWorkloads).then((read) => {
        for (const [workload, outcome] of read) result.set(workload, outcome);
      }),
      ...readable
        .filter((w) => w.transport !== 'graph')
        .map(async (w) => result.set(w, await readOne(w))),
    ]);
    // in the order asked for
    return new Map(workloads.map((w) => [w, result.get(w) ?? { status: 'read', objects: [] }]));
  }

  create(workload: TenantWorkload, body: TenantObject, options?: WriteOptions) {
    if (!hasPublicApi(workload)) return noPublicApi(workload);
    if (workload.transport === 'graph') return this.graph.create(workload, body, options);
    if (workload.transport === 'adminCommand') {
      return this.commandAdapter(workload).create(workload, body);
    }
    return this.arm.create(workload, body);
  }

  update(
    workload: TenantWorkload,
    existing: TenantObject,
    body: TenantObject,
    options?: WriteOptions,
  ): Promise<WriteOutcome> {
    if (!hasPublicApi(workload)) return noPublicApi(workload);
    if (workload.transport === 'graph') {
      return this.graph.update(workload, existing, body, options);
    }
    if (workload.transport === 'adminCommand') {
      return this.commandAdapter(workload).update(workload, existing, body);
    }
    return this.arm.update(workload, existing, body);
  }

  remove(
    workload: TenantWorkload,
    existing: TenantObject,
    options?: WriteOptions,
  ): Promise<WriteOutcome> {
    if (!hasPublicApi(workload)) return noPublicApi(workload);
    if (workload.transport === 'graph') return this.graph.remove(workload, existing, options);
    if (workload.transport === 'adminCommand') {
      return this.commandAdapter(workload).remove(workload, existing);
    }
    return this.arm.remove(workload, existing);
  }

  enableOrganizationCustomization(): Promise<WriteOutcome> {
    return this.exchange.enableOrganizationCustomization();
  }

  initialDomain(): Promise<string | undefined> {
    return this.graph.initialDomain();
  }

  async readAuditLogs(since: Date, options: AuditReadOptions = {}): Promise<TenantAuditRead> {
    const until = options.until ?? new Date();
    const from = since.toISOString();
    const read = (log: TenantAuditLog): AuditLogRead => ({
      status: 'read',
      since: from,
      readAt: until.toISOString(),
      coveredFrom: auditRetentionStart(log, until, options.entraPremium ?? false),
    });
    const entries: TenantAuditEntry[] = [];
    const reads: AuditLogReads = {};
    // both Graph logs in one $batch: an unchanged tenant costs one Graph request
    const filter = encodeURIComponent(`activityDateTime ge ${from}`);
    const graphLogs = [
      {
        log: 'entraDirectoryAudits',
        url: `/auditLogs/directoryAudits?$filter=${filter}&$top=999`,
        normalise: entraAuditEntry,
      },
      {
        log: 'intuneAuditEvents',
        url: `/deviceManagement/auditEvents?$filter=${filter}`,
        normalise: intuneAuditEntry,
      },
    ] as const;
    const graphRead = async () => {
      const pages = await this.graph.readPages(
        graphLogs.map((g) => g.url),
        'v1.0',
      );
      pages.forEach((page: PagesRead, index) => {
        const { log, normalise } = graphLogs[index]!;
        if (page.status === 'read') {
          entries.push(...page.objects.flatMap((o) => normalise(o) ?? []));
          reads[log] = read(log);
        } else reads[log] = auditLogNotReadOf(log, page);
      });
    };
    const exchangeRead = async () => {
      try {
        const records = await this.exchange.searchExchangeAdminAuditLog(since, until);
        entries.push(...records.flatMap((r) => exchangeAdminAuditEntry(r) ?? []));
        reads.exchangeAdminAuditLog = read('exchangeAdminAuditLog');
      } catch (error) {
        reads.exchangeAdminAuditLog = auditLogNotReadOf('exchangeAdminAuditLog', {
          status: 'threw',
          error,
        });
      }
    };
    await Promise.all([graphRead(), exchangeRead()]);
    return { entries: newestFirst(entries), reads };
  }
}

/** Why a log was not read, from a Graph sub-request's answer or a thrown error. */
function auditLogNotReadOf(
  log: TenantAuditLog,
  page: Exclude<PagesRead, { status: 'read' }>,
): AuditLogRead {
  switch (page.status) {
    case 'refused':
      return auditLogNotRead(log, page.httpStatus, page.code, page.message);
    case 'endless':
      return { status: 'failed', message: "the audit log's paging did not end" };
    case 'threw': {
      const error = page.error;
      if (isServiceError(error)) {
        return auditLogNotRead(log, error.statusCode, error.code, error.message);
      }
      return { status: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
  }
}
