/** Policy kinds detected from a policy's shape (spec 3 §3). */
export type PolicyKind =
  | 'conditionalAccess'
  | 'intuneCompliance'
  | 'intuneConfiguration'
  | 'authenticationMethods'
  | 'groupSettings'
  | 'exchangeSafeLinks'
  | 'teamsSettings'
  | 'sharepointSettings'
  | 'exchangeOrganizationConfig'
  | 'azureADAuthorizationPolicy'
  | 'singleton'
  | 'generic';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Read a top-level property case-insensitively. */
export function getCI(obj: unknown, key: string): unknown {
  if (!isObject(obj)) return undefined;
  if (key in obj) return obj[key];
  const k = key.toLowerCase();
  for (const name of Object.keys(obj)) if (name.toLowerCase() === k) return obj[name];
  return undefined;
}

/** Reads top-level properties of one object case-insensitively, exactly as {@link getCI}. */
export type CIReader = (key: string) => unknown;

/**
 * A {@link getCI} bound to one object, for many reads of the same object: the lower-case index of its keys is built
 * once, on the first read that is not an exact hit, instead of lower-casing every key on every miss. Build it for
 * one computation only (it does not see keys added later).
 */
export function ciReader(obj: unknown): CIReader {
  if (!isObject(obj)) return () => undefined;
  let index: Map<string, string> | undefined;
  return (key) => {
    if (key in obj) return obj[key];
    if (!index) {
      index = new Map();
      for (const name of Object.keys(obj)) {
        const l = name.toLowerCase();
        if (!index.has(l)) index.set(l, name);
      }
    }
    const name = index.get(key.toLowerCase());
    return name === undefined ? undefined : obj[name];
  };
}

const has = (get: CIReader, key: string): boolean => get(key) !== undefined;
const str = (v: unknown): string => (typeof v === 'string' ? v.toLowerCase() : '');

const SINGLETON_TYPES = [
  'authenticationmethodspolicy',
  'authenticationstrengthpolicy',
  'crosstenantaccesspolicy',
  'identitysecuritydefaultsenforcementpolicy',
];

/** Global or tenant-wide settings (spec 3 §3); never fuzzy-matched. */
export function isSingletonPolicy(policy: unknown): boolean {
  if (!isObject(policy)) return false;
  return singleton(ciReader(policy));
}

function singleton(get: CIReader): boolean {
  if (get('isSingleton') === true) return true;
  if (str(get('Identity')) === 'global' || str(get('ConfigId')) === 'global') return true;
  const t = str(get('@odata.type')) + ' ' + str(get('id'));
  if (SINGLETON_TYPES.some((s) => t.includes(s))) return true;
  if (str(get('@odata.context')).includes('admin/sharepoint/settings')) return true;
  return false;
}

/**
 * Detect a policy's kind from its shape (spec 3 §3). `get` may pass a {@link ciReader} of the same policy that
 * the caller reuses for other reads.
 */
export function detectPolicyKind(policy: unknown, get?: CIReader): PolicyKind {
  if (!isObject(policy)) return 'generic';
  return policyKindOf(get ?? ciReader(policy));
}

/** {@link detectPolicyKind} over a reader of the policy's properties (a reader of an object). */
export function policyKindOf(get: CIReader): PolicyKind {
  if (singleton(get)) return 'singleton';
  if (
    has(get, 'conditions') &&
    (has(get, 'grantControls') || has(get, 'sessionControls')) &&
    (has(get, 'displayName') || has(get, 'state'))
  )
    return 'conditionalAccess';
  const type = str(get('@odata.type'));
  if (type.includes('compliancepolicy')) return 'intuneCompliance';
  if (type.includes('configuration') || (has(get, 'settings') && has(get, 'templateReference')))
    return 'intuneConfiguration';
  if (has(get, 'authenticationMethodConfigurations')) return 'authenticationMethods';
  if (has(get, 'templateId') && Array.isArray(get('values'))) return 'groupSettings';
  if (has(get, 'EnableSafeLinksForEmail') || has(get, 'EnableSafeLinksForTeams'))
    return 'exchangeSafeLinks';
  if (has(get, 'AllowEmailIntoChannel') || has(get, 'AllowFederatedUsers')) return 'teamsSettings';
  if (has(get, 'sharingCapability') || has(get, 'isLoopEnabled')) return 'sharepointSettings';
  if (
    has(get, 'OrganizationId') ||
    has(get, 'ExchangeObjectId') ||
    has(get, 'ServicePlan') ||
    (has(get, 'OrganizationalUnitRoot') && has(get, 'LegacyExchangeDN'))
  )
    return 'exchangeOrganizationConfig';
  if (
    has(get, 'allowInvitesFrom') ||
    has(get, 'guestUserRoleId') ||
    has(get, 'defaultUserRolePermissions')
  )
    return 'azureADAuthorizationPolicy';
  return 'generic';
}

/** Display name of a policy: displayName, DisplayName, name or Name, else the fallback. */
export function policyDisplayName(
  policy: unknown,
  fallback: string,
  get = ciReader(policy),
): string {
  for (const k of ['displayName', 'name']) {
    const v = get(k);
    if (typeof v === 'string' && v.trim()) return v;
  }
  return fallback;
}

/** Policy id: id, Id, Identity or Guid. */
export function policyId(policy: unknown): string | undefined {
  for (const k of ['id', 'Identity', 'Guid']) {
    const v = getCI(policy, k);
    if (typeof v === 'string' && v) return v;
  }
  return undefined;
}
