// The client tenant as the pipeline tasks see it: read every object of some workloads (capture),
// create, update and remove objects (deploy, off-board). Workloads say where each kind lives
// (domain TENANT_WORKLOADS); this module speaks the wire protocols: Graph with paging and $batch,
// the admin command endpoint (InvokeCommand with CmdletInput), and ARM.
import type { TenantWorkload } from '@aegis/domain';

export type TenantObject = Record<string, unknown>;

export interface WriteOptions {
  /** Multi Admin Approval: sent as x-msft-approval-justification on guarded (Intune) writes */
  justification?: string;
}

export type WriteOutcome =
  { status: 'done'; object?: TenantObject } | { status: 'pendingApproval'; message: string };

export interface TenantGateway {
  /** every object of each workload, in the service's own shape */
  readAll(workloads: readonly TenantWorkload[]): Promise<Map<TenantWorkload, TenantObject[]>>;
  create(
    workload: TenantWorkload,
    body: TenantObject,
    options?: WriteOptions,
  ): Promise<WriteOutcome>;
  update(
    workload: TenantWorkload,
    existing: TenantObject,
    body: TenantObject,
    options?: WriteOptions,
  ): Promise<WriteOutcome>;
  remove(
    workload: TenantWorkload,
    existing: TenantObject,
    options?: WriteOptions,
  ): Promise<WriteOutcome>;
  /** the tenant's initial (.onmicrosoft.com) domain */
  initialDomain(): Promise<string | undefined>;
  /** HTTP requests made so far (the bench reads it) */
  readonly requestCount: number;
}

/** The identity an object carries in its service: Graph/ARM `id`, Exchange `Guid` or `Identity`. */
export function objectIdOf(workload: TenantWorkload, object: TenantObject): string | undefined {
  const keys =
    workload.transport === 'adminCommand' ? ['ExchangeObjectId', 'Guid', 'Identity'] : ['id'];
  for (const key of keys) {
    const value = object[key];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}
