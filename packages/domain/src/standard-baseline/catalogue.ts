import { MISSING } from '../comparison';
import { textOf } from '../formatting/formatting';

import {
  at,
  both,
  display,
  find,
  inPath,
  lowerList,
  prop,
  withKey,
  type ItemPredicate,
} from './access';
import {
  PRIVILEGED_ROLES,
  allApps,
  allUsers,
  apps,
  authenticationMethod,
  blocks,
  caCheck,
  directorySettingCheck,
  equalsCI,
  grant,
  isConditionalAccess,
  isFalse,
  isTrue,
  requiresMfa,
  settingCheck,
  targetsAdmins,
  users,
  type CheckMeta,
} from './builders';
import type { StandardCheck } from './types';

const CA = 'Conditional Access' as const;
const AD = 'Azure AD Settings' as const;
const DEV = 'Device Settings' as const;
const DEF = 'Defender for Office 365' as const;
const EXO = 'Exchange Security' as const;

const meta = (
  id: string,
  category: CheckMeta['category'],
  severity: CheckMeta['severity'],
  title: string,
  description: string,
  rationale: string,
  controlReference: string,
): CheckMeta => ({ id, category, severity, title, description, rationale, controlReference });

// ---- shapes (see README.md for the file locations the sample data uses) ----
const authorizationPolicy = withKey(
  'defaultUserRolePermissions',
  'allowInvitesFrom',
  'guestUserRoleId',
);
const deviceRegistrationPolicy = withKey('userDeviceQuota', 'azureADJoin', 'localAdminPassword');
const authMethodsPolicy = withKey('authenticationMethodConfigurations', 'policyMigrationState');
const remoteDomain = withKey('AutoForwardEnabled');
const outboundSpam = withKey('AutoForwardingMode');
const owaPolicy = withKey('BlockedFileTypes', 'AdditionalStorageProvidersAvailable');
const orgConfig = withKey('AuditDisabled', 'OAuth2ClientProfileEnabled', 'MailTipsAllTipsEnabled');
const transportConfig = withKey('SmtpClientAuthenticationDisabled');
const externalInOutlook = both(inPath('externalinoutlook'), withKey('Enabled'));
const dkim = both(inPath('dkim'), withKey('Enabled'));
const transportRule = inPath('transportrule');
const sharingPolicy = both(inPath('sharingpolicy'), withKey('Domains'));
const auditConfig = withKey('UnifiedAuditLogIngestionEnabled');
const safeLinks = withKey(
  'EnableSafeLinksForEmail',
  'EnableSafeLinksForTeams',
  'EnableSafeLinksForOffice',
);
const safeAttachments = both(inPath('safeattachment'), withKey('Enable', 'Action'));
const antiPhish = withKey(
  'EnableMailboxIntelligence',
  'ImpersonationProtectionState',
  'EnableSpoofIntelligence',
);
const atpForO365 = withKey('EnableATPForSPOTeamsODB', 'EnableSafeDocs');
const malwareFilter = withKey('EnableFileFilter');
const contentFilter = withKey('HighConfidenceSpamAction', 'AllowedSenderDomains');

const GROUP_UNIFIED = ['62375ab9-6b52-47ed-826b-58e47e0e304b', 'Group.Unified'] as const;
const CONSENT = ['dffd5d46-495d-40a9-8e21-954ff55e198a', 'Consent Policy Settings'] as const;
const PASSWORD_RULES = ['5cf42378-d67d-4f36-ba46-e8b86229381d', 'Password Rule Settings'] as const;
const LIMITED_GUEST = '10dae51f-b6af-4016-8d66-8c2a99b929b3';
const RESTRICTED_GUEST = '2af84b1e-32c8-42b7-82bc-daa82404023b';
const AZURE_MANAGEMENT = '797f4846-ba00-4fd7-ba43-dac1f8f63013';
const PHISHING_RESISTANT_STRENGTH = '00000000-0000-0000-0000-000000000004';

/** Auto-forwarding is off: false, 'Off' or 'Internal' (spec 1 §5). */
export const forwardingIsOff = (v: unknown): boolean =>
  v === false ||
  (typeof v === 'string' && ['off', 'Off', 'Internal', 'false', 'False'].includes(v));

const phishingResistant = (p: unknown): boolean => {
  const s = at(p, 'grantControls.authenticationStrength');
  return (
    textOf(prop(s, 'id') ?? '') === PHISHING_RESISTANT_STRENGTH ||
    textOf(prop(s, 'displayName') ?? '')
      .toLowerCase()
      .includes('phishing')
  );
};
const guests = (p: unknown): boolean =>
  users(p, 'includeUsers').includes('guestsorexternalusers') ||
  at(p, 'conditions.users.includeGuestsOrExternalUsers') != null;
const adminRoles = (p: unknown): boolean =>
  users(p, 'includeRoles').some((r) => PRIVILEGED_ROLES.includes(r));

