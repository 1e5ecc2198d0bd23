// The baseline component catalogue (spec 2 §3): entries keyed by display name, each pointing into
// the company baseline on main. Deploy applies them to a tenant and off-board removes or reverts
// them (issue 11); the Tenant baseline screen lists them (issue 15 completes the groups, presets and
// estimates on this same shape).

import { TENANT_WORKLOADS } from '../tenant-workloads/workloads';

export type ComponentType = 'directory' | 'single_file' | 'multiple_files' | 'function';
export type ComponentImpact = 'High' | 'Medium' | 'Low';
export type ComponentCategory =
  | 'Microsoft Intune Configuration'
  | 'Azure AD Configuration'
  | 'Entra ID Configuration'
  | 'Exchange Online Configuration'
  | 'SharePoint Configuration'
  | 'Tenant Organisational Configuration'
  | 'Azure Maintenance Configurations';

/** The configuration repository all components live in (one id shared by all, spec 2 §3). */
export const COMPONENT_REPOSITORY = 'M365Config';
export const DEFAULT_COMPONENT_IMPACT: ComponentImpact = 'Medium';

export interface BaselineComponent {
  repoId: string;
  /** repository paths (folders or files) under the baseline resources root */
  paths: readonly string[];
  type: ComponentType;
  description: string;
  category: ComponentCategory;
  impact: ComponentImpact;
  /** type function: what the pipeline runs */
  functionName?: ComponentFunctionName;
  command?: string;
  /** New-AegisAccounts: which accounts of DIRECTORY_ACCOUNTS */
  accounts?: readonly string[];
}

/**
 * What a component of type function runs (the deploy task implements each):
 * - New-AegisGroups: creates the groups of its files that the tenant lacks, never updates them;
 * - New-AegisAccounts: creates the component's directory accounts (DIRECTORY_ACCOUNTS) the tenant
 *   lacks, with a random password nobody sees (they are reset through the portal's break-glass
 *   procedure); accounts are never written to the repository;
 * - Enable-OrganizationCustomization: runs Exchange Online's cmdlet of that name when the
 *   organisation is still dehydrated (IsDehydrated is read-only);
 * - Remove-AegisRetiredPolicies: removes Intune objects named like the baseline ('Baseline - …')
 *   that the baseline on main no longer has.
 */
export type ComponentFunctionName =
  | 'New-AegisGroups'
  | 'New-AegisAccounts'
  | 'Enable-OrganizationCustomization'
  | 'Remove-AegisRetiredPolicies';

export interface OffboardComponent {
  description: string;
  category: ComponentCategory;
  impact: ComponentImpact;
  /** range text such as '2-3' (minutes) */
  estimatedTime: string;
  dependencies?: string;
  /** 'remove' deletes the objects; 'revert' sets them back to the service's default */
  action: 'remove' | 'revert';
  /** baseline paths whose objects (matched in the tenant by id, then display name) it affects */
  paths: readonly string[];
  /** directory accounts (DIRECTORY_ACCOUNTS) it removes */
  accounts?: readonly string[];
}

const R = 'M365Config/Resources';
const component = (
  paths: string[],
  type: ComponentType,
  category: ComponentCategory,
  description: string,
  impact: ComponentImpact = DEFAULT_COMPONENT_IMPACT,
  fn?: { functionName: ComponentFunctionName; command: string },
): BaselineComponent => ({
  repoId: COMPONENT_REPOSITORY,
  paths: paths.map((p) => `${R}/${p}`),
  type,
  description,
  category,
  impact,
  ...fn,
});

/**
 * Directory accounts the baseline creates (never exported to the repository: an account is not
 * configuration). Keyed by the user principal name's local part; the domain is the tenant's
 * initial domain.
 */
export const DIRECTORY_ACCOUNTS: Readonly<
  Record<string, { displayName: string; kind: 'service' | 'emergency' }>
> = {
  'svc-aegis-automation': { displayName: 'Aegis Automation Service', kind: 'service' },
  'svc-scan-to-email': { displayName: 'Scan to Email Service', kind: 'service' },
  'breakglass-01': { displayName: 'Emergency Access 01', kind: 'emergency' },
  'breakglass-02': { displayName: 'Emergency Access 02', kind: 'emergency' },
};

