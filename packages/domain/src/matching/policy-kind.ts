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

const has = (obj: Json, key: string): boolean => getCI(obj, key) !== undefined;
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
  if (getCI(policy, 'isSingleton') === true) return true;
  if (str(getCI(policy, 'Identity')) === 'global' || str(getCI(policy, 'ConfigId')) === 'global')
    return true;
  const t = str(getCI(policy, '@odata.type')) + ' ' + str(getCI(policy, 'id'));
  if (SINGLETON_TYPES.some((s) => t.includes(s))) return true;
  if (str(getCI(policy, '@odata.context')).includes('admin/sharepoint/settings')) return true;
  return false;
}

/** Detect a policy's kind from its shape (spec 3 §3). */
export function detectPolicyKind(policy: unknown): PolicyKind {
  if (!isObject(policy)) return 'generic';
  if (isSingletonPolicy(policy)) return 'singleton';
  if (
    has(policy, 'conditions') &&
    (has(policy, 'grantControls') || has(policy, 'sessionControls')) &&
    (has(policy, 'displayName') || has(policy, 'state'))
  )
    return 'conditionalAccess';
  const type = str(getCI(policy, '@odata.type'));
  if (type.includes('compliancepolicy')) return 'intuneCompliance';
  if (
    type.includes('configuration') ||
    (has(policy, 'settings') && has(policy, 'templateReference'))
  )
    return 'intuneConfiguration';
  if (has(policy, 'authenticationMethodConfigurations')) return 'authenticationMethods';
  if (has(policy, 'templateId') && Array.isArray(getCI(policy, 'values'))) return 'groupSettings';
  if (has(policy, 'EnableSafeLinksForEmail') || has(policy, 'EnableSafeLinksForTeams'))
    return 'exchangeSafeLinks';
  if (has(policy, 'AllowEmailIntoChannel') || has(policy, 'AllowFederatedUsers'))
    return 'teamsSettings';
  if (has(policy, 'sharingCapability') || has(policy, 'isLoopEnabled')) return 'sharepointSettings';
  if (
    has(policy, 'OrganizationId') ||
    has(policy, 'ExchangeObjectId') ||
    has(policy, 'ServicePlan') ||
    (has(policy, 'OrganizationalUnitRoot') && has(policy, 'LegacyExchangeDN'))
  )
    return 'exchangeOrganizationConfig';
  if (
    has(policy, 'allowInvitesFrom') ||
    has(policy, 'guestUserRoleId') ||
    has(policy, 'defaultUserRolePermissions')
  )
    return 'azureADAuthorizationPolicy';
  return 'generic';
}

/** Display name of a policy: displayName, DisplayName, name or Name, else the fallback. */
export function policyDisplayName(policy: unknown, fallback: string): string {
  for (const k of ['displayName', 'name']) {
    const v = getCI(policy, k);
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
