import { distance } from 'fastest-levenshtein';

import { DEFAULT_EXCLUDED_PROPERTIES } from '../comparison/constants';
import { deepEqual } from '../comparison/diff-documents';
import { textOf } from '../formatting/formatting';

import { detectPolicyKind, getCI, policyDisplayName, type PolicyKind } from './policy-kind';

/** Display-name similarity (spec 3 §9): letters and digits only, lower case, edit-distance ratio × 100, rounded. */
export function displayNameSimilarity(a: string, b: string): number {
  const x = a.toLowerCase().replace(/[^a-z0-9]/g, '');
  const y = b.toLowerCase().replace(/[^a-z0-9]/g, '');
  const max = Math.max(x.length, y.length);
  if (max === 0) return 100;
  return Math.round((1 - distance(x, y) / max) * 100);
}

/** Display-name band (spec 3 §9). */
export function displayNameBand(score: number): string | undefined {
  if (score === 100) return 'Exact name match';
  if (score >= 80) return 'Very similar names';
  if (score >= 60) return 'Somewhat similar names';
  return undefined;
}

export const SUGGESTION_THRESHOLD = 60;
export const AUTO_MATCH_THRESHOLD = 90;

/** Match quality class (spec 3 §9). */
export function matchQuality(score: number): 'excellent' | 'good' | 'fair' | 'poor' {
  if (score >= 90) return 'excellent';
  if (score >= 75) return 'good';
  if (score >= 60) return 'fair';
  return 'poor';
}

/** Score bar colour (spec 3 §9). */
export function scoreBarColour(score: number): 'green' | 'amber' | 'red' {
  if (score >= 90) return 'green';
  if (score >= 75) return 'amber';
  return 'red';
}

/** Explanation band (spec 3 §9): ≥90 match well, 70–89 partial, below 70 differ significantly. */
export function explanationBand(score: number): 'match well' | 'partial' | 'differ significantly' {
  if (score >= 90) return 'match well';
  if (score >= 70) return 'partial';
  return 'differ significantly';
}

export interface SimilarityScores {
  conditions: number;
  grantControls: number;
  sessionControls: number;
}

export interface Similarity {
  score: number;
  scores: SimilarityScores;
  stateMismatch: boolean;
  explanation: string;
}