const conditionalAccess: StandardCheck[] = [
  caCheck(
    meta(
      'MT.1001',
      CA,
      'medium',
      'At least one Conditional Access policy is configured with device compliance.',
      'An enabled Conditional Access policy requires a compliant device.',
      'Requiring compliant devices keeps unmanaged or unhealthy devices away from company data.',
      'Maester MT.1001',
    ),
    'An enabled policy with grant control compliantDevice',
    (p) => grant(p).includes('compliantdevice'),
  ),
  {
    ...meta(
      'MT.1002',
      CA,
      'high',
      'App management restrictions on applications and service principals is configured and enabled.',
      'The tenant app-management policy is enabled and restricts password credentials or long lifetimes.',
      'Restricting app secrets prevents long-lived credentials that attackers can steal and reuse.',
      'Maester MT.1002',
    ),
    evaluate(config) {
      const expected = 'Tenant app management policy enabled with credential restrictions';
      const items = find(
        config,
        withKey('applicationRestrictions', 'servicePrincipalRestrictions'),
      );
      const item = items.find((i) => prop(i.value, 'isEnabled') !== undefined) ?? items[0];
      if (!item) return { expected, current: MISSING, pass: false };
      const enabled = isTrue(prop(item.value, 'isEnabled'));
      const restrictions = lowerList(at(item.value, 'applicationRestrictions.passwordCredentials'));
      const restricted =
        list(at(item.value, 'applicationRestrictions.passwordCredentials')).length > 0 ||
        restrictions.length > 0;
      return {
        expected,
        current: enabled
          ? restricted
            ? 'Enabled with restrictions'
            : 'Enabled, no restrictions'
          : 'Disabled',
        pass: enabled && restricted,
        file: item.path,
      };
    },
  },
  caCheck(
    meta(
      'MT.1003',
      CA,
      'high',
      'At least one Conditional Access policy is configured with All Apps.',
      'An enabled Conditional Access policy includes all applications.',
      'Policies scoped to all apps leave no cloud app unprotected.',
      'Maester MT.1003',
    ),
    'An enabled policy including All applications',
    allApps,
  ),
  caCheck(
    meta(
      'MT.1004',
      CA,
      'high',
      'At least one Conditional Access policy is configured with All Apps and All Users.',
      'An enabled Conditional Access policy includes all applications and all users.',
      'A tenant-wide policy is the safety net that catches users and apps other policies miss.',
      'Maester MT.1004',
    ),
    'An enabled policy including All users and All applications',
    (p) => allApps(p) && allUsers(p),
  ),
  {
    ...meta(
      'MT.1005',
      CA,
      'high',
      'All Conditional Access policies are configured to exclude at least one emergency/break glass account or group.',
      'Every Conditional Access policy excludes a common emergency account or group.',
      'A break-glass account excluded from every policy keeps the tenant recoverable after a misconfiguration.',
      'Maester MT.1005',
    ),
    evaluate(config) {
      const expected = 'Every policy excludes a common emergency account or group';
      const policies = find(config, isConditionalAccess);
      if (policies.length === 0) return { expected, current: MISSING, pass: false };
      let common: Set<string> | undefined;
      for (const p of policies) {
        const ex = new Set([...users(p.value, 'excludeUsers'), ...users(p.value, 'excludeGroups')]);
        common = common ? new Set([...common].filter((x) => ex.has(x))) : ex;
      }
      const pass = (common?.size ?? 0) > 0;
      return {
        expected,
        current: pass
          ? `Common exclusion: ${[...(common ?? [])].join(', ')}`
          : 'No common exclusion',
        pass,
        file: policies[0]?.path,
      };
    },
  },
  caCheck(
    meta(
      'MT.1006',
      CA,
      'high',
      'At least one Conditional Access policy is configured to require MFA for admins.',
      'An enabled Conditional Access policy targets the privileged directory roles and requires MFA.',
      'Administrator accounts are the most valuable target; MFA blocks most credential attacks.',
      'Maester MT.1006',
    ),
    'An enabled policy for admin roles requiring MFA',
    (p) => adminRoles(p) && requiresMfa(p),
  ),
  caCheck(
    meta(
      'MT.1007',
      CA,
      'high',
      'At least one Conditional Access policy is configured to require MFA for all users.',
      'An enabled Conditional Access policy for all users requires MFA.',
      'MFA for every user stops password spray and phishing of ordinary accounts.',
      'Maester MT.1007',
    ),
    'An enabled policy for All users requiring MFA',
    (p) => allUsers(p) && requiresMfa(p),
  ),
  caCheck(
    meta(
      'MT.1008',
      CA,
      'high',
      'At least one Conditional Access policy is configured to require MFA for Azure management.',
      'An enabled Conditional Access policy for the Azure management app requires MFA.',
      'Azure management can change every resource of the subscription; it must be behind MFA.',
      'Maester MT.1008',
    ),
    'An enabled policy for Azure management requiring MFA',
    (p) =>
      (apps(p, 'includeApplications').includes(AZURE_MANAGEMENT) || allApps(p)) && requiresMfa(p),
  ),
  caCheck(
    meta(
      'MT.1009',
      CA,
      'high',
      'At least one Conditional Access policy is configured to block other legacy authentication.',
      "An enabled Conditional Access policy blocks client app type 'other'.",
      'Legacy protocols cannot do MFA and are the main route of password spray attacks.',
      'Maester MT.1009',
    ),
    "An enabled blocking policy on client app type 'other'",
    (p) => blocks(p) && lowerList(at(p, 'conditions.clientAppTypes')).includes('other'),
  ),
  caCheck(
    meta(
      'MT.1010',
      CA,
      'high',
      'At least one Conditional Access policy is configured to block legacy authentication for Exchange ActiveSync.',
      "An enabled Conditional Access policy blocks client app type 'exchangeActiveSync'.",
      'Exchange ActiveSync with basic authentication bypasses MFA.',
      'Maester MT.1010',
    ),
    "An enabled blocking policy on client app type 'exchangeActiveSync'",
    (p) =>
      blocks(p) && lowerList(at(p, 'conditions.clientAppTypes')).includes('exchangeactivesync'),
  ),
  caCheck(
    meta(
      'MT.1011',
      CA,
      'high',
      'At least one Conditional Access policy is configured to secure security info registration only from a trusted location.',
      "An enabled Conditional Access policy on the user action 'registersecurityinfo' limited to trusted locations.",
      'An attacker with a stolen password must not be able to register their own MFA method.',
      'Maester MT.1011',
    ),
    'An enabled policy on registersecurityinfo limited to trusted locations',
    (p) =>
      apps(p, 'includeUserActions').includes('urn:user:registersecurityinfo') &&
      lowerList(at(p, 'conditions.locations.excludeLocations')).some(
        (l) => l === 'alltrusted' || l.length > 0,
      ),
  ),
  caCheck(
    meta(
      'MT.1012',
      CA,
      'high',
      'At least one Conditional Access policy is configured to require MFA for risky sign-ins.',
      'An enabled Conditional Access policy with sign-in risk levels requires MFA.',
      'Risky sign-ins are likely compromised; MFA challenges the attacker.',
      'Maester MT.1012',
    ),
    'An enabled policy with sign-in risk levels requiring MFA',
    (p) => lowerList(at(p, 'conditions.signInRiskLevels')).length > 0 && requiresMfa(p),
  ),
  caCheck(
    meta(
      'MT.1013',
      CA,
      'high',
      'At least one Conditional Access policy is configured to require new password when user risk is high.',
      "An enabled Conditional Access policy with user risk 'high' requires a password change.",
      'A high user risk means the password is probably known to an attacker.',
      'Maester MT.1013',
    ),
    "An enabled policy with user risk 'high' requiring passwordChange",
    (p) =>
      lowerList(at(p, 'conditions.userRiskLevels')).includes('high') &&
      grant(p).includes('passwordchange'),
  ),
  caCheck(
    meta(
      'MT.1014',
      CA,
      'high',
      'At least one Conditional Access policy is configured to require compliant or Entra hybrid joined devices for admins.',
      'An enabled Conditional Access policy for admin roles requires a compliant or domain-joined device.',
      'Admins working from managed devices are far harder to compromise.',
      'Maester MT.1014',
    ),
    'An enabled policy for admin roles requiring compliantDevice or domainJoinedDevice',
    (p) =>
      adminRoles(p) &&
      (grant(p).includes('compliantdevice') || grant(p).includes('domainjoineddevice')),
  ),
  caCheck(
    meta(
      'MT.1015',
      CA,
      'medium',
      'At least one Conditional Access policy is configured to block access for unknown or unsupported device platforms.',
      'An enabled Conditional Access policy includes all platforms, excludes the supported ones, and blocks.',
      'Unknown platforms are a common way to evade device-based controls.',
      'Maester MT.1015',
    ),
    'An enabled blocking policy on all platforms except the supported ones',
    (p) =>
      blocks(p) &&
      lowerList(at(p, 'conditions.platforms.includePlatforms')).includes('all') &&
      lowerList(at(p, 'conditions.platforms.excludePlatforms')).length > 0,
  ),
  caCheck(
    meta(
      'MT.1016',
      CA,
      'high',
      'At least one Conditional Access policy is configured to require MFA for guest access.',
      'An enabled Conditional Access policy for guests or external users requires MFA.',
      'Guest identities are managed elsewhere; MFA is the only control the tenant has over them.',
      'Maester MT.1016',
    ),
    'An enabled policy for guests requiring MFA',
    (p) => guests(p) && requiresMfa(p),
  ),
  caCheck(
    meta(
      'MS.AAD.2.1v1',
      CA,
      'high',
      'Users detected as high risk are blocked.',
      'An enabled Conditional Access policy blocks users with user risk high.',
      'Accounts flagged as high risk are probably compromised and must not sign in.',
      'CISA SCuBA MS.AAD.2.1v1',
    ),
    "An enabled blocking policy with user risk 'high'",
    (p) => lowerList(at(p, 'conditions.userRiskLevels')).includes('high') && blocks(p),
  ),
  caCheck(
    meta(
      'MS.AAD.2.3v1',
      CA,
      'high',
      'Sign-ins detected as high risk are blocked.',
      'An enabled Conditional Access policy blocks sign-ins with sign-in risk high.',
      'High-risk sign-ins are most likely attackers.',
      'CISA SCuBA MS.AAD.2.3v1',
    ),
    "An enabled blocking policy with sign-in risk 'high'",
    (p) => lowerList(at(p, 'conditions.signInRiskLevels')).includes('high') && blocks(p),
  ),
  caCheck(
    meta(
      'MS.AAD.3.1v1',
      CA,
      'high',
      'Phishing-resistant MFA is enforced for all users.',
      'An enabled Conditional Access policy for all users requires the phishing-resistant authentication strength.',
      'Phishing-resistant methods (FIDO2, Windows Hello, certificates) defeat adversary-in-the-middle phishing.',
      'CISA SCuBA MS.AAD.3.1v1',
    ),
    'An enabled policy for All users with phishing-resistant authentication strength',
    (p) => allUsers(p) && phishingResistant(p),
  ),
  caCheck(
    meta(
      'MS.AAD.3.6v1',
      CA,
      'high',
      'Phishing-resistant MFA is required for highly privileged roles.',
      'An enabled Conditional Access policy for privileged roles requires the phishing-resistant authentication strength.',
      'Privileged roles need the strongest protection against credential phishing.',
      'CISA SCuBA MS.AAD.3.6v1',
    ),
    'An enabled policy for admin roles with phishing-resistant authentication strength',
    (p) => targetsAdmins(p) && phishingResistant(p),
  ),
  caCheck(
    meta(
      'CIS.5.2.2.12',
      CA,
      'medium',
      'The device code sign-in flow is blocked.',
      'An enabled Conditional Access policy blocks the device code authentication flow.',
      'Device code phishing tricks users into authorising an attacker-controlled session.',
      'CIS Microsoft 365 Foundations 5.2.2.12',
    ),
    'An enabled blocking policy on authentication flow deviceCodeFlow',
    (p) =>
      blocks(p) &&
      lowerList(at(p, 'conditions.authenticationFlows.transferMethods')).includes('devicecodeflow'),
  ),
];

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

