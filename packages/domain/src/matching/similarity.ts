import { distance } from 'fastest-levenshtein';

import { deepEqual } from '../comparison/diff-documents';

import { detectPolicyKind, getCI, type PolicyKind } from './policy-kind';

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
    String(getCI(ga, 'operator') ?? '') === String(getCI(gb, 'operator') ?? '') ? 100 : 0,
  ]);
}

/** Share of compared fields that are equal (union of keys of both objects). */
export function fieldShare(a: unknown, b: unknown, keys?: readonly string[]): number {
  const ks =
    keys ??
    [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].filter(
      (k) => !/^(id|identity|guid|name|displayname|@odata\..*|.*@odata\..*)$/i.test(k),
    );
  if (ks.length === 0) return 100;
  return (ks.filter((k) => deepEqual(getCI(a, k), getCI(b, k))).length / ks.length) * 100;
}

const keysMatching = (a: unknown, b: unknown, re: RegExp): string[] =>
  [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].filter((k) => re.test(k));

function kindScore(
  kind: PolicyKind,
  a: unknown,
  b: unknown,
): { score: number; scores?: SimilarityScores } {
  switch (kind) {
    case 'singleton':
      return { score: 100 };
    case 'intuneCompliance':
      return {
        score:
          0.4 * fieldShare(a, b, keysMatching(a, b, /password/i)) +
          0.4 *
            fieldShare(
              a,
              b,
              keysMatching(
                a,
                b,
                /encrypt|bitlocker|secureboot|codeintegrity|defender|antivirus|antispyware|firewall|tpm|threat|rooted|jailbroken|security/i,
              ),
            ) +
          0.2 * fieldShare(a, b, keysMatching(a, b, /^os|osversion|osminimum|osmaximum/i)),
      };
    case 'intuneConfiguration':
      return { score: deepEqual(getCI(a, 'settings') ?? a, getCI(b, 'settings') ?? b) ? 100 : 0 };
    case 'exchangeOrganizationConfig':
      return {
        score:
          0.5 * fieldShare(a, b, keysMatching(a, b, /audit|oauth|lockbox|smtp|modernauth/i)) +
          0.3 *
            fieldShare(a, b, keysMatching(a, b, /auth|security|encrypt|forward|external|block/i)) +
          0.2 * fieldShare(a, b, keysMatching(a, b, /enabled$/i)),
      };
    case 'azureADAuthorizationPolicy':
      return {
        score:
          0.3 *
            fieldShare(a, b, [
              'allowInvitesFrom',
              'guestUserRoleId',
              'allowEmailVerifiedUsersToJoinOrganization',
            ]) +
          0.3 *
            fieldShare(a, b, [
              'allowedToSignUpEmailBasedSubscriptions',
              'allowedToUseSSPR',
              'blockMsolPowerShell',
              'allowUserConsentForRiskyApps',
            ]) +
          0.4 *
            fieldShare(
              getCI(a, 'defaultUserRolePermissions'),
              getCI(b, 'defaultUserRolePermissions'),
            ),
      };
    case 'groupSettings':
      if (deepEqual(getCI(a, 'values'), getCI(b, 'values'))) return { score: 100 };
      return { score: String(getCI(a, 'templateId')) === String(getCI(b, 'templateId')) ? 50 : 0 };
    case 'exchangeSafeLinks':
    case 'teamsSettings':
    case 'sharepointSettings':
      return { score: fieldShare(a, b) };
    case 'conditionalAccess': {
      const name = displayNameSimilarity(
        String(getCI(a, 'displayName') ?? ''),
        String(getCI(b, 'displayName') ?? ''),
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
      const score = identical
        ? 100
        : 0.2 * name +
          0.4 * conditions +
          0.25 * grantControls +
          0.1 * sessionControls +
          0.05 * state;
      return {
        score,
        scores: {
          conditions: Math.round(conditions),
          grantControls: Math.round(grantControls),
          sessionControls: Math.round(sessionControls),
        },
      };
    }
    default:
      return { score: deepEqual(a, b) ? 100 : 0 };
  }
}

/**
 * Similarity of a baseline policy and a client policy (spec 3 §9): weights per policy kind; different kinds score 0
 * with 'Different policy types'; a differing state sets `stateMismatch`.
 */
export function policySimilarity(baseline: unknown, client: unknown): Similarity {
  const ka = detectPolicyKind(baseline);
  const kb = detectPolicyKind(client);
  const stateMismatch =
    getCI(baseline, 'state') !== undefined &&
    String(getCI(baseline, 'state')) !== String(getCI(client, 'state'));
  if (ka !== kb)
    return {
      score: 0,
      scores: { conditions: 0, grantControls: 0, sessionControls: 0 },
      stateMismatch,
      explanation: 'Different policy types',
    };
  const { score: raw, scores } = kindScore(ka, baseline, client);
  const score = Math.round(raw);
  const band = explanationBand(score);
  const nameBand = displayNameBand(
    displayNameSimilarity(
      String(getCI(baseline, 'displayName') ?? ''),
      String(getCI(client, 'displayName') ?? ''),
    ),
  );
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
