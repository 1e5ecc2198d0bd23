// SharePoint (Graph's sharepointSettings and the exports no public API covers), Teams (Get-Cs*), Forms and Planner settings, and the Azure
// resources the baseline deploys (maintenance configurations, policy assignments, as ARM returns them).
import { migrateSharePointExports } from '@aegis/domain';

import type { JsonObject, PolicyDef } from './types';

const simple = (
  category: string,
  kind: string,
  name: string,
  build: PolicyDef['build'],
): PolicyDef => ({ category, kind, name, build });

const teams = (kind: string, props: JsonObject): PolicyDef =>
  simple('Teams', kind, 'Global', () => ({ Identity: 'Global', ...props }));

/**
 * The SharePoint admin exports (Get-SPOTenant, Get-SPOBrowserIdleSignOut, the unmanaged-device
 * access settings) the sample data started from; migrated below as a repository's earlier exports
 * are (ADR 048 §6).
 */
const sharePointExports = {
  SPOTenant: {
    SharingCapability: 'ExternalUserSharingOnly',
    ODBSharingCapability: 'ExistingExternalUserSharingOnly',
    DefaultSharingLinkType: 'Internal',
    DefaultLinkPermission: 'View',
    FileAnonymousLinkType: 'View',
    FolderAnonymousLinkType: 'View',
    RequireAnonymousLinksExpireInDays: 30,
    ExternalUserExpirationRequired: true,
    ExternalUserExpireInDays: 60,
    EmailAttestationRequired: true,
    EmailAttestationReAuthDays: 30,
    PreventExternalUsersFromResharing: true,
    SharingDomainRestrictionMode: 'None',
    SharingAllowedDomainList: null,
    SharingBlockedDomainList: null,
    ShowEveryoneClaim: false,
    ShowEveryoneExceptExternalUsersClaim: false,
    LegacyAuthProtocolsEnabled: false,
    DisallowInfectedFileDownload: true,
    EnableAzureADB2BIntegration: true,
    OneDriveLoopSharingCapability: 'ExternalUserSharingOnly',
  },
  SPOBrowserIdleSignOut: {
    Enabled: true,
    WarnAfter: '0.00:55:00',
    SignOutAfter: '0.01:00:00',
  },
  SPOAccessControl: {
    ConditionalAccessPolicy: 'AllowLimitedAccess',
    AllowDownloadingNonWebViewableFiles: false,
    AllowEditing: true,
    LimitedAccessFileType: 'WebPreviewableFiles',
    BlockMacSync: false,
    IsUnmanagedSyncClientForTenantRestricted: true,
  },
};

const migratedSharePoint = migrateSharePointExports(sharePointExports);

export const sharePointPolicies: PolicyDef[] = [
  // GET /v1.0/admin/sharepoint/settings: every property of sharepointSettings, the migrated ones
  // over the tenant's defaults
  simple('SharePoint', 'SharePointSettings', 'SharePoint Settings', () => ({
    '@odata.context':
      'https://graph.microsoft.com/v1.0/$metadata#admin/sharepoint/settings/$entity',
    allowedDomainGuidsForSyncApp: [],
    availableManagedPathsForSiteCreation: ['/sites/', '/teams/'],
    deletedUserPersonalSiteRetentionPeriodInDays: 365,
    excludedFileExtensionsForSyncApp: [],
    imageTaggingOption: 'basic',
    isCommentingOnSitePagesEnabled: true,
    isFileActivityNotificationEnabled: true,
    isLoopEnabled: true,
    isRequireAcceptingUserToMatchInvitedUserEnabled: true,
    isSharePointMobileNotificationEnabled: true,
    isSharePointNewsfeedEnabled: true,
    isSiteCreationEnabled: true,
    isSiteCreationUIEnabled: true,
    isSitePagesCreationEnabled: true,
    isSitesStorageLimitAutomatic: true,
    isSyncButtonHiddenOnPersonalSite: false,
    personalSiteDefaultStorageLimitInMB: 1048576,
    siteCreationDefaultManagedPath: '/sites/',
    siteCreationDefaultStorageLimitInMB: 26214400,
    tenantDefaultTimezone: '(UTC) Coordinated Universal Time',
    ...(migratedSharePoint.settings as JsonObject),
  })),
  // what no public API covers stays as it was exported
  ...(['SPOTenant', 'SPOAccessControl'] as const).map((kind) =>
    simple(
      'SharePoint',
      kind,
      kind === 'SPOTenant' ? 'SharePoint Tenant Settings' : 'Unmanaged Device Access',
      () => (migratedSharePoint.remaining[kind] ?? {}) as JsonObject,
    ),
  ),
];

