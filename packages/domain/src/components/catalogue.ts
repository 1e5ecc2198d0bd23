// The baseline component catalogue (spec 2 §3): entries keyed by display name, each pointing into
// the company baseline on main. Deploy applies them to a tenant and off-board removes or reverts
// them (issue 11); the Tenant baseline screen lists them (issue 15 completes the groups, presets and
// estimates on this same shape).

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
  functionName?: string;
  command?: string;
}

export interface OffboardComponent {
  description: string;
  impact: ComponentImpact;
  /** range text such as '2-3' (minutes) */
  estimatedTime: string;
  dependencies?: string;
  /** 'remove' deletes the objects; 'revert' sets them back to the service's default */
  action: 'remove' | 'revert';
  /** baseline paths whose objects (matched in the tenant by id, then display name) it affects */
  paths: readonly string[];
}

const R = 'M365Config/Resources';
const component = (
  paths: string[],
  type: ComponentType,
  category: ComponentCategory,
  description: string,
  impact: ComponentImpact = DEFAULT_COMPONENT_IMPACT,
  fn?: { functionName: string; command: string },
): BaselineComponent => ({
  repoId: COMPONENT_REPOSITORY,
  paths: paths.map((p) => `${R}/${p}`),
  type,
  description,
  category,
  impact,
  ...fn,
});

/** Deploy catalogue, keyed by display name. */
export const BASELINE_COMPONENTS: Readonly<Record<string, BaselineComponent>> = {
  'Device Compliance': component(
    ['Intune/DeviceCompliancePolicy'],
    'directory',
    'Microsoft Intune Configuration',
    'Device compliance policies for Windows, macOS, iOS/iPadOS and Android.',
    'High',
  ),
  'Auto Pilot': component(
    ['Intune/WindowsAutopilotDeploymentProfile'],
    'directory',
    'Microsoft Intune Configuration',
    'Windows Autopilot deployment profiles.',
  ),
  'Managed App': component(
    ['Intune/AppProtectionPolicy'],
    'directory',
    'Microsoft Intune Configuration',
    'App protection policies for managed mobile apps.',
  ),
  'Deploy Intent': component(
    ['Intune/ConfigurationPolicy'],
    'directory',
    'Microsoft Intune Configuration',
    'Settings catalog and security baseline intents.',
  ),
  'Config Policies': component(
    ['Intune/DeviceConfiguration'],
    'directory',
    'Microsoft Intune Configuration',
    'Device configuration profiles.',
  ),
  'Device Registration': component(
    ['Intune/DeviceEnrollmentConfiguration', 'AzureAD/DeviceRegistrationPolicy'],
    'multiple_files',
    'Microsoft Intune Configuration',
    'Enrollment restrictions and the device registration policy.',
  ),
  'Anti Phishing': component(
    ['Defender/AntiPhishPolicy'],
    'directory',
    'Exchange Online Configuration',
    'Defender for Office 365 anti-phishing policies.',
    'High',
  ),
  'Org Configuration Compliance': component(
    ['Exchange/OrganizationConfig/Organization Config.json'],
    'single_file',
    'Exchange Online Configuration',
    'Exchange Online organisation settings (auditing, mail tips, modern authentication).',
  ),
  'Transport Rules': component(
    ['Exchange/TransportRule'],
    'directory',
    'Exchange Online Configuration',
    'Mail flow rules such as the external sender warning.',
  ),
  'Safe Links': component(
    ['Defender/SafeLinksPolicy', 'Defender/SafeLinksRule'],
    'multiple_files',
    'Exchange Online Configuration',
    'Safe Links policy and the rule that applies it.',
  ),
  SharePoint: component(
    ['SharePoint/SPOTenant'],
    'directory',
    'SharePoint Configuration',
    'SharePoint and OneDrive sharing settings.',
  ),
  'Named Locations': component(
    ['ConditionalAccess/NamedLocation'],
    'directory',
    'Entra ID Configuration',
    'Named locations used by conditional access policies.',
  ),
  'Conditional Access Policies': component(
    ['ConditionalAccess/Policy'],
    'directory',
    'Entra ID Configuration',
    'Conditional access policies of the company baseline.',
    'High',
  ),
  'AAD Consent Policy': component(
    ['AzureAD/DirectorySetting/Consent Policy Settings.json'],
    'single_file',
    'Azure AD Configuration',
    'User consent settings for applications.',
  ),
  'Required Entra ID Groups': component(
    ['AzureAD/Group'],
    'function',
    'Entra ID Configuration',
    'Creates the groups the baseline policies include and exclude.',
    'Low',
    {
      functionName: 'New-AegisRequiredGroups',
      command: 'New-AegisRequiredGroups -ClientCode $ClientCode',
    },
  ),
};

/** Off-board catalogue, keyed by display name. */
export const OFFBOARD_COMPONENTS: Readonly<Record<string, OffboardComponent>> = {
  'Remove Transport Rules': {
    description: 'Removes the baseline mail flow rules.',
    impact: 'Medium',
    estimatedTime: '1-2',
    action: 'remove',
    paths: [`${R}/Exchange/TransportRule`],
  },
  'Remove Safe Links': {
    description: 'Removes the baseline Safe Links policy and rule.',
    impact: 'Medium',
    estimatedTime: '1-2',
    action: 'remove',
    paths: [`${R}/Defender/SafeLinksRule`, `${R}/Defender/SafeLinksPolicy`],
  },
  'Remove Conditional Access Policies and Named Locations': {
    description: 'Removes the baseline conditional access policies, then their named locations.',
    impact: 'High',
    estimatedTime: '3-5',
    dependencies: 'Policies are removed before the named locations they reference.',
    action: 'remove',
    paths: [`${R}/ConditionalAccess/Policy`, `${R}/ConditionalAccess/NamedLocation`],
  },
  'Remove Device Compliance': {
    description: 'Removes the baseline device compliance policies.',
    impact: 'High',
    estimatedTime: '2-3',
    action: 'remove',
    paths: [`${R}/Intune/DeviceCompliancePolicy`],
  },
  'Remove Required Entra ID Groups': {
    description: 'Removes the groups the baseline created.',
    impact: 'Medium',
    estimatedTime: '1-2',
    dependencies: 'Remove the policies that reference these groups first.',
    action: 'remove',
    paths: [`${R}/AzureAD/Group`],
  },
  'Revert Org Configuration to Default': {
    description: 'Sets the Exchange Online organisation settings back to the service defaults.',
    impact: 'Medium',
    estimatedTime: '1-2',
    action: 'revert',
    paths: [`${R}/Exchange/OrganizationConfig/Organization Config.json`],
  },
};
