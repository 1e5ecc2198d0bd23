// Fixed Microsoft identifiers, the same in every tenant (reference graph-arm-identity.md §1.8, §2.3).

export interface DirectoryRoleTemplate {
  readonly id: string;
  readonly displayName: string;
  readonly description: string;
}

/** Directory role templates (Entra built-in roles; template ids are immutable). */
export const DIRECTORY_ROLE_TEMPLATES: readonly DirectoryRoleTemplate[] = [
  {
    id: '62e90394-69f5-4237-9190-012177145e10',
    displayName: 'Global Administrator',
    description:
      'Can manage all aspects of Microsoft Entra ID and Microsoft services that use Microsoft Entra identities.',
  },
  {
    id: '29232cdf-9323-42fd-ade2-1d097af3e4de',
    displayName: 'Exchange Administrator',
    description: 'Can manage all aspects of the Exchange product.',
  },
  {
    id: '69091246-20e8-4a56-aa4d-066075b2a7a8',
    displayName: 'Teams Administrator',
    description: 'Can manage the Microsoft Teams service.',
  },
  {
    id: '0526716b-113d-4c15-b2c8-68e3c22b9f80',
    displayName: 'Authentication Policy Administrator',
    description:
      'Can create and manage the authentication methods policy, tenant-wide MFA settings, password protection policy, and verifiable credentials.',
  },
  {
    id: '7be44c8a-adaf-4e2a-84d6-ab2649e08a13',
    displayName: 'Privileged Authentication Administrator',
    description:
      'Can access to view, set and reset authentication method information for any user (admin or non-admin).',
  },
  {
    id: 'c4e39bd9-1100-46d3-8c65-fb160da0071f',
    displayName: 'Authentication Administrator',
    description:
      'Can access to view, set and reset authentication method information for any non-admin user.',
  },
  {
    id: 'e8611ab8-c189-46e8-94e1-60213ab1f814',
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
    id: '88d8e3e3-8f55-4a1e-953a-9b9898b8876b',
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
    name: 'acdd72a7-3385-48ef-bd42-f606fba81ae7',
    roleName: 'Reader',
    description: 'View all resources, but does not allow you to make any changes.',
  },
  {
    name: 'b24988ac-6180-42a0-ab88-20f7382dd24c',
    roleName: 'Contributor',
    description:
      'Grants full access to manage all resources, but does not allow you to assign roles in Azure RBAC, manage assignments in Azure Blueprints, or share image galleries.',
  },
  {
    name: '36243c78-bf99-498c-9df9-86d9f8d28608',
    roleName: 'Resource Policy Contributor',
    description:
      'Users with rights to create/modify resource policy, create support ticket and read resources/hierarchy.',
  },
  {
    name: '8e3af657-a8ff-443c-a75c-2fe8c4bcb635',
    roleName: 'Owner',
    description:
      'Grants full access to manage all resources, including the ability to assign roles in Azure RBAC.',
  },
  {
    name: '18d7d88d-d35e-4fb5-a5c3-7773c20a72d9',
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
