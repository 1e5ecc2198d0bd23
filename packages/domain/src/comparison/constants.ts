/** How an absent value is shown in both result models (spec 1 §9). */
export const MISSING = 'Missing';

/** Folders under the resources root that are never compared (spec 1 §5). */
export const EXCLUDED_FOLDERS = [
  'Descriptions',
  'Office365',
  'PowerPlatform',
  'SecurityCompliance',
] as const;

/** Keys that identify array items, first unique one wins (spec 1 §5). */
export const ARRAY_MATCH_KEYS = [
  'id',
  'Id',
  'ID',
  'settingDefinitionId',
  'name',
  'Name',
  'displayName',
  'DisplayName',
  'Identity',
  'Guid',
  'guid',
  '@odata.type',
  'RuleId',
  'RuleName',
] as const;

/** Keys that identify include/exclude targets (spec 1 §5). */
export const TARGET_MATCH_KEYS = ['targetType', 'name', 'displayName', '@odata.type'] as const;

/** Properties always ignored by the deviation comparison (spec 3 §5). */
export const DEVIATION_IGNORED_PROPERTIES = [
  'id',
  'createdDateTime',
  'modifiedDateTime',
  'lastModifiedDateTime',
  'creationSource',
  '@odata.context',
  'version',
  'Guid',
  'Identity',
  'OrganizationId',
  'ExchangeVersion',
  'ObjectCategory',
  'DistinguishedName',
] as const;

/**
 * Default excluded properties, grouped as in spec 3 §3 (the spec does not list the exact names; these are the
 * volatile fields of the Graph and Exchange PowerShell exports). Names match case-insensitively. Any key that
 * carries OData annotations (`x@odata.type`, `@odata.*`) is also ignored.
 */
export const DEFAULT_EXCLUDED_PROPERTY_GROUPS: Readonly<Record<string, readonly string[]>> = {
  createdModified: [
    'createdBy',
    'modifiedBy',
    'lastModifiedBy',
    'createdDateTime',
    'modifiedDateTime',
    'lastModifiedDateTime',
    'deletedDateTime',
    'creationSource',
    'WhenChanged',
    'WhenCreated',
    'WhenChangedUTC',
    'WhenCreatedUTC',
  ],
  version: ['version', 'ObjectVersion', 'ExchangeVersion', 'AdminDisplayVersion'],
  identifiers: ['id', 'Guid', 'Identity', 'ExchangeObjectId', 'ImmutableId', 'objectId'],
  systemOrganisation: [
    'OrganizationId',
    'OrganizationalUnitRoot',
    'OriginatingServer',
    'DistinguishedName',
    'ObjectCategory',
    'ObjectClass',
    'ObjectState',
    'IsValid',
    'LegacyExchangeDN',
  ],
  regionalMailbox: [
    'AllowedMailboxRegions',
    'AllowedMailboxRegionsLastUpdateTime',
    'DefaultMailboxRegion',
    'DefaultMailboxRegionLastUpdateTime',
  ],
  authenticationTokens: [
    'AdfsIssuer',
    'AdfsAudienceUris',
    'AdfsSignCertificateThumbprints',
    'AdfsEncryptCertificateThumbprint',
  ],
  exchangeSpecific: [
    'OrganizationConfigHash',
    'RBACConfigurationVersion',
    'ForestConfigVersion',
    'ForestConfigLastRunTime',
    'Heuristics',
    'IsDehydrated',
    'TargetServicePlan',
    'ServicePlan',
  ],
  odataMetadata: [
    '@odata.context',
    '@odata.type',
    '@odata.id',
    '@odata.editLink',
    '@odata.etag',
    'systemData',
  ],
  conditionalAccessLists: [
    'includeUsers',
    'excludeUsers',
    'includeGroups',
    'excludeGroups',
    'includeLocations',
    'excludeLocations',
  ],
  reviewers: ['reviewers'],
  urls: ['url', 'webUrl', 'SharePointUrl', 'WACDiscoveryEndpoint', 'SiteMailboxCreationURL'],
  deviceDeployment: [
    'roleScopeTagIds',
    'supportsScopeTags',
    'deviceStatuses',
    'userStatuses',
    'deviceStatusOverview',
    'deviceSettingStateSummaries',
    'deploymentSummary',
  ],
  icons: ['largeIcon', 'icon', 'logo'],
  policyDefaults: ['isAssigned'],
  atpOnboarding: ['advancedThreatProtectionOnboardingBlob'],
  accountIdentity: ['userPrincipalName', 'tenantId', 'appOwnerOrganizationId'],
  applicationMetadata: ['publisher', 'publisherName', 'description'],
};

/** All default excluded property names (flattened, plus the always-ignored set of spec 3 §5). */
export const DEFAULT_EXCLUDED_PROPERTIES: readonly string[] = [
  ...new Set([
    ...Object.values(DEFAULT_EXCLUDED_PROPERTY_GROUPS).flat(),
    ...DEVIATION_IGNORED_PROPERTIES,
  ]),
];

/** Excluded paths the baseline compliance view always applies (spec 3 §7). */
export const BASELINE_VIEW_EXCLUDED_PATHS = [
  '/Office365',
  '/PowerPlatform',
  '/SecurityCompliance',
  '/Planner',
] as const;

/** The comparison options of the baseline compliance view: its excluded paths. */
export const BASELINE_VIEW_COMPARE_OPTIONS = { excludedPaths: BASELINE_VIEW_EXCLUDED_PATHS };