/** Every Intune folder of the baseline (what Clean-Up looks through). */
const INTUNE_KINDS = TENANT_WORKLOADS.filter((w) => w.category === 'Intune').map(
  (w) => `${w.category}/${w.kind}`,
);
const INTUNE: ComponentCategory = 'Microsoft Intune Configuration';
const EXO: ComponentCategory = 'Exchange Online Configuration';
const ENTRA: ComponentCategory = 'Entra ID Configuration';
const AAD: ComponentCategory = 'Azure AD Configuration';
const ORG: ComponentCategory = 'Tenant Organisational Configuration';
const method = (id: string, what: string): BaselineComponent =>
  component(
    [`AzureAD/AuthenticationMethodConfiguration/${id}.json`],
    'single_file',
    ENTRA,
    `${what} authentication method: whether it is enabled and for whom.`,
    'High',
  );

/** Deploy catalogue, keyed by display name (spec 2 §3). */
export const BASELINE_COMPONENTS: Readonly<Record<string, BaselineComponent>> = {
  // ---- Intune (15)
  'Device Compliance': component(
    ['Intune/DeviceCompliancePolicy'],
    'directory',
    INTUNE,
    'Device compliance policies for Windows, macOS, iOS/iPadOS and Android.',
    'High',
  ),
  'Device Registration': component(
    ['Intune/DeviceEnrollmentConfiguration', 'AzureAD/DeviceRegistrationPolicy'],
    'multiple_files',
    INTUNE,
    'Enrollment restrictions, Windows Hello for Business and the device registration policy.',
  ),
  'Auto Pilot': component(
    ['Intune/WindowsAutopilotDeploymentProfile'],
    'directory',
    INTUNE,
    'Windows Autopilot deployment profiles.',
  ),
  'Managed App': component(
    ['Intune/AppProtectionPolicy'],
    'directory',
    INTUNE,
    'App protection policies for managed mobile apps.',
    'High',
  ),
  'iOS Apps': component(
    ['Intune/MobileApp/Microsoft Authenticator (iOS).json'],
    'single_file',
    INTUNE,
    'The iOS/iPadOS store apps every user gets (Microsoft Authenticator).',
    'Low',
  ),
  'Android Apps': component(
    ['Intune/MobileApp/Microsoft Authenticator (Android).json'],
    'single_file',
    INTUNE,
    'The managed Google Play apps every user gets (Microsoft Authenticator).',
    'Low',
  ),
  'Deploy Intent': component(
    ['Intune/ConfigurationPolicy'],
    'directory',
    INTUNE,
    'Settings catalog and security baseline intents (Defender Antivirus, attack surface reduction).',
    'High',
  ),
  'Config Policies': component(
    ['Intune/DeviceConfiguration'],
    'directory',
    INTUNE,
    'Device configuration profiles (device restrictions, endpoint protection).',
  ),
  'Windows Device Restrictions': component(
    ['Intune/DeviceConfiguration/Baseline - Windows - Device Restrictions.json'],
    'single_file',
    INTUNE,
    'The Windows device restrictions profile only.',
  ),
  'Endpoint Protection': component(
    ['Intune/DeviceConfiguration/Baseline - Windows - Endpoint Protection.json'],
    'single_file',
    INTUNE,
    'The Windows endpoint protection profile (firewall, BitLocker) only.',
    'High',
  ),
  'Windows Hello for Business': component(
    ['Intune/DeviceEnrollmentConfiguration/Windows Hello for Business.json'],
    'single_file',
    INTUNE,
    'The Windows Hello for Business enrollment configuration only.',
  ),
  'Device Limit Restriction': component(
    ['Intune/DeviceEnrollmentConfiguration/Device Limit Restriction.json'],
    'single_file',
    INTUNE,
    'How many devices a user may enrol.',
    'Low',
  ),
  'Health Scripts': component(
    ['Intune/DeviceHealthScript'],
    'directory',
    INTUNE,
    'Proactive remediation scripts (detection and remediation).',
    'Low',
  ),
  'Management Scripts': component(
    ['Intune/DeviceManagementScript'],
    'directory',
    INTUNE,
    'PowerShell scripts Intune runs once on Windows devices.',
  ),
  'Clean-Up': component(
    INTUNE_KINDS,
    'function',
    INTUNE,
    "Removes Intune objects named like the baseline ('Baseline - …') that the baseline no longer has.",
    'Medium',
    {
      functionName: 'Remove-AegisRetiredPolicies',
      command: 'Remove-AegisRetiredPolicies -ClientCode $ClientCode -Prefix "Baseline - "',
    },
  ),
  // ---- Exchange Online (16)
  'Org Customisation': component(
    ['Exchange/OrganizationConfig/Organization Config.json'],
    'function',
    EXO,
    'Enables organisation customisation (Enable-OrganizationCustomization), needed before other Exchange settings.',
    'Low',
    {
      functionName: 'Enable-OrganizationCustomization',
      command: 'Enable-OrganizationCustomization',
    },
  ),
  'Org Config': component(
    ['Exchange/OrganizationConfig', 'Exchange/TransportConfig'],
    'multiple_files',
    EXO,
    'Exchange Online organisation and transport settings (mail tips, modern authentication, TLS).',
  ),
  'Org Configuration Compliance': component(
    ['Exchange/AdminAuditLogConfig/Admin Audit Log Settings.json'],
    'single_file',
    EXO,
    'Unified audit log ingestion and admin audit logging.',
    'High',
  ),
  'Anti Phishing': component(
    ['Defender/AntiPhishPolicy'],
    'directory',
    EXO,
    'Defender for Office 365 anti-phishing policies.',
    'High',
  ),
  ATP: component(
    ['Defender/AtpPolicyForO365', 'Defender/SafeAttachmentPolicy', 'Defender/SafeAttachmentRule'],
    'multiple_files',
    EXO,
    'Defender for Office 365: Safe Attachments for Office apps and the Safe Attachments policy and rule.',
    'High',
  ),
  'Safe Links': component(
    ['Defender/SafeLinksPolicy', 'Defender/SafeLinksRule'],
    'multiple_files',
    EXO,
    'Safe Links policy and the rule that applies it.',
  ),
  'Anti Spam': component(
    ['Defender/HostedContentFilterPolicy'],
    'directory',
    EXO,
    'Inbound spam filter policy.',
  ),
  'Anti Malware': component(
    ['Defender/MalwareFilterPolicy'],
    'directory',
    EXO,
    'Malware filter policy (common attachment types filter).',
  ),
  'Outbound Spam': component(
    ['Exchange/HostedOutboundSpamFilterPolicy'],
    'directory',
    EXO,
    'Outbound spam policy (automatic forwarding, sending limits).',
  ),
  'Transport Rules': component(
    ['Exchange/TransportRule'],
    'directory',
    EXO,
    'Mail flow rules such as the external sender warning.',
  ),
  'External Sender Tagging': component(
    ['Exchange/ExternalInOutlook'],
    'directory',
    EXO,
    "Outlook's External tag on mail from outside the organisation.",
    'Low',
  ),
  'Remote Domains': component(
    ['Exchange/RemoteDomain'],
    'directory',
    EXO,
    'Remote domain settings (automatic forwarding and replies).',
  ),
  'Sharing Policy': component(
    ['Exchange/SharingPolicy'],
    'directory',
    EXO,
    'Calendar sharing with external users.',
    'Low',
  ),
  'OWA Policy': component(
    ['Exchange/OwaMailboxPolicy'],
    'directory',
    EXO,
    'Outlook on the web mailbox policy.',
    'Low',
  ),
  DKIM: component(
    ['Exchange/DkimSigningConfig'],
    'directory',
    EXO,
    'DKIM signing for the default domain.',
  ),
  'Inbound Connector': component(
    ['Exchange/InboundConnector'],
    'directory',
    EXO,
    'The inbound connector from the mail filtering service.',
    'High',
  ),
  // ---- SharePoint (1)
  SharePoint: component(
    ['SharePoint/SharePointSettings', 'SharePoint/SPOTenant', 'SharePoint/SPOAccessControl'],
    'multiple_files',
    'SharePoint Configuration',
    'SharePoint and OneDrive sharing, unmanaged device access and idle sign-out.',
  ),
  // ---- Entra ID Config (8)
  'Named Locations': component(
    ['ConditionalAccess/NamedLocation'],
    'directory',
    ENTRA,
    'Named locations used by conditional access policies.',
  ),
  'Conditional Access Policies': component(
    ['ConditionalAccess/Policy'],
    'directory',
    ENTRA,
    'Conditional access policies of the company baseline.',
    'High',
  ),
  'Required Entra ID Groups': component(
    [
      'AzureAD/Group/SG-BreakGlass-Exclude.json',
      'AzureAD/Group/SG-License-M365-BusinessPremium.json',
    ],
    'function',
    ENTRA,
    'Creates the groups the baseline policies include and exclude.',
    'Low',
    {
      functionName: 'New-AegisGroups',
      command: 'New-AegisGroups -ClientCode $ClientCode -Set Required',
    },
  ),
  'MEM Groups': component(
    ['AzureAD/Group/SG-Intune-Pilot-Devices.json'],
    'function',
    ENTRA,
    'Creates the device groups Intune assignments target.',
    'Low',
    {
      functionName: 'New-AegisGroups',
      command: 'New-AegisGroups -ClientCode $ClientCode -Set MEM',
    },
  ),
  'Service Accounts': {
    ...component(
      [],
      'function',
      ENTRA,
      'Creates the service accounts the baseline automations sign in with.',
      'Medium',
      {
        functionName: 'New-AegisAccounts',
        command: 'New-AegisAccounts -ClientCode $ClientCode -Kind Service',
      },
    ),
    accounts: ['svc-aegis-automation', 'svc-scan-to-email'],
  },
  'AAD Consent Policy': component(
    ['AzureAD/DirectorySetting/Consent Policy Settings.json', 'AzureAD/AdminConsentRequestPolicy'],
    'multiple_files',
    AAD,
    'User consent settings for applications and the admin consent request workflow.',
  ),
  'Authorization Policy': component(
    ['AzureAD/AuthorizationPolicy'],
    'directory',
    AAD,
    'Who may invite guests, register apps and read other users.',
  ),
  'Password Protection': component(
    [
      'AzureAD/DirectorySetting/Password Rule Settings.json',
      'AzureAD/DirectorySetting/Group.Unified.json',
      'AzureAD/AppManagementPolicy',
    ],
    'multiple_files',
    AAD,
    'Banned passwords and lockout, Microsoft 365 group creation and app credential rules.',
  ),
  // ---- Entra ID Security (11 authentication methods)
  'Authentication Methods Policy': component(
    ['AzureAD/AuthenticationMethodsPolicy'],
    'directory',
    ENTRA,
    'Registration campaign and system-preferred MFA of the authentication methods policy.',
    'High',
  ),
  'Microsoft Authenticator': method('MicrosoftAuthenticator', 'Microsoft Authenticator'),
  'FIDO2 Security Keys': method('Fido2', 'FIDO2 security key (passkey)'),
  'Temporary Access Pass': method('TemporaryAccessPass', 'Temporary Access Pass'),
  'SMS Sign-In': method('Sms', 'SMS'),
  'Voice Call': method('Voice', 'Voice call'),
  'Email OTP': method('Email', 'Email one-time passcode'),
  'Software OATH Tokens': method('SoftwareOath', 'Software OATH token'),
  'Hardware OATH Tokens': method('HardwareOath', 'Hardware OATH token'),
  'Certificate-Based Authentication': method('X509Certificate', 'Certificate-based (X.509)'),
  'QR Code Sign-In': method('QRCodePin', 'QR code'),
  // ---- Teams & Forms (3)
  'Teams Policies': component(
    ['Teams/MeetingPolicy', 'Teams/MessagingPolicy', 'Teams/AppPermissionPolicy'],
    'multiple_files',
    ORG,
    'Teams meeting, messaging and app permission policies.',
  ),
  'Teams External Access': component(
    [
      'Teams/FederationConfiguration',
      'Teams/GuestMeetingConfiguration',
      'Teams/ClientConfiguration',
    ],
    'multiple_files',
    ORG,
    'Federation with other organisations, guest meetings and Teams client settings.',
  ),
  Forms: component(
    ['Forms/FormsSettings', 'Planner/PlannerConfiguration'],
    'multiple_files',
    ORG,
    'Microsoft Forms external sharing and phishing protection, and Planner settings.',
    'Low',
  ),
  // ---- AD Policies (1)
  'Azure AD Policy Baseline': component(
    ['AzurePolicy/PolicyAssignment'],
    'directory',
    AAD,
    'Azure Policy assignments on the subscription (allowed locations, tags, security benchmark).',
    'High',
  ),
  // ---- Maintenance (1)
  'Maintenance Configurations': component(
    ['AzureMaintenance/MaintenanceConfiguration'],
    'directory',
    'Azure Maintenance Configurations',
    'Update Manager maintenance windows for Windows and Linux machines.',
  ),
  // ---- User Accounts (1)
  'Emergency Access Accounts': {
    ...component(
      [],
      'function',
      ORG,
      'Creates the two emergency access (break-glass) accounts.',
      'High',
      {
        functionName: 'New-AegisAccounts',
        command: 'New-AegisAccounts -ClientCode $ClientCode -Kind Emergency',
      },
    ),
    accounts: ['breakglass-01', 'breakglass-02'],
  },
};

