// The scheduled drift check (issue 28 §1, §3, ADR 063): what a check of a client's live tenant
// against its approved configuration on main records, when a client's next check is due, and how
// long a change can take to show on the portal at the default settings. Pure rules; the pipeline
// task reads and stores, the server and the screens read what it stored.
import type { CaptureManifestEntry } from '../capture/manifest';
import { makesCapturePartial } from '../capture/manifest';
import { InputError } from '../errors';

import type { DriftAttribution } from './audit-logs';
import { propertyChanges, type DriftPropertyChange } from './drift';

/** A quick check reads what the audit logs say changed; a full check reads every workload. */
export const DRIFT_CHECK_KINDS = ['quick', 'full'] as const;
export type DriftCheckKind = (typeof DRIFT_CHECK_KINDS)[number];

/** How a drifted object differs from main: the tenant has it and main not, the reverse, or both differ. */
export type DriftObjectChange = 'added' | 'removed' | 'changed';

export interface DriftedObject {
  /** the file on main (or where the capture would write it), `/Clients/{CODE}/M365Config/…` */
  path: string;
  /** `Category/Kind` */
  workload: string;
  /** the policy's display name (the file name when it has none) */
  name: string;
  /** its identity in the tenant (Graph/ARM `id`, Exchange `Guid` or `Identity`), when it has one */
  id?: string;
  change: DriftObjectChange;
  /** for 'changed': each property that differs, main's value as old and the tenant's as new */
  properties: DriftPropertyChange[];
  /** who changed it and when, from the tenant's audit logs, or why that is unknown (ADR 064) */
  attribution?: DriftAttribution;
}

/** A client's drift as the last check saw it: in sync, or drifted. A partial read is either, and says so. */
export type DriftStatus = 'inSync' | 'drifted';

export interface DriftCheckResult {
  client: string;
  kind: DriftCheckKind;
  /** ISO time the tenant was read */
  checkedAt: string;
  /** main's commit the tenant was compared with */
  mainCommit: string;
  /** per workload: read (with its count) or why not, as a capture's manifest says it */
  workloads: CaptureManifestEntry[];
  /** for a quick check: the workloads it read again (every other one was taken as unchanged) */
  workloadsReread?: string[];
  objects: DriftedObject[];
}

/** One file that differs between the tenant read and main, as the capture lays it out. */
export interface DriftFileChange {
  changeType: 'add' | 'edit' | 'delete';
  path: string;
  /** the file on main (edit, delete) */
  before?: string;
  /** the file the tenant gives (add, edit) */
  after?: string;
}

function parseObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** `Category/Kind` of a client resource path (`…/M365Config/Resources/{Category}/{Kind}/{file}`). */
export function workloadOfResourcePath(path: string): string {
  const parts = path.split('/');
  return parts.slice(-3, -1).join('/');
}

