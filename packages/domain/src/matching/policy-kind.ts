/**
 * Policy kinds detected from a policy's shape (spec 3 §3). The spec names one Exchange policy kind besides the
 * organisation config (`exchangeSafeLinks`, the Safe Links policy); the other Exchange Online / Defender for
 * Office 365 exports are told apart too (one kind per `Get-*` export, a policy and its rule being different kinds),
 * so that, say, a Safe Attachments policy is never matched with a Safe Attachments rule ('Different policy types').
 */
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
  | 'generic'
  | ExchangeExportKind;

/** Exchange Online and Defender for Office 365 export kinds other than the two the spec names. */
export type ExchangeExportKind =
  | 'exchangeSafeLinksRule'
  | 'exchangeSafeAttachments'
  | 'exchangeSafeAttachmentsRule'
  | 'exchangeAntiPhish'
  | 'exchangeAntiPhishRule'
  | 'exchangeHostedContentFilter'
  | 'exchangeHostedContentFilterRule'
  | 'exchangeHostedOutboundSpamFilter'
  | 'exchangeHostedOutboundSpamFilterRule'
  | 'exchangeMalwareFilter'
  | 'exchangeMalwareFilterRule'
  /** ATP / EOP protection policy rules of the preset security policies (they name several policies). */
  | 'exchangeProtectionPolicyRule'
  | 'exchangeAtpPolicy'
  | 'exchangeRemoteDomain'
  | 'exchangeTransportRule'
  | 'exchangeTransportConfig'
  | 'exchangeOwaMailboxPolicy'
  | 'exchangeInboundConnector'
  | 'exchangeOutboundConnector'
  | 'exchangeAdminAuditLogConfig'
  | 'exchangeSharingPolicy'
  | 'exchangeExternalInOutlook'
  | 'exchangeDkimSigningConfig'
  /** An Exchange export (organisation envelope) of a kind not recognised above. */
  | 'exchangeObject';

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
 * Exchange / Defender export kinds by the export's cmdlet noun, as the exporters name the folders
 * (`Defender/SafeAttachmentPolicy/…`, Microsoft365DSC's `EXOSafeAttachmentPolicy`, …). Keys are lower case.
 */
export const EXCHANGE_EXPORT_KINDS: Readonly<
  Record<string, ExchangeExportKind | 'exchangeSafeLinks' | 'exchangeOrganizationConfig'>
> = {
  organizationconfig: 'exchangeOrganizationConfig',
  safelinkspolicy: 'exchangeSafeLinks',
  safelinksrule: 'exchangeSafeLinksRule',
  safeattachmentpolicy: 'exchangeSafeAttachments',
  safeattachmentrule: 'exchangeSafeAttachmentsRule',
  antiphishpolicy: 'exchangeAntiPhish',
  antiphishrule: 'exchangeAntiPhishRule',
  hostedcontentfilterpolicy: 'exchangeHostedContentFilter',
  hostedcontentfilterrule: 'exchangeHostedContentFilterRule',
  hostedoutboundspamfilterpolicy: 'exchangeHostedOutboundSpamFilter',
  hostedoutboundspamfilterrule: 'exchangeHostedOutboundSpamFilterRule',
  malwarefilterpolicy: 'exchangeMalwareFilter',
  malwarefilterrule: 'exchangeMalwareFilterRule',
  atpprotectionpolicyrule: 'exchangeProtectionPolicyRule',
  eopprotectionpolicyrule: 'exchangeProtectionPolicyRule',
  atppolicyforo365: 'exchangeAtpPolicy',
  remotedomain: 'exchangeRemoteDomain',
  transportrule: 'exchangeTransportRule',
  transportconfig: 'exchangeTransportConfig',
  owamailboxpolicy: 'exchangeOwaMailboxPolicy',
  inboundconnector: 'exchangeInboundConnector',
  outboundconnector: 'exchangeOutboundConnector',
  adminauditlogconfig: 'exchangeAdminAuditLogConfig',
  sharingpolicy: 'exchangeSharingPolicy',
  externalinoutlook: 'exchangeExternalInOutlook',
  dkimsigningconfig: 'exchangeDkimSigningConfig',
};

/**
 * The Exchange / Defender export kind a policy's path names (its nearest folder that is a known export kind, e.g.
 * `Defender/SafeAttachmentRule/x.json`), or `undefined`. Folder names match case-insensitively, with or without a
 * plural ending or an `EXO` prefix.
 */
export function policyKindFromPath(path: string): PolicyKind | undefined {
  const folders = path.split(/[\\/]/).slice(0, -1).reverse();
  for (const folder of folders) {
    const noun = folder.toLowerCase().replace(/[^a-z0-9]/g, '');
    for (const n of [noun, noun.replace(/^exo/, '')]) {
      const kind =
        EXCHANGE_EXPORT_KINDS[n] ??
        EXCHANGE_EXPORT_KINDS[n.replace(/ies$/, 'y')] ??
        EXCHANGE_EXPORT_KINDS[n.replace(/s$/, '')];
      if (kind) return kind;
    }
  }
  return undefined;
}

/**
 * Detect a policy's kind from its shape (spec 3 §3). `get` may pass a {@link ciReader} of the same policy that
 * the caller reuses for other reads. With the policy's `path`, a folder naming an Exchange / Defender export kind
 * decides the kind of an Exchange export (see {@link policyKindFromPath}); singletons stay singletons.
 */
export function detectPolicyKind(policy: unknown, get?: CIReader, path?: string): PolicyKind {
  if (!isObject(policy)) return 'generic';
  return policyKindOf(get ?? ciReader(policy), path);
}

/** {@link detectPolicyKind} over a reader of the policy's properties (a reader of an object). */
export function policyKindOf(get: CIReader, path?: string): PolicyKind {
  if (singleton(get)) return 'singleton';
  const fromPath = path === undefined ? undefined : policyKindFromPath(path);
  if (fromPath) return fromPath;
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
  const exchange = exchangeKindOf(get);
  if (exchange) return exchange;
  if (
    has(get, 'allowInvitesFrom') ||
    has(get, 'guestUserRoleId') ||
    has(get, 'defaultUserRolePermissions')
  )
    return 'azureADAuthorizationPolicy';
  return 'generic';
}

const anyOf = (get: CIReader, keys: readonly string[]): boolean => keys.some((k) => has(get, k));

/** A rule names the policy it applies (`SafeAttachmentPolicy: 'x'`), plus a priority or recipient condition. */
const RULE_PARENTS: readonly (readonly [string, ExchangeExportKind])[] = [
  ['SafeLinksPolicy', 'exchangeSafeLinksRule'],
  ['SafeAttachmentPolicy', 'exchangeSafeAttachmentsRule'],
  ['AntiPhishPolicy', 'exchangeAntiPhishRule'],
  ['HostedContentFilterPolicy', 'exchangeHostedContentFilterRule'],
  ['HostedOutboundSpamFilterPolicy', 'exchangeHostedOutboundSpamFilterRule'],
  ['MalwareFilterPolicy', 'exchangeMalwareFilterRule'],
];
const RULE_CONDITIONS = [
  'Priority',
  'RecipientDomainIs',
  'SentTo',
  'SentToMemberOf',
  'From',
  'FromMemberOf',
  'SenderDomainIs',
];

/** Settings only one export kind has (any one of them identifies the kind). */
const EXCHANGE_SIGNATURES: readonly (readonly [ExchangeExportKind, readonly string[]])[] = [
  ['exchangeSafeAttachments', ['ActionOnError', 'RedirectAddress']],
  [
    'exchangeAntiPhish',
    [
      'PhishThresholdLevel',
      'EnableMailboxIntelligence',
      'EnableSpoofIntelligence',
      'EnableTargetedUserProtection',
      'ImpersonationProtectionState',
    ],
  ],
  [
    'exchangeHostedContentFilter',
    ['BulkThreshold', 'HighConfidenceSpamAction', 'PhishSpamAction', 'MarkAsSpamBulkMail'],
  ],
  [
    'exchangeHostedOutboundSpamFilter',
    ['AutoForwardingMode', 'RecipientLimitExternalPerHour', 'ActionWhenThresholdReached'],
  ],
  [
    'exchangeMalwareFilter',
    ['EnableFileFilter', 'FileTypeAction', 'EnableInternalSenderAdminNotifications'],
  ],
  ['exchangeAtpPolicy', ['EnableATPForSPOTeamsODB', 'EnableSafeDocs']],
  ['exchangeTransportRule', ['SenderAddressLocation', 'RuleErrorAction', 'RuleVersion']],
  [
    'exchangeTransportConfig',
    ['SmtpClientAuthenticationDisabled', 'MaxRecipientEnvelopeLimit', 'ExternalPostmasterAddress'],
  ],
  [
    'exchangeOwaMailboxPolicy',
    [
      'WacExternalServicesEnabled',
      'DirectFileAccessOnPublicComputersEnabled',
      'ThirdPartyFileProvidersEnabled',
    ],
  ],
  [
    'exchangeInboundConnector',
    [
      'SenderIPAddresses',
      'RestrictDomainsToIPAddresses',
      'TreatMessagesAsInternal',
      'EFSkipLastIP',
    ],
  ],
  ['exchangeOutboundConnector', ['SmartHosts', 'UseMXRecord', 'IsTransportRuleScoped']],
  [
    'exchangeAdminAuditLogConfig',
    ['AdminAuditLogEnabled', 'UnifiedAuditLogIngestionEnabled', 'AdminAuditLogAgeLimit'],
  ],
  ['exchangeDkimSigningConfig', ['Selector1CNAME', 'KeySize', 'BodyCanonicalization']],
];

/** Settings of Get-OrganizationConfig that no other export has. */
const ORGANIZATION_CONFIG_SETTINGS = [
  'AuditDisabled',
  'OAuth2ClientProfileEnabled',
  'CustomerLockBoxEnabled',
  'MailTipsAllTipsEnabled',
  'FocusedInboxOn',
  'DefaultAuthenticationPolicy',
];

/**
 * The Exchange / Defender export kind of a policy by its distinguishing properties. Every Exchange export carries
 * the organisation envelope (OrganizationId, ExchangeObjectId, OrganizationalUnitRoot …), so those alone do not make
 * an organisation config: only ServicePlan, OrganizationalUnitRoot plus LegacyExchangeDN (the spec's markers that
 * the other exports lack) or an organisation-only setting do; an envelope of no recognised kind is `exchangeObject`.
 */
function exchangeKindOf(get: CIReader): PolicyKind | undefined {
  if (anyOf(get, RULE_CONDITIONS)) {
    const parents = RULE_PARENTS.filter(([k]) => typeof get(k) === 'string');
    if (parents.length > 1) return 'exchangeProtectionPolicyRule';
    if (parents[0]) return parents[0][1];
  }
  if (
    has(get, 'ServicePlan') ||
    (has(get, 'OrganizationalUnitRoot') && has(get, 'LegacyExchangeDN')) ||
    anyOf(get, ORGANIZATION_CONFIG_SETTINGS)
  )
    return 'exchangeOrganizationConfig';
  for (const [kind, keys] of EXCHANGE_SIGNATURES) if (anyOf(get, keys)) return kind;
  if (
    has(get, 'DomainName') &&
    anyOf(get, ['AutoForwardEnabled', 'AllowedOOFType', 'AutoReplyEnabled'])
  )
    return 'exchangeRemoteDomain';
  if (Array.isArray(get('Domains')) && has(get, 'Default')) return 'exchangeSharingPolicy';
  if (
    has(get, 'OrganizationId') ||
    has(get, 'ExchangeObjectId') ||
    has(get, 'OrganizationalUnitRoot')
  )
    return 'exchangeObject';
  return undefined;
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
