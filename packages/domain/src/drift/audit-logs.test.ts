import { describe, expect, it } from 'vitest';

import { TENANT_WORKLOADS, workloadKey } from '../tenant-workloads/workloads';

import {
  AUDITED_WORKLOADS,
  attributeDrift,
  auditEntryWorkloads,
  auditLogOf,
  auditRetentionStart,
  quickCheckWorkloads,
  workloadsTouchedBy,
  type AuditLogReads,
  type TenantAuditEntry,
} from './audit-logs';

const caPolicyUpdate: TenantAuditEntry = {
  log: 'entraDirectoryAudits',
  id: 'Directory_9f0a2c4e-3d5b-4a61-8f1e-0c8b2d7e5a10_2KQ4C_118920931',
  time: '2026-11-27T09:41:12.4418513Z',
  actor: 'alex.wilber@abccorp.onmicrosoft.com',
  operation: 'Update conditional access policy',
  workloads: auditEntryWorkloads({
    log: 'entraDirectoryAudits',
    activityDisplayName: 'Update conditional access policy',
    category: 'Policy',
  }),
  targets: [{ id: '1f4c7d52-8e13-4b6a-9c0d-2e5f8a3b7c91', name: 'CA001 - Require MFA for admins' }],
  modifiedProperties: [
    {
      name: 'ConditionalAccessPolicy',
      oldValue: '{"state":"enabled"}',
      newValue: '{"state":"disabled"}',
    },
  ],
};

const earlierCaPolicyUpdate: TenantAuditEntry = {
  ...caPolicyUpdate,
  id: 'Directory_earlier',
  time: '2026-11-27T08:02:55Z',
  actor: 'Aegis',
  operation: 'Update conditional access policy',
};

const intunePatch: TenantAuditEntry = {
  log: 'intuneAuditEvents',
  id: '6b0f5c9a-2d1e-4f37-8a4b-9c3e7d1f2a58',
  time: '2026-11-27T09:15:03Z',
  actor: 'megan.bowen@abccorp.onmicrosoft.com',
  operation: 'Patch DeviceConfiguration',
  workloads: auditEntryWorkloads({
    log: 'intuneAuditEvents',
    activityType: 'Patch DeviceConfiguration',
    resourceTypes: ['DeviceConfiguration'],
  }),
  targets: [
    { id: 'c2a1e4f0-5b7d-4e93-a6c8-1d0f3b9e2a74', name: 'Windows 11 - Device restrictions' },
  ],
  modifiedProperties: [{ name: 'passwordRequired', oldValue: 'True', newValue: 'False' }],
};

const transportRuleChange: TenantAuditEntry = {
  log: 'exchangeAdminAuditLog',
  id: 'RunDate=2026-11-27T09:30:00Z;Set-TransportRule',
  time: '2026-11-27T09:30:00Z',
  actor: 'NAMPR01A001\\adm-johnd',
  operation: 'Set-TransportRule',
  workloads: auditEntryWorkloads({ log: 'exchangeAdminAuditLog', cmdletName: 'Set-TransportRule' }),
  targets: [{ name: 'External sender disclaimer' }],
  modifiedProperties: [{ name: 'Mode', oldValue: 'Enforce', newValue: 'Audit' }],
};

const readAll = (since: string): AuditLogReads => ({
  entraDirectoryAudits: {
    status: 'read',
    since,
    readAt: '2026-11-27T10:00:00Z',
    coveredFrom: '2026-10-28T10:00:00Z',
  },
  intuneAuditEvents: {
    status: 'read',
    since,
    readAt: '2026-11-27T10:00:00Z',
    coveredFrom: '2025-11-27T10:00:00Z',
  },
  exchangeAdminAuditLog: {
    status: 'read',
    since,
    readAt: '2026-11-27T10:00:00Z',
    coveredFrom: '2026-05-31T10:00:00Z',
  },
});