const GU = { templateId: GROUP_UNIFIED[0], templateName: GROUP_UNIFIED[1] };
const CP = { templateId: CONSENT[0], templateName: CONSENT[1] };
const PR = { templateId: PASSWORD_RULES[0], templateName: PASSWORD_RULES[1] };

const AD_2001 = meta(
  'AD.2001',
  AD,
  'high',
  'User consent for risky apps is blocked.',
  'Users cannot consent to applications that Microsoft flags as risky.',
  'Consent phishing with risky apps grants attackers persistent access to mail and files.',
  'CIS Microsoft 365 Foundations 5.1.5.1',
);

const azureAd: StandardCheck[] = [
  {
    ...AD_2001,
    evaluate(config) {
      const expected = 'Blocked';
      const viaSetting = directorySettingCheck(AD_2001, {
        ...CP,
        name: 'BlockUserConsentForRiskyApps',
        expected,
        test: isTrue,
      }).evaluate(config);
      // Either control can let users consent to risky apps: blocked only when none allows it.
      const item = find(config, authorizationPolicy).find(
        (i) => prop(i.value, 'allowUserConsentForRiskyApps') != null,
      );
      if (viaSetting.current === MISSING && !item)
        return { expected, current: MISSING, pass: false };
      const settingAllows = viaSetting.current !== MISSING && !isTrue(viaSetting.current);
      const policyAllows =
        item !== undefined && isTrue(prop(item.value, 'allowUserConsentForRiskyApps'));
      const allowed = settingAllows || policyAllows;
      return {
        expected,
        current: allowed ? 'Allowed' : 'Blocked',
        pass: !allowed,
        file: policyAllows || viaSetting.current === MISSING ? item?.path : viaSetting.file,
      };
    },
  },
  directorySettingCheck(
    meta(
      'AD.2002',
      AD,
      'medium',
      'Banned password check on premises is enabled.',
      'Entra password protection also enforces the banned password list in on-premises Active Directory.',
      'Weak passwords set on premises are synchronised to the cloud.',
      'CIS Microsoft 365 Foundations 5.2.3.3',
    ),
    { ...PR, name: 'EnableBannedPasswordCheckOnPremises', expected: 'True', test: isTrue },
  ),
  directorySettingCheck(
    meta(
      'AD.2003',
      AD,
      'medium',
      'Users cannot create Microsoft 365 groups.',
      'Group creation is turned off for ordinary users (Group.Unified EnableGroupCreation).',
      'Uncontrolled group creation spreads data into unmanaged teams and sites.',
      'Maester MT.1055',
    ),
    { ...GU, name: 'EnableGroupCreation', expected: 'False', test: isFalse },
  ),
  directorySettingCheck(
    meta(
      'AD.2004',
      AD,
      'medium',
      'Group owners cannot add guests to Microsoft 365 groups.',
      'Guest addition is turned off (Group.Unified AllowToAddGuests).',
      'Guests added by group owners bypass the guest invitation controls.',
      'Aegis rule of spec 1 §5 (guest addition off); related: CIS Microsoft 365 Foundations 5.1.6.3',
    ),
    { ...GU, name: 'AllowToAddGuests', expected: 'False', test: isFalse },
  ),
  settingCheck(
    meta(
      'AD.2005',
      AD,
      'high',
      'Users cannot register applications.',
      'Default user role permission AllowedToCreateApps is off.',
      'Only administrators should create app registrations that can hold credentials and permissions.',
      'CISA SCuBA MS.AAD.5.1v1',
    ),
    {
      where: authorizationPolicy,
      property: 'defaultUserRolePermissions.allowedToCreateApps',
      expected: 'False',
      test: isFalse,
    },
  ),
  settingCheck(
    meta(
      'AD.2006',
      AD,
      'medium',
      'Only admins and guest inviters can invite guests.',
      'Guest invitations are limited to admins and the Guest Inviter role.',
      'Any user inviting any guest makes external access impossible to govern.',
      'CISA SCuBA MS.AAD.8.2v1',
    ),
    {
      where: authorizationPolicy,
      property: 'allowInvitesFrom',
      expected: 'adminsAndGuestInviters or none',
      test: equalsCI('adminsAndGuestInviters', 'none'),
    },
  ),
  settingCheck(
    meta(
      'MS.AAD.5.2v1',
      AD,
      'high',
      'Only administrators can consent to applications.',
      'The default user role has no ManagePermissionGrantsForSelf permission grant policy.',
      'User consent is the entry point of illicit consent grant attacks.',
      'CISA SCuBA MS.AAD.5.2v1',
    ),
    {
      where: authorizationPolicy,
      property: 'permissionGrantPolicyIdsAssignedToDefaultUserRole',
      expected: 'No ManagePermissionGrantsForSelf policy',
      test: (v) => !lowerList(v).some((x) => x.startsWith('managepermissiongrantsforself')),
    },
  ),
  directorySettingCheck(
    meta(
      'MS.AAD.5.3v1',
      AD,
      'medium',
      'An admin consent workflow is configured.',
      'Users can request admin consent for applications (EnableAdminConsentRequests).',
      'A request workflow gives users a safe path instead of workarounds.',
      'CISA SCuBA MS.AAD.5.3v1',
    ),
    { ...CP, name: 'EnableAdminConsentRequests', expected: 'True', test: isTrue },
  ),
  directorySettingCheck(
    meta(
      'MS.AAD.5.4v1',
      AD,
      'medium',
      'Group owners cannot consent to applications.',
      'Group-specific consent is turned off (EnableGroupSpecificConsent).',
      'Group owners consenting to apps expose group data without admin review.',
      'CISA SCuBA MS.AAD.5.4v1',
    ),
    { ...CP, name: 'EnableGroupSpecificConsent', expected: 'False', test: isFalse },
  ),
  settingCheck(
    meta(
      'MS.AAD.8.1v1',
      AD,
      'medium',
      'Guest users have limited or restricted directory access.',
      'The guest user role is Limited access or Restricted access.',
      'Guests should not enumerate the directory like members.',
      'CISA SCuBA MS.AAD.8.1v1',
    ),
    {
      where: authorizationPolicy,
      property: 'guestUserRoleId',
      expected: `${LIMITED_GUEST} or ${RESTRICTED_GUEST}`,
      test: equalsCI(LIMITED_GUEST, RESTRICTED_GUEST),
    },
  ),
  settingCheck(
    meta(
      'CIS.5.1.2.3',
      AD,
      'medium',
      'Non-admin users cannot create tenants.',
      'Default user role permission AllowedToCreateTenants is off.',
      'Tenants created by users fall outside the organisation’s governance.',
      'CIS Microsoft 365 Foundations 5.1.2.3',
    ),
    {
      where: authorizationPolicy,
      property: 'defaultUserRolePermissions.allowedToCreateTenants',
      expected: 'False',
      test: isFalse,
    },
  ),
  settingCheck(
    meta(
      'MS.AAD.3.4v1',
      AD,
      'medium',
      'The authentication methods migration is complete.',
      'The authentication methods policy migration state is migrationComplete.',
      'Legacy MFA and SSPR policies otherwise keep weak methods enabled.',
      'CISA SCuBA MS.AAD.3.4v1',
    ),
    {
      where: authMethodsPolicy,
      property: 'policyMigrationState',
      expected: 'migrationComplete',
      test: equalsCI('migrationComplete'),
    },
  ),
  {
    ...meta(
      'MS.AAD.3.5v1',
      AD,
      'high',
      'SMS, voice call and email one-time passcode are disabled.',
      'The Sms, Voice and Email authentication methods are disabled.',
      'SMS and voice are vulnerable to SIM swapping and interception.',
      'CISA SCuBA MS.AAD.3.5v1',
    ),
    evaluate(config) {
      const expected = 'Sms, Voice and Email disabled';
      const found = ['Sms', 'Voice', 'Email'].map(
        (m) => [m, authenticationMethod(config, m)] as const,
      );
      const present = found.filter(([, i]) => i && prop(i.value, 'state') != null);
      if (present.length === 0) return { expected, current: MISSING, pass: false };
      const enabled = present
        .filter(([, i]) => String(prop(i?.value, 'state')).toLowerCase() === 'enabled')
        .map(([m]) => m);
      return {
        expected,
        current: enabled.length ? `Enabled: ${enabled.join(', ')}` : 'Disabled',
        pass: enabled.length === 0 && present.length === 3,
        file: present[0]?.[1]?.path,
      };
    },
  },
  {
    ...meta(
      'MS.AAD.3.3v1',
      AD,
      'medium',
      'Microsoft Authenticator shows sign-in context.',
      'Authenticator push notifications show the application name and geographic location.',
      'Context in the prompt helps users refuse MFA fatigue attacks.',
      'CISA SCuBA MS.AAD.3.3v1',
    ),
    evaluate(config) {
      const expected =
        'displayAppInformationRequiredState and displayLocationInformationRequiredState enabled';
      const item = authenticationMethod(config, 'MicrosoftAuthenticator');
      const app = at(item?.value, 'featureSettings.displayAppInformationRequiredState.state');
      const loc = at(item?.value, 'featureSettings.displayLocationInformationRequiredState.state');
      if (!item || (app == null && loc == null))
        return { expected, current: MISSING, pass: false, file: item?.path };
      const pass = equalsCI('enabled')(app) && equalsCI('enabled')(loc);
      return {
        expected,
        current: `App: ${display(app)}, Location: ${display(loc)}`,
        pass,
        file: item.path,
      };
    },
  },
  directorySettingCheck(
    meta(
      'CIS.5.2.3.2',
      AD,
      'medium',
      'A custom banned password list is enforced.',
      'Password protection enforces the custom banned password list (EnableBannedPasswordCheck).',
      'Organisation-specific words are the first guesses of targeted attacks.',
      'CIS Microsoft 365 Foundations 5.2.3.2',
    ),
    { ...PR, name: 'EnableBannedPasswordCheck', expected: 'True', test: isTrue },
  ),
];

