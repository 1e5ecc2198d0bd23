// A TenantGateway held in memory, for tests of what surrounds a task (the runner, logs, repository
// writes). Tests of the wire protocols use the tenant emulator through HttpTenantGateway.
import { randomUUID } from 'node:crypto';

import {
  TENANT_AUDIT_LOGS,
  TENANT_WORKLOADS,
  type TenantAuditEntry,
  workloadFor,
  workloadKey,
  type TenantWorkload,
  type WorkloadNotRead,
} from '@aegis/domain';

import {
  objectIdOf,
  type TenantAuditRead,
  type TenantGateway,
  type TenantObject,
  type TenantRead,
  type WorkloadRead,
  type WriteOutcome,
} from '../tenant/gateway';

export class MemoryTenant implements TenantGateway {
  readonly objects = new Map<TenantWorkload, TenantObject[]>();
  requestCount = 0;
  /** every workload's read fails with this message */
  failReads: string | undefined;
  /** `Category/Kind` → why that workload's read does not succeed */
  readonly notRead = new Map<string, WorkloadNotRead>();
  /** the tenant's audit log entries, any order */
  readonly auditEntries: TenantAuditEntry[] = [];

  constructor(readonly domain = 'tenant.onmicrosoft.com') {
    for (const w of TENANT_WORKLOADS) this.objects.set(w, []);
  }

  /** Loads the repository layout's files (`…/Resources/<Category>/<Kind>/<Policy>.json`). */
  static fromFiles(files: ReadonlyMap<string, string>, root: string): MemoryTenant {
    const tenant = new MemoryTenant();
    for (const [path, text] of files) {
      if (!path.startsWith(`${root}/`)) continue;
      const [category, kind] = path.slice(root.length + 1).split('/');
      const workload = workloadFor(category ?? '', kind ?? '');
      if (workload) tenant.list(workload).push(JSON.parse(text) as TenantObject);
    }
    return tenant;
  }

  list(workload: TenantWorkload): TenantObject[] {
    const list = this.objects.get(workload) ?? [];
    this.objects.set(workload, list);
    return list;
  }

  readAll(workloads: readonly TenantWorkload[]): Promise<TenantRead> {
    this.requestCount += 1;
    const read: TenantRead = new Map(
      workloads.map((w): [TenantWorkload, WorkloadRead] => {
        const failing = this.failReads;
        if (failing) return [w, { status: 'failed', message: failing }];
        const notRead = this.notRead.get(workloadKey(w));
        if (notRead) return [w, notRead];
        return [w, { status: 'read', objects: this.list(w).map((o) => structuredClone(o)) }];
      }),
    );
    return Promise.resolve(read);
  }

  create(workload: TenantWorkload, body: TenantObject): Promise<WriteOutcome> {
    this.requestCount += 1;
    const object = {
      ...body,
      ...(workload.transport === 'adminCommand'
        ? { Identity: body['Name'] }
        : { id: randomUUID() }),
    };
    if (workload.transport !== 'adminCommand' && 'singleton' in workload && workload.singleton) {
      this.objects.set(workload, [{ ...this.list(workload)[0], ...body }]);
      return Promise.resolve({ status: 'done' });
    }
    this.list(workload).push(object);
    return Promise.resolve({ status: 'done', object });
  }

  update(
    workload: TenantWorkload,
    existing: TenantObject,
    body: TenantObject,
  ): Promise<WriteOutcome> {
    this.requestCount += 1;
    const id = objectIdOf(workload, existing);
    const list = this.list(workload);
    const index = list.findIndex((o) => (id ? objectIdOf(workload, o) === id : o === existing));
    if (index >= 0) list[index] = { ...list[index], ...body };
    return Promise.resolve({ status: 'done' });
  }

  remove(workload: TenantWorkload, existing: TenantObject): Promise<WriteOutcome> {
    this.requestCount += 1;
    const id = objectIdOf(workload, existing);
    this.objects.set(
      workload,
      this.list(workload).filter((o) => objectIdOf(workload, o) !== id),
    );
    return Promise.resolve({ status: 'done' });
  }

  enableOrganizationCustomization(): Promise<WriteOutcome> {
    this.requestCount += 1;
    const workload = workloadFor('Exchange', 'OrganizationConfig');
    if (!workload) return Promise.resolve({ status: 'done' });
    const [org] = this.list(workload);
    this.objects.set(workload, [{ ...org, IsDehydrated: false }]);
    return Promise.resolve({ status: 'done' });
  }

  initialDomain(): Promise<string> {
    return Promise.resolve(this.domain);
  }

  /** The entries since the time, newest first; every log read, keeping everything ever entered. */
  readAuditLogs(since: Date, options: { until?: Date } = {}): Promise<TenantAuditRead> {
    this.requestCount += 1;
    const until = options.until ?? new Date();
    const inWindow = (e: TenantAuditEntry) =>
      Date.parse(e.time) >= since.getTime() && Date.parse(e.time) <= until.getTime();
    const read = {
      status: 'read' as const,
      since: since.toISOString(),
      readAt: until.toISOString(),
      coveredFrom: new Date(0).toISOString(),
    };
    return Promise.resolve({
      entries: this.auditEntries
        .filter(inWindow)
        .sort((a, b) => Date.parse(b.time) - Date.parse(a.time)),
      reads: Object.fromEntries(TENANT_AUDIT_LOGS.map((log) => [log, read])),
    });
  }
}
