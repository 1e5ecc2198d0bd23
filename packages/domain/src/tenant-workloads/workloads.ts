// Where each kind of configuration the repository holds lives in a client tenant (issue 11):
// `Category/Kind` of `M365Config/Resources/<Category>/<Kind>/<Policy>.json` → the service endpoint a
// capture reads and a deploy writes. One table for the pipeline tasks (capture, deploy, off-board)
// and the tenant emulator that serves the same endpoints.
import { safeFileName } from '../formatting/file-names';

/** Microsoft Graph (beta, as the sample exports' `@odata.context` say, unless `version` says v1.0). */
export interface GraphWorkload {
  transport: 'graph';
  category: string;
  kind: string;
  /** path under https://graph.microsoft.com/{version}, e.g. /identity/conditionalAccess/policies */
  path: string;
  /** read and written through v1.0 rather than beta */
  version?: 'v1.0';
  /** a single object (GET/PATCH the path) rather than a collection */
  singleton?: boolean;
  /** the property naming the file (collections); singletons use `fileName` */
  nameProperty?: string;
  /** file name of a singleton */
  fileName?: string;
  /** Intune writes are guarded by multi admin approval when the tenant turns it on */
  intune?: boolean;
  /**
   * Navigation properties that are part of the configuration (`$expand` value): a list never
   * returns them, so a capture expands them and a create sends them in its body.
   */
  expand?: string;
  /**
   * A tenant-wide object (`singleton` for its file) that Graph serves as a collection of one
   * (beta `/policies/authorizationPolicy`): read from `value`, updated at `{path}/{id}`.
   */
  servedAsCollection?: boolean;
  /** Microsoft updates it with PUT (the whole object) rather than PATCH */
  updateMethod?: 'PUT';
  /**
   * Properties Microsoft's API reference calls read-only (a write refuses them): a deploy leaves
   * them out. A test holds this to the contract extract's `readOnly`.
   */
  readOnly?: readonly string[];
}

/**
 * The admin command endpoints the official PowerShell modules use where Graph has no API
 * (Exchange Online `adminapi/beta/{tenantId}/InvokeCommand` with `CmdletInput`, and the same
 * shape for Teams, SharePoint and Planner settings).
 */
export interface AdminCommandWorkload {
  transport: 'adminCommand';
  category: string;
  kind: string;
  service: 'exchange' | 'teams' | 'sharepoint' | 'planner';
  /** the noun of Get-/Set-/New-/Remove-{noun} */
  noun: string;
  /**
   * Teams: the configuration type the Teams admin configuration service files the cmdlet's
   * objects under (/Skype.Policy/configurations/{configurationType})
   */
  configurationType?: string;
  /** a tenant-wide object that is set, never created or removed */
  singleton?: boolean;
  /** the property naming the file; singletons use `fileName` */
  nameProperty?: string;
  fileName?: string;
  /** Microsoft publishes no API for it: a capture records 'no public API' instead of reading */
  noPublicApi?: true;
}

/** Azure Resource Manager resources in the tenant's subscription. */
export interface ArmWorkload {
  transport: 'arm';
  category: string;
  kind: string;
  /** resource type under the subscription, e.g. Microsoft.Maintenance/maintenanceConfigurations */
  resourceType: string;
  apiVersion: string;
  nameProperty: 'name';
  /**
   * Where ARM creates one: in the subscription, or only inside a resource group (maintenance
   * configurations; Aegis's resource group, AEGIS_RESOURCE_GROUP). Both are listed at the
   * subscription.
   */
  createdIn: 'subscription' | 'resourceGroup';
  /** the list's $filter: atExactScope() keeps what is assigned at the subscription itself */
  listFilter?: string;
}

export type TenantWorkload = GraphWorkload | AdminCommandWorkload | ArmWorkload;

const graph = (
  category: string,
  kind: string,
  path: string,
  naming: { nameProperty: string } | { fileName: string },
  extra: Partial<GraphWorkload> = {},
): GraphWorkload => ({
  transport: 'graph',
  category,
  kind,
  path,
  ...('fileName' in naming ? { singleton: true } : {}),
  ...naming,
  ...extra,
});

const intune = (
  kind: string,
  path: string,
  nameProperty = 'displayName',
  extra: Partial<GraphWorkload> = {},
) => graph('Intune', kind, path, { nameProperty }, { intune: true, ...extra });

const command = (
  service: AdminCommandWorkload['service'],
  category: string,
  kind: string,
  noun: string,
  naming: { nameProperty: string } | { fileName: string },
): AdminCommandWorkload => ({
  transport: 'adminCommand',
  service,
  category,
  kind,
  noun,
  ...('fileName' in naming ? { singleton: true } : {}),
  ...naming,
});

/**
 * Settings no public API covers, kept as the files of earlier exports: a capture records 'no
 * public API' for them and leaves the files as they are; deploy and off-board leave them alone.
 */