const devices: StandardCheck[] = [
  settingCheck(
    meta(
      'DEV.1001',
      DEV,
      'medium',
      'The number of devices per user is limited to 10.',
      'The device registration quota per user is at most 10.',
      'A low quota limits the devices an attacker can register with a stolen account.',
      'CIS Microsoft 365 Foundations 5.1.4.2',
    ),
    {
      where: deviceRegistrationPolicy,
      property: 'userDeviceQuota',
      expected: '10 or fewer',
      test: (v) => Number(v) <= 10,
    },
  ),
  settingCheck(
    meta(
      'DEV.1002',
      DEV,
      'high',
      'Global administrators are not added as local administrators on Entra join.',
      'Entra join does not add the Global Administrator role to the local administrators group.',
      'Tenant-wide admin rights on every device widen the blast radius of a compromised device.',
      'CIS Microsoft 365 Foundations 5.1.4.3',
    ),
    {
      where: deviceRegistrationPolicy,
      property: 'azureADJoin.localAdmins.enableGlobalAdmins',
      expected: 'False',
      test: isFalse,
    },
  ),
  settingCheck(
    meta(
      'DEV.1003',
      DEV,
      'high',
      'Local Administrator Password Solution (LAPS) is enabled.',
      'Windows LAPS is enabled in the device registration policy.',
      'Unique rotated local admin passwords stop lateral movement with a shared password.',
      'CIS Microsoft 365 Foundations 5.1.4.5',
    ),
    {
      where: deviceRegistrationPolicy,
      property: 'localAdminPassword.isEnabled',
      expected: 'True',
      test: isTrue,
    },
  ),
  settingCheck(
    meta(
      'DEV.1004',
      DEV,
      'medium',
      'Users cannot read BitLocker keys of their own devices.',
      'Default user role permission AllowedToReadBitlockerKeysForOwnedDevice is off.',
      'Recovery keys in users’ hands let a stolen account unlock a stolen device.',
      'CIS Microsoft 365 Foundations 5.1.4.6',
    ),
    {
      where: authorizationPolicy,
      property: 'defaultUserRolePermissions.allowedToReadBitlockerKeysForOwnedDevice',
      expected: 'False',
      test: isFalse,
    },
  ),
];