export const teamsPolicies: PolicyDef[] = [
  teams('MeetingPolicy', {
    Description: null,
    AllowAnonymousUsersToJoinMeeting: true,
    AllowAnonymousUsersToStartMeeting: false,
    AllowAnonymousUsersToDialOut: false,
    AutoAdmittedUsers: 'EveryoneInCompanyExcludingGuests',
    AllowPSTNUsersToBypassLobby: false,
    AllowExternalParticipantGiveRequestControl: false,
    AllowCloudRecording: true,
    AllowTranscription: true,
    MeetingChatEnabledType: 'Enabled',
    DesignatedPresenterRoleMode: 'EveryoneUserOverride',
    ScreenSharingMode: 'EntireScreen',
    AllowMeetNow: true,
    AllowWhiteboard: true,
    AllowBreakoutRooms: true,
    NewMeetingRecordingExpirationDays: 120,
  }),
  teams('FederationConfiguration', {
    AllowFederatedUsers: true,
    AllowedDomains: { AllowedDomain: [] },
    BlockedDomains: [],
    AllowTeamsConsumer: false,
    AllowTeamsConsumerInbound: false,
    AllowPublicUsers: false,
    TreatDiscoveredPartnersAsUnverified: false,
    SharedSipAddressSpace: false,
    RestrictTeamsConsumerToExternalUserProfiles: false,
  }),
  teams('ClientConfiguration', {
    AllowEmailIntoChannel: false,
    RestrictedSenderList: null,
    AllowDropBox: false,
    AllowBox: false,
    AllowGoogleDrive: false,
    AllowShareFile: false,
    AllowEgnyte: false,
    AllowOrganizationTab: true,
    AllowSkypeBusinessInterop: true,
    ContentPin: 'RequiredOutsideScheduleMeeting',
    AllowResourceAccountSendMessage: true,
    ResourceAccountContentAccess: 'NoAccess',
    AllowGuestUser: true,
    AllowScopedPeopleSearchandAccess: false,
  }),
  teams('MessagingPolicy', {
    AllowUrlPreviews: true,
    AllowOwnerDeleteMessage: false,
    AllowUserEditMessage: true,
    AllowUserDeleteMessage: true,
    AllowUserDeleteChat: true,
    AllowUserChat: true,
    AllowRemoveUser: true,
    AllowGiphy: true,
    GiphyRatingType: 'Moderate',
    AllowMemes: true,
    AllowImmersiveReader: true,
    AllowStickers: true,
    AllowPriorityMessages: true,
    ReadReceiptsEnabledType: 'UserPreference',
    ChannelsInChatListEnabledType: 'DisabledUserOverride',
  }),
  teams('AppPermissionPolicy', {
    DefaultCatalogApps: [
      { Id: 'com.microsoft.teamspace.tab.planner' },
      { Id: '0d820ecd-def2-4297-adad-78056cde7c78' },
    ],
    GlobalCatalogApps: [],
    PrivateCatalogApps: [],
    DefaultCatalogAppsType: 'BlockedAppList',
    GlobalCatalogAppsType: 'AllowedAppList',
    PrivateCatalogAppsType: 'BlockedAppList',
  }),
  teams('GuestMeetingConfiguration', {
    AllowIPVideo: true,
    ScreenSharingMode: 'EntireScreen',
    AllowMeetNow: false,
    LiveCaptionsEnabledType: 'Disabled',
    AllowTranscription: false,
  }),
];

