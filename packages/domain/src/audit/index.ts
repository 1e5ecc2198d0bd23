export * from './action-text';

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

/** The UTC day (`yyyy-MM-dd`) of an instant. */
export function auditDayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * Why a range of days cannot be queried, naming the field to fix: `to` before `from` (the later
 * field is the one at fault), or more than {@link MAX_AUDIT_MONTHS} months (`from`, which
 * reaches too far back). Undefined when the range is fine.
 */
export function auditRangeProblem(
  from: string,
  to: string,
): { readonly field: 'from' | 'to'; readonly message: string } | undefined {
  if (to < from) return { field: 'to', message: 'must not be before from' };
  const first = auditMonthOf(new Date(`${from}T00:00:00Z`));
  let month = auditMonthOf(new Date(`${to}T00:00:00Z`));
  for (let count = 1; month > first; count += 1) {
    if (count >= MAX_AUDIT_MONTHS) {
      return { field: 'from', message: `spans more than ${MAX_AUDIT_MONTHS} months` };
    }
    month = previousAuditMonth(month);
  }
  return undefined;
}

/**
 * The days an audit query reads when it names only one end (or neither): `to` defaults to
 * today (UTC); `from` defaults to the first day of the current month when `to` is not given
 * either (the screen's default), otherwise to as far back as a query reaches from `to`
 * ({@link MAX_AUDIT_MONTHS} months, its first day).
 */
export function auditRangeOf(
  range: { readonly from?: string | undefined; readonly to?: string | undefined },
  now: Date,
): { readonly from: string; readonly to: string } {
  const today = auditDayOf(now);
  if (!range.from && !range.to) return { from: `${auditMonthOf(now)}-01`, to: today };
  // '' is no day either (an empty date field)
  const to = range.to || (range.from && range.from > today ? range.from : today);
  let month = auditMonthOf(new Date(`${to}T00:00:00Z`));
  for (let count = 1; count < MAX_AUDIT_MONTHS; count += 1) month = previousAuditMonth(month);
  return { from: range.from || `${month}-01`, to };
}

/**
 * The months from `to` back to `from` (inclusive), newest first: the partitions an audit query
 * reads in turn. A range {@link auditRangeProblem} refuses is an InputError naming its field.
 */
export function auditMonthsBetween(from: string, to: string): string[] {
  const problem = auditRangeProblem(from, to);
  if (problem) throw new InputError(`${problem.field}: ${problem.message}`, problem.field);
  const first = auditMonthOf(new Date(`${from}T00:00:00Z`));
  const months = [auditMonthOf(new Date(`${to}T00:00:00Z`))];
  while (months.at(-1)! > first) months.push(previousAuditMonth(months.at(-1)!));
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