const defender: StandardCheck[] = [
  settingCheck(
    meta(
      'DEF.1001',
      DEF,
      'high',
      'Safe Links protects email and blocks click-through.',
      'A Safe Links policy is enabled for email and does not let users click through to malicious URLs.',
      'Time-of-click URL checks stop phishing links that were clean at delivery.',
      'CIS Microsoft 365 Foundations 2.1.1',
    ),
    {
      where: safeLinks,
      property: 'EnableSafeLinksForEmail',
      expected: 'True, AllowClickThrough False',
      mode: 'any',
      test: (v, i) => isTrue(v) && isFalse(prop(i.value, 'AllowClickThrough')),
    },
  ),
  settingCheck(
    meta(
      'DEF.1002',
      DEF,
      'high',
      'Safe Attachments is enabled and blocks malware.',
      'A Safe Attachments policy is enabled with action Block.',
      'Detonating attachments catches zero-day malware that signatures miss.',
      'CIS Microsoft 365 Foundations 2.1.4',
    ),
    {
      where: safeAttachments,
      property: 'Action',
      expected: 'Block (enabled)',
      mode: 'any',
      test: (v, i) => equalsCI('Block')(v) && isTrue(prop(i.value, 'Enable') ?? true),
    },
  ),
  settingCheck(
    meta(
      'DEF.1003',
      DEF,
      'high',
      'Anti-phishing protects with mailbox intelligence and spoof intelligence.',
      'An anti-phishing policy is enabled with mailbox intelligence protection and spoof intelligence.',
      'Impersonation and spoofing are the core of business email compromise.',
      'CIS Microsoft 365 Foundations 2.1.7',
    ),
    {
      where: antiPhish,
      property: 'EnableMailboxIntelligenceProtection',
      expected: 'True, with EnableSpoofIntelligence True',
      mode: 'any',
      test: (v, i) =>
        isTrue(v) &&
        isTrue(prop(i.value, 'EnableSpoofIntelligence')) &&
        isTrue(prop(i.value, 'Enabled') ?? true),
    },
  ),
  settingCheck(
    meta(
      'MS.DEFENDER.1.1v1',
      DEF,
      'high',
      'Standard or strict preset security policies are enabled.',
      'At least one Defender policy comes from the Standard or Strict preset.',
      'Presets keep protection aligned with Microsoft’s current recommendations.',
      'CISA SCuBA MS.DEFENDER.1.1v1',
    ),
    {
      where: either3(safeLinks, safeAttachments, antiPhish),
      property: 'RecommendedPolicyType',
      expected: 'Standard or Strict',
      mode: 'any',
      test: equalsCI('Standard', 'Strict'),
    },
  ),
  settingCheck(
    meta(
      'MS.DEFENDER.2.1v1',
      DEF,
      'medium',
      'User impersonation protection is enabled.',
      'An anti-phishing policy protects targeted users against impersonation.',
      'Executives are impersonated to authorise fraudulent payments.',
      'CISA SCuBA MS.DEFENDER.2.1v1',
    ),
    {
      where: antiPhish,
      property: 'EnableTargetedUserProtection',
      expected: 'True',
      mode: 'any',
      test: isTrue,
    },
  ),
  settingCheck(
    meta(
      'MS.DEFENDER.2.2v1',
      DEF,
      'medium',
      'Domain impersonation protection is enabled for owned domains.',
      'An anti-phishing policy protects the organisation’s domains against impersonation.',
      'Look-alike domains are used to impersonate the organisation.',
      'CISA SCuBA MS.DEFENDER.2.2v1',
    ),
    {
      where: antiPhish,
      property: 'EnableOrganizationDomainsProtection',
      expected: 'True',
      mode: 'any',
      test: isTrue,
    },
  ),
  settingCheck(
    meta(
      'MS.DEFENDER.3.1v1',
      DEF,
      'high',
      'Safe Attachments is on for SharePoint, OneDrive and Teams.',
      'Defender for Office 365 scans files in SharePoint, OneDrive and Teams.',
      'Malware shared through collaboration tools bypasses mail scanning.',
      'CISA SCuBA MS.DEFENDER.3.1v1 / CIS 2.1.5',
    ),
    { where: atpForO365, property: 'EnableATPForSPOTeamsODB', expected: 'True', test: isTrue },
  ),
  settingCheck(
    meta(
      'CIS.2.1.1',
      DEF,
      'medium',
      'Safe Links covers Office apps and Teams.',
      'A Safe Links policy is enabled for Office apps and Microsoft Teams.',
      'Links in documents and chats are phishing vectors as much as email.',
      'CIS Microsoft 365 Foundations 2.1.1',
    ),
    {
      where: safeLinks,
      property: 'EnableSafeLinksForOffice',
      expected: 'True (Teams True)',
      mode: 'any',
      test: (v, i) => isTrue(v) && isTrue(prop(i.value, 'EnableSafeLinksForTeams')),
    },
  ),
  settingCheck(
    meta(
      'MS.EXO.15.3v1',
      DEF,
      'low',
      'Safe Links tracks user clicks.',
      'Safe Links records user clicks (TrackClicks).',
      'Click data is needed to find who followed a malicious link.',
      'CISA SCuBA MS.EXO.15.3v1',
    ),
    { where: safeLinks, property: 'TrackClicks', expected: 'True', mode: 'any', test: isTrue },
  ),
  settingCheck(
    meta(
      'MS.EXO.15.2v1',
      DEF,
      'medium',
      'Safe Links scans URLs, and direct download links, in real time.',
      'Safe Links scans suspicious URLs and file links before delivery (ScanUrls).',
      'Real-time scanning catches links to downloads of malware.',
      'CISA SCuBA MS.EXO.15.2v1',
    ),
    { where: safeLinks, property: 'ScanUrls', expected: 'True', mode: 'any', test: isTrue },
  ),
  settingCheck(
    meta(
      'CIS.2.1.2',
      DEF,
      'medium',
      'The common attachment types filter is enabled.',
      'Anti-malware policies filter dangerous attachment types (EnableFileFilter).',
      'Executable attachments are rarely legitimate and often malicious.',
      'CIS Microsoft 365 Foundations 2.1.2 / SCuBA MS.EXO.9.1v2',
    ),
    { where: malwareFilter, property: 'EnableFileFilter', expected: 'True', test: isTrue },
  ),
  settingCheck(
    meta(
      'CIS.2.1.3',
      DEF,
      'low',
      'Admins are notified of internal users sending malware.',
      'Anti-malware policies notify administrators when internal senders send malware.',
      'An internal sender of malware is likely a compromised account.',
      'CIS Microsoft 365 Foundations 2.1.3',
    ),
    {
      where: malwareFilter,
      property: 'EnableInternalSenderAdminNotifications',
      expected: 'True',
      mode: 'any',
      test: isTrue,
    },
  ),
  settingCheck(
    meta(
      'MS.EXO.14.3v1',
      DEF,
      'medium',
      'Inbound anti-spam policies allow no sender domains.',
      'No domain is on the allowed sender domains list of an anti-spam policy.',
      'Allowed domains bypass spam filtering and are easily spoofed.',
      'CISA SCuBA MS.EXO.14.3v1 / CIS 2.1.14',
    ),
    {
      where: contentFilter,
      property: 'AllowedSenderDomains',
      expected: 'None',
      test: (v) => lowerList(v).length === 0,
    },
  ),
  settingCheck(
    meta(
      'MS.EXO.14.2v1',
      DEF,
      'medium',
      'High-confidence spam is quarantined or moved to junk.',
      'Anti-spam policies quarantine or junk high-confidence spam.',
      'Delivering high-confidence spam to the inbox invites users to act on it.',
      'CISA SCuBA MS.EXO.14.2v1',
    ),
    {
      where: contentFilter,
      property: 'HighConfidenceSpamAction',
      expected: 'Quarantine or MoveToJmf',
      test: equalsCI('Quarantine', 'MoveToJmf'),
    },
  ),
];

