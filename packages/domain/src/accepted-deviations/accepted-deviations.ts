import { recomputeCompliance } from '../comparison/compare-trees';
import { deepEqual } from '../comparison/diff-documents';
import type {
  AcceptanceFlag,
  AcceptedDeviationGroup,
  ComplianceData,
  DeviationGroup,
  PropertyDeviation,
} from '../comparison/types';
import { highestSeverity } from '../severity';

/** Version of the accepted-deviations document (spec 3 §9). */
export const ACCEPTED_DEVIATIONS_VERSION = '1.0';

/**
 * One accepted entry (spec 3 §3: path, policyName, category, properties, timestamp, acceptedBy). Aegis records
 * who accepted (the signed-in account instead of the spec's literal 'user'; still a string, so the spec's
 * reader understands it), and optionally why and until when (ADR 028). `acceptedValues` keeps the client's value
 * of each accepted property at acceptance, so that a value moving away is flagged again.
 */
export interface AcceptedDeviation {
  path: string;
  policyName: string;
  category: string;
  /** Accepted property paths. */
  properties: string[];
  timestamp: string;
  acceptedBy: string;
  reason?: string;
  /** Last day (yyyy-mm-dd, UTC) on which the acceptance holds. */
  expiresAt?: string;
  /** property → the client's value when it was accepted ('Missing' for an absent value). */
  acceptedValues?: Record<string, unknown>;
  /** the second Approver who approved a critical acceptance (ADR 051) */
  approvedBy?: string;
}

/** The accepted-deviations document (`Clients/{client}/.accepted-deviations.json`). */
export interface AcceptedDeviationsConfig {
  version: '1.0';
  clientCode: string;
  timestamp: string;
  acceptedDeviations: AcceptedDeviation[];
  /** acceptances of critical deviations waiting for a second Approver (ADR 051), one per path */
  pendingAcceptances?: PendingAcceptance[];
}

/** A critical acceptance asked for and not yet approved: the accept action and who asked. */
export interface PendingAcceptance extends AcceptAction {
  properties: string[];
  requestedBy: string;
  requestedAt: string;
  /** the client policy compared, when it differs from `path` (a confirmed match) */
  clientPath?: string;
}

/** The empty default (a missing file reads as this). */
export function emptyAcceptedDeviations(
  clientCode: string,
  now = new Date(),
): AcceptedDeviationsConfig {
  return {
    version: ACCEPTED_DEVIATIONS_VERSION,
    clientCode,
    timestamp: now.toISOString(),
    acceptedDeviations: [],
  };
}

/** What an accept action records (the spec's accept action, with the auditor's fields). */
export interface AcceptAction {
  path: string;
  policyName: string;
  category: string;
  properties: readonly string[];
  /** The signed-in account; the spec's 'user' when unknown. */
  acceptedBy?: string;
  reason?: string;
  expiresAt?: string;
  acceptedValues?: Readonly<Record<string, unknown>>;
  /** the second Approver, for a critical acceptance */
  approvedBy?: string;
}

/**
 * An acceptance runs at most this many days (ADR 056): a risk accepted for a client is looked at
 * again at least once a year. When it runs out the deviation counts again and the acceptance is
 * shown as expired, so it is still monitored.
 */
export const MAX_ACCEPTANCE_DAYS = 365;

/** Whether `day` is a real calendar day written yyyy-mm-dd (2027-02-30 is not). */
export function isRealIsoDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
}

/** The last day an acceptance made on `now` may run to; also its expiry when none is given. */
export function latestAcceptanceExpiry(now: Date): string {
  return new Date(now.getTime() + MAX_ACCEPTANCE_DAYS * 86_400_000).toISOString().slice(0, 10);
}

/** Why `expiresAt` cannot end an acceptance made on `now`, or undefined. */
export function acceptanceExpiryProblem(expiresAt: string, now: Date): string | undefined {
  if (!isRealIsoDay(expiresAt)) return 'must be a real date (yyyy-mm-dd)';
  const today = now.toISOString().slice(0, 10);
  if (expiresAt < today) return 'must not be in the past';
  const latest = latestAcceptanceExpiry(now);
  if (expiresAt > latest) {
    return `must be no later than ${latest}: an acceptance runs at most ${MAX_ACCEPTANCE_DAYS} days`;
  }
  return undefined;
}

/** Is the acceptance past its last day? An acceptance without expiry never expires. */
export function isAcceptanceExpired(
  entry: Pick<AcceptedDeviation, 'expiresAt'>,
  now: Date,
): boolean {
  if (!entry.expiresAt) return false;
  return now.toISOString().slice(0, 10) > entry.expiresAt.slice(0, 10);
}

/** How an accepted property stands against the current client value. */
export function acceptanceStatus(
  entry: AcceptedDeviation,
  deviation: Pick<PropertyDeviation, 'property' | 'clientValue'>,
  now: Date,
): 'accepted' | AcceptanceFlag['status'] | 'notAccepted' {
  if (!entry.properties.includes(deviation.property)) return 'notAccepted';
  if (isAcceptanceExpired(entry, now)) return 'expired';
  const values = entry.acceptedValues;
  if (values && Object.prototype.hasOwnProperty.call(values, deviation.property)) {
    if (!deepEqual(values[deviation.property], deviation.clientValue)) return 'valueChanged';
  }
  return 'accepted';
}

/**
 * Record an accept action. The entry for the same path is replaced (spec 3 §4); properties of the earlier entry
 * that were still in force (not expired, not re-accepted now) are carried into the new entry with their accepted
 * values, so accepting one more deviation never brings the earlier ones back (ADR 028).
 */
