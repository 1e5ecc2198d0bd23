import { describe, expect, it } from 'vitest';

import { migrateSharePointExports, timeSpanSeconds } from './sharepoint-settings';

describe('SharePoint exports migrated to Graph sharepointSettings', () => {
  it("moves what Graph covers into Graph's names and keeps the rest", () => {
    const { settings, remaining } = migrateSharePointExports({
      SPOTenant: {
        SharingCapability: 'ExternalUserSharingOnly',
        SharingDomainRestrictionMode: 'AllowList',
        SharingAllowedDomainList: 'contoso.com fabrikam.com',
        SharingBlockedDomainList: null,
        PreventExternalUsersFromResharing: true,
        LegacyAuthProtocolsEnabled: false,
        ODBSharingCapability: 'Disabled',
        DefaultSharingLinkType: 'Internal',
      },
      SPOAccessControl: {
        BlockMacSync: false,
        IsUnmanagedSyncClientForTenantRestricted: true,
        ConditionalAccessPolicy: 'AllowLimitedAccess',
      },
      SPOBrowserIdleSignOut: { Enabled: true, WarnAfter: '0.00:55:00', SignOutAfter: '0.01:00:00' },
    });
    expect(settings).toEqual({
      sharingCapability: 'externalUserSharingOnly',
      sharingDomainRestrictionMode: 'allowList',
      sharingAllowedDomainList: ['contoso.com', 'fabrikam.com'],
      sharingBlockedDomainList: [],
      isResharingByExternalUsersEnabled: false,
      isLegacyAuthProtocolsEnabled: false,
      isMacSyncAppEnabled: true,
      isUnmanagedSyncAppForTenantRestricted: true,
      idleSessionSignOut: {
        isEnabled: true,
        warnAfterInSeconds: 3300,
        signOutAfterInSeconds: 3600,
      },
    });
    expect(remaining).toEqual({
      SPOTenant: { ODBSharingCapability: 'Disabled', DefaultSharingLinkType: 'Internal' },
      SPOAccessControl: { ConditionalAccessPolicy: 'AllowLimitedAccess' },
    });
  });

  it('leaves out what the exports do not hold, and a kind with nothing left', () => {
    const { settings, remaining } = migrateSharePointExports({
      SPOAccessControl: { BlockMacSync: true },
    });
    expect(settings).toEqual({ isMacSyncAppEnabled: false });
    expect(remaining).toEqual({});
  });

  it('reads PowerShell time spans', () => {
    expect(timeSpanSeconds('1.02:03:04')).toBe(93784);
    expect(timeSpanSeconds('00:05:00')).toBe(300);
    expect(timeSpanSeconds('five minutes')).toBeUndefined();
  });
});
