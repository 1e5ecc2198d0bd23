import { comparePolicy, recomputeCompliance } from '../comparison/compare-trees';
import type { CompareOptions, ComplianceData, DeviationGroup } from '../comparison/types';

import { isSingletonPolicy, policyDisplayName, policyId } from './policy-kind';
import {
  AUTO_MATCH_THRESHOLD,
  SUGGESTION_THRESHOLD,
  scoredPolicy,
  similarityOf,
  type SimilarityScores,
} from './similarity';

/** A confirmed match (spec 3 §3). */
export interface ConfirmedMatch {
  baselineId?: string;
  baselineName: string;
  clientId?: string;
  clientName: string;
  score: number;
  scores: SimilarityScores;
  confirmedAt: string;
  baselinePath?: string;
}

/** The matching configuration document (`Clients/{client}/.matching-config.json`). */
export interface MatchingConfig {
  version: '1.0';
  clientCode: string;
  timestamp: string;
  matches: ConfirmedMatch[];
}

export interface Suggestion {
  clientId?: string;
  clientName: string;
  score: number;
  scores: SimilarityScores;
  stateMismatch: boolean;
  explanation: string;
  policy: unknown;
  /** Where the client policy is stored (resources path), to load it when a user opens it. */
  clientPath: string;
}

export interface UnmatchedPolicy {
  path: string;
  baselineName: string;
  baselinePolicy: unknown;
  suggestions: Suggestion[];
}

/** A suggestion as the report sends it: without the client policy's document. */
export type SuggestionSummary = Omit<Suggestion, 'policy'>;

/** An unmatched policy as the report sends it (see {@link unmatchedSummary}). */
export interface UnmatchedSummary extends Omit<UnmatchedPolicy, 'suggestions'> {
  suggestions: SuggestionSummary[];
}

/**
 * An unmatched policy with its best `limit` suggestions and without their documents, which a
 * user opens one at a time (View Detailed Comparison loads it).
 */
export function unmatchedSummary(u: UnmatchedPolicy, limit = Infinity): UnmatchedSummary {
  return {
    ...u,
    suggestions: u.suggestions.slice(0, limit).map(({ policy: _policy, ...summary }) => summary),
  };
}

/** A match already exists if baselineId is equal, or baselineName and clientId are both equal (spec 3 §5). */
export function isSameMatch(a: ConfirmedMatch, b: ConfirmedMatch): boolean {
  if (a.baselineId && b.baselineId && a.baselineId === b.baselineId) return true;
  return a.baselineName === b.baselineName && a.clientId === b.clientId;
}

/** Alert when confirming an existing match. */
export const DUPLICATE_MATCH_MESSAGE = 'This match has already been confirmed.';

