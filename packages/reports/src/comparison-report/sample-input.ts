import { summariseFindings } from './summarise';
import type { ComparisonReportInput, ReportCategory } from './types';

/** A long value (70 characters) that the report shortens to 47 characters plus '...'. */
export const LONG_VALUE = 'https://contoso.sharepoint.com/sites/compliance/Shared Documents/policy';

const row = (setting: string, expected: unknown, current: unknown, pass?: boolean) => ({
  setting,
  expected,
  current,
  pass: pass ?? JSON.stringify(expected) === JSON.stringify(current),
});

/** Options-baseline findings with passing, failing, missing, empty and long values; one area at 0%. */
function sampleOptionsFindings(): ReportCategory[] {
  const intune = Array.from({ length: 14 }, (_, i) => ({
    name: `Windows 11 - Device Restrictions ${String(i + 1).padStart(2, '0')}`,
    rows: [
      row('passwordRequired', true, true),
      row('passwordMinimumLength', 12, i % 5 === 0 ? 8 : 12),
      row('passwordRequiredType', 'alphanumeric', 'alphanumeric'),
      row('storageRequireEncryption', true, i === 7 ? undefined : true),
      row(
        'deviceManagementApplicabilityRuleOsVersion.minOSVersion',
        '10.0.22000.0',
        i % 5 === 0 ? '' : '10.0.22000.0',
      ),
      row('defenderScanType', 'full', 'full'),
    ],
  }));
  return [
    {
      name: 'AzureAD',
      policies: [
        {
          name: 'AuthorizationPolicy',
          rows: [
            row('allowInvitesFrom', 'adminsAndGuestInviters', 'everyone'),
            row('blockMsolPowerShell', true, true),
            row('defaultUserRolePermissions.allowedToCreateApps', false, false),
            row('defaultUserRolePermissions.allowedToCreateSecurityGroups', false, true),
            row(
              'guestUserRoleId',
              '2af84b1e-32c8-42b7-82bc-daa82404023b',
              '10dae51f-b6af-4016-8d66-8c2a99b929b3',
            ),
          ],
        },
        {
          name: 'Conditional Access - Require MFA for admins',
          rows: [
            row('state', 'enabled', 'enabled'),
            row(
              'conditions.users.includeRoles',
              ['62e90394-69f5-4237-9190-012177145e10', 'f28a1f50-f6e7-4571-818b-6a12f2af6b6c'],
              ['62e90394-69f5-4237-9190-012177145e10', 'f28a1f50-f6e7-4571-818b-6a12f2af6b6c'],
            ),
            row('grantControls.builtInControls', ['mfa'], ['mfa']),
          ],
        },
        {
          name: 'Conditional Access - Block legacy authentication',
          rows: [
            row('state', 'enabled', 'enabledForReportingButNotEnforced'),
            row(
              'conditions.clientAppTypes',
              ['exchangeActiveSync', 'other'],
              ['exchangeActiveSync', 'other'],
            ),
          ],
        },
      ],
    },
    { name: 'Intune', policies: intune },
    {
      name: 'Exchange',
      policies: [
        {
          name: 'Anti-spam outbound policy',
          rows: [
            row('AutoForwardingMode', 'Off', 'Automatic'),
            row('RecipientLimitExternalPerHour', 500, 500),
            row('NotifyOutboundSpamRecipients', LONG_VALUE, 'Missing', false),
          ],
        },
        {
          name: 'OWA mailbox policy',
          rows: [
            row(
              'BlockedFileTypes',
              ['.exe', '.js', '.vbs', '.ps1', '.bat', '.cmd', '.msi', '.scr'],
              ['.exe', '.js'],
            ),
            row('ConditionalAccessPolicy', 'ReadOnly', 'ReadOnly'),
          ],
        },
      ],
    },
    {
      name: 'Defender',
      policies: [
        {
          name: 'Safe Links',
          rows: [
            row('EnableSafeLinksForEmail', true, false),
            row('TrackClicks', true, 'Missing', false),
          ],
        },
        {
          name: 'Safe Attachments',
          rows: [row('Enable', true, false), row('Action', 'Block', '')],
        },
      ],
    },
    {
      name: 'Teams',
      policies: [
        {
          name: 'Meeting policy',
          rows: [
            row('AllowAnonymousUsersToJoinMeeting', false, false),
            row(
              'AutoAdmittedUsers',
              'EveryoneInCompanyExcludingGuests',
              'EveryoneInCompanyExcludingGuests',
            ),
          ],
        },
        { name: 'External access', rows: [row('AllowFederatedUsers', false, false)] },
      ],
    },
    {
      name: 'SharePoint',
      policies: [
        {
          name: 'Tenant sharing',
          rows: [
            row(
              'SharingCapability',
              'ExistingExternalUserSharingOnly',
              'ExternalUserAndGuestSharing',
            ),
            row('DefaultSharingLinkType', 'Internal', 'Internal'),
          ],
        },
      ],
    },
  ];
}

