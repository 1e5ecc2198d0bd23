// Entra ID (Azure AD) directory settings, authorization and authentication-method policies, device
// registration and the prerequisite groups, shaped as Graph beta returns them.
import type { TenantContext } from '../tenant-context';

import { graphEntity, type JsonObject, type PolicyDef } from './types';

const directorySetting = (
  name: string,
  templateId: string,
  values: Record<string, string> | ((ctx: TenantContext) => Record<string, string>),
): PolicyDef => ({
  category: 'AzureAD',
  kind: 'DirectorySetting',
  name,
  build: (ctx) =>
    graphEntity(
      ctx,
      `setting:${name}`,
      'settings',
      undefined,
      {
        displayName: name,
        templateId,
        values: Object.entries(typeof values === 'function' ? values(ctx) : values).map(
          ([n, value]) => ({ name: n, value }),
        ),
      },
      'none',
    ),
});

const methodConfiguration = (
  name: string,
  odataType: string,
  props: (ctx: TenantContext) => JsonObject,
): PolicyDef => ({
  category: 'AzureAD',
  kind: 'AuthenticationMethodConfiguration',
  name,
  build: (ctx) => ({
    '@odata.context':
      'https://graph.microsoft.com/beta/$metadata#policies/authenticationMethodsPolicy/authenticationMethodConfigurations/$entity',
    '@odata.type': odataType,
    id: name,
    ...props(ctx),
  }),
});

const allUsersTarget = [{ targetType: 'group', id: 'all_users', isRegistrationRequired: false }];

const group = (
  name: string,
  description: string,
  securityEnabled = true,
  membershipRule?: string,
): PolicyDef => ({
  category: 'AzureAD',
  kind: 'Group',
  name,
  build: (ctx) =>
    graphEntity(
      ctx,
      `group:${name}`,
      'groups',
      undefined,
      {
        deletedDateTime: null,
        classification: null,
        createdDateTime: ctx.date(`group:${name}:c`),
        description,
        displayName: name,
        groupTypes: membershipRule ? ['DynamicMembership'] : [],
        isAssignableToRole: name.includes('BreakGlass') ? true : null,
        mailEnabled: false,
        mailNickname: name.replace(/[^A-Za-z0-9-]/g, ''),
        membershipRule: membershipRule ?? null,
        membershipRuleProcessingState: membershipRule ? 'On' : null,
        securityEnabled,
        visibility: null,
      },
      'none',
    ),
});