export const formsAndPlannerPolicies: PolicyDef[] = [
  // GET /admin/forms (adminForms): the settings are its `settings` property
  simple('Forms', 'FormsSettings', 'Forms Settings', () => ({
    '@odata.context': 'https://graph.microsoft.com/beta/$metadata#admin/forms/$entity',
    settings: {
      isExternalSendFormEnabled: false,
      isExternalShareCollaborationEnabled: false,
      isExternalShareResultEnabled: false,
      isExternalShareTemplateEnabled: false,
      isInOrgFormsPhishingScanEnabled: true,
      isRecordIdentityByDefaultEnabled: true,
      isBingImageSearchEnabled: true,
    },
  })),
  simple('Planner', 'PlannerConfiguration', 'Planner Configuration', () => ({
    AllowCalendarSharing: false,
    AllowTenantMoveWithDataLoss: false,
    AllowRosterCreation: true,
    AllowPlannerCopilot: true,
  })),
];

const arm = (
  kind: string,
  name: string,
  type: string,
  location: string,
  properties: JsonObject,
  provider: string,
): PolicyDef => ({
  category: kind === 'MaintenanceConfiguration' ? 'AzureMaintenance' : 'AzurePolicy',
  kind,
  name,
  build: (ctx) => {
    const subscription = ctx.guid('subscription');
    const resourceGroup = kind === 'MaintenanceConfiguration' ? 'rg-maintenance' : undefined;
    const idBase = resourceGroup
      ? `/subscriptions/${subscription}/resourceGroups/${resourceGroup}/providers/${provider}`
      : `/subscriptions/${subscription}/providers/${provider}`;
    return {
      id: `${idBase}/${name.replace(/\s+/g, '-').toLowerCase()}`,
      name: name.replace(/\s+/g, '-').toLowerCase(),
      type,
      location,
      ...(resourceGroup
        ? {
            systemData: {
              createdBy: 'build@aegis.local',
              createdByType: 'Application',
              createdAt: ctx.date(`arm:${name}`),
              lastModifiedBy: 'build@aegis.local',
              lastModifiedByType: 'Application',
              lastModifiedAt: ctx.date(`arm:${name}:m`, 60),
            },
          }
        : {}),
      tags: { managedBy: 'aegis', environment: 'production' },
      properties,
    };
  },
});

export const azurePolicies: PolicyDef[] = [
  arm(
    'MaintenanceConfiguration',
    'Windows Patch Tuesday',
    'microsoft.maintenance/maintenanceconfigurations',
    'westeurope',
    {
      maintenanceScope: 'InGuestPatch',
      maintenanceWindow: {
        startDateTime: '2025-01-15 22:00',
        duration: '03:55',
        timeZone: 'W. Europe Standard Time',
        expirationDateTime: null,
        recurEvery: 'Month Second Tuesday Offset1',
      },
      visibility: 'Custom',
      installPatches: {
        rebootSetting: 'IfRequired',
        windowsParameters: {
          classificationsToInclude: ['Critical', 'Security', 'UpdateRollup'],
          kbNumbersToExclude: [],
          excludeKbsRequiringReboot: false,
        },
      },
      extensionProperties: { InGuestPatchMode: 'User' },
    },
    'Microsoft.Maintenance/maintenanceConfigurations',
  ),
  arm(
    'MaintenanceConfiguration',
    'Linux Weekly',
    'microsoft.maintenance/maintenanceconfigurations',
    'westeurope',
    {
      maintenanceScope: 'InGuestPatch',
      maintenanceWindow: {
        startDateTime: '2025-01-12 02:00',
        duration: '02:00',
        timeZone: 'UTC',
        expirationDateTime: null,
        recurEvery: '1Week Sunday',
      },
      visibility: 'Custom',
      installPatches: {
        rebootSetting: 'IfRequired',
        linuxParameters: {
          classificationsToInclude: ['Critical', 'Security'],
          packageNameMasksToExclude: [],
        },
      },
      extensionProperties: { InGuestPatchMode: 'User' },
    },
    'Microsoft.Maintenance/maintenanceConfigurations',
  ),
  arm(
    'PolicyAssignment',
    'Allowed Locations',
    'Microsoft.Authorization/policyAssignments',
    'westeurope',
    {
      displayName: 'Allowed locations',
      policyDefinitionId:
        '/providers/Microsoft.Authorization/policyDefinitions/e56962a6-4747-49cd-b67b-bf8b01975c4c',
      enforcementMode: 'Default',
      parameters: { listOfAllowedLocations: { value: ['westeurope', 'northeurope', 'uksouth'] } },
      nonComplianceMessages: [{ message: 'Resources must be deployed to an approved region.' }],
    },
    'Microsoft.Authorization/policyAssignments',
  ),
  arm(
    'PolicyAssignment',
    'Require Environment Tag',
    'Microsoft.Authorization/policyAssignments',
    'westeurope',
    {
      displayName: 'Require a tag on resources',
      policyDefinitionId:
        '/providers/Microsoft.Authorization/policyDefinitions/871b6d14-10aa-478d-b590-94f262ecfa99',
      enforcementMode: 'Default',
      parameters: { tagName: { value: 'environment' } },
    },
    'Microsoft.Authorization/policyAssignments',
  ),
  arm(
    'PolicyAssignment',
    'Microsoft Cloud Security Benchmark',
    'Microsoft.Authorization/policyAssignments',
    'westeurope',
    {
      displayName: 'Microsoft cloud security benchmark',
      policyDefinitionId:
        '/providers/Microsoft.Authorization/policySetDefinitions/1f3afdf9-d0c9-4c3d-847f-89da613e70a8',
      enforcementMode: 'DoNotEnforce',
      parameters: {},
    },
    'Microsoft.Authorization/policyAssignments',
  ),
];