function either3(a: ItemPredicate, b: ItemPredicate, c: ItemPredicate): ItemPredicate {
  return (i) => a(i) || b(i) || c(i);
}

const exchange: StandardCheck[] = [
  settingCheck(
    meta(
      'EXC.1001',
      EXO,
      'high',
      'Automatic forwarding to remote domains is off.',
      'Remote domains do not allow automatic forwarding.',
      'Auto-forwarding is the classic way to exfiltrate mail from a compromised mailbox.',
      'CISA SCuBA MS.EXO.1.1v1',
    ),
    {
      where: remoteDomain,
      property: 'AutoForwardEnabled',
      expected: 'off, Off or Internal',
      test: forwardingIsOff,
    },
  ),
  settingCheck(
    meta(
      'EXC.1002',
      EXO,
      'high',
      'Outbound spam policy blocks automatic forwarding.',
      'Outbound anti-spam policies set automatic forwarding to Off.',
      'Blocking forwarding at the outbound filter stops every client-side forwarding rule.',
      'CIS Microsoft 365 Foundations 6.2.1',
    ),
    {
      where: outboundSpam,
      property: 'AutoForwardingMode',
      expected: 'off, Off or Internal',
      test: forwardingIsOff,
    },
  ),
  settingCheck(
    meta(
      'EXC.1003',
      EXO,
      'high',
      'The OWA policy blocks .exe, .js and .vbs.',
      'Outlook on the web blocks the .exe, .js and .vbs file types.',
      'Script and executable attachments opened from the browser run with the user’s rights.',
      'CISA SCuBA MS.EXO.9.5v1 (click-to-run files blocked)',
    ),
    {
      where: owaPolicy,
      property: 'BlockedFileTypes',
      expected: '.exe, .js, .vbs blocked',
      test: (v) => ['.exe', '.js', '.vbs'].every((t) => lowerList(v).includes(t)),
    },
  ),
  settingCheck(
    meta(
      'EXC.1004',
      EXO,
      'high',
      'Mailbox auditing is on for the organisation.',
      'Organisation-wide mailbox auditing is not disabled (AuditDisabled False).',
      'Mailbox audit logs are the evidence of what an attacker read or sent.',
      'CIS Microsoft 365 Foundations 6.1.1 / SCuBA MS.EXO.13.1v1',
    ),
    { where: orgConfig, property: 'AuditDisabled', expected: 'False', test: isFalse },
  ),
  settingCheck(
    meta(
      'EXC.1005',
      EXO,
      'high',
      'Modern authentication is enabled for Exchange Online.',
      'OAuth2 client profile (modern authentication) is enabled.',
      'Without modern authentication Outlook falls back to basic authentication without MFA.',
      'CIS Microsoft 365 Foundations 6.5.1',
    ),
    { where: orgConfig, property: 'OAuth2ClientProfileEnabled', expected: 'True', test: isTrue },
  ),
  settingCheck(
    meta(
      'EXC.1006',
      EXO,
      'low',
      'MailTips are enabled for end users.',
      'All MailTips, including external recipient tips, are enabled.',
      'MailTips warn users before they send mail outside the organisation.',
      'CIS Microsoft 365 Foundations 6.5.2',
    ),
    {
      where: orgConfig,
      property: 'MailTipsAllTipsEnabled',
      expected: 'True (external recipient tips True)',
      test: (v, i) => isTrue(v) && isTrue(prop(i.value, 'MailTipsExternalRecipientsTipsEnabled')),
    },
  ),
  settingCheck(
    meta(
      'EXC.1007',
      EXO,
      'high',
      'SMTP AUTH is disabled.',
      'Authenticated SMTP client submission is disabled for the organisation.',
      'SMTP AUTH is basic authentication and bypasses MFA.',
      'CIS Microsoft 365 Foundations 6.5.4 / SCuBA MS.EXO.5.1v1',
    ),
    {
      where: transportConfig,
      property: 'SmtpClientAuthenticationDisabled',
      expected: 'True',
      test: isTrue,
    },
  ),
  settingCheck(
    meta(
      'EXC.1008',
      EXO,
      'medium',
      'Additional storage providers are restricted in Outlook on the web.',
      'OWA does not offer third-party storage providers.',
      'Third-party storage in OWA is an uncontrolled data exfiltration route.',
      'CIS Microsoft 365 Foundations 6.5.3',
    ),
    {
      where: owaPolicy,
      property: 'AdditionalStorageProvidersAvailable',
      expected: 'False',
      test: isFalse,
    },
  ),
  settingCheck(
    meta(
      'EXC.1009',
      EXO,
      'medium',
      'Email from external senders is identified.',
      'Outlook shows the External tag on mail from outside the organisation.',
      'Marking external mail helps users spot impersonation.',
      'CIS Microsoft 365 Foundations 6.2.3',
    ),
    { where: externalInOutlook, property: 'Enabled', expected: 'True', test: isTrue },
  ),
  settingCheck(
    meta(
      'EXC.1010',
      EXO,
      'medium',
      'Customer Lockbox is enabled.',
      'Microsoft engineers need explicit approval to access content (CustomerLockboxEnabled).',
      'Customer Lockbox keeps service-provider access to data under the organisation’s control.',
      'CIS Microsoft 365 Foundations 1.3.6',
    ),
    { where: orgConfig, property: 'CustomerLockboxEnabled', expected: 'True', test: isTrue },
  ),
  settingCheck(
    meta(
      'EXC.1011',
      EXO,
      'medium',
      'DKIM signing is enabled.',
      'DKIM signing is enabled for the organisation’s domains.',
      'DKIM lets receivers verify mail really comes from the organisation.',
      'CIS Microsoft 365 Foundations 2.1.9 / SCuBA MS.EXO.3.1v1',
    ),
    { where: dkim, property: 'Enabled', expected: 'True', test: isTrue },
  ),
  {
    ...meta(
      'EXC.1012',
      EXO,
      'high',
      'Mail flow rules do not whitelist specific domains.',
      'No transport rule sets SCL -1 for sender domains.',
      'Whitelisted domains bypass spam and phishing filtering and are easily spoofed.',
      'CIS Microsoft 365 Foundations 6.2.2',
    ),
    evaluate(config) {
      const expected = 'No rule bypassing spam filtering for sender domains';
      const rules = find(config, transportRule);
      if (rules.length === 0) return { expected, current: MISSING, pass: false };
      const bad = rules.find(
        (r) =>
          textOf(prop(r.value, 'SetSCL') ?? '') === '-1' &&
          lowerList(prop(r.value, 'SenderDomainIs')).length > 0,
      );
      return bad
        ? {
            expected,
            current: `Rule ${display(prop(bad.value, 'Name'))} whitelists ${display(prop(bad.value, 'SenderDomainIs'))}`,
            pass: false,
            file: bad.path,
          }
        : { expected, current: 'No whitelisting rule', pass: true, file: rules[0]?.path };
    },
  },
  settingCheck(
    meta(
      'MS.EXO.6.1v1',
      EXO,
      'medium',
      'Contact folders are not shared with all domains.',
      'The sharing policy does not share contacts with every domain (*).',
      'Open contact sharing exposes the organisation’s relationships.',
      'CISA SCuBA MS.EXO.6.1v1',
    ),
    {
      where: sharingPolicy,
      property: 'Domains',
      expected: 'No contact sharing with *',
      test: (v) => !lowerList(v).some((d) => d.startsWith('*:') && d.includes('contacts')),
    },
  ),
  settingCheck(
    meta(
      'MS.EXO.6.2v1',
      EXO,
      'medium',
      'Calendar details are not shared with all domains.',
      'The sharing policy shares at most free/busy with every domain (*).',
      'Calendar details reveal meetings, people and locations to anyone.',
      'CISA SCuBA MS.EXO.6.2v1',
    ),
    {
      where: sharingPolicy,
      property: 'Domains',
      expected: 'No calendar details shared with *',
      test: (v) =>
        !lowerList(v).some(
          (d) => d.startsWith('*:') && /calendarsharing(freebusydetail|freebusyreviewer)/.test(d),
        ),
    },
  ),
  settingCheck(
    meta(
      'CIS.3.1.1',
      EXO,
      'high',
      'Unified audit log search is enabled.',
      'Audit log ingestion is enabled for the organisation.',
      'Without the unified audit log there is no record to investigate an incident.',
      'CIS Microsoft 365 Foundations 3.1.1 / SCuBA MS.EXO.17.1v1',
    ),
    {
      where: auditConfig,
      property: 'UnifiedAuditLogIngestionEnabled',
      expected: 'True',
      test: isTrue,
    },
  ),
  {
    ...meta(
      'MS.EXO.7.1v1',
      EXO,
      'medium',
      'External sender warnings are implemented.',
      'A mail flow rule warns recipients about mail from outside the organisation.',
      'A visible warning is a simple, effective phishing cue.',
      'CISA SCuBA MS.EXO.7.1v1',
    ),
    evaluate(config) {
      const expected = 'An enabled rule for FromScope NotInOrganization that prepends a warning';
      const rules = find(config, transportRule);
      if (rules.length === 0) return { expected, current: MISSING, pass: false };
      const hit = rules.find(
        (r) =>
          equalsCI('NotInOrganization')(prop(r.value, 'FromScope')) &&
          (prop(r.value, 'PrependSubject') != null ||
            prop(r.value, 'ApplyHtmlDisclaimerText') != null) &&
          !equalsCI('Disabled')(prop(r.value, 'State')),
      );
      return hit
        ? { expected, current: display(prop(hit.value, 'Name')), pass: true, file: hit.path }
        : {
            expected,
            current: 'No external sender warning rule',
            pass: false,
            file: rules[0]?.path,
          };
    },
  },
];

/** The standard baseline: 70 checks in the five standard categories. */
export const STANDARD_CHECKS: readonly StandardCheck[] = [
  ...conditionalAccess,
  ...azureAd,
  ...devices,
  ...defender,
  ...exchange,
];