/** Standard-baseline findings: one policy per check. */
function sampleStandardFindings(): ReportCategory[] {
  const check = (
    id: string,
    title: string,
    setting: string,
    expected: string,
    current: string,
  ) => ({
    name: `${id} ${title}`,
    rows: [row(setting, expected, current)],
  });
  return [
    {
      name: 'Conditional Access',
      policies: Array.from({ length: 16 }, (_, i) =>
        check(
          `MT.${1001 + i}`,
          [
            'Block legacy authentication',
            'Require MFA for administrators',
            'Require MFA for all users',
            'Block high-risk sign-ins',
          ][i % 4] ?? '',
          'A Conditional Access policy enforces this control for all users',
          'Enabled',
          i % 3 === 0 ? 'Missing' : 'Enabled',
        ),
      ),
    },
    {
      name: 'Azure AD Settings',
      policies: [
        check('AD.2001', 'Device quota', 'Maximum devices per user', 'At most 10', '50'),
        check(
          'AD.2002',
          'User consent for risky apps',
          'Consent to risky apps blocked',
          'true',
          'true',
        ),
        check(
          'AD.2003',
          'Banned passwords on-premises',
          'EnableBannedPasswordCheckOnPremises',
          'true',
          'true',
        ),
        check('AD.2004', 'Group creation', 'EnableGroupCreation', 'false', 'true'),
        check('AD.2005', 'Guest addition', 'AllowToAddGuests', 'false', 'false'),
        check(
          'AD.2006',
          'Security defaults',
          'Security defaults replaced by CA',
          'Disabled',
          'Disabled',
        ),
      ],
    },
    {
      name: 'Device Settings',
      policies: [
        check('DEV.1001', 'Compliance policy', 'Require BitLocker', 'true', 'Missing'),
        check('DEV.1002', 'Defender for Endpoint', 'Real-time protection', 'true', 'Missing'),
        check('DEV.1003', 'Firewall', 'Firewall enabled', 'true', 'Missing'),
        check('DEV.1004', 'Windows Hello', 'Windows Hello for Business', 'Enabled', 'Missing'),
      ],
    },
    {
      name: 'Defender for Office 365',
      policies: [
        check('DEF.1001', 'Safe Links', 'Safe Links for email', 'On', 'On'),
        check('DEF.1002', 'Safe Attachments', 'Safe Attachments action', 'Block', 'Block'),
        check('DEF.1003', 'Anti-phishing', 'Impersonation protection', 'On', 'Off'),
      ],
    },
    {
      name: 'Exchange Security',
      policies: Array.from({ length: 12 }, (_, i) =>
        check(
          `EXC.${1001 + i}`,
          i === 0 ? 'Auto-forwarding' : `Exchange control ${i + 1}`,
          i === 0 ? 'AutoForwardingMode' : 'Setting',
          i === 0 ? 'Off, Off or Internal' : 'Enabled',
          i === 0 ? 'Automatic' : 'Enabled',
        ),
      ),
    },
  ];
}

export function sampleInput(
  baselineType: ComparisonReportInput['baselineType'],
  options: Partial<ComparisonReportInput['options']> = {},
): ComparisonReportInput {
  const findings = baselineType === 'standard' ? sampleStandardFindings() : sampleOptionsFindings();
  return {
    clientName: 'Contoso Pharmaceuticals',
    baselineType,
    generatedAt: new Date(2025, 4, 21, 12, 0, 0),
    generatedBy: { displayName: 'Jamie Rivera', upn: 'jamie.rivera@msp.example' },
    options: { failedOnly: false, ...options },
    ...summariseFindings(findings),
    findings,
  };
}