const withoutPublicApi = (
  service: AdminCommandWorkload['service'],
  category: string,
  kind: string,
  fileName: string,
): AdminCommandWorkload => ({
  ...command(service, category, kind, kind, { fileName }),
  noPublicApi: true,
});

/** A Teams policy type: its cmdlet noun and the configuration type it is filed under. */
const teams = (kind: string, noun: string, configurationType: string): AdminCommandWorkload => ({
  ...command('teams', 'Teams', kind, noun, { nameProperty: 'Identity' }),
  configurationType,
});

const byName = { nameProperty: 'Name' };

// Order matters: objects other kinds reference (groups, named locations) come first, so a deploy
// creates them before the policies that point at them.
export const TENANT_WORKLOADS: readonly TenantWorkload[] = [
  graph('AzureAD', 'Group', '/groups', { nameProperty: 'displayName' }),
  graph('ConditionalAccess', 'NamedLocation', '/identity/conditionalAccess/namedLocations', {
    nameProperty: 'displayName',
  }),
  graph('ConditionalAccess', 'Policy', '/identity/conditionalAccess/policies', {
    nameProperty: 'displayName',
  }),
  graph('AzureAD', 'DirectorySetting', '/settings', { nameProperty: 'displayName' }),
  graph(
    'AzureAD',
    'AuthorizationPolicy',
    '/policies/authorizationPolicy',
    { fileName: 'Authorization Policy' },
    { servedAsCollection: true },
  ),
  graph('AzureAD', 'AuthenticationMethodsPolicy', '/policies/authenticationMethodsPolicy', {
    fileName: 'Authentication Methods Policy',
  }),
  graph(
    'AzureAD',
    'AuthenticationMethodConfiguration',
    '/policies/authenticationMethodsPolicy/authenticationMethodConfigurations',
    { nameProperty: 'id' },
  ),
  graph(
    'AzureAD',
    'DeviceRegistrationPolicy',
    '/policies/deviceRegistrationPolicy',
    { fileName: 'Device Registration Policy' },
    { updateMethod: 'PUT' },
  ),
  graph(
    'AzureAD',
    'AdminConsentRequestPolicy',
    '/policies/adminConsentRequestPolicy',
    { fileName: 'Admin Consent Request Policy' },
    { updateMethod: 'PUT' },
  ),
  graph('AzureAD', 'AppManagementPolicy', '/policies/defaultAppManagementPolicy', {
    fileName: 'Default App Management Policy',
  }),
  intune('DeviceCompliancePolicy', '/deviceManagement/deviceCompliancePolicies', 'displayName', {
    expand: 'scheduledActionsForRule($expand=scheduledActionConfigurations)',
  }),
  intune('DeviceConfiguration', '/deviceManagement/deviceConfigurations'),
  intune('ConfigurationPolicy', '/deviceManagement/configurationPolicies', 'name', {
    expand: 'settings',
  }),
  intune('DeviceEnrollmentConfiguration', '/deviceManagement/deviceEnrollmentConfigurations'),
  intune(
    'WindowsAutopilotDeploymentProfile',
    '/deviceManagement/windowsAutopilotDeploymentProfiles',
  ),
  intune('AppProtectionPolicy', '/deviceAppManagement/managedAppPolicies'),
  intune('MobileApp', '/deviceAppManagement/mobileApps'),
  intune('DeviceHealthScript', '/deviceManagement/deviceHealthScripts'),
  intune('DeviceManagementScript', '/deviceManagement/deviceManagementScripts'),
  // adminForms: `settings` is a property of /admin/forms, not an addressable resource
  graph('Forms', 'FormsSettings', '/admin/forms', { fileName: 'Forms Settings' }),
  command('exchange', 'Exchange', 'OrganizationConfig', 'OrganizationConfig', {
    fileName: 'Organization Config',
  }),
  command('exchange', 'Exchange', 'TransportConfig', 'TransportConfig', {
    fileName: 'Transport Config',
  }),
  command('exchange', 'Exchange', 'AdminAuditLogConfig', 'AdminAuditLogConfig', {
    fileName: 'Admin Audit Log Settings',
  }),
  command('exchange', 'Exchange', 'ExternalInOutlook', 'ExternalInOutlook', {
    fileName: 'External In Outlook',
  }),
  command('exchange', 'Exchange', 'RemoteDomain', 'RemoteDomain', byName),
  command('exchange', 'Exchange', 'TransportRule', 'TransportRule', byName),
  command('exchange', 'Exchange', 'OwaMailboxPolicy', 'OwaMailboxPolicy', byName),
  command(
    'exchange',
    'Exchange',
    'HostedOutboundSpamFilterPolicy',
    'HostedOutboundSpamFilterPolicy',
    byName,
  ),
  command('exchange', 'Exchange', 'InboundConnector', 'InboundConnector', byName),
  command('exchange', 'Exchange', 'SharingPolicy', 'SharingPolicy', byName),
  command('exchange', 'Exchange', 'DkimSigningConfig', 'DkimSigningConfig', byName),
  command('exchange', 'Defender', 'AntiPhishPolicy', 'AntiPhishPolicy', byName),
  command('exchange', 'Defender', 'SafeLinksPolicy', 'SafeLinksPolicy', byName),
  command('exchange', 'Defender', 'SafeLinksRule', 'SafeLinksRule', byName),
  command('exchange', 'Defender', 'SafeAttachmentPolicy', 'SafeAttachmentPolicy', byName),
  command('exchange', 'Defender', 'SafeAttachmentRule', 'SafeAttachmentRule', byName),
  command('exchange', 'Defender', 'HostedContentFilterPolicy', 'HostedContentFilterPolicy', byName),
  command('exchange', 'Defender', 'MalwareFilterPolicy', 'MalwareFilterPolicy', byName),
  command('exchange', 'Defender', 'AtpPolicyForO365', 'AtpPolicyForO365', byName),
  teams('MeetingPolicy', 'CsTeamsMeetingPolicy', 'TeamsMeetingPolicy'),
  teams('MessagingPolicy', 'CsTeamsMessagingPolicy', 'TeamsMessagingPolicy'),
  teams('AppPermissionPolicy', 'CsTeamsAppPermissionPolicy', 'TeamsAppPermissionPolicy'),
  teams('ClientConfiguration', 'CsTeamsClientConfiguration', 'TeamsClientConfiguration'),
  teams('FederationConfiguration', 'CsTenantFederationConfiguration', 'TenantFederationSettings'),
  teams(
    'GuestMeetingConfiguration',
    'CsTeamsGuestMeetingConfiguration',
    'TeamsGuestMeetingConfiguration',
  ),
  // SharePoint and OneDrive tenant settings Graph covers (ADR 048 §6), in Graph's names
  graph(
    'SharePoint',
    'SharePointSettings',
    '/admin/sharepoint/settings',
    { fileName: 'SharePoint Settings' },
    { version: 'v1.0', readOnly: ['availableManagedPathsForSiteCreation'] },
  ),
  // what no public API covers: the rest of the Get-SPOTenant and unmanaged-device exports
  withoutPublicApi('sharepoint', 'SharePoint', 'SPOTenant', 'SharePoint Tenant Settings'),
  withoutPublicApi('sharepoint', 'SharePoint', 'SPOAccessControl', 'Unmanaged Device Access'),
  withoutPublicApi('planner', 'Planner', 'PlannerConfiguration', 'Planner Configuration'),
  {
    transport: 'arm',
    category: 'AzurePolicy',
    kind: 'PolicyAssignment',
    resourceType: 'Microsoft.Authorization/policyAssignments',
    apiVersion: '2023-04-01',
    nameProperty: 'name',
    createdIn: 'subscription',
    // not atScope(): it also lists what management groups above assign (ADR 049)
    listFilter: 'atExactScope()',
  },
  {
    transport: 'arm',
    category: 'AzureMaintenance',
    kind: 'MaintenanceConfiguration',
    resourceType: 'Microsoft.Maintenance/maintenanceConfigurations',
    apiVersion: '2023-04-01',
    nameProperty: 'name',
    createdIn: 'resourceGroup',
  },
];

