import { recomputeCompliance } from '../comparison/compare-trees';
import type { ComplianceData, DeviationGroup } from '../comparison/types';
import { highestSeverity } from '../severity';

/** One accepted entry (spec 3 §3). */
export interface AcceptedDeviation {
  path: string;
  policyName: string;
  category: string;
  /** Accepted property paths. */
  properties: string[];
  timestamp: string;
  acceptedBy: 'user';
}

/** The accepted-deviations document (`Clients/{client}/.accepted-deviations.json`). */
export interface AcceptedDeviationsConfig {
  version: '1.0';
  clientCode: string;
  timestamp: string;
  acceptedDeviations: AcceptedDeviation[];
}

/** The empty default (a missing file reads as this). */
export function emptyAcceptedDeviations(
  clientCode: string,
  now = new Date(),
): AcceptedDeviationsConfig {
  return { version: '1.0', clientCode, timestamp: now.toISOString(), acceptedDeviations: [] };
}

/** Record an accept action; an earlier entry for the same path is replaced (spec 3 §4). */
export function acceptDeviations(
  config: AcceptedDeviationsConfig,
  entry: { path: string; policyName: string; category: string; properties: readonly string[] },
  now = new Date(),
): AcceptedDeviationsConfig {
  const timestamp = now.toISOString();
  return {
    ...config,
    timestamp,
    acceptedDeviations: [
      ...config.acceptedDeviations.filter((d) => d.path !== entry.path),
      { ...entry, properties: [...entry.properties], timestamp, acceptedBy: 'user' },
    ],
  };
}

/** Success text of an accept action (spec 3 §8). */
export function acceptedMessage(count: number, policyName: string): string {
  return `Successfully accepted ${count} deviation(s) for ${policyName}`;
}

/**
 * Apply accepted deviations: accepted properties no longer count; a group whose deviations are all accepted becomes
 * compliant; counts and percentage are recomputed; acceptedDeviationsApplied/Count set (count = properties removed).
 */
export function applyAcceptedDeviations(
  data: ComplianceData,
  config: AcceptedDeviationsConfig,
): ComplianceData {
  const byPath = new Map<string, Set<string>>();
  for (const a of config.acceptedDeviations) byPath.set(a.path, new Set(a.properties));
  let removed = 0;
  const deviations: DeviationGroup[] = [];
  for (const g of data.deviations) {
    const accepted = byPath.get(g.path);
    if (!accepted) {
      deviations.push(g);
      continue;
    }
    const kept = g.deviations.filter((d) => !accepted.has(d.property));
    removed += g.deviations.length - kept.length;
    if (kept.length === 0 && g.deviations.length > 0) continue;
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
  return recomputeCompliance({
    ...data,
    deviations,
    acceptedDeviationsApplied: removed > 0,
    acceptedDeviationsCount: removed,
  });
}
