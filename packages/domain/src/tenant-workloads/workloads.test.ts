import { describe, expect, it } from 'vitest';

import { BASELINE_COMPONENTS, OFFBOARD_COMPONENTS } from '../components';

import { TENANT_WORKLOADS, policyFileNameFor, policyNameOf, workloadFor } from './workloads';

describe('tenant workloads', () => {
  it('has one workload per Category/Kind', () => {
    const keys = TENANT_WORKLOADS.map((w) => `${w.category}/${w.kind}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('lists groups and named locations before the policies that reference them', () => {
    const index = (c: string, k: string) => TENANT_WORKLOADS.indexOf(workloadFor(c, k)!);
    expect(index('AzureAD', 'Group')).toBeLessThan(index('ConditionalAccess', 'Policy'));
    expect(index('ConditionalAccess', 'NamedLocation')).toBeLessThan(
      index('ConditionalAccess', 'Policy'),
    );
  });

  it('names files by the naming property, singletons by their fixed name', () => {
    const ca = workloadFor('ConditionalAccess', 'Policy')!;
    expect(policyNameOf(ca, { displayName: 'CA000 MFA' })).toBe('CA000 MFA');
    expect(policyNameOf(ca, { displayName: ' ' })).toBeUndefined();
    const org = workloadFor('Exchange', 'OrganizationConfig')!;
    expect(policyNameOf(org, { Name: 'whatever' })).toBe('Organization Config');
    expect(policyFileNameFor('a/b:c')).toBe('a_b_c.json');
  });

  it('every component path is a workload folder or a file in one', () => {
    const all = [
      ...Object.values(BASELINE_COMPONENTS).flatMap((c) => c.paths),
      ...Object.values(OFFBOARD_COMPONENTS).flatMap((c) => c.paths),
    ];
    for (const path of all) {
      const [category, kind] = path.replace('M365Config/Resources/', '').split('/');
      expect(workloadFor(category ?? '', kind ?? '') && path).toBe(path);
    }
  });
});