export function acceptDeviations(
  config: AcceptedDeviationsConfig,
  action: AcceptAction,
  now = new Date(),
): AcceptedDeviationsConfig {
  const timestamp = now.toISOString();
  const earlier = config.acceptedDeviations.find((d) => d.path === action.path);
  const properties = [...new Set(action.properties)];
  const acceptedValues: Record<string, unknown> = {};
  if (earlier && !isAcceptanceExpired(earlier, now)) {
    for (const p of earlier.properties) {
      if (properties.includes(p)) continue;
      properties.push(p);
      if (earlier.acceptedValues && p in earlier.acceptedValues)
        acceptedValues[p] = earlier.acceptedValues[p];
    }
  }
  for (const [p, v] of Object.entries(action.acceptedValues ?? {})) acceptedValues[p] = v;
  const entry: AcceptedDeviation = {
    path: action.path,
    policyName: action.policyName,
    category: action.category,
    properties,
    timestamp,
    acceptedBy: action.acceptedBy?.trim() || 'user',
    ...(action.reason?.trim() ? { reason: action.reason.trim() } : {}),
    ...(action.expiresAt ? { expiresAt: action.expiresAt.slice(0, 10) } : {}),
    ...(Object.keys(acceptedValues).length > 0 ? { acceptedValues } : {}),
    ...(action.approvedBy ? { approvedBy: action.approvedBy } : {}),
  };
  return {
    ...config,
    version: ACCEPTED_DEVIATIONS_VERSION,
    timestamp,
    acceptedDeviations: [...config.acceptedDeviations.filter((d) => d.path !== action.path), entry],
  };
}

/** Remove the acceptance of one policy path (an auditor's revocation). */
export function revokeAcceptedDeviations(
  config: AcceptedDeviationsConfig,
  path: string,
  now = new Date(),
): AcceptedDeviationsConfig {
  return {
    ...config,
    timestamp: now.toISOString(),
    acceptedDeviations: config.acceptedDeviations.filter((d) => d.path !== path),
  };
}

/** Success text of an accept action (spec 3 §8). */
export function acceptedMessage(count: number, policyName: string): string {
  return `Successfully accepted ${count} deviation(s) for ${policyName}`;
}

/** Failure text of an accept action (spec 3 §8). */
export const ACCEPT_FAILED_MESSAGE = 'Failed to save accepted deviations. Please try again.';

/** Labels of a monitored acceptance that no longer holds. */
export const ACCEPTANCE_FLAG_LABELS: Record<AcceptanceFlag['status'], string> = {
  valueChanged: 'Accepted value changed',
  expired: 'Acceptance expired',
};

function flagOf(
  entry: AcceptedDeviation,
  property: string,
  status: AcceptanceFlag['status'],
): AcceptanceFlag {
  return {
    status,
    acceptedBy: entry.acceptedBy,
    acceptedAt: entry.timestamp,
    ...(entry.reason ? { reason: entry.reason } : {}),
    ...(entry.expiresAt ? { expiresAt: entry.expiresAt } : {}),
    ...(entry.acceptedValues && property in entry.acceptedValues
      ? { acceptedValue: entry.acceptedValues[property] }
      : {}),
  };
}

/**
 * Apply accepted deviations. An accepted property whose acceptance holds no longer counts and is listed in
 * `acceptedGroups`; one whose client value moved away from the accepted value, or whose acceptance expired,
 * stays a deviation flagged with {@link AcceptanceFlag}. A group whose deviations are all accepted becomes
 * compliant; counts and percentage are recomputed; acceptedDeviationsApplied/Count set (count = properties
 * accepted and still in force).
 */
export function applyAcceptedDeviations(
  data: ComplianceData,
  config: AcceptedDeviationsConfig,
  now = new Date(),
): ComplianceData {
  const byPath = new Map<string, AcceptedDeviation>();
  for (const a of config.acceptedDeviations) byPath.set(a.path, a);
  let removed = 0;
  const deviations: DeviationGroup[] = [];
  const acceptedGroups: AcceptedDeviationGroup[] = [];
  for (const g of data.deviations) {
    const entry = byPath.get(g.path);
    if (!entry) {
      deviations.push(g);
      continue;
    }
    const kept: PropertyDeviation[] = [];
    const accepted: PropertyDeviation[] = [];
    for (const d of g.deviations) {
      const status = acceptanceStatus(entry, d, now);
      if (status === 'accepted') accepted.push(d);
      else if (status === 'notAccepted') kept.push(d);
      else kept.push({ ...d, acceptance: flagOf(entry, d.property, status) });
    }
    removed += accepted.length;
    if (accepted.length > 0) {
      acceptedGroups.push({
        path: g.path,
        policyName: g.policyName,
        category: g.category,
        acceptedBy: entry.acceptedBy,
        acceptedAt: entry.timestamp,
        ...(entry.reason ? { reason: entry.reason } : {}),
        ...(entry.expiresAt ? { expiresAt: entry.expiresAt } : {}),
        deviations: accepted,
      });
    }
    if (kept.length === 0 && g.deviations.length > 0) continue;
    if (accepted.length === 0 && kept.every((d, i) => d === g.deviations[i])) {
      deviations.push(g);
      continue;
    }
    const sev = highestSeverity(kept.map((d) => d.severity)) ?? g.highestSeverity;
    deviations.push({
      ...g,
      deviations: kept,
      deviationCount: kept.length,
      severity: sev,
      highestSeverity: sev,
      hasArrayChanges: kept.some((d) => d.isArrayChange),
    });
  }
  acceptedGroups.sort(
    (a, b) => a.category.localeCompare(b.category) || a.policyName.localeCompare(b.policyName),
  );
  return recomputeCompliance({
    ...data,
    deviations,
    acceptedGroups,
    acceptedDeviationsApplied: removed > 0,
    acceptedDeviationsCount: removed,
  });
}
