// Conditional Access policies and named locations, shaped as Graph beta exports them
// (identity/conditionalAccess/policies), after the public j0eyv/ConditionalAccessBaseline set.
import type { TenantContext } from '../tenant-context';

import { graphEntity, type Json, type JsonObject, type PolicyDef } from './types';

/** Well-known directory role template ids (identical in every tenant). */
const ROLES = {
  globalAdministrator: '62e90394-69f5-4237-9190-012177145e10',
  securityAdministrator: '194ae4cb-b126-40b2-bd5b-6091b380977d',
  exchangeAdministrator: '29232cdf-9323-42fd-ade2-1d097af3e4de',
  sharePointAdministrator: 'f28a1f50-f6e7-4571-818b-6a12f2af6b6c',
  conditionalAccessAdministrator: 'b1be1c3e-b65d-4f19-8427-f6fa0d97feb9',
  intuneAdministrator: '3a2c62db-5318-420d-8d74-23affee5d9d5',
  privilegedRoleAdministrator: 'e8611ab8-c189-46e8-94e1-60213ab1f814',
  userAdministrator: 'fe930be7-5e62-47db-91af-98c3a49a38b1',
} as const;

const ADMIN_ROLES = Object.values(ROLES);
const AZURE_MANAGEMENT_APP = '797f4846-ba00-4fd7-ba43-dac1f8f63013';

interface CaSpec {
  displayName: string;
  state?: 'enabled' | 'disabled' | 'enabledForReportingButNotEnforced';
  users?: {
    includeUsers?: string[];
    includeRoles?: string[];
    includeGroups?: string[];
    guests?: boolean;
  };
  applications?: {
    includeApplications?: string[];
    excludeApplications?: string[];
    includeUserActions?: string[];
  };
  clientAppTypes?: string[];
  platforms?: { includePlatforms: string[]; excludePlatforms: string[] } | null;
  locations?: { includeLocations: string[]; excludeLocations: string[] } | null;
  signInRiskLevels?: string[];
  userRiskLevels?: string[];
  authenticationFlows?: { transferMethods: string } | null;
  grant?: {
    operator: 'OR' | 'AND';
    builtInControls: string[];
    authenticationStrength?: { id: string; displayName: string; allowedCombinations: string[] };
  } | null;
  session?: JsonObject | null;
}

/** Group excluded from every policy (emergency access accounts, Maester MT.1005). */
function breakGlassGroupId(ctx: TenantContext): string {
  return ctx.guid('group:SG-BreakGlass-Exclude');
}

function caPolicy(ctx: TenantContext, spec: CaSpec): JsonObject {
  const seed = `ca:${spec.displayName.slice(0, 5)}`;
  const users = spec.users ?? { includeUsers: ['All'] };
  const guests: Json = users.guests
    ? {
        guestOrExternalUserTypes:
          'internalGuest,b2bCollaborationGuest,b2bCollaborationMember,b2bDirectConnectUser,otherExternalUser,serviceProvider',
        externalTenants: {
          '@odata.type': '#microsoft.graph.conditionalAccessAllExternalTenants',
          membershipKind: 'all',
        },
      }
    : null;
  return graphEntity(
    ctx,
    seed,
    'identity/conditionalAccess/policies',
    '#microsoft.graph.conditionalAccessPolicy',
    {
      templateId: null,
      displayName: spec.displayName,
      createdDateTime: ctx.date(`${seed}:c`),
      modifiedDateTime: ctx.date(`${seed}:m`, 60),
      state: spec.state ?? 'enabled',
      partialEnablementStrategy: null,
      sessionControls: spec.session ?? null,
      conditions: {
        userRiskLevels: spec.userRiskLevels ?? [],
        signInRiskLevels: spec.signInRiskLevels ?? [],
        clientAppTypes: spec.clientAppTypes ?? ['all'],
        servicePrincipalRiskLevels: [],
        platforms: spec.platforms ?? null,
        locations: spec.locations ?? null,
        times: null,
        deviceStates: null,
        devices: null,
        clientApplications: null,
        authenticationFlows: spec.authenticationFlows ?? null,
        applications: {
          includeApplications: spec.applications?.includeApplications ?? ['All'],
          excludeApplications: spec.applications?.excludeApplications ?? [],
          includeUserActions: spec.applications?.includeUserActions ?? [],
          includeAuthenticationContextClassReferences: [],
          applicationFilter: null,
        },
        users: {
          includeUsers: users.guests ? [] : (users.includeUsers ?? []),
          excludeUsers: [],
          includeGroups: users.includeGroups ?? [],
          excludeGroups: [breakGlassGroupId(ctx)],
          includeRoles: users.includeRoles ?? [],
          excludeRoles: [],
          includeGuestsOrExternalUsers: guests,
          excludeGuestsOrExternalUsers: null,
        },
      },
      grantControls:
        spec.grant === null
          ? null
          : {
              operator: spec.grant?.operator ?? 'OR',
              builtInControls: spec.grant?.builtInControls ?? ['mfa'],
              customAuthenticationFactors: [],
              termsOfUse: [],
              authenticationStrength: spec.grant?.authenticationStrength
                ? {
                    id: spec.grant.authenticationStrength.id,
                    displayName: spec.grant.authenticationStrength.displayName,
                    policyType: 'builtIn',
                    requirementsSatisfied: 'mfa',
                    allowedCombinations: spec.grant.authenticationStrength.allowedCombinations,
                  }
                : null,
            },
    },
    'none',
  );
}

