// What the Aegis app registration needs in a client tenant, per workload (issue 25 item 7): the
// application permissions of the API the workload is read and written through, the directory roles
// its service principal must hold, and the Azure roles on the client's subscription. One catalogue
// for the README's app registration list and for a capture's 'not permitted' outcome.
//
// Least privilege that covers both capture (read) and deploy/off-board (write), from Microsoft's
// Graph permission reference of each API (the 'Application' row of its Permissions table).
import { TENANT_WORKLOADS, DIRECTORY_USERS_WORKLOAD, type TenantWorkload } from './workloads';

/** The resource an application permission belongs to (its name in Entra's 'API permissions'). */
export type PermissionApi = 'Microsoft Graph' | 'Office 365 Exchange Online';

export interface ApplicationPermission {
  api: PermissionApi;
  name: string;
}

export interface WorkloadPermissions {
  application: readonly ApplicationPermission[];
  /** Entra directory roles assigned to the app's service principal */
  directoryRoles: readonly string[];
  /** Azure RBAC roles on the client's subscription */
  azureRoles: readonly string[];
}

const graph = (...names: string[]): WorkloadPermissions => ({
  application: names.map((name) => ({ api: 'Microsoft Graph', name })),
  directoryRoles: [],
  azureRoles: [],
});

const EXCHANGE: WorkloadPermissions = {
  application: [{ api: 'Office 365 Exchange Online', name: 'Exchange.ManageAsApp' }],
  directoryRoles: ['Exchange Administrator'],
  azureRoles: [],
};

// Teams policies are read and set through the Teams admin configuration service, which authorises
// app-only callers by the Teams Administrator role; app-only sign-in itself reads the organization.
const TEAMS: WorkloadPermissions = {
  application: [{ api: 'Microsoft Graph', name: 'Organization.Read.All' }],
  directoryRoles: ['Teams Administrator'],
  azureRoles: [],
};

const NONE: WorkloadPermissions = { application: [], directoryRoles: [], azureRoles: [] };

const azure = (...roles: string[]): WorkloadPermissions => ({
  application: [],
  directoryRoles: [],
  azureRoles: roles,
});

const INTUNE_CONFIGURATION = graph('DeviceManagementConfiguration.ReadWrite.All');
const INTUNE_SERVICE_CONFIG = graph('DeviceManagementServiceConfig.ReadWrite.All');
const INTUNE_APPS = graph('DeviceManagementApps.ReadWrite.All');

/** `Category/Kind` → what the app needs for it. A test checks every workload has an entry. */
const PERMISSIONS: Readonly<Record<string, WorkloadPermissions>> = {
  'AzureAD/Group': graph('Group.ReadWrite.All'),
  'AzureAD/User': graph('User.ReadWrite.All'),
  'ConditionalAccess/NamedLocation': graph('Policy.Read.All', 'Policy.ReadWrite.ConditionalAccess'),
  'ConditionalAccess/Policy': graph('Policy.Read.All', 'Policy.ReadWrite.ConditionalAccess'),
  'AzureAD/DirectorySetting': graph('Directory.ReadWrite.All'),
  'AzureAD/AuthorizationPolicy': graph('Policy.ReadWrite.Authorization'),
  'AzureAD/AuthenticationMethodsPolicy': graph('Policy.ReadWrite.AuthenticationMethod'),
  'AzureAD/AuthenticationMethodConfiguration': graph('Policy.ReadWrite.AuthenticationMethod'),
  'AzureAD/DeviceRegistrationPolicy': graph('Policy.ReadWrite.DeviceConfiguration'),
  'AzureAD/AdminConsentRequestPolicy': graph('Policy.ReadWrite.ConsentRequest'),
  'AzureAD/AppManagementPolicy': graph('Policy.ReadWrite.ApplicationConfiguration'),
  'Intune/DeviceCompliancePolicy': INTUNE_CONFIGURATION,
  'Intune/DeviceConfiguration': INTUNE_CONFIGURATION,
  'Intune/ConfigurationPolicy': INTUNE_CONFIGURATION,
  'Intune/DeviceHealthScript': INTUNE_CONFIGURATION,
  'Intune/DeviceManagementScript': INTUNE_CONFIGURATION,
  'Intune/DeviceEnrollmentConfiguration': INTUNE_SERVICE_CONFIG,
  'Intune/WindowsAutopilotDeploymentProfile': INTUNE_SERVICE_CONFIG,
  'Intune/AppProtectionPolicy': INTUNE_APPS,
  'Intune/MobileApp': INTUNE_APPS,
  'Forms/FormsSettings': graph('OrgSettings-Forms.ReadWrite.All'),
  'Exchange/*': EXCHANGE,
  'Defender/*': EXCHANGE,
  'Teams/*': TEAMS,
  // Graph's /admin/sharepoint/settings; the rest of the SharePoint exports has no public API
  'SharePoint/SharePointSettings': graph('SharePointTenantSettings.ReadWrite.All'),
  'SharePoint/*': NONE,
  'Planner/*': NONE,
  'AzurePolicy/PolicyAssignment': azure('Resource Policy Contributor'),
  'AzureMaintenance/MaintenanceConfiguration': azure('Scheduled Patching Contributor'),
};

