// The fleet view (issue 17): one row per client, its status from the figures the other screens
// already compute, what is missing when a figure could not be had, the worst deviations across
// the fleet, and the points in time of a client's compliance trend.
import type { BackupHealth } from '../backups';
import type { DeviationGroup } from '../comparison/types';
import type { Severity } from '../severity';
import { compareSeverity } from '../severity';

/** A client's overall state in the fleet. `incomplete`: a figure is missing, so it is never called compliant. */
export type FleetStatus = 'critical' | 'incomplete' | 'atRisk' | 'compliant';

export const FLEET_STATUS_ORDER: readonly FleetStatus[] = [
  'critical',
  'incomplete',
  'atRisk',
  'compliant',
];

export const FLEET_STATUS_LABELS: Record<FleetStatus, string> = {
  critical: 'Critical',
  incomplete: 'Data missing',
  atRisk: 'At risk',
  compliant: 'Compliant',
};

/** Below this company-baseline compliance a client is critical (the report's poor band, spec 1 §9). */
export const FLEET_CRITICAL_BELOW = 50;
/** Below this a client is at risk (the report's 'Excellent' description starts at 90, spec 3 §9). */
export const FLEET_AT_RISK_BELOW = 90;
/** Standard catalogue compliance below this puts a client at risk (the comparison's warning icon, spec 1 §9). */
export const FLEET_STANDARD_AT_RISK_BELOW = 70;
/** A last capture older than this puts a client at risk: what is in git no longer says what the tenant is. */
export const FLEET_CAPTURE_STALE_DAYS = 30;
const DAY_MS = 86_400_000;

/** What the fleet says when a figure could not be had (each row lists its own). */
export const FLEET_MISSING = {
  noConfiguration: 'No configuration captured yet: compliance cannot be computed.',
  noBaseline: 'The company baseline could not be found, so compliance cannot be computed.',
  complianceFailed: (reason: string) => `Compliance could not be loaded: ${reason}`,
  noStandardSettings: 'The standard catalogue found no settings to evaluate.',
  backupsFailed: (reason: string) => `Backups could not be loaded: ${reason}`,
  noBackups: 'No backups: the 24/48 h backup rule fails.',
  capturesFailed: (reason: string) => `Capture history could not be loaded: ${reason}`,
  noCapture: 'No capture recorded.',
  /** a workload the last capture could not read ('Not captured: {reason}', ADR 050) */
  notCaptured: (w: { workload: string; text: string }) => `${w.workload}: ${w.text}`,
} as const;

/** The figures of one client, each undefined when it could not be had. */
export interface FleetFacts {
  /** company-baseline compliance (the report's percentage, accepted deviations applied) */
  compliancePercentage?: number;
  criticalCount?: number;
  highCount?: number;
  /** standard catalogue compliance */
  standardPercentage?: number;
  backupHealth?: BackupHealth;
  /** null: there is none; undefined: unknown */
  lastCaptureAt?: string | null;
  /** what could not be had; any entry keeps the row from looking healthy */
  missing: readonly string[];
  /**
   * false: main holds no configuration of the client (never captured). Nothing of it can be judged,
   * so it is 'Data missing', never Critical for the backups it cannot have yet (ADR 054).
   */
  hasConfiguration?: boolean;
}

/** Whole days between an ISO time and now (never negative); undefined without a time. */
export function ageInDays(iso: string | null | undefined, now: Date): number | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, Math.floor((now.getTime() - t) / DAY_MS));
}

/**
 * A client's last capture (issue 27): the newest of its capture runs' branches and the read its
 * configuration on main records (the manifest), since tenant onboarding commits a first capture
 * to main without a capture branch. null when neither says anything.
 */
export function lastCaptureOf(
  newestCaptureBranch: string | null | undefined,
  configurationReadAt: string | null | undefined,
): string | null {
  const times = [newestCaptureBranch, configurationReadAt].filter(
    (t): t is string => typeof t === 'string' && !Number.isNaN(Date.parse(t)),
  );
  if (times.length === 0) return null;
  return times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}

/** 'today', '1 day ago', 'N days ago'; 'Never' without a time. */
export function formatAge(iso: string | null | undefined, now: Date): string {
  const days = ageInDays(iso, now);
  if (days === undefined) return 'Never';
  if (days === 0) return 'today';
  return days === 1 ? '1 day ago' : `${days} days ago`;
}

/**
 * A client's status: 'Data missing' when main holds no configuration of it; critical when any known figure is critical (compliance under 50, an unaccepted critical
 * deviation, backups Critical or none); otherwise 'Data missing' when anything is missing (never compliant on
 * partial data); at risk under 90 % compliance, with high deviations, standard compliance under 70, backups in
 * Warning or a capture older than 30 days; compliant otherwise.
 */
export function fleetStatus(facts: FleetFacts, now: Date): FleetStatus {
  if (facts.hasConfiguration === false) return 'incomplete';
  const p = facts.compliancePercentage;
  if (
    (p !== undefined && p < FLEET_CRITICAL_BELOW) ||
    (facts.criticalCount ?? 0) > 0 ||
    facts.backupHealth === 'Critical' ||
    facts.backupHealth === 'No Backups'
  ) {
    return 'critical';
  }
  if (
    facts.missing.length > 0 ||
    p === undefined ||
    facts.criticalCount === undefined ||
    facts.highCount === undefined ||
    facts.standardPercentage === undefined ||
    facts.backupHealth === undefined ||
    !facts.lastCaptureAt
  ) {
    return 'incomplete';
  }
  const captureAge = ageInDays(facts.lastCaptureAt, now) ?? Infinity;
  if (
    p < FLEET_AT_RISK_BELOW ||
    facts.highCount > 0 ||
    facts.standardPercentage < FLEET_STANDARD_AT_RISK_BELOW ||
    facts.backupHealth === 'Warning' ||
    captureAge > FLEET_CAPTURE_STALE_DAYS
  ) {
    return 'atRisk';
  }
  return 'compliant';
}

