// Fixed Microsoft identifiers, the same in every tenant (reference graph-arm-identity.md §1.8, §2.3);
// the ids themselves come from the connectors, so the product and the emulator share one copy.
import { AZURE_ROLE_IDS } from '@aegis/connectors/arm';
import { DIRECTORY_ROLE_TEMPLATE_IDS as ROLE } from '@aegis/connectors/graph';

export interface DirectoryRoleTemplate {
  readonly id: string;
  readonly displayName: string;
  readonly description: string;
}

/** Directory role templates (Entra built-in roles; template ids are immutable). */
export const DIRECTORY_ROLE_TEMPLATES: readonly DirectoryRoleTemplate[] = [
  {
    id: ROLE.globalAdministrator,
    displayName: 'Global Administrator',
    description:
      'Can manage all aspects of Microsoft Entra ID and Microsoft services that use Microsoft Entra identities.',
  },
  {
    id: ROLE.exchangeAdministrator,
    displayName: 'Exchange Administrator',
    description: 'Can manage all aspects of the Exchange product.',
  },
  {
    id: ROLE.teamsAdministrator,
    displayName: 'Teams Administrator',
    description: 'Can manage the Microsoft Teams service.',
  },
  {
    id: ROLE.authenticationPolicyAdministrator,
    displayName: 'Authentication Policy Administrator',
    description:
      'Can create and manage the authentication methods policy, tenant-wide MFA settings, password protection policy, and verifiable credentials.',
  },
  {
    id: ROLE.privilegedAuthenticationAdministrator,
    displayName: 'Privileged Authentication Administrator',
    description:
      'Can access to view, set and reset authentication method information for any user (admin or non-admin).',
  },
  {
    id: ROLE.authenticationAdministrator,
    displayName: 'Authentication Administrator',
    description:
      'Can access to view, set and reset authentication method information for any non-admin user.',
  },
  {
    id: ROLE.privilegedRoleAdministrator,
    displayName: 'Privileged Role Administrator',
    description:
      'Can manage role assignments in Microsoft Entra ID, and all aspects of Privileged Identity Management.',
  },
  {
    id: 'e3973bdf-4987-49ae-837a-ba8e231c7286',
    displayName: 'Azure DevOps Administrator',
    description: 'Can manage Azure DevOps policies and settings.',
  },
  {
    id: ROLE.directoryReaders,
    displayName: 'Directory Readers',
    description:
      'Can read basic directory information. Commonly used to grant directory read access to applications and guests.',
  },
];

export interface AzureRoleDefinition {
  /** the role definition GUID, the same in every subscription */
  readonly name: string;
  readonly roleName: string;
  readonly description: string;
}

/** Azure built-in roles (reference §2.3). */
export const AZURE_ROLE_DEFINITIONS: readonly AzureRoleDefinition[] = [
  {
    name: AZURE_ROLE_IDS.reader,
    roleName: 'Reader',
    description: 'View all resources, but does not allow you to make any changes.',
  },
  {
    name: AZURE_ROLE_IDS.contributor,
    roleName: 'Contributor',
    description:
      'Grants full access to manage all resources, but does not allow you to assign roles in Azure RBAC, manage assignments in Azure Blueprints, or share image galleries.',
  },
  {
    name: AZURE_ROLE_IDS.resourcePolicyContributor,
    roleName: 'Resource Policy Contributor',
    description:
      'Users with rights to create/modify resource policy, create support ticket and read resources/hierarchy.',
  },
  {
    name: AZURE_ROLE_IDS.owner,
    roleName: 'Owner',
    description:
      'Grants full access to manage all resources, including the ability to assign roles in Azure RBAC.',
  },
  {
    name: AZURE_ROLE_IDS.userAccessAdministrator,
    roleName: 'User Access Administrator',
    description: 'Lets you manage user access to Azure resources.',
  },
];

/** First-party service principals present in every tenant. */
export const FIRST_PARTY_APPS: readonly { appId: string; displayName: string }[] = [
  { appId: '00000003-0000-0000-c000-000000000000', displayName: 'Microsoft Graph' },
  { appId: '00000002-0000-0ff1-ce00-000000000000', displayName: 'Office 365 Exchange Online' },
  {
    appId: '797f4846-ba00-4fd7-ba43-dac1f8f63013',
    displayName: 'Windows Azure Service Management API',
  },
  { appId: '00000003-0000-0ff1-ce00-000000000000', displayName: 'Office 365 SharePoint Online' },
];

/**
 * Directory setting templates (GET /directorySettingTemplates): Microsoft's template ids and
 * names. Creating a directory setting (POST /settings) names one of them in `templateId`. The
 * emulator keeps no value definitions of its own for them (it does not invent defaults).
 */
export const DIRECTORY_SETTING_TEMPLATES: readonly { id: string; displayName: string }[] = [
  { id: '62375ab9-6b52-47ed-826b-58e47e0e304b', displayName: 'Group.Unified' },
  { id: '08d542b9-071f-4e16-94b0-74abb372e3d9', displayName: 'Group.Unified.Guest' },
  { id: '4bc7f740-180e-4586-adb6-38b2e9024e6b', displayName: 'Application' },
  { id: '5cf42378-d67d-4f36-ba46-e8b86229381d', displayName: 'Password Rule Settings' },
  { id: '80661d51-be2f-4d46-9713-98a2fcaec5bc', displayName: 'Prohibited Names Settings' },
  { id: '898f1161-d651-43d1-805c-3b0b388a9fc2', displayName: 'Custom Policy Settings' },
  {
    id: 'aad3907d-1d1a-448b-b3ef-7bf7f63db63b',
    displayName: 'Prohibited Names Restricted Settings',
  },
  { id: 'dffd5d46-495d-40a9-8e21-954ff55e198a', displayName: 'Consent Policy Settings' },
];