/** Files under the folders the comparison never reads (spec 1 §5). */
export const excludedFiles: PolicyDef[] = [
  simple(
    'Descriptions',
    'ConditionalAccess',
    'CA000-Global-IdentityProtection-AnyApp-AnyPlatform-MFA',
    () => ({
      description: 'Requires multifactor authentication for every user and every cloud app.',
      impact: 'Users are prompted for MFA; break-glass accounts are excluded.',
    }),
  ),
  simple('Descriptions', 'Exchange', 'OwaMailboxPolicy-Default', () => ({
    description: 'Blocks dangerous attachment types in Outlook on the web.',
    impact: 'Users cannot download executable or script attachments in OWA.',
  })),
  simple('Office365', 'OrgSettings', 'Microsoft 365 Apps Installation', () => ({
    isOfficeMobileAppsEnabled: true,
    isProjectEnabled: false,
    isVisioEnabled: false,
    isSkypeForBusinessEnabled: false,
    updateChannel: 'current',
  })),
  simple('PowerPlatform', 'DlpPolicies', 'Tenant Default DLP', () => ({
    displayName: 'Tenant Default DLP',
    environmentType: 'AllEnvironments',
    connectorGroups: [
      {
        classification: 'Confidential',
        connectors: [
          { id: '/providers/Microsoft.PowerApps/apis/shared_sharepointonline', name: 'SharePoint' },
        ],
      },
      {
        classification: 'Blocked',
        connectors: [{ id: '/providers/Microsoft.PowerApps/apis/shared_twitter', name: 'X' }],
      },
    ],
  })),
  simple('SecurityCompliance', 'RetentionPolicies', 'Mailbox Retention 7 Years', () => ({
    Name: 'Mailbox Retention 7 Years',
    Enabled: true,
    Mode: 'Enforce',
    ExchangeLocation: ['All'],
    RetentionDuration: 2555,
    RetentionComplianceAction: 'Keep',
  })),
  simple('SecurityCompliance', 'DlpCompliancePolicies', 'U.K. Financial Data', () => ({
    Name: 'U.K. Financial Data',
    Mode: 'TestWithNotifications',
    ExchangeLocation: ['All'],
    SharePointLocation: ['All'],
    OneDriveLocation: ['All'],
    TeamsLocation: ['All'],
  })),
];