/**
 * Beyond the workloads: reading who changed what (issue 28 §2, ADR 064). Intune's audit events
 * need DeviceManagementApps.Read.All, which DeviceManagementApps.ReadWrite.All covers; the
 * Exchange admin audit log is read through Exchange.ManageAsApp and the Exchange Administrator role.
 */
export const AUDIT_LOG_PERMISSIONS: readonly ApplicationPermission[] = [
  { api: 'Microsoft Graph', name: 'AuditLog.Read.All' },
];

/** What the app registration needs for a workload; undefined for a workload the catalogue misses. */
export function permissionsOf(workload: TenantWorkload): WorkloadPermissions | undefined {
  return (
    PERMISSIONS[`${workload.category}/${workload.kind}`] ?? PERMISSIONS[`${workload.category}/*`]
  );
}

/**
 * The permission and role a 'not permitted' read names, e.g. 'Exchange.ManageAsApp and the
 * Exchange Administrator role'.
 */
export function requiredPermissionText(workload: TenantWorkload): string {
  const needed = permissionsOf(workload);
  if (!needed) return 'a permission the catalogue does not name';
  const parts = [
    ...needed.application.map((p) => p.name),
    ...needed.directoryRoles.map((r) => `the ${r} role`),
    ...needed.azureRoles.map((r) => `the ${r} role on the subscription`),
  ];
  return parts.length > 1
    ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
    : (parts[0] ?? 'no permission');
}

export interface AppRegistrationRequirements {
  /** per API, sorted by name */
  application: { api: PermissionApi; names: string[] }[];
  directoryRoles: string[];
  azureRoles: string[];
}

/**
 * Everything the app registration needs for every workload Aegis reads or writes, and for the audit
 * logs it reads (the README lists it).
 */
export function appRegistrationRequirements(): AppRegistrationRequirements {
  const byApi = new Map<PermissionApi, Set<string>>();
  const roles = new Set<string>();
  const azureRoles = new Set<string>();
  for (const workload of [...TENANT_WORKLOADS, DIRECTORY_USERS_WORKLOAD]) {
    const needed = permissionsOf(workload);
    for (const p of needed?.application ?? []) {
      byApi.set(p.api, (byApi.get(p.api) ?? new Set()).add(p.name));
    }
    for (const r of needed?.directoryRoles ?? []) roles.add(r);
    for (const r of needed?.azureRoles ?? []) azureRoles.add(r);
  }
  for (const p of AUDIT_LOG_PERMISSIONS)
    byApi.set(p.api, (byApi.get(p.api) ?? new Set()).add(p.name));
  return {
    application: [...byApi]
      .map(([api, names]) => ({ api, names: [...names].sort() }))
      .sort((a, b) => a.api.localeCompare(b.api)),
    directoryRoles: [...roles].sort(),
    azureRoles: [...azureRoles].sort(),
  };
}
