// The client tenant as the pipeline tasks see it: read every object of some workloads (capture),
// create, update and remove objects (deploy, off-board). Workloads say where each kind lives
// (domain TENANT_WORKLOADS); this module speaks the wire protocols: Graph with paging and $batch,
// the admin command endpoint (InvokeCommand with CmdletInput), and ARM.
import { isServiceError } from '@aegis/connectors';
import {
  notCapturedReason,
  requiredPermissionText,
  workloadKey,
  type AuditLogReads,
  type TenantAuditEntry,
  type TenantWorkload,
  type WorkloadNotRead,
} from '@aegis/domain';

import { TaskError } from '../log';

export type TenantObject = Record<string, unknown>;

/** One workload's read: its objects, or why it was not read (ADR 050). */
export type WorkloadRead = { status: 'read'; objects: TenantObject[] } | WorkloadNotRead;

/** Each workload read separately: one that failed leaves the others' objects intact. */
export type TenantRead = Map<TenantWorkload, WorkloadRead>;

/** Every entry since a time of each log Aegis reads, and how reading each log went. */
export interface TenantAuditRead {
  /** newest first */
  entries: TenantAuditEntry[];
  reads: AuditLogReads;
}

export interface AuditReadOptions {
  /** the end of the window (default: now) */
  until?: Date;
  /**
   * the tenant has Entra ID P1/P2: Entra keeps 30 days of audit logs rather than 7 (default
   * false: an entry older than 7 days may have aged out)
   */
  entraPremium?: boolean;
}

export interface WriteOptions {
  /** Multi Admin Approval: sent as x-msft-approval-justification on guarded (Intune) writes */
  justification?: string;
}

export type WriteOutcome =
  { status: 'done'; object?: TenantObject } | { status: 'pendingApproval'; message: string };

export interface TenantGateway {
  /**
   * Every object of each workload, in the service's own shape, or why a workload was not read;
   * never throws for one workload's failure.
   */
  readAll(workloads: readonly TenantWorkload[]): Promise<TenantRead>;
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
  /** Exchange Online's Enable-OrganizationCustomization (needed before some Exchange settings) */
  enableOrganizationCustomization(options?: WriteOptions): Promise<WriteOutcome>;
  /** the tenant's initial (.onmicrosoft.com) domain */
  initialDomain(): Promise<string | undefined>;
  /**
   * Who changed what since a time: the entries of each audit log Aegis reads (Entra directory
   * audits and Intune audit events in one Graph $batch, the Exchange admin records of the unified
   * audit log), newest first; a log that could not be read says why, never throws (ADR 064).
   */
  readAuditLogs(since: Date, options?: AuditReadOptions): Promise<TenantAuditRead>;
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

// Entra answers 403 for a missing licence too; its codes and texts name the licence.
const LICENCE_TEXT = /licen[cs]e|AadPremiumLicenseRequired|not applicable to target tenant/i;

/** Whether a service's refusal names a licence (rather than a permission). */
export function namesLicence(text: string): boolean {
  return LICENCE_TEXT.test(text);
}

/**
 * Why a workload was not read, from the service's answer: 403 is 'not permitted' (naming the
 * permission the catalogue gives the workload) unless it names a licence; anything else 'failed'
 * with the status and the service's own message.
 */
export function notReadOutcome(
  workload: TenantWorkload,
  httpStatus: number | undefined,
  code: string | undefined,
  message: string,
): WorkloadNotRead {
  const text = [code, message].filter(Boolean).join(': ');
  if (httpStatus === 403 && namesLicence(text)) {
    return { status: 'notLicensed', message: text };
  }
  // 401 is a token the service refused (a failure of sign-in), 403 a permission the app lacks
  if (httpStatus === 403 || code === 'Authorization_RequestDenied') {
    return {
      status: 'notPermitted',
      permission: requiredPermissionText(workload),
      ...(text ? { message: text } : {}),
    };
  }
  return {
    status: 'failed',
    ...(httpStatus ? { httpStatus } : {}),
    message: text || 'no answer',
  };
}

/** The outcome of a read that threw (a ServiceError keeps the service's status, code and text). */
export function notReadOutcomeOfError(workload: TenantWorkload, error: unknown): WorkloadNotRead {
  if (isServiceError(error)) {
    return notReadOutcome(workload, error.statusCode, error.code, error.message);
  }
  return { status: 'failed', message: error instanceof Error ? error.message : String(error) };
}

/**
 * The objects of the workloads a task must have read to act safely (deploy, off-board): a workload
 * that was not read stops the task with the reason. Workloads without a public API have no entry
 * (the task says it leaves them alone).
 */
export function objectsOfRead(read: TenantRead): Map<TenantWorkload, TenantObject[]> {
  const objects = new Map<TenantWorkload, TenantObject[]>();
  for (const [workload, outcome] of read) {
    if (outcome.status === 'read') objects.set(workload, outcome.objects);
    else if (outcome.status !== 'noPublicApi') {
      throw new TaskError(
        `${workloadKey(workload)} could not be read: ${notCapturedReason(outcome)}`,
      );
    }
  }
  return objects;
}