/** Spec 2 §3: the deploy selection groups and their entries. */
export const DEPLOY_GROUPS: readonly {
  readonly label: string;
  readonly components: readonly string[];
}[] = [
  {
    label: 'Intune',
    components: [
      'Device Compliance',
      'Device Registration',
      'Auto Pilot',
      'Managed App',
      'iOS Apps',
      'Android Apps',
      'Deploy Intent',
      'Config Policies',
      'Windows Device Restrictions',
      'Endpoint Protection',
      'Windows Hello for Business',
      'Device Limit Restriction',
      'Health Scripts',
      'Management Scripts',
      'Clean-Up',
    ],
  },
  {
    label: 'Exchange Online',
    components: [
      'Org Customisation',
      'Org Config',
      'Org Configuration Compliance',
      'Anti Phishing',
      'ATP',
      'Safe Links',
      'Anti Spam',
      'Anti Malware',
      'Outbound Spam',
      'Transport Rules',
      'External Sender Tagging',
      'Remote Domains',
      'Sharing Policy',
      'OWA Policy',
      'DKIM',
      'Inbound Connector',
    ],
  },
  { label: 'SharePoint', components: ['SharePoint'] },
  {
    label: 'Entra ID Config',
    components: [
      'Named Locations',
      'Conditional Access Policies',
      'Required Entra ID Groups',
      'MEM Groups',
      'Service Accounts',
      'AAD Consent Policy',
      'Authorization Policy',
      'Password Protection',
    ],
  },
  {
    label: 'Entra ID Security',
    components: [
      'Authentication Methods Policy',
      'Microsoft Authenticator',
      'FIDO2 Security Keys',
      'Temporary Access Pass',
      'SMS Sign-In',
      'Voice Call',
      'Email OTP',
      'Software OATH Tokens',
      'Hardware OATH Tokens',
      'Certificate-Based Authentication',
      'QR Code Sign-In',
    ],
  },
  { label: 'Teams & Forms', components: ['Teams Policies', 'Teams External Access', 'Forms'] },
  { label: 'AD Policies', components: ['Azure AD Policy Baseline'] },
  { label: 'Maintenance', components: ['Maintenance Configurations'] },
  { label: 'User Accounts', components: ['Emergency Access Accounts'] },
];