/** De-duplicate matches by baselineId, or baselineName plus clientId (on load, before save, on clean-up); first wins. */
export function dedupeMatches(matches: readonly ConfirmedMatch[]): {
  matches: ConfirmedMatch[];
  removed: number;
} {
  const seen = new Set<string>();
  const out: ConfirmedMatch[] = [];
  for (const m of matches) {
    const key = m.baselineId
      ? `id:${m.baselineId}`
      : `name:${m.baselineName}\u0000${m.clientId ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(m);
  }
  return { matches: out, removed: matches.length - out.length };
}

/** Clean-up alert text (spec 3 §5). */
export function cleanupMessage(removed: number): string {
  return removed > 0 ? `✅ Removed ${removed} duplicate matches!` : 'ℹ️ No duplicates found.';
}

/** Matching progress: confirmed over confirmed plus unmatched, in percent. */
export function matchingProgress(confirmed: number, unmatched: number): number {
  const total = confirmed + unmatched;
  return total === 0 ? 0 : Math.round((confirmed / total) * 100);
}

/** A policy of the suggestion pool and the resource path it is stored at. */
interface PoolEntry {
  policy: unknown;
  path: string;
}

function suggestionPoolEntries(data: ComplianceData): PoolEntry[] {
  const seen = new Set<string>();
  const pool: PoolEntry[] = [];
  const add = (p: unknown, path: string): void => {
    if (p == null || typeof p !== 'object' || isSingletonPolicy(p)) return;
    const key = policyId(p) ?? policyDisplayName(p, '');
    if (!key || seen.has(key)) return;
    seen.add(key);
    pool.push({ policy: p, path });
  };
  for (const g of data.deviations) add(g.clientPolicy, g.clientPath ?? g.path);
  for (const c of data.clientOnlyPolicies) add(c.clientPolicy, c.path);
  return pool;
}

/**
 * The suggestion pool (spec 3 §4): client policies seen in deviations plus client-only policies, without singletons,
 * de-duplicated by id or display name.
 */
export function suggestionPool(data: ComplianceData): unknown[] {
  return suggestionPoolEntries(data).map((e) => e.policy);
}

/**
 * Unmatched baseline policies with ranked suggestions (spec 3 §4): only missing, non-singleton policies; suggestions
 * score at least 60, best first; only policies with at least one suggestion are listed. The policies' paths go to
 * the kind detection, so a policy is never suggested a client policy of another kind (a rule for a policy, …).
 */
export function findUnmatchedPolicies(data: ComplianceData): UnmatchedPolicy[] {
  // kinds and names once per policy, not once per pair; a candidate of another kind scores 0 (below
  // the threshold), so only candidates of the baseline policy's kind are scored
  const byKind = new Map<
    string,
    { scored: ReturnType<typeof scoredPolicy>; path: string; id?: string }[]
  >();
  for (const { policy, path } of suggestionPoolEntries(data)) {
    const scored = scoredPolicy(policy, path);
    const id = policyId(policy);
    const sameKind = byKind.get(scored.kind) ?? [];
    sameKind.push(id === undefined ? { scored, path } : { scored, path, id });
    byKind.set(scored.kind, sameKind);
  }
  const out: UnmatchedPolicy[] = [];
  for (const g of data.deviations) {
    if (g.changeType !== 'missing' || isSingletonPolicy(g.baselinePolicy)) continue;
    const baseline = scoredPolicy(g.baselinePolicy, g.path);
    const suggestions: Suggestion[] = [];
    for (const { scored, path, id } of byKind.get(baseline.kind) ?? []) {
      const s = similarityOf(baseline, scored);
      if (s.score < SUGGESTION_THRESHOLD) continue;
      suggestions.push({
        ...(id === undefined ? {} : { clientId: id }),
        clientName: scored.name,
        ...s,
        policy: scored.policy,
        clientPath: path,
      });
    }
    suggestions.sort((a, b) => b.score - a.score);
    if (suggestions.length > 0)
      out.push({
        path: g.path,
        baselineName: g.policyName,
        baselinePolicy: g.baselinePolicy,
        suggestions,
      });
  }
  return out;
}

/** Matches to confirm with 'Auto-match High Confidence (≥90%)': the best suggestion of each policy at 90 or more. */
export function autoMatches(
  unmatched: readonly UnmatchedSummary[],
  now = new Date(),
): ConfirmedMatch[] {
  const out: ConfirmedMatch[] = [];
  for (const u of unmatched) {
    const best = u.suggestions[0];
    if (!best || best.score < AUTO_MATCH_THRESHOLD) continue;
    out.push({
      baselineId: policyId(u.baselinePolicy),
      baselineName: u.baselineName,
      clientId: best.clientId,
      clientName: best.clientName,
      score: best.score,
      scores: best.scores,
      confirmedAt: now.toISOString(),
      baselinePath: u.path,
    });
  }
  return dedupeMatches(out).matches;
}

/**
 * Apply confirmed matches: a matched baseline policy is compared with its client policy instead of counting as
 * missing; the client policy leaves clientOnlyPolicies. Counts and percentage are recomputed.
 */
export function applyMatches(
  data: ComplianceData,
  matches: readonly ConfirmedMatch[],
  options: CompareOptions = {},
): ComplianceData {
  const unique = dedupeMatches(matches).matches;
  let applied = 0;
  let clientOnly = [...data.clientOnlyPolicies];
  const deviations: DeviationGroup[] = [];
  for (const g of data.deviations) {
    const m =
      g.changeType === 'missing'
        ? unique.find(
            (x) =>
              (x.baselinePath ? x.baselinePath === g.path : true) &&
              ((x.baselineId && x.baselineId === policyId(g.baselinePolicy)) ||
                x.baselineName === g.policyName),
          )
        : undefined;
    if (!m) {
      deviations.push(g);
      continue;
    }
    const isClient = (p: unknown): boolean =>
      (m.clientId !== undefined && policyId(p) === m.clientId) ||
      policyDisplayName(p, '') === m.clientName;
    const co = clientOnly.find((c) => isClient(c.clientPolicy));
    const other =
      co ?? data.deviations.find((d) => d.clientPolicy != null && isClient(d.clientPolicy));
    if (!other) {
      deviations.push(g);
      continue;
    }
    applied++;
    if (co) clientOnly = clientOnly.filter((c) => c !== co);
    const clientPath: string = co ? co.path : ((other as DeviationGroup).clientPath ?? other.path);
    const compared = comparePolicy(
      { path: g.path, content: g.baselinePolicy },
      { path: clientPath, content: other.clientPolicy },
      options,
    );
    if (compared) deviations.push({ ...compared, clientPath, matchStatus: 'matched' });
  }
  return recomputeCompliance({
    ...data,
    deviations,
    clientOnlyPolicies: clientOnly,
    matchingApplied: applied > 0,
    matchesAppliedCount: applied,
  });
}

/** Version of the matching document (spec 3 §9). */
export const MATCHING_CONFIG_VERSION = '1.0';

/** The empty default (a missing file reads as this). */
export function emptyMatchingConfig(clientCode: string, now = new Date()): MatchingConfig {
  return {
    version: MATCHING_CONFIG_VERSION,
    clientCode,
    timestamp: now.toISOString(),
    matches: [],
  };
}

/**
 * Add confirmed matches; one that already exists ({@link isSameMatch}) keeps the earlier entry. The result is
 * de-duplicated as before every save (spec 3 §5).
 */
export function addMatches(
  config: MatchingConfig,
  matches: readonly ConfirmedMatch[],
  now = new Date(),
): MatchingConfig {
  const merged = [...config.matches];
  for (const m of matches) if (!merged.some((x) => isSameMatch(x, m))) merged.push(m);
  return {
    ...config,
    version: MATCHING_CONFIG_VERSION,
    timestamp: now.toISOString(),
    matches: dedupeMatches(merged).matches,
  };
}

/** Delete the match of a baseline policy: removes the entry for that baseline name (spec 3 §4). */
export function removeMatch(
  config: MatchingConfig,
  baselineName: string,
  now = new Date(),
): MatchingConfig {
  return {
    ...config,
    timestamp: now.toISOString(),
    matches: config.matches.filter((m) => m.baselineName !== baselineName),
  };
}

/** Alerts and prompts of matching (spec 3 §5, §8). */
export const MATCHING_MESSAGES = {
  clearFailed: 'Failed to clear matches. Please try again.',
  removeFailed: 'Failed to remove match. Please try again.',
  removed: '✅ Match removed successfully. The policy will now appear in unmatched list.',
  autoMatched: (n: number) => `Successfully auto-matched ${n} high-confidence policies!`,
  clearPrompt: (n: number) => `Are you sure you want to clear all ${n} confirmed matches?`,
  removePrompt: (baselineName: string, clientName: string) =>
    `Remove this match?\n\nBaseline: ${baselineName}\nClient: ${clientName}`,
} as const;

const agoDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/** When a match was confirmed (spec 3 §2): just now, Nm ago, Nh ago, Nd ago (under 7 days), otherwise a date. */
export function confirmedAgo(iso: string, now = new Date()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return 'Unknown';
  const minutes = Math.floor((now.getTime() - then) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d ago`;
  return agoDate.format(new Date(then));
}
