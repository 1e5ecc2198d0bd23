import { describe, expect, it } from 'vitest';

import { buildCaptureManifest } from '../capture/manifest';

import { tenantDeployPlan } from './plan';

const CA = 'M365Config/Resources/ConditionalAccess/Policy';
const file = (path: string, content: unknown) => ({ path, content });

describe('tenantDeployPlan', () => {
  const baseline = [
    file(`${CA}/CA001.json`, { displayName: 'CA001', state: 'enabled' }),
    file(`${CA}/CA002.json`, { displayName: 'CA002', state: 'enabled' }),
    file(`${CA}/CA003.json`, { displayName: 'CA003', state: 'enabled' }),
    // no public API: the deploy leaves it, so the plan does too
    file('M365Config/Resources/Planner/PlannerConfiguration/Planner Configuration.json', {
      x: 1,
    }),
    // not a policy file of a workload
    file('M365Config/Resources/Descriptions/readme.json', { x: 1 }),
  ];

  it('creates what the tenant lacks and updates what deviates; the rest is left', () => {
    const tenant = [
      file(`/Clients/ABC/${CA}/CA001.json`, { displayName: 'CA001', state: 'enabled' }),
      file(`/Clients/ABC/${CA}/CA002.json`, { displayName: 'CA002', state: 'disabled' }),
    ];
    expect(tenantDeployPlan('ABC', baseline, tenant)).toEqual({
      client: 'ABC',
      creates: 1,
      updates: 1,
      deletes: 0,
      policies: ['ConditionalAccess/Policy/CA002.json', 'ConditionalAccess/Policy/CA003.json'],
    });
  });

  it('has nothing to do in a tenant that matches the baseline', () => {
    const tenant = baseline.map((f) => file(`/Clients/FAB/${f.path}`, f.content));
    const plan = tenantDeployPlan('FAB', baseline, tenant);
    expect(plan.creates + plan.updates + plan.deletes).toBe(0);
    expect(plan.policies).toEqual([]);
  });

  describe('workloads the read could not see (ADR 087)', () => {
    const INTUNE = 'M365Config/Resources/Intune/DeviceConfiguration';
    const withIntune = [...baseline, file(`${INTUNE}/Kiosk.json`, { displayName: 'Kiosk' })];
    const manifest = buildCaptureManifest(new Date('2026-11-27T12:00:00Z'), [
      ['ConditionalAccess/Policy', { status: 'read', count: 3 }],
      [
        'Intune/DeviceConfiguration',
        {
          status: 'notPermitted',
          permission: 'DeviceManagementConfiguration.Read.All',
          message:
            'Authorization_RequestDenied: Insufficient privileges to complete the operation.',
        },
      ],
      ['Exchange/TransportRule', { status: 'failed', httpStatus: 503, message: 'Server busy' }],
      // the baseline has nothing there: an unlicensed service does not matter to this deploy
      ['Defender/Policy', { status: 'notLicensed', message: 'No Defender licence' }],
      ['Planner/PlannerConfiguration', { status: 'noPublicApi' }],
    ]);
    const tenant = baseline.map((f) => file(`/Clients/ABC/${f.path}`, f.content));

    it('flags each workload that failed or was refused, in the service’s words', () => {
      const plan = tenantDeployPlan('ABC', withIntune, tenant, manifest);
      expect(plan.unread).toEqual([
        {
          workload: 'Exchange/TransportRule',
          status: 'failed',
          text: 'Not captured: the service answered 503: Server busy',
          baselinePolicies: 0,
        },
        {
          workload: 'Intune/DeviceConfiguration',
          status: 'notPermitted',
          text: 'Not captured: the Aegis app lacks DeviceManagementConfiguration.Read.All (Authorization_RequestDenied: Insufficient privileges to complete the operation.)',
          baselinePolicies: 1,
        },
      ]);
      // the unread workload's baseline policy is still planned: the deploy writes it
      expect(plan.policies).toEqual(['Intune/DeviceConfiguration/Kiosk.json']);
    });

    it('flags an unlicensed workload only when the baseline deploys into it', () => {
      const unlicensed = buildCaptureManifest(new Date('2026-11-27T12:00:00Z'), [
        ['Intune/DeviceConfiguration', { status: 'notLicensed', message: 'No Intune licence' }],
      ]);
      expect(tenantDeployPlan('ABC', withIntune, tenant, unlicensed).unread).toEqual([
        {
          workload: 'Intune/DeviceConfiguration',
          status: 'notLicensed',
          text: 'Not captured: not licensed: No Intune licence',
          baselinePolicies: 1,
        },
      ]);
      expect(tenantDeployPlan('ABC', baseline, tenant, unlicensed).unread).toBeUndefined();
    });

    it('flags nothing when every workload was read, or the capture has no manifest', () => {
      const allRead = buildCaptureManifest(new Date('2026-11-27T12:00:00Z'), [
        ['ConditionalAccess/Policy', { status: 'read', count: 3 }],
      ]);
      expect(tenantDeployPlan('ABC', withIntune, tenant, allRead).unread).toBeUndefined();
      expect(tenantDeployPlan('ABC', withIntune, tenant).unread).toBeUndefined();
    });
  });
});
