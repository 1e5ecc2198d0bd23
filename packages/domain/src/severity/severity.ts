/** Severity levels, worst first (spec 1 §9, spec 3 §9). */
export const SEVERITY_ORDER = ['critical', 'high', 'medium', 'low', 'prerequisite'] as const;
export type Severity = (typeof SEVERITY_ORDER)[number];

const RANK: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3, prerequisite: 4 };

/** Sort comparator: critical first, prerequisite last. */
export function compareSeverity(a: Severity, b: Severity): number {
  return RANK[a] - RANK[b];
}

/** The worst of the given severities (order critical, high, medium, low, prerequisite); undefined when empty. */
export function highestSeverity(severities: Iterable<Severity>): Severity | undefined {
  let best: Severity | undefined;
  for (const s of severities) {
    if (best === undefined || RANK[s] < RANK[best]) best = s;
    if (best === 'critical') break;
  }
  return best;
}

const CRITICAL_WORDS = [
  'security',
  'password',
  'encryption',
  'authentication',
  'credential',
  'token',
  'secret',
];
const HIGH_WORDS = ['enabled', 'disabled', 'policy', 'rule', 'permission', 'access', 'compliance'];
const MEDIUM_WORDS = ['config', 'setting'];

const cache = new Map<string, Severity>();

/**
 * Compliance severity of a property deviation by property name (spec 3 §5): a case-insensitive
 * substring test of the property path against the critical, high and medium words. An array item's
 * selector names the setting (`values[name=EnableBannedPasswordCheckOnPremises].value`), so its value
 * is part of the property; the selector's key (`name=`) and positions (`[0]`) are not.
 */
export function severityByPropertyName(property: string): Severity {
  const hit = cache.get(property);
  if (hit) return hit;
  const p = property
    .replace(/\[[^\]=]*=([^\]]*)\]/g, '.$1')
    .replace(/\[\d+\]/g, '')
    .toLowerCase();
  let s: Severity = 'low';
  if (CRITICAL_WORDS.some((w) => p.includes(w))) s = 'critical';
  else if (HIGH_WORDS.some((w) => p.includes(w))) s = 'high';
  else if (MEDIUM_WORDS.some((w) => p.includes(w))) s = 'medium';
  if (cache.size > 50_000) cache.clear();
  cache.set(property, s);
  return s;
}

/** Severity of an array item removed from the client (medium) or added by the client (low), spec 3 §5. */
export function arrayItemSeverity(change: 'removed' | 'added'): Severity {
  return change === 'removed' ? 'medium' : 'low';
}

/** A baseline policy missing from the client: critical, or prerequisite when its path is a prerequisite location. */
export function missingPolicySeverity(isPrerequisite: boolean): Severity {
  return isPrerequisite ? 'prerequisite' : 'critical';
}

/**
 * Capture-review severity of a property difference by path (spec 3 §5, alternative scheme): critical if the path
 * contains state, block or grantcontrols; high if conditions, users or applications; medium if session; else low.
 */
export function captureReviewSeverity(path: string): Exclude<Severity, 'prerequisite'> {
  const p = path.toLowerCase();
  if (p.includes('state') || p.includes('block') || p.includes('grantcontrols')) return 'critical';
  if (p.includes('conditions') || p.includes('users') || p.includes('applications')) return 'high';
  if (p.includes('session')) return 'medium';
  return 'low';
}

/** Capture-review severity of a set of differing paths: the highest wins; undefined when there are none. */
export function captureReviewSeverityOf(paths: Iterable<string>): Severity | undefined {
  const all: Severity[] = [];
  for (const p of paths) all.push(captureReviewSeverity(p));
  return highestSeverity(all);
}