describe('which workloads an audit entry touches', () => {
  it('places Entra activities by their display name, and ignores what Aegis does not capture', () => {
    const entra = (activityDisplayName: string, category = 'Policy') =>
      auditEntryWorkloads({ log: 'entraDirectoryAudits', activityDisplayName, category });
    expect(entra('Update conditional access policy')).toEqual(['ConditionalAccess/Policy']);
    expect(entra('Add named location')).toEqual(['ConditionalAccess/NamedLocation']);
    expect(entra('Update authorization policy')).toEqual(['AzureAD/AuthorizationPolicy']);
    expect(entra('Add member to group', 'GroupManagement')).toEqual(['AzureAD/Group']);
    expect(entra('Update user', 'UserManagement')).toEqual([]);
    expect(entra('Add member to role', 'RoleManagement')).toEqual([]);
  });

  it('re-reads every Entra workload for a policy change it cannot place', () => {
    expect(
      auditEntryWorkloads({
        log: 'entraDirectoryAudits',
        activityDisplayName: 'Update policy',
        category: 'Policy',
      }),
    ).toEqual(AUDITED_WORKLOADS.entraDirectoryAudits);
  });

  it('places Intune events by entity type, including Graph type names', () => {
    const intune = (activityType: string, resourceTypes: string[] = []) =>
      auditEntryWorkloads({ log: 'intuneAuditEvents', activityType, resourceTypes });
    expect(intune('Create DeviceCompliancePolicy')).toEqual(['Intune/DeviceCompliancePolicy']);
    expect(intune('Delete DeviceManagementConfigurationPolicy')).toEqual([
      'Intune/ConfigurationPolicy',
    ]);
    expect(intune('Patch', ['#microsoft.graph.deviceHealthScript'])).toEqual([
      'Intune/DeviceHealthScript',
    ]);
    expect(intune('Wipe ManagedDevice', ['ManagedDevice'])).toEqual([]);
    // a derived type the rules do not list: every Intune workload, never a missed change
    expect(intune('Patch Windows10GeneralConfiguration')).toEqual(
      AUDITED_WORKLOADS.intuneAuditEvents,
    );
  });

  it('places Exchange cmdlets by their noun, Defender policies included', () => {
    const exchange = (cmdletName: string) =>
      auditEntryWorkloads({ log: 'exchangeAdminAuditLog', cmdletName });
    expect(exchange('Set-TransportRule')).toEqual(['Exchange/TransportRule']);
    expect(exchange('New-AntiPhishPolicy')).toEqual(['Defender/AntiPhishPolicy']);
    expect(exchange('Set-OrganizationConfig')).toEqual(['Exchange/OrganizationConfig']);
    expect(exchange('Set-Mailbox')).toEqual([]);
  });

  it('lists the touched workloads once, in TENANT_WORKLOADS order', () => {
    expect(
      workloadsTouchedBy([transportRuleChange, intunePatch, caPolicyUpdate, earlierCaPolicyUpdate]),
    ).toEqual(['ConditionalAccess/Policy', 'Intune/DeviceConfiguration', 'Exchange/TransportRule']);
    expect(workloadsTouchedBy([])).toEqual([]);
  });

  it('names the log of each covered workload, and none for Teams, SharePoint or Azure', () => {
    expect(auditLogOf('AzureAD/Group')).toBe('entraDirectoryAudits');
    expect(auditLogOf('Intune/MobileApp')).toBe('intuneAuditEvents');
    expect(auditLogOf('Defender/SafeLinksPolicy')).toBe('exchangeAdminAuditLog');
    expect(auditLogOf('Teams/MeetingPolicy')).toBeUndefined();
    expect(auditLogOf('AzurePolicy/PolicyAssignment')).toBeUndefined();
  });
});

describe('a quick check', () => {
  const uncovered = [
    'Forms/FormsSettings',
    'Teams/MeetingPolicy',
    'Teams/MessagingPolicy',
    'Teams/AppPermissionPolicy',
    'Teams/ClientConfiguration',
    'Teams/FederationConfiguration',
    'Teams/GuestMeetingConfiguration',
    'SharePoint/SharePointSettings',
    'AzurePolicy/PolicyAssignment',
    'AzureMaintenance/MaintenanceConfiguration',
  ];

  it('re-reads only what no log covers when nothing changed', () => {
    expect(quickCheckWorkloads([], readAll('2026-11-27T09:00:00Z'))).toEqual(uncovered);
  });

  it('adds the workloads the entries touch', () => {
    const needed = quickCheckWorkloads([intunePatch], readAll('2026-11-27T09:00:00Z'));
    expect(needed).toContain('Intune/DeviceConfiguration');
    expect(needed).toHaveLength(uncovered.length + 1);
  });

  it('re-reads every workload of a log that could not be read', () => {
    const reads: AuditLogReads = {
      ...readAll('2026-11-27T09:00:00Z'),
      exchangeAdminAuditLog: { status: 'failed', httpStatus: 503, message: 'Service unavailable' },
    };
    const needed = quickCheckWorkloads([], reads);
    for (const key of AUDITED_WORKLOADS.exchangeAdminAuditLog) expect(needed).toContain(key);
    expect(needed).not.toContain('ConditionalAccess/Policy');
  });

  it('never re-reads a workload without a public API', () => {
    const needed = quickCheckWorkloads([], {});
    expect(needed).not.toContain('Planner/PlannerConfiguration');
    expect(needed).toHaveLength(TENANT_WORKLOADS.length - 3);
    expect(needed).toEqual(TENANT_WORKLOADS.map(workloadKey).filter((k) => needed.includes(k)));
  });
});