/** One failing setting of one client, as the fleet aggregates it. */
export interface FleetDeviation {
  /** the baseline policy's resource path */
  path: string;
  policyName: string;
  category: string;
  /** the property that deviates; empty for a policy missing from the client */
  property: string;
  severity: Severity;
}

/** The deviating settings of a compliance result, one per policy and property (missing policies once). */
export function fleetDeviationsOf(groups: readonly DeviationGroup[]): FleetDeviation[] {
  const out: FleetDeviation[] = [];
  for (const g of groups) {
    const base = { path: g.path, policyName: g.policyName, category: g.category };
    if (g.isMissing || g.deviations.length === 0) {
      out.push({ ...base, property: '', severity: g.highestSeverity });
      continue;
    }
    const seen = new Set<string>();
    for (const d of g.deviations) {
      if (seen.has(d.property)) continue;
      seen.add(d.property);
      out.push({ ...base, property: d.property, severity: d.severity });
    }
  }
  return out;
}

/** A setting failing across the fleet: how many clients, and which. */
export interface FleetWorstDeviation extends FleetDeviation {
  clientCount: number;
  clients: string[];
}

/** Weight of a severity in the fleet's ranking: a critical setting counts as eight low ones. */
const SEVERITY_WEIGHT: Record<Severity, number> = {
  critical: 8,
  high: 4,
  medium: 2,
  low: 1,
  prerequisite: 0,
};

/** How bad a setting is across the fleet: its severity's weight times the clients it fails in. */
export function fleetDeviationScore(d: { severity: Severity; clientCount: number }): number {
  return SEVERITY_WEIGHT[d.severity] * d.clientCount;
}

/**
 * The worst deviations across the fleet (issue 17 §3): settings ranked by severity weight times the number of
 * clients they fail in (a setting failing in most tenants rises, but a low-severity tenant-specific value such as
 * a name or an IP range does not outrank a critical one), then by clients, severity, policy name and property.
 * At most `limit` (five).
 */
export function worstFleetDeviations(
  byClient: ReadonlyMap<string, readonly FleetDeviation[]>,
  limit = 5,
): FleetWorstDeviation[] {
  const bySetting = new Map<string, FleetWorstDeviation>();
  for (const [client, deviations] of byClient) {
    for (const d of deviations) {
      const key = `${d.path}\n${d.property}`;
      const seen = bySetting.get(key);
      if (!seen) {
        bySetting.set(key, { ...d, clientCount: 1, clients: [client] });
      } else {
        // each client's deviations come together: a client already counted is the last one listed
        // (searching the list made the fleet page quadratic in clients: 7 s for 1,000)
        if (seen.clients.at(-1) !== client) {
          seen.clients.push(client);
          seen.clientCount += 1;
        }
        if (compareSeverity(d.severity, seen.severity) < 0) seen.severity = d.severity;
      }
    }
  }
  return [...bySetting.values()]
    .sort(
      (a, b) =>
        fleetDeviationScore(b) - fleetDeviationScore(a) ||
        b.clientCount - a.clientCount ||
        compareSeverity(a.severity, b.severity) ||
        a.policyName.localeCompare(b.policyName) ||
        a.property.localeCompare(b.property),
    )
    .slice(0, limit)
    .map((d) => ({ ...d, clients: [...d.clients].sort() }));
}

/** The fleet summary's counts. */
export function fleetStatusCounts(statuses: Iterable<FleetStatus>): Record<FleetStatus, number> {
  const counts: Record<FleetStatus, number> = {
    critical: 0,
    incomplete: 0,
    atRisk: 0,
    compliant: 0,
  };
  for (const s of statuses) counts[s] += 1;
  return counts;
}

// ---- trend --------------------------------------------------------------------------------

/** Where a trend point comes from. */
export type TrendSource = 'merge' | 'backup';

/** A point in time of a client's history: a commit on main touching its folder, or a backup tag. */
export interface TrendCandidate {
  commitId: string;
  /** ISO time: the commit's date, or the backup's */
  date: string;
  source: TrendSource;
  /** the backup tag's name, or the commit's first comment line */
  label: string;
}

/** Points of a trend by default, and at most. */
export const TREND_DEFAULT_POINTS = 20;
export const TREND_MAX_POINTS = 100;

/**
 * The points of a client's trend (ADR 034): every merge touching its folder and every backup, oldest first.
 * Consecutive points at the same commit say the same thing (a daily backup of an unchanged repository), so only
 * the first of such a run is kept, and the newest point always is (the trend reaches the present). Then the
 * newest `limit` points.
 */
export function selectTrendPoints(
  candidates: readonly TrendCandidate[],
  limit = TREND_DEFAULT_POINTS,
): TrendCandidate[] {
  const sorted = [...candidates]
    .filter((c) => !Number.isNaN(Date.parse(c.date)))
    .sort(
      (a, b) =>
        Date.parse(a.date) - Date.parse(b.date) ||
        (a.source === b.source ? a.label.localeCompare(b.label) : a.source === 'merge' ? -1 : 1),
    );
  const kept: TrendCandidate[] = [];
  sorted.forEach((c, i) => {
    const previous = sorted[i - 1];
    const isLast = i === sorted.length - 1;
    if (!previous || previous.commitId !== c.commitId || isLast) kept.push(c);
  });
  return kept.slice(-Math.max(1, Math.min(limit, TREND_MAX_POINTS)));
}
