import { describe, expect, it } from 'vitest';

import {
  auditLogNotRead,
  entraAuditEntry,
  exchangeAdminAuditEntry,
  intuneAuditEntry,
  newestFirst,
} from './audit-logs';

describe('normalising what the services answer', () => {
  it('an Entra Conditional Access update, whole policies as modified property', () => {
    const entry = entraAuditEntry({
      id: 'IPCGraph_a3b1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d_ABCDE_8584761210',
      category: 'Policy',
      correlationId: 'a3b1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      result: 'success',
      resultReason: null,
      activityDisplayName: 'Update conditional access policy',
      activityDateTime: '2026-11-26T16:12:44.2198766Z',
      loggedByService: 'Conditional Access',
      operationType: 'Update',
      initiatedBy: {
        app: null,
        user: {
          id: '6d8a2f14-1c3b-4e5a-9f7d-2b4c6e8a0d1f',
          displayName: null,
          userPrincipalName: 'hannah.clarke@abccorp.com',
          ipAddress: '203.0.113.24',
        },
      },
      targetResources: [
        {
          id: '1f4c7d52-8e13-4b6a-9c0d-2e5f8a3b7c91',
          displayName: 'CA004 - MFA for risky sign-ins',
          type: 'Policy',
          modifiedProperties: [
            {
              displayName: 'ConditionalAccessPolicy',
              oldValue: '{"state":"enabled"}',
              newValue: '{"state":"enabledForReportingButNotEnforced"}',
            },
          ],
        },
      ],
      additionalDetails: [],
    });
    expect(entry).toEqual({
      log: 'entraDirectoryAudits',
      id: 'IPCGraph_a3b1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d_ABCDE_8584761210',
      time: '2026-11-26T16:12:44.2198766Z',
      actor: 'hannah.clarke@abccorp.com',
      operation: 'Update conditional access policy',
      workloads: ['ConditionalAccess/Policy'],
      targets: [
        { id: '1f4c7d52-8e13-4b6a-9c0d-2e5f8a3b7c91', name: 'CA004 - MFA for risky sign-ins' },
      ],
      modifiedProperties: [
        {
          name: 'ConditionalAccessPolicy',
          oldValue: '{"state":"enabled"}',
          newValue: '{"state":"enabledForReportingButNotEnforced"}',
        },
      ],
    });
  });

  it('an app as the actor, and an entry without an id is no entry', () => {
    expect(
      entraAuditEntry({
        id: 'Directory_1',
        activityDateTime: '2026-11-26T16:12:44Z',
        activityDisplayName: 'Update user',
        category: 'UserManagement',
        initiatedBy: { app: { appId: 'a1', displayName: 'Contoso HR sync' }, user: null },
        targetResources: [{ id: 'u1', userPrincipalName: 'new.starter@abccorp.com' }],
      }),
    ).toMatchObject({
      actor: 'Contoso HR sync',
      workloads: [],
      targets: [{ id: 'u1', name: 'new.starter@abccorp.com' }],
    });
    expect(entraAuditEntry({ activityDateTime: '2026-11-26T16:12:44Z' })).toBeUndefined();
  });

  it("an Intune event in beta's shape (type, not auditResourceType)", () => {
    const entry = intuneAuditEntry({
      id: '5b0c8e7a-1d2f-4b3c-9a8e-7f6d5c4b3a29',
      activityType: 'Patch DeviceManagementConfigurationPolicy',
      activityDateTime: '2026-11-26T09:30:00Z',
      actor: {
        type: 'ItPro',
        userPrincipalName: null,
        applicationDisplayName: 'Microsoft Intune portal extension',
      },
      resources: [
        {
          displayName: 'Windows - Defender Antivirus',
          type: 'DeviceManagementConfigurationPolicy',
          resourceId: 'c2a1e4f0-5b7d-4e93-a6c8-1d0f3b9e2a74',
          modifiedProperties: [
            {
              displayName: 'Name',
              oldValue: 'Windows - Defender',
              newValue: 'Windows - Defender Antivirus',
            },
          ],
        },
      ],
    });
    expect(entry).toMatchObject({
      actor: 'Microsoft Intune portal extension',
      workloads: ['Intune/ConfigurationPolicy'],
      targets: [
        { id: 'c2a1e4f0-5b7d-4e93-a6c8-1d0f3b9e2a74', name: 'Windows - Defender Antivirus' },
      ],
    });
  });

  it('an Exchange admin record: object named by its directory path, changes from its parameters', () => {
    const entry = exchangeAdminAuditEntry({
      RecordType: 'ExchangeAdmin',
      Operations: 'Set-TransportRule',
      UserIds: 'admin@abccorp.onmicrosoft.com',
      AuditData: JSON.stringify({
        CreationTime: '2026-11-26T11:02:07',
        Id: '0f7e3a62-3b1d-4c8e-9a2f-5d6c7b8a9e01',
        Operation: 'Set-TransportRule',
        RecordType: 1,
        UserId: 'admin@abccorp.onmicrosoft.com',
        ObjectId:
          'EURPR01A001.prod.outlook.com/Microsoft Exchange Hosted Organizations/abccorp.onmicrosoft.com/External Sender Warning',
        Parameters: [
          { Name: 'Identity', Value: 'External Sender Warning' },
          { Name: 'Mode', Value: 'Audit' },
        ],
      }),
    });
    expect(entry).toEqual({
      log: 'exchangeAdminAuditLog',
      id: '0f7e3a62-3b1d-4c8e-9a2f-5d6c7b8a9e01',
      time: '2026-11-26T11:02:07Z',
      actor: 'admin@abccorp.onmicrosoft.com',
      operation: 'Set-TransportRule',
      workloads: ['Exchange/TransportRule'],
      targets: [
        {
          id: 'EURPR01A001.prod.outlook.com/Microsoft Exchange Hosted Organizations/abccorp.onmicrosoft.com/External Sender Warning',
          name: 'External Sender Warning',
        },
      ],
      modifiedProperties: [{ name: 'Mode', newValue: 'Audit' }],
    });
    expect(exchangeAdminAuditEntry({ AuditData: 'not json' })).toBeUndefined();
  });

  it('lists entries once, newest first, whatever log they came from', () => {
    const at = (log: 'entraDirectoryAudits' | 'intuneAuditEvents', id: string, time: string) => ({
      log,
      id,
      time,
      actor: 'a',
      operation: 'o',
      workloads: [],
      targets: [],
      modifiedProperties: [],
    });
    expect(
      newestFirst([
        at('entraDirectoryAudits', '1', '2026-11-26T10:00:00Z'),
        at('intuneAuditEvents', '1', '2026-11-26T12:00:00Z'),
        at('entraDirectoryAudits', '1', '2026-11-26T10:00:00Z'),
        at('entraDirectoryAudits', '2', '2026-11-26T11:00:00.5Z'),
      ]).map((e) => `${e.log}:${e.id}`),
    ).toEqual(['intuneAuditEvents:1', 'entraDirectoryAudits:2', 'entraDirectoryAudits:1']);
  });
});

describe('why a log was not read', () => {
  it('tells a licence from a permission from a failure', () => {
    expect(
      auditLogNotRead(
        'entraDirectoryAudits',
        403,
        'Authentication_RequestFromNonPremiumTenantOrB2CTenant',
        "Neither tenant is B2C or tenant doesn't have premium license",
      ).status,
    ).toBe('notLicensed');
    expect(
      auditLogNotRead(
        'entraDirectoryAudits',
        403,
        'Authorization_RequestDenied',
        'Insufficient privileges to complete the operation.',
      ),
    ).toMatchObject({ status: 'notPermitted', permission: 'AuditLog.Read.All' });
    expect(
      auditLogNotRead(
        'exchangeAdminAuditLog',
        400,
        'CommandNotFoundException',
        "The term 'Search-UnifiedAuditLog' is not recognized",
      ),
    ).toMatchObject({
      status: 'notPermitted',
      permission: 'Exchange.ManageAsApp and the Exchange Administrator role',
    });
    expect(auditLogNotRead('intuneAuditEvents', 503, 'ServiceUnavailable', 'Try later')).toEqual({
      status: 'failed',
      httpStatus: 503,
      message: 'ServiceUnavailable: Try later',
    });
  });
});
