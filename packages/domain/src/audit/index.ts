import { clientCodeOfTable, GENERAL_APPS_TABLE } from '../app-tables';
import { CLIENT_CODE_PATTERN } from '../clients';
import { InputError } from '../errors';

/** The Table storage table holding the audit trail (issue 18 §5); never an app table. */
export const AUDIT_TABLE = 'AegisAudit';

/** What became of an audited change: recorded before it ran (`started`), then its answer. */
export type AuditOutcome = 'started' | 'succeeded' | 'failed';

/** One change Aegis made or refused: who, what, when, with which parameters, and the result. */
export interface AuditEvent {
  readonly id: string;
  /** When the request arrived (ISO 8601, UTC). */
  readonly at: string;
  readonly actor: { readonly upn: string; readonly oid: string; readonly roles: readonly string[] };
  /** `METHOD /route/:template`, e.g. `POST /api/backups/:client/restore`. */
  readonly action: string;
  /** The client tenant the change was about, when the request names one. */
  readonly clientCode?: string;
  /** The request's params, query and body, secrets redacted and large bodies summarised. */
  readonly parameters: unknown;
  readonly result: { readonly statusCode?: number; readonly outcome: AuditOutcome };
  /** What the change created or touched: run id, pull request, commit… */
  readonly details?: Record<string, unknown>;
}

/** Months are partitions: `yyyy-MM` in UTC. */
export const AUDIT_MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

export function auditMonthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** Larger than any JavaScript date in milliseconds, so that `MAX - ms` sorts newest first. */
const MAX_TIME_MS = 8_640_000_000_000_000;

/**
 * The RowKey of an event: its time inverted (16 digits, so that Table storage's ascending order
 * lists the newest first) then its id, so two events of the same millisecond never collide.
 */
export function auditRowKey(at: Date, id: string): string {
  return `${String(MAX_TIME_MS - at.getTime()).padStart(16, '0')}-${id}`;
}

/** The month before `month` (`2026-01` → `2025-12`). */
export function previousAuditMonth(month: string): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return mon === 1 ? `${year - 1}-12` : `${year}-${String(mon - 1).padStart(2, '0')}`;
}

/** The most months one audit query may span. */
export const MAX_AUDIT_MONTHS = 12;

/**
 * The months from `to` back to `from` (inclusive), newest first: the partitions an audit query
 * reads in turn. More than {@link MAX_AUDIT_MONTHS} months, or `from` after `to`, is an InputError.
 */
export function auditMonthsBetween(from: string, to: string): string[] {
  const first = auditMonthOf(new Date(`${from}T00:00:00Z`));
  const last = auditMonthOf(new Date(`${to}T00:00:00Z`));
  if (first > last) throw new InputError('from: must not be after to', 'from');
  const months = [last];
  while (months.at(-1)! > first) {
    if (months.length >= MAX_AUDIT_MONTHS) {
      throw new InputError(`from: spans more than ${MAX_AUDIT_MONTHS} months`, 'from');
    }
    months.push(previousAuditMonth(months.at(-1)!));
  }
  return months;
}

/**
 * The client tenant a request is about: a `client` or `clientCode` (path, query or body), a client
 * pipeline `folder`, or the client of a '{CODE}WorkstationApps' table.
 */
export function auditClientCodeOf(request: {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}): string | undefined {
  for (const source of [request.params, request.query, request.body]) {
    if (!source || typeof source !== 'object') continue;
    const fields = source as Record<string, unknown>;
    for (const key of ['client', 'clientCode', 'folder']) {
      const value = fields[key];
      if (typeof value === 'string' && CLIENT_CODE_PATTERN.test(value)) return value;
    }
    const table = fields.table;
    if (typeof table === 'string' && table !== GENERAL_APPS_TABLE) {
      const code = clientCodeOfTable(table);
      if (code) return code;
    }
  }
  return undefined;
}
