// The live configuration of each tenant: the git copy plus drift, every object where the domain's
// TENANT_WORKLOADS says it lives, and Conditional Access references that resolve.
import { TENANT_WORKLOADS, textOf, workloadKey } from '@aegis/domain';
import { describe, expect, it } from 'vitest';

import { checkConditionalAccessReferences } from './graph-config-routes';
import { TENANT_DRIFT, gitCopyOf, liveConfigurationOf } from './live-config';
import { SIMULATED_TENANTS } from './registry';
import { TenantWorld } from './world';

const world = new TenantWorld();

describe('live configuration', () => {
  it('every drift entry names a file of the client copy (changes and removals)', () => {
    for (const [code, drift] of Object.entries(TENANT_DRIFT)) {
      const files = gitCopyOf(code);
      expect(files.size).toBeGreaterThan(30);
      const missing = drift.filter((d) => d.kind !== 'add' && !files.has(d.key));
      expect({ code, missing }).toEqual({ code, missing: [] });
      expect(drift.filter((d) => d.kind === 'change')).toHaveLength(2);
      expect(drift.filter((d) => d.kind === 'add')).toHaveLength(1);
      expect(drift.filter((d) => d.kind === 'remove')).toHaveLength(1);
    }
  });

  it('an onboarded tenant holds its git copy plus drift: one added, one removed, two changed', () => {
    const tenant = SIMULATED_TENANTS.find((t) => t.clientCode === 'ABC')!;
    const files = gitCopyOf('ABC');
    const live = liveConfigurationOf(tenant);
    const caPolicies = live.objects.get('ConditionalAccess/Policy') ?? [];
    const gitCa = [...files.keys()].filter((k) => k.startsWith('ConditionalAccess/Policy/'));
    expect(caPolicies).toHaveLength(gitCa.length + 1);
    expect(caPolicies.map((p) => p['displayName'])).toContain(
      'CA900-ABC-Finance-AnyApp-AnyPlatform-BLOCK-Weekend',
    );
    const configurations = live.objects.get('Intune/DeviceConfiguration') ?? [];
    expect(configurations.map((p) => p['displayName'])).not.toContain(
      'Baseline - iOSiPadOS - Device Restrictions',
    );
    const risky = caPolicies.find(
      (p) =>
        p['displayName'] === 'CA004-Global-IdentityProtection-AnyApp-AnyPlatform-MFA-RiskySignIn',
    );
    expect(risky?.['state']).toBe('enabledForReportingButNotEnforced');
    const gitRisky = files.get(
      'ConditionalAccess/Policy/CA004-Global-IdentityProtection-AnyApp-AnyPlatform-MFA-RiskySignIn',
    );
    expect(gitRisky?.['state']).toBe('enabled');
    expect(risky?.['@odata.context']).toBeUndefined();
  });

  it('files every object of the git copy under a workload', () => {
    const tenant = SIMULATED_TENANTS.find((t) => t.clientCode === 'CON')!;
    const live = liveConfigurationOf(tenant);
    const filed = [...live.objects.values()].reduce((n, list) => n + list.length, 0);
    // git copy − 1 removed + 1 added
    expect(filed).toBe(gitCopyOf('CON').size);
    expect([...live.objects.keys()].sort()).toEqual(TENANT_WORKLOADS.map(workloadKey).sort());
  });

  it('a tenant not onboarded has defaults but no Conditional Access or Intune', () => {
    const tenant = SIMULATED_TENANTS.find((t) => !t.onboarded)!;
    const live = liveConfigurationOf(tenant);
    expect(live.drift).toEqual([]);
    expect(live.objects.get('ConditionalAccess/Policy')).toEqual([]);
    expect(live.objects.get('Intune/DeviceCompliancePolicy')).toEqual([]);
    expect(live.objects.get('Exchange/OrganizationConfig')).toHaveLength(1);
    expect(live.objects.get('AzureAD/AuthorizationPolicy')).toHaveLength(1);
  });

  it('every seeded Conditional Access policy references groups, users and locations that exist', () => {
    for (const tenant of SIMULATED_TENANTS.filter((t) => t.onboarded)) {
      const state = world.state(tenant.tenantId);
      const policies = state.workloadObjects({ category: 'ConditionalAccess', kind: 'Policy' });
      expect(policies.size).toBeGreaterThan(0);
      for (const policy of policies.values()) {
        expect(
          () => checkConditionalAccessReferences(state, policy),
          `${tenant.clientCode} ${textOf(policy['displayName'])}`,
        ).not.toThrow();
      }
    }
  });
});