const remove = (
  category: ComponentCategory,
  paths: string[],
  description: string,
  estimatedTime: string,
  impact: ComponentImpact = DEFAULT_COMPONENT_IMPACT,
  dependencies?: string,
): OffboardComponent => ({
  description,
  category,
  impact,
  estimatedTime,
  ...(dependencies ? { dependencies } : {}),
  action: 'remove',
  paths: paths.map((p) => `${R}/${p}`),
});
const revert = (
  category: ComponentCategory,
  paths: string[],
  description: string,
  estimatedTime: string,
): OffboardComponent => ({
  ...remove(category, paths, description, estimatedTime),
  action: 'revert',
});

/**
 * Off-board catalogue, keyed by display name (spec 2 §3), in the order a run removes them: what
 * references others (policies) before what they reference (named locations, groups).
 */
export const OFFBOARD_COMPONENTS: Readonly<Record<string, OffboardComponent>> = {
  'Remove Conditional Access Policies and Named Locations': remove(
    ENTRA,
    ['ConditionalAccess/Policy', 'ConditionalAccess/NamedLocation'],
    'Removes the baseline conditional access policies, then their named locations.',
    '3-5',
    'High',
    'Policies are removed before the named locations they reference. Users lose MFA and location controls.',
  ),
  'Remove Device Compliance': remove(
    INTUNE,
    ['Intune/DeviceCompliancePolicy'],
    'Removes the baseline device compliance policies.',
    '2-3',
    'High',
    'Conditional access policies requiring a compliant device will block every device.',
  ),
  'Remove Auto Pilot': remove(
    INTUNE,
    ['Intune/WindowsAutopilotDeploymentProfile'],
    'Removes the Windows Autopilot deployment profiles.',
    '1-2',
  ),
  'Remove Managed App': remove(
    INTUNE,
    ['Intune/AppProtectionPolicy'],
    'Removes the app protection policies.',
    '2-3',
    'High',
  ),
  'Remove iOS Apps': remove(
    INTUNE,
    ['Intune/MobileApp/Microsoft Authenticator (iOS).json'],
    'Removes the baseline iOS/iPadOS store apps.',
    '1-2',
    'Low',
  ),
  'Remove Android Apps': remove(
    INTUNE,
    ['Intune/MobileApp/Microsoft Authenticator (Android).json'],
    'Removes the baseline managed Google Play apps.',
    '1-2',
    'Low',
  ),
  'Remove Deploy Intent': remove(
    INTUNE,
    ['Intune/ConfigurationPolicy'],
    'Removes the settings catalog and security baseline intents.',
    '3-4',
    'High',
  ),
  'Remove Config Policies': remove(
    INTUNE,
    ['Intune/DeviceConfiguration'],
    'Removes the device configuration profiles.',
    '3-4',
  ),
  'Remove Health Scripts': remove(
    INTUNE,
    ['Intune/DeviceHealthScript'],
    'Removes the proactive remediation scripts.',
    '1-2',
    'Low',
  ),
  'Remove Management Scripts': remove(
    INTUNE,
    ['Intune/DeviceManagementScript'],
    'Removes the PowerShell scripts.',
    '1-2',
    'Low',
  ),
  'Remove Endpoint Protection': remove(
    INTUNE,
    ['Intune/DeviceConfiguration/Baseline - Windows - Endpoint Protection.json'],
    'Removes the Windows endpoint protection profile only.',
    '1-2',
    'High',
  ),
  'Remove Attack Surface Reduction': remove(
    INTUNE,
    ['Intune/ConfigurationPolicy/Baseline - Windows - Attack Surface Reduction.json'],
    'Removes the attack surface reduction rules policy only.',
    '1-2',
    'High',
  ),
  'Remove Windows Device Restrictions': remove(
    INTUNE,
    ['Intune/DeviceConfiguration/Baseline - Windows - Device Restrictions.json'],
    'Removes the Windows device restrictions profile only.',
    '1-2',
  ),
  'Remove Transport Rules': remove(
    EXO,
    ['Exchange/TransportRule'],
    'Removes the baseline mail flow rules.',
    '1-2',
  ),
  'Remove Safe Links': remove(
    EXO,
    ['Defender/SafeLinksRule', 'Defender/SafeLinksPolicy'],
    'Removes the baseline Safe Links rule, then its policy.',
    '1-2',
  ),
  'Remove Inbound Connector': remove(
    EXO,
    ['Exchange/InboundConnector'],
    'Removes the inbound connector from the mail filtering service.',
    '1-2',
    'High',
    'Mail from the filtering service is then accepted like any other mail.',
  ),
  'Revert Org Configuration to Default': revert(
    EXO,
    ['Exchange/OrganizationConfig/Organization Config.json'],
    'Sets the Exchange Online organisation settings back to the service defaults.',
    '1-2',
  ),
  'Revert Anti Phishing to Default': revert(
    EXO,
    ['Defender/AntiPhishPolicy'],
    'Sets the anti-phishing policy back to the service defaults.',
    '1-2',
  ),
  'Revert Teams to Default': revert(
    ORG,
    ['Teams/MeetingPolicy', 'Teams/MessagingPolicy', 'Teams/FederationConfiguration'],
    'Sets the Teams meeting, messaging and federation settings back to the service defaults.',
    '2-3',
  ),
  'Revert Forms to Default': revert(
    ORG,
    ['Forms/FormsSettings'],
    'Sets the Microsoft Forms settings back to the service defaults.',
    '1-2',
  ),
  'Remove Azure AD Policy Baseline': remove(
    AAD,
    ['AzurePolicy/PolicyAssignment'],
    'Removes the baseline Azure Policy assignments from the subscription.',
    '2-4',
  ),
  'Remove Maintenance Configurations': remove(
    'Azure Maintenance Configurations',
    ['AzureMaintenance/MaintenanceConfiguration'],
    'Removes the Update Manager maintenance windows.',
    '1-2',
    'Low',
  ),
  'Remove MEM Groups': remove(
    ENTRA,
    ['AzureAD/Group/SG-Intune-Pilot-Devices.json'],
    'Removes the device groups Intune assignments target.',
    '1-2',
    'Medium',
    'Remove the Intune policies assigned to these groups first.',
  ),
  'Remove Required Entra ID Groups': remove(
    ENTRA,
    [
      'AzureAD/Group/SG-BreakGlass-Exclude.json',
      'AzureAD/Group/SG-License-M365-BusinessPremium.json',
    ],
    'Removes the groups the baseline created.',
    '1-2',
    'Medium',
    'Remove the policies that reference these groups first.',
  ),
  'Remove User Accounts': {
    ...remove(
      ORG,
      [],
      'Removes the service and emergency access accounts the baseline created.',
      '5-7',
      'High',
      'Sign-ins of automations using the service accounts stop working.',
    ),
    accounts: Object.keys(DIRECTORY_ACCOUNTS),
  },
};

/** Spec 2 §3: the off-board groups; the other entries belong to no group. */
export const OFFBOARD_GROUPS: readonly {
  readonly label: string;
  readonly components: readonly string[];
}[] = [
  {
    label: 'Intune',
    components: [
      'Remove Device Compliance',
      'Remove Auto Pilot',
      'Remove Managed App',
      'Remove iOS Apps',
      'Remove Android Apps',
      'Remove Deploy Intent',
      'Remove Config Policies',
      'Remove Health Scripts',
      'Remove Management Scripts',
      'Remove Endpoint Protection',
      'Remove Attack Surface Reduction',
      'Remove Windows Device Restrictions',
    ],
  },
  { label: 'Exchange', components: ['Remove Transport Rules'] },
  {
    label: 'Entra ID Config',
    components: ['Remove MEM Groups', 'Remove Required Entra ID Groups'],
  },
  { label: 'User Account Removal', components: ['Remove User Accounts'] },
];

/** Off-board entries that belong to no group, in catalogue order. */
export const UNGROUPED_OFFBOARD_COMPONENTS: readonly string[] = Object.keys(
  OFFBOARD_COMPONENTS,
).filter((name) => !OFFBOARD_GROUPS.some((g) => g.components.includes(name)));
