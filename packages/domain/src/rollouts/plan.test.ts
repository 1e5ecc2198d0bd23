import { describe, expect, it } from 'vitest';

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
});