/**
 * Directory user accounts: written by the deploy's New-AegisAccounts function and removed by
 * off-board, never captured (an account is not configuration), so not one of TENANT_WORKLOADS.
 */
export const DIRECTORY_USERS_WORKLOAD: GraphWorkload = graph('AzureAD', 'User', '/users', {
  nameProperty: 'userPrincipalName',
});

/** Whether Microsoft publishes an API a capture can read the workload through. */
export function hasPublicApi(workload: TenantWorkload): boolean {
  return !(workload.transport === 'adminCommand' && workload.noPublicApi);
}

/** `Category/Kind` of a workload, its folder under the resources root. */
export function workloadKey(workload: Pick<TenantWorkload, 'category' | 'kind'>): string {
  return `${workload.category}/${workload.kind}`;
}

/** `Category/Kind` → workload. */
export function workloadFor(category: string, kind: string): TenantWorkload | undefined {
  return TENANT_WORKLOADS.find((w) => w.category === category && w.kind === kind);
}

/** The file a policy is stored in: its name made safe for git paths and Windows agents. */
export function policyFileNameFor(name: string): string {
  return `${safeFileName(name)}.json`;
}

/** The name a policy is filed under: its naming property, or the singleton's fixed name. */
export function policyNameOf(
  workload: TenantWorkload,
  policy: Readonly<Record<string, unknown>>,
): string | undefined {
  if ('fileName' in workload && workload.fileName) return workload.fileName;
  const value = workload.nameProperty ? policy[workload.nameProperty] : undefined;
  return typeof value === 'string' && value.trim() ? value : undefined;
}