function nameOf(path: string, object: Record<string, unknown> | undefined): string {
  for (const key of ['displayName', 'DisplayName', 'name', 'Name', 'Identity']) {
    const value = object?.[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return (path.split('/').at(-1) ?? path).replace(/\.json$/i, '');
}

function idOf(object: Record<string, unknown> | undefined): string | undefined {
  for (const key of ['id', 'Guid', 'Identity']) {
    const value = object?.[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return undefined;
}

/**
 * The drifted objects of a read: added and removed files, and edited files whose properties differ
 * beyond the review's exclusions (timestamps, and the client's excluded properties). An edit that
 * changed only excluded properties is no drift, as it is no change to review.
 */
export function driftedObjects(
  changes: readonly DriftFileChange[],
  excludedProperties: readonly string[] = [],
): DriftedObject[] {
  const out: DriftedObject[] = [];
  for (const change of changes) {
    const before = parseObject(change.before);
    const after = parseObject(change.after);
    const id = idOf(after ?? before);
    const base = {
      path: change.path,
      workload: workloadOfResourcePath(change.path),
      name: nameOf(change.path, after ?? before),
      ...(id ? { id } : {}),
    };
    if (change.changeType === 'add') out.push({ ...base, change: 'added', properties: [] });
    else if (change.changeType === 'delete')
      out.push({ ...base, change: 'removed', properties: [] });
    else {
      const properties = propertyChanges(before ?? {}, after ?? {}, excludedProperties);
      if (properties.length > 0) out.push({ ...base, change: 'changed', properties });
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

export function driftStatusOf(result: Pick<DriftCheckResult, 'objects'>): DriftStatus {
  return result.objects.length > 0 ? 'drifted' : 'inSync';
}

/** Workloads the check could not read (a failure, not a licence or an API Microsoft lacks): 'partial', never drift. */
export function unreadWorkloads(result: Pick<DriftCheckResult, 'workloads'>): string[] {
  return result.workloads
    .filter((w) => w.status !== 'read' && makesCapturePartial(w))
    .map((w) => w.workload);
}

export function isPartialCheck(result: Pick<DriftCheckResult, 'workloads'>): boolean {
  return unreadWorkloads(result).length > 0;
}

/**
 * The text a fingerprint is made from: the drifted objects and their property changes, in a fixed
 * order, and nothing about when or how they were read. The same drift gives the same text on every
 * check, so a notification is sent once per drift state (issue 28 §4).
 */
export function driftFingerprintText(objects: readonly DriftedObject[]): string {
  const canonical = [...objects]
    .sort((a, b) => a.path.localeCompare(b.path))
    .map((o) => [
      o.path,
      o.change,
      [...o.properties]
        .sort((a, b) => a.property.localeCompare(b.property))
        .map((p) => [p.property, p.changeType, p.oldValue ?? null, p.newValue ?? null]),
    ]);
  return JSON.stringify(canonical);
}

/** What a client's stored drift says, for the next check to compare with. */
export interface DriftState {
  status: DriftStatus;
  /** hash of driftFingerprintText, when drifted */
  fingerprint?: string;
  /** when the current drift (this fingerprint) was first seen */
  driftSince?: string;
  /** when the client last went from drifted to in sync */
  resolvedAt?: string;
}

/**
 * What happened since the previous check: drift appeared, changed (another fingerprint), went away,
 * or nothing. Notifications are raised from these transitions, so each is recorded once.
 */
export type DriftTransition = 'detected' | 'changed' | 'resolved' | 'unchanged';

export function nextDriftState(
  previous: DriftState | undefined,
  current: { status: DriftStatus; fingerprint?: string; checkedAt: string },
): DriftState & { transition: DriftTransition } {
  const wasDrifted = previous?.status === 'drifted';
  if (current.status === 'inSync') {
    return wasDrifted
      ? { status: 'inSync', resolvedAt: current.checkedAt, transition: 'resolved' }
      : {
          status: 'inSync',
          ...(previous?.resolvedAt ? { resolvedAt: previous.resolvedAt } : {}),
          transition: 'unchanged',
        };
  }
  const same = wasDrifted && previous.fingerprint === current.fingerprint;
  return {
    status: 'drifted',
    ...(current.fingerprint ? { fingerprint: current.fingerprint } : {}),
    driftSince: same ? (previous.driftSince ?? current.checkedAt) : current.checkedAt,
    ...(previous?.resolvedAt ? { resolvedAt: previous.resolvedAt } : {}),
    transition: same ? 'unchanged' : wasDrifted ? 'changed' : 'detected',
  };
}

// ---- schedule ---------------------------------------------------------------------------

/** A client's drift check settings (Administrator, issue 28 §3). */
export interface DriftCheckSettings {
  /** checks run at all */
  enabled: boolean;
  /** minutes between quick checks */
  quickIntervalInMinutes: number;
  /** minutes between full checks */
  fullIntervalInMinutes: number;
}

/**
 * How often the drift check pipeline runs (its `schedules:` cron, every 5 minutes): a client's check
 * runs on the first run at or after it is due.
 */
export const DRIFT_PIPELINE_PERIOD_IN_MINUTES = 5;
export const DRIFT_PIPELINE_CRON = `*/${DRIFT_PIPELINE_PERIOD_IN_MINUTES} * * * *`;

/**
 * Defaults (ADR 063): a quick check every 10 minutes keeps the worst case from a change to the portal
 * under the 15 minutes; a full read every 6 hours catches what no audit log records.
 */
export const DEFAULT_DRIFT_CHECK_SETTINGS: DriftCheckSettings = {
  enabled: true,
  quickIntervalInMinutes: 10,
  fullIntervalInMinutes: 360,
};

export const DRIFT_INTERVAL_LIMITS = {
  quickIntervalInMinutes: { min: DRIFT_PIPELINE_PERIOD_IN_MINUTES, max: 24 * 60 },
  fullIntervalInMinutes: { min: 60, max: 7 * 24 * 60 },
} as const;

/** Checks settings an Administrator sends; InputError names the field. */
export function validateDriftCheckSettings(settings: DriftCheckSettings): DriftCheckSettings {
  for (const field of ['quickIntervalInMinutes', 'fullIntervalInMinutes'] as const) {
    const { min, max } = DRIFT_INTERVAL_LIMITS[field];
    const value = settings[field];
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new InputError(`${field} must be a whole number from ${min} to ${max}`, field);
    }
  }
  if (settings.fullIntervalInMinutes < settings.quickIntervalInMinutes) {
    throw new InputError(
      'fullIntervalInMinutes must not be shorter than quickIntervalInMinutes',
      'fullIntervalInMinutes',
    );
  }
  return settings;
}

/**
 * A run of the pipeline starts a little after its cron time, and a check records when it read: a
 * check counts as due this much before its interval is over, or a 10-minute interval on a 5-minute
 * pipeline would run every 15 minutes.
 */
const DUE_SLACK_IN_MS = 60_000;

/** What a client's previous checks were (undefined: never checked). */
export interface LastDriftChecks {
  /** the last check of either kind */
  lastCheckedAt?: string;
  /** the last full check */
  lastFullCheckedAt?: string;
}

/** Which check a client needs now, if any: full when a full one is due (or none was ever made), else quick. */
export function dueDriftCheck(
  settings: DriftCheckSettings,
  last: LastDriftChecks,
  now: Date,
): DriftCheckKind | undefined {
  if (!settings.enabled) return undefined;
  const since = (iso: string | undefined) =>
    iso === undefined ? Number.POSITIVE_INFINITY : now.getTime() - Date.parse(iso);
  if (since(last.lastFullCheckedAt) + DUE_SLACK_IN_MS >= settings.fullIntervalInMinutes * 60_000)
    return 'full';
  if (since(last.lastCheckedAt) + DUE_SLACK_IN_MS >= settings.quickIntervalInMinutes * 60_000)
    return 'quick';
  return undefined;
}

/**
 * The worst case from a change in a tenant to the portal showing it, in minutes: the change lands
 * just after a check read the tenant, so the next due check (one quick interval later, on the
 * pipeline's next run) sees it, plus that check's own duration. The Fleet and the client page read
 * the stored result on every load.
 */
export function worstCaseDetectionMinutes(
  settings: Pick<DriftCheckSettings, 'quickIntervalInMinutes'>,
  checkDurationInMinutes: number,
): number {
  const period = DRIFT_PIPELINE_PERIOD_IN_MINUTES;
  // the first pipeline run at or after the check is due (less the slack), on the cron grid
  const wait =
    Math.ceil((settings.quickIntervalInMinutes - DUE_SLACK_IN_MS / 60_000) / period) * period;
  return wait + checkDurationInMinutes;
}