const arr = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => String(x).toLowerCase()) : [];
/** Set-like lists score by overlap over union; two empty lists are equal (100). */
export function setOverlap(a: unknown, b: unknown): number {
  const x = new Set(arr(a));
  const y = new Set(arr(b));
  if (x.size === 0 && y.size === 0) return 100;
  let both = 0;
  for (const v of x) if (y.has(v)) both++;
  return (both / (x.size + y.size - both)) * 100;
}
const at = (o: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((c, k) => getCI(c, k), o);
const avg = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

function caConditions(a: unknown, b: unknown): number {
  const groups = (p: unknown): boolean => arr(at(p, 'conditions.users.includeGroups')).length > 0;
  const ga = groups(a);
  const gb = groups(b);
  const groupScore = ga && gb ? 50 : ga === gb ? 100 : 0;
  const users = avg([
    setOverlap(at(a, 'conditions.users.includeUsers'), at(b, 'conditions.users.includeUsers')),
    setOverlap(at(a, 'conditions.users.includeRoles'), at(b, 'conditions.users.includeRoles')),
    groupScore,
  ]);
  const applications = avg([
    setOverlap(
      at(a, 'conditions.applications.includeApplications'),
      at(b, 'conditions.applications.includeApplications'),
    ),
    setOverlap(
      at(a, 'conditions.applications.includeUserActions'),
      at(b, 'conditions.applications.includeUserActions'),
    ),
  ]);
  return avg([
    users,
    applications,
    setOverlap(at(a, 'conditions.clientAppTypes'), at(b, 'conditions.clientAppTypes')),
    setOverlap(
      at(a, 'conditions.platforms.includePlatforms'),
      at(b, 'conditions.platforms.includePlatforms'),
    ),
    avg([
      setOverlap(at(a, 'conditions.signInRiskLevels'), at(b, 'conditions.signInRiskLevels')),
      setOverlap(at(a, 'conditions.userRiskLevels'), at(b, 'conditions.userRiskLevels')),
    ]),
    setOverlap(
      at(a, 'conditions.locations.includeLocations'),
      at(b, 'conditions.locations.includeLocations'),
    ),
  ]);
}

function grantScore(a: unknown, b: unknown): number {
  const ga = getCI(a, 'grantControls');
  const gb = getCI(b, 'grantControls');
  if (ga == null && gb == null) return 100;
  return avg([
    setOverlap(getCI(ga, 'builtInControls'), getCI(gb, 'builtInControls')),
    textOf(getCI(ga, 'operator') ?? '') === textOf(getCI(gb, 'operator') ?? '') ? 100 : 0,
  ]);
}

/**
 * Fields similarity never compares: names and identifiers, OData annotations, and the system fields of the exports
 * (the default excluded properties of spec 3 §3: timestamps, versions, the Exchange organisation envelope …), which
 * differ between tenants whatever the settings.
 */
const SYSTEM_FIELDS = new Set(
  [...DEFAULT_EXCLUDED_PROPERTIES, 'name', 'displayName', 'AdminDisplayName', 'Id'].map((k) =>
    k.toLowerCase(),
  ),
);
const isSetting = (k: string): boolean =>
  !SYSTEM_FIELDS.has(k.toLowerCase()) && !k.includes('@odata.');
const keysOf = (o: unknown): string[] =>
  typeof o === 'object' && o !== null && !Array.isArray(o) ? Object.keys(o) : [];
const settingKeys = (a: unknown, b: unknown): string[] =>
  [...new Set([...keysOf(a), ...keysOf(b)])].filter(isSetting);

/**
 * Share of compared fields that are equal, in percent, or `undefined` when no field is present on either side
 * (nothing to compare: the category must not count, see {@link weightedScore}). Without `keys`, the settings of
 * both objects (union of keys, system fields set aside); with `keys`, those of them present on either side.
 */
export function comparedFieldShare(
  a: unknown,
  b: unknown,
  keys?: readonly string[],
): number | undefined {
  const ks = keys
    ? keys.filter((k) => getCI(a, k) !== undefined || getCI(b, k) !== undefined)
    : settingKeys(a, b);
  if (ks.length === 0) return undefined;
  return (ks.filter((k) => deepEqual(getCI(a, k), getCI(b, k))).length / ks.length) * 100;
}

/**
 * Share of compared fields that are equal (union of keys of both objects). Vacuously 100 when there is nothing to
 * compare; the similarity scores use {@link comparedFieldShare}, which leaves such a category out instead.
 */
export function fieldShare(a: unknown, b: unknown, keys?: readonly string[]): number {
  const ks =
    keys ??
    [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].filter(
      (k) => !/^(id|identity|guid|name|displayname|@odata\..*|.*@odata\..*)$/i.test(k),
    );
  if (ks.length === 0) return 100;
  return (ks.filter((k) => deepEqual(getCI(a, k), getCI(b, k))).length / ks.length) * 100;
}

/**
 * Weighted average of the categories of spec 3 §9 that could be compared: a category with no field present on
 * either side (score `undefined`) is left out and the remaining weights are renormalised, so an empty category
 * never counts as a perfect match. `undefined` when no category could be compared.
 */
export function weightedScore(
  parts: readonly (readonly [weight: number, score: number | undefined])[],
): number | undefined {
  let weights = 0;
  let sum = 0;
  for (const [w, v] of parts) {
    if (v === undefined) continue;
    weights += w;
    sum += w * v;
  }
  return weights > 0 ? sum / weights : undefined;
}

const keysMatching = (a: unknown, b: unknown, re: RegExp): string[] =>
  settingKeys(a, b).filter((k) => re.test(k));

/** The score of one kind, or `undefined` when none of its categories could be compared. */
function kindScore(
  kind: PolicyKind,
  a: unknown,
  b: unknown,
): { score: number | undefined; scores?: SimilarityScores } {
  const present = (k: string): boolean => getCI(a, k) !== undefined || getCI(b, k) !== undefined;
  switch (kind) {
    case 'singleton':
      return { score: 100 };
    case 'intuneCompliance':
      return {
        score: weightedScore([
          [0.4, comparedFieldShare(a, b, keysMatching(a, b, /password/i))],
          [
            0.4,
            comparedFieldShare(
              a,
              b,
              keysMatching(
                a,
                b,
                /encrypt|bitlocker|secureboot|codeintegrity|defender|antivirus|antispyware|firewall|tpm|threat|rooted|jailbroken|security/i,
              ),
            ),
          ],
          [0.2, comparedFieldShare(a, b, keysMatching(a, b, /^os|osversion|osminimum|osmaximum/i))],
        ]),
      };
    case 'intuneConfiguration':
      return { score: deepEqual(getCI(a, 'settings') ?? a, getCI(b, 'settings') ?? b) ? 100 : 0 };
    case 'exchangeOrganizationConfig':
      return {
        score: weightedScore([
          [
            0.5,
            comparedFieldShare(a, b, keysMatching(a, b, /audit|oauth|lockbox|smtp|modernauth/i)),
          ],
          [
            0.3,
            comparedFieldShare(
              a,
              b,
              keysMatching(a, b, /auth|security|encrypt|forward|external|block/i),
            ),
          ],
          [0.2, comparedFieldShare(a, b, keysMatching(a, b, /enabled$/i))],
        ]),
      };
    case 'azureADAuthorizationPolicy':
      return {
        score: weightedScore([
          [
            0.3,
            comparedFieldShare(a, b, [
              'allowInvitesFrom',
              'guestUserRoleId',
              'allowEmailVerifiedUsersToJoinOrganization',
            ]),
          ],
          [
            0.3,
            comparedFieldShare(a, b, [
              'allowedToSignUpEmailBasedSubscriptions',
              'allowedToUseSSPR',
              'blockMsolPowerShell',
              'allowUserConsentForRiskyApps',
            ]),
          ],
          [
            0.4,
            comparedFieldShare(
              getCI(a, 'defaultUserRolePermissions'),
              getCI(b, 'defaultUserRolePermissions'),
            ),
          ],
        ]),
      };
    case 'groupSettings':
      if (deepEqual(getCI(a, 'values'), getCI(b, 'values'))) return { score: 100 };
      return { score: String(getCI(a, 'templateId')) === String(getCI(b, 'templateId')) ? 50 : 0 };
    case 'conditionalAccess': {
      const name = displayNameSimilarity(
        textOf(getCI(a, 'displayName') ?? ''),
        textOf(getCI(b, 'displayName') ?? ''),
      );
      const conditions = caConditions(a, b);
      const grantControls = grantScore(a, b);
      const sessionControls = deepEqual(
        getCI(a, 'sessionControls') ?? null,
        getCI(b, 'sessionControls') ?? null,
      )
        ? 100
        : fieldShare(getCI(a, 'sessionControls'), getCI(b, 'sessionControls'));
      const state = String(getCI(a, 'state')) === String(getCI(b, 'state')) ? 100 : 0;
      const identical =
        name === 100 && conditions === 100 && grantControls === 100 && sessionControls === 100;
      // a category counts when its field is present on either side (Graph exports grantControls and
      // sessionControls even when null, and null on both sides is a real agreement)
      const score = identical
        ? 100
        : weightedScore([
            [0.2, present('displayName') ? name : undefined],
            [0.4, present('conditions') ? conditions : undefined],
            [0.25, present('grantControls') ? grantControls : undefined],
            [0.1, present('sessionControls') ? sessionControls : undefined],
            [0.05, present('state') ? state : undefined],
          ]);
      return {
        score,
        scores: {
          conditions: Math.round(conditions),
          grantControls: Math.round(grantControls),
          sessionControls: Math.round(sessionControls),
        },
      };
    }
    case 'exchangeSafeLinks':
    case 'teamsSettings':
    case 'sharepointSettings':
      return { score: comparedFieldShare(a, b) };
    default:
      // the other Exchange / Defender export kinds, which the spec does not weight, score like the Safe Links policy
      // (the share of compared settings that are equal); any other kind is generic: deep equality, 100 or 0
      if (kind.startsWith('exchange')) return { score: comparedFieldShare(a, b) };
      return { score: deepEqual(a, b) ? 100 : 0 };
  }
}

/**
 * When no category of a kind could be compared, the display names are the only evidence left (spec 3 §9 defines
 * their similarity for every policy); without names on either side there is no evidence at all, so 0.
 */
function nameOnlyScore(a: string, b: string): number {
  return a || b ? displayNameSimilarity(a, b) : 0;
}

/** Where the two policies are stored (resource paths), for kinds a folder names (see `policyKindFromPath`). */
export interface SimilarityPaths {
  baselinePath?: string;
  clientPath?: string;
}

/** A policy prepared for many similarity scorings: its kind and display name, computed once. */
export interface ScoredPolicy {
  policy: unknown;
  kind: PolicyKind;
  name: string;
}

/** Prepares a policy for {@link similarityOf}; `path` is where it is stored (see `policyKindFromPath`). */
export function scoredPolicy(policy: unknown, path?: string): ScoredPolicy {
  return {
    policy,
    kind: detectPolicyKind(policy, undefined, path),
    name: policyDisplayName(policy, ''),
  };
}

const DIFFERENT_KINDS_SCORES: SimilarityScores = {
  conditions: 0,
  grantControls: 0,
  sessionControls: 0,
};

/** {@link policySimilarity} of two prepared policies. */
export function similarityOf(baseline: ScoredPolicy, client: ScoredPolicy): Similarity {
  const stateMismatch =
    getCI(baseline.policy, 'state') !== undefined &&
    String(getCI(baseline.policy, 'state')) !== String(getCI(client.policy, 'state'));
  if (baseline.kind !== client.kind)
    return {
      score: 0,
      scores: DIFFERENT_KINDS_SCORES,
      stateMismatch,
      explanation: 'Different policy types',
    };
  const { score: raw, scores } = kindScore(baseline.kind, baseline.policy, client.policy);
  const score = Math.round(raw ?? nameOnlyScore(baseline.name, client.name));
  const band = explanationBand(score);
  const nameBand =
    baseline.name || client.name
      ? displayNameBand(displayNameSimilarity(baseline.name, client.name))
      : undefined;
  const text =
    band === 'match well'
      ? 'Policies match well'
      : band === 'partial'
        ? 'Policies partially match'
        : 'Policies differ significantly';
  return {
    score,
    scores: scores ?? { conditions: score, grantControls: score, sessionControls: score },
    stateMismatch,
    explanation:
      [nameBand, text].filter(Boolean).join('; ') + (stateMismatch ? ' (state differs)' : ''),
  };
}

/**
 * Similarity of a baseline policy and a client policy (spec 3 §9): weights per policy kind; different kinds score 0
 * with 'Different policy types'; a differing state sets `stateMismatch`. Categories with nothing to compare are
 * left out (weights renormalised); with nothing comparable at all the score is the display-name similarity.
 */
export function policySimilarity(
  baseline: unknown,
  client: unknown,
  paths: SimilarityPaths = {},
): Similarity {
  return similarityOf(
    scoredPolicy(baseline, paths.baselinePath),
    scoredPolicy(client, paths.clientPath),
  );
}