const ca = (
  name: string,
  spec: (ctx: TenantContext) => Omit<CaSpec, 'displayName'>,
): PolicyDef => ({
  category: 'ConditionalAccess',
  kind: 'Policy',
  name,
  build: (ctx) => caPolicy(ctx, { displayName: name, ...spec(ctx) }),
});

const ALLOWED_COUNTRIES = ['NL', 'BE', 'DE', 'GB', 'IE', 'FR', 'US'];

export const conditionalAccessPolicies: PolicyDef[] = [
  ca('CA000-Global-IdentityProtection-AnyApp-AnyPlatform-MFA', () => ({})),
  ca('CA001-Global-AttackSurfaceReduction-AnyApp-AnyPlatform-BLOCK-CountryWhitelist', (ctx) => ({
    locations: {
      includeLocations: ['All'],
      excludeLocations: [ctx.guid('location:ALLOWED COUNTRIES')],
    },
    grant: { operator: 'OR', builtInControls: ['block'] },
  })),
  ca('CA002-Global-IdentityProtection-AnyApp-AnyPlatform-Block-LegacyAuthentication', () => ({
    clientAppTypes: ['exchangeActiveSync', 'other'],
    grant: { operator: 'OR', builtInControls: ['block'] },
  })),
  ca('CA003-Global-IdentityProtection-AnyApp-AnyPlatform-PasswordChange-HighUserRisk', () => ({
    userRiskLevels: ['high'],
    grant: { operator: 'AND', builtInControls: ['mfa', 'passwordChange'] },
    session: {
      signInFrequency: {
        value: null,
        type: null,
        authenticationType: 'primaryAndSecondaryAuthentication',
        frequencyInterval: 'everyTime',
        isEnabled: true,
      },
    },
  })),
  ca('CA004-Global-IdentityProtection-AnyApp-AnyPlatform-MFA-RiskySignIn', () => ({
    signInRiskLevels: ['high', 'medium'],
    grant: { operator: 'OR', builtInControls: ['mfa'] },
  })),
  ca('CA005-Global-IdentityProtection-RegisterSecurityInfo-TrustedLocations', () => ({
    applications: {
      includeApplications: [],
      includeUserActions: ['urn:user:registersecurityinfo'],
    },
    locations: { includeLocations: ['All'], excludeLocations: ['AllTrusted'] },
    grant: { operator: 'OR', builtInControls: ['block'] },
  })),
  ca('CA006-Global-AttackSurfaceReduction-AnyApp-UnsupportedPlatforms-BLOCK', () => ({
    platforms: {
      includePlatforms: ['all'],
      excludePlatforms: ['android', 'iOS', 'windows', 'macOS'],
    },
    grant: { operator: 'OR', builtInControls: ['block'] },
  })),
  ca('CA007-Global-IdentityProtection-AzureManagement-AnyPlatform-MFA', () => ({
    applications: { includeApplications: [AZURE_MANAGEMENT_APP] },
  })),
  ca('CA008-Global-AttackSurfaceReduction-AnyApp-AnyPlatform-BLOCK-DeviceCodeFlow', () => ({
    authenticationFlows: { transferMethods: 'deviceCodeFlow' },
    grant: { operator: 'OR', builtInControls: ['block'] },
  })),
  ca('CA100-Admins-IdentityProtection-AnyApp-AnyPlatform-MFA', () => ({
    users: { includeRoles: ADMIN_ROLES },
  })),
  ca('CA102-Admins-IdentityProtection-AllApps-AnyPlatform-SigninFrequency', () => ({
    users: { includeRoles: ADMIN_ROLES },
    grant: { operator: 'OR', builtInControls: ['mfa'] },
    session: {
      applicationEnforcedRestrictions: null,
      cloudAppSecurity: null,
      continuousAccessEvaluation: null,
      secureSignInSession: null,
      disableResilienceDefaults: null,
      signInFrequency: {
        value: 12,
        type: 'hours',
        authenticationType: 'primaryAndSecondaryAuthentication',
        frequencyInterval: 'timeBased',
        isEnabled: true,
      },
      persistentBrowser: { mode: 'never', isEnabled: true },
    },
  })),
  ca('CA105-Admins-IdentityProtection-AnyApp-AnyPlatform-PhishingResistantMFA', () => ({
    users: { includeRoles: ADMIN_ROLES },
    grant: {
      operator: 'OR',
      builtInControls: [],
      authenticationStrength: {
        id: '00000000-0000-0000-0000-000000000004',
        displayName: 'Phishing-resistant MFA',
        allowedCombinations: ['windowsHelloForBusiness', 'fido2', 'x509CertificateMultiFactor'],
      },
    },
  })),
  ca('CA106-Admins-BaseProtection-AnyApp-AnyPlatform-CompliantOrHybridJoined', () => ({
    users: { includeRoles: ADMIN_ROLES },
    grant: { operator: 'OR', builtInControls: ['compliantDevice', 'domainJoinedDevice'] },
  })),
  ca('CA200-Internals-BaseProtection-AnyApp-Windows-CompliantOrHAADJ', () => ({
    platforms: { includePlatforms: ['windows'], excludePlatforms: [] },
    grant: { operator: 'OR', builtInControls: ['compliantDevice', 'domainJoinedDevice'] },
  })),
  ca('CA201-Internals-DataProtection-Office365-Mobile-AppProtection', () => ({
    applications: { includeApplications: ['Office365'] },
    platforms: { includePlatforms: ['android', 'iOS'], excludePlatforms: [] },
    grant: { operator: 'OR', builtInControls: ['compliantApplication'] },
  })),
  ca('CA400-Guests-IdentityProtection-AnyApp-AnyPlatform-MFA', () => ({
    users: { guests: true },
  })),
];