describe('who changed a drifted object', () => {
  const policy = {
    workload: 'ConditionalAccess/Policy',
    id: '1F4C7D52-8E13-4B6A-9C0D-2E5F8A3B7C91',
    name: 'CA001 - Require MFA for admins',
  };

  it('takes the latest entry about the object', () => {
    const [attribution] = attributeDrift(
      [policy],
      [earlierCaPolicyUpdate, caPolicyUpdate],
      readAll('2026-11-27T07:00:00Z'),
      '2026-11-27T07:30:00Z',
    );
    expect(attribution).toEqual({
      status: 'attributed',
      actor: 'alex.wilber@abccorp.onmicrosoft.com',
      time: '2026-11-27T09:41:12.4418513Z',
      operation: 'Update conditional access policy',
      log: 'entraDirectoryAudits',
      modifiedProperties: caPolicyUpdate.modifiedProperties,
    });
  });

  it('matches by name when the log names the object, as Exchange does', () => {
    const [attribution] = attributeDrift(
      [{ workload: 'Exchange/TransportRule', name: 'external sender disclaimer' }],
      [transportRuleChange],
      readAll('2026-11-27T07:00:00Z'),
    );
    expect(attribution).toMatchObject({ status: 'attributed', actor: 'NAMPR01A001\\adm-johnd' });
  });

  it('does not take an entry about another object or another workload', () => {
    const attributions = attributeDrift(
      [
        {
          workload: 'ConditionalAccess/Policy',
          id: 'another-id',
          name: 'CA002 - Block legacy auth',
        },
        { workload: 'ConditionalAccess/NamedLocation', id: policy.id },
      ],
      [caPolicyUpdate],
      readAll('2026-11-27T07:00:00Z'),
    );
    expect(attributions).toEqual([
      { status: 'unknown', reason: 'no audit entry found' },
      { status: 'unknown', reason: 'no audit entry found' },
    ]);
  });

  it('attributes a tenant-wide setting to the latest change of its kind', () => {
    const entry: TenantAuditEntry = {
      ...caPolicyUpdate,
      operation: 'Update authorization policy',
      workloads: ['AzureAD/AuthorizationPolicy'],
      targets: [{ id: 'authorizationPolicy', name: 'Authorization Policy' }],
    };
    const [attribution] = attributeDrift(
      [{ workload: 'AzureAD/AuthorizationPolicy' }],
      [entry],
      readAll('2026-11-27T07:00:00Z'),
    );
    expect(attribution).toMatchObject({
      status: 'attributed',
      operation: 'Update authorization policy',
    });
  });

  it('says the entry may have aged out when the drift began before the retention window', () => {
    const [attribution] = attributeDrift(
      [policy],
      [],
      readAll('2026-10-01T00:00:00Z'),
      '2026-10-01T00:00:00Z',
    );
    expect(attribution).toEqual({
      status: 'unknown',
      reason: "not in the audit log's retention window",
    });
  });

  it('says how far back the log was read when the drift began before that', () => {
    const [attribution] = attributeDrift(
      [policy],
      [],
      readAll('2026-11-27T09:00:00Z'),
      '2026-11-20T00:00:00Z',
    );
    expect(attribution).toEqual({
      status: 'unknown',
      reason: 'the audit log was read only from 2026-11-27T09:00:00Z',
    });
  });

  it('says why a log that could not be read leaves the change unknown', () => {
    const objects = [
      policy,
      { workload: 'Intune/DeviceConfiguration', id: 'c2a1e4f0-5b7d-4e93-a6c8-1d0f3b9e2a74' },
      { workload: 'Exchange/TransportRule', name: 'External sender disclaimer' },
      { workload: 'Teams/MeetingPolicy', name: 'Global' },
    ];
    const reads: AuditLogReads = {
      entraDirectoryAudits: {
        status: 'notPermitted',
        permission: 'AuditLog.Read.All',
        message: 'Authorization_RequestDenied: Insufficient privileges to complete the operation.',
      },
      intuneAuditEvents: { status: 'notLicensed', message: 'Tenant does not have Intune license' },
      exchangeAdminAuditLog: { status: 'failed', httpStatus: 503, message: 'Service unavailable' },
    };
    expect(
      attributeDrift(objects, [], reads).map((a) => a.status === 'unknown' && a.reason),
    ).toEqual([
      'Aegis lacks permission AuditLog.Read.All',
      "the tenant's licence does not include audit logs",
      'the audit log could not be read: Service unavailable',
      'no audit log Aegis reads records this kind of setting',
    ]);
  });
});

describe('audit log retention', () => {
  const now = new Date('2026-11-27T10:00:00Z');

  it('keeps Entra 30 days with P1/P2 and 7 without, Intune a year, Exchange 180 days', () => {
    expect(auditRetentionStart('entraDirectoryAudits', now, true)).toBe('2026-10-28T10:00:00.000Z');
    expect(auditRetentionStart('entraDirectoryAudits', now, false)).toBe(
      '2026-11-20T10:00:00.000Z',
    );
    expect(auditRetentionStart('intuneAuditEvents', now, false)).toBe('2025-11-27T10:00:00.000Z');
    expect(auditRetentionStart('exchangeAdminAuditLog', now, false)).toBe(
      '2026-05-31T10:00:00.000Z',
    );
  });
});