export const azureAdPolicies: PolicyDef[] = [
  {
    category: 'AzureAD',
    kind: 'AuthorizationPolicy',
    name: 'Authorization Policy',
    build: () => ({
      '@odata.context':
        'https://graph.microsoft.com/beta/$metadata#policies/authorizationPolicy/$entity',
      id: 'authorizationPolicy',
      allowInvitesFrom: 'adminsAndGuestInviters',
      allowedToSignUpEmailBasedSubscriptions: false,
      allowedToUseSSPR: true,
      allowEmailVerifiedUsersToJoinOrganization: false,
      allowUserConsentForRiskyApps: false,
      blockMsolPowerShell: true,
      description: 'Used to manage authorization related settings across the company.',
      displayName: 'Authorization Policy',
      enabledPreviewFeatures: [],
      guestUserRoleId: '2af84b1e-32c8-42b7-82bc-daa82404023b',
      permissionGrantPolicyIdsAssignedToDefaultUserRole: [
        'ManagePermissionGrantsForOwnedResource.microsoft-dynamically-managed-permissions-for-team',
        'ManagePermissionGrantsForOwnedResource.microsoft-dynamically-managed-permissions-for-chat',
      ],
      defaultUserRolePermissions: {
        allowedToCreateApps: false,
        allowedToCreateSecurityGroups: false,
        allowedToCreateTenants: false,
        allowedToReadBitlockerKeysForOwnedDevice: true,
        allowedToReadOtherUsers: true,
        permissionGrantPoliciesAssigned: [],
      },
    }),
  },
  directorySetting('Group.Unified', '62375ab9-6b52-47ed-826b-58e47e0e304b', (ctx) => ({
    NewUnifiedGroupWritebackDefault: 'true',
    EnableMIPLabels: 'true',
    CustomBlockedWordsList: '',
    EnableMSStandardBlockedWords: 'true',
    ClassificationDescriptions: '',
    DefaultClassification: '',
    PrefixSuffixNamingRequirement: 'GRP-[GroupName]',
    AllowGuestsToBeGroupOwner: 'false',
    AllowGuestsToAccessGroups: 'true',
    GuestUsageGuidelinesUrl: '',
    // a tenant parameter: each tenant's own group (ADR 068)
    GroupCreationAllowedGroupId: ctx.parameter('groupCreatorsGroupId'),
    AllowToAddGuests: 'false',
    UsageGuidelinesUrl: '',
    ClassificationList: '',
    EnableGroupCreation: 'false',
  })),
  directorySetting('Password Rule Settings', '5cf42378-d67d-4f36-ba46-e8b86229381d', {
    BannedPasswordCheckOnPremisesMode: 'Enforce',
    EnableBannedPasswordCheckOnPremises: 'True',
    EnableBannedPasswordCheck: 'True',
    LockoutDurationInSeconds: '60',
    LockoutThreshold: '10',
    BannedPasswordList: 'password\twelcome\tsummer\twinter\tcompany',
  }),
  directorySetting('Consent Policy Settings', 'dffd5d46-495d-40a9-8e21-954ff55e198a', {
    EnableGroupSpecificConsent: 'false',
    BlockUserConsentForRiskyApps: 'true',
    EnableAdminConsentRequests: 'true',
    ConstrainGroupSpecificConsentToMembersOfGroupId: '',
  }),
  {
    category: 'AzureAD',
    kind: 'AuthenticationMethodsPolicy',
    name: 'Authentication Methods Policy',
    build: (ctx) => ({
      '@odata.context':
        'https://graph.microsoft.com/beta/$metadata#policies/authenticationMethodsPolicy/$entity',
      id: 'authenticationMethodsPolicy',
      displayName: 'Authentication Methods Policy',
      description:
        'The tenant-wide policy that controls which authentication methods are allowed in the tenant, authentication method registration requirements, and self-service password reset settings',
      lastModifiedDateTime: ctx.date('amp:m', 60),
      policyVersion: '1.5',
      policyMigrationState: 'migrationComplete',
      registrationEnforcement: {
        authenticationMethodsRegistrationCampaign: {
          snoozeDurationInDays: 1,
          enforceRegistrationAfterAllowedSnoozes: true,
          state: 'enabled',
          excludeTargets: [],
          includeTargets: [
            {
              id: 'all_users',
              targetType: 'group',
              targetedAuthenticationMethod: 'microsoftAuthenticator',
            },
          ],
        },
      },
      reportSuspiciousActivitySettings: {
        state: 'enabled',
        voiceReportingCode: 0,
        includeTarget: { targetType: 'group', id: 'all_users' },
      },
      systemCredentialPreferences: {
        state: 'enabled',
        excludeTargets: [],
        includeTargets: [{ id: 'all_users', targetType: 'group' }],
      },
    }),
  },
  methodConfiguration('Fido2', '#microsoft.graph.fido2AuthenticationMethodConfiguration', () => ({
    state: 'enabled',
    isSelfServiceRegistrationAllowed: true,
    isAttestationEnforced: true,
    excludeTargets: [],
    keyRestrictions: { isEnforced: false, enforcementType: 'block', aaGuids: [] },
    includeTargets: allUsersTarget,
  })),
  methodConfiguration(
    'MicrosoftAuthenticator',
    '#microsoft.graph.microsoftAuthenticatorAuthenticationMethodConfiguration',
    () => ({
      state: 'enabled',
      isSoftwareOathEnabled: false,
      excludeTargets: [],
      featureSettings: {
        displayAppInformationRequiredState: {
          state: 'enabled',
          includeTarget: { targetType: 'group', id: 'all_users' },
          excludeTarget: { targetType: 'group', id: '00000000-0000-0000-0000-000000000000' },
        },
        displayLocationInformationRequiredState: {
          state: 'enabled',
          includeTarget: { targetType: 'group', id: 'all_users' },
          excludeTarget: { targetType: 'group', id: '00000000-0000-0000-0000-000000000000' },
        },
        numberMatchingRequiredState: {
          state: 'enabled',
          includeTarget: { targetType: 'group', id: 'all_users' },
          excludeTarget: { targetType: 'group', id: '00000000-0000-0000-0000-000000000000' },
        },
      },
      includeTargets: [
        {
          targetType: 'group',
          id: 'all_users',
          isRegistrationRequired: false,
          authenticationMode: 'any',
        },
      ],
    }),
  ),
  methodConfiguration('Sms', '#microsoft.graph.smsAuthenticationMethodConfiguration', () => ({
    state: 'disabled',
    excludeTargets: [],
    includeTargets: [],
  })),
  methodConfiguration(
    'TemporaryAccessPass',
    '#microsoft.graph.temporaryAccessPassAuthenticationMethodConfiguration',
    () => ({
      state: 'enabled',
      defaultLifetimeInMinutes: 60,
      defaultLength: 8,
      minimumLifetimeInMinutes: 60,
      maximumLifetimeInMinutes: 480,
      isUsableOnce: true,
      excludeTargets: [],
      includeTargets: allUsersTarget,
    }),
  ),
  methodConfiguration('Voice', '#microsoft.graph.voiceAuthenticationMethodConfiguration', () => ({
    state: 'disabled',
    isOfficePhoneAllowed: false,
    excludeTargets: [],
    includeTargets: [],
  })),
  methodConfiguration(
    'SoftwareOath',
    '#microsoft.graph.softwareOathAuthenticationMethodConfiguration',
    () => ({ state: 'enabled', excludeTargets: [], includeTargets: allUsersTarget }),
  ),
  methodConfiguration(
    'HardwareOath',
    '#microsoft.graph.hardwareOathAuthenticationMethodConfiguration',
    () => ({ state: 'disabled', excludeTargets: [], includeTargets: [] }),
  ),
  methodConfiguration(
    'X509Certificate',
    '#microsoft.graph.x509CertificateAuthenticationMethodConfiguration',
    () => ({
      state: 'disabled',
      excludeTargets: [],
      includeTargets: [],
      certificateUserBindings: [
        {
          x509CertificateField: 'PrincipalName',
          userProperty: 'onPremisesUserPrincipalName',
          priority: 1,
        },
      ],
      authenticationModeConfiguration: {
        x509CertificateAuthenticationDefaultMode: 'x509CertificateSingleFactor',
        rules: [],
      },
    }),
  ),
  methodConfiguration(
    'QRCodePin',
    '#microsoft.graph.qrCodePinAuthenticationMethodConfiguration',
    () => ({
      state: 'disabled',
      standardQRCodeLifetimeInDays: 365,
      pinLength: 8,
      excludeTargets: [],
      includeTargets: [],
    }),
  ),
  methodConfiguration('Email', '#microsoft.graph.emailAuthenticationMethodConfiguration', () => ({
    state: 'disabled',
    allowExternalIdToUseEmailOtp: 'disabled',
    excludeTargets: [],
    includeTargets: [],
  })),
  {
    category: 'AzureAD',
    kind: 'DeviceRegistrationPolicy',
    name: 'Device Registration Policy',
    build: () => ({
      '@odata.context':
        'https://graph.microsoft.com/beta/$metadata#policies/deviceRegistrationPolicy/$entity',
      id: 'deviceRegistrationPolicy',
      displayName: 'Device Registration Policy',
      description:
        'Tenant-wide policy that manages initial provisioning controls using quota restrictions, additional authentication and authorization checks',
      userDeviceQuota: 10,
      multiFactorAuthConfiguration: 'notRequired',
      azureADRegistration: {
        isAdminConfigurable: false,
        allowedToRegister: { '@odata.type': '#microsoft.graph.allDeviceRegistrationMembership' },
      },
      azureADJoin: {
        isAdminConfigurable: true,
        allowedToJoin: { '@odata.type': '#microsoft.graph.allDeviceRegistrationMembership' },
        localAdmins: {
          enableGlobalAdmins: true,
          registeringUsers: { '@odata.type': '#microsoft.graph.noDeviceRegistrationMembership' },
        },
      },
      localAdminPassword: { isEnabled: true },
    }),
  },
  {
    category: 'AzureAD',
    kind: 'AdminConsentRequestPolicy',
    name: 'Admin Consent Request Policy',
    build: (ctx) => ({
      '@odata.context':
        'https://graph.microsoft.com/beta/$metadata#policies/adminConsentRequestPolicy/$entity',
      isEnabled: true,
      notifyReviewers: true,
      remindersEnabled: true,
      requestDurationInDays: 30,
      version: 2,
      reviewers: [
        {
          query: `/groups/${ctx.guid('group:SG-Consent-Reviewers')}/transitiveMembers/microsoft.graph.user`,
          queryType: 'MicrosoftGraph',
          queryRoot: null,
        },
      ],
    }),
  },
  {
    category: 'AzureAD',
    kind: 'AppManagementPolicy',
    name: 'Default App Management Policy',
    build: () => ({
      '@odata.context':
        'https://graph.microsoft.com/beta/$metadata#policies/defaultAppManagementPolicy/$entity',
      id: '00000000-0000-0000-0000-000000000000',
      displayName: 'Default app management tenant policy',
      description:
        'Default tenant policy that enforces app management restrictions on applications and service principals.',
      isEnabled: true,
      applicationRestrictions: {
        passwordCredentials: [
          {
            restrictionType: 'passwordAddition',
            state: 'enabled',
            maxLifetime: null,
            restrictForAppsCreatedAfterDateTime: '2024-01-01T00:00:00Z',
          },
          {
            restrictionType: 'passwordLifetime',
            state: 'enabled',
            maxLifetime: 'P180D',
            restrictForAppsCreatedAfterDateTime: '2024-01-01T00:00:00Z',
          },
        ],
        keyCredentials: [
          {
            restrictionType: 'asymmetricKeyLifetime',
            state: 'enabled',
            maxLifetime: 'P365D',
            restrictForAppsCreatedAfterDateTime: '2024-01-01T00:00:00Z',
          },
        ],
      },
      servicePrincipalRestrictions: { passwordCredentials: [], keyCredentials: [] },
    }),
  },
  group('SG-BreakGlass-Exclude', 'Emergency access accounts excluded from Conditional Access'),
  group(
    'SG-Intune-Pilot-Devices',
    'Pilot ring for Intune configuration changes',
    true,
    '(device.deviceOSType -eq "Windows") and (device.devicePhysicalIds -any _ -eq "[OrderID]:Pilot")',
  ),
  group('SG-License-M365-BusinessPremium', 'Group based licensing: Microsoft 365 Business Premium'),
];