export const namedLocations: PolicyDef[] = [
  {
    category: 'ConditionalAccess',
    kind: 'NamedLocation',
    name: 'ALLOWED COUNTRIES',
    build: (ctx) =>
      graphEntity(
        ctx,
        'location:ALLOWED COUNTRIES',
        'identity/conditionalAccess/namedLocations',
        '#microsoft.graph.countryNamedLocation',
        {
          displayName: 'ALLOWED COUNTRIES',
          countriesAndRegions: ALLOWED_COUNTRIES,
          includeUnknownCountriesAndRegions: false,
          countryLookupMethod: 'clientIpAddress',
        },
        'created-modified',
      ),
  },
  {
    category: 'ConditionalAccess',
    kind: 'NamedLocation',
    name: 'Head Office',
    build: (ctx) =>
      graphEntity(
        ctx,
        'location:Head Office',
        'identity/conditionalAccess/namedLocations',
        '#microsoft.graph.ipNamedLocation',
        {
          displayName: 'Head Office',
          isTrusted: true,
          ipRanges: [
            {
              '@odata.type': '#microsoft.graph.iPv4CidrRange',
              cidrAddress: `203.0.113.${(ctx.guid('ip').charCodeAt(0) % 200) + 16}/32`,
            },
          ],
        },
        'created-modified',
      ),
  },
];
