import { describe, expect, it } from 'vitest';

import { appRegistrationRequirements, permissionsOf, requiredPermissionText } from './permissions';
import { DIRECTORY_USERS_WORKLOAD, TENANT_WORKLOADS, hasPublicApi, workloadFor } from './workloads';

describe('workload permissions', () => {
  it('names what the app needs for every workload that has a public API', () => {
    for (const workload of [...TENANT_WORKLOADS, DIRECTORY_USERS_WORKLOAD]) {
      const needed = permissionsOf(workload);
      expect(needed, `${workload.category}/${workload.kind}`).toBeDefined();
      const count =
        (needed?.application.length ?? 0) +
        (needed?.directoryRoles.length ?? 0) +
        (needed?.azureRoles.length ?? 0);
      expect(count > 0, `${workload.category}/${workload.kind}`).toBe(hasPublicApi(workload));
    }
  });

  it('says which permission and role a workload the app may not read needs', () => {
    expect(requiredPermissionText(workloadFor('Exchange', 'TransportRule')!)).toBe(
      'Exchange.ManageAsApp and the Exchange Administrator role',
    );
    expect(requiredPermissionText(workloadFor('Intune', 'ConfigurationPolicy')!)).toBe(
      'DeviceManagementConfiguration.ReadWrite.All',
    );
    expect(requiredPermissionText(workloadFor('ConditionalAccess', 'Policy')!)).toBe(
      'Policy.Read.All and Policy.ReadWrite.ConditionalAccess',
    );
    expect(requiredPermissionText(workloadFor('AzurePolicy', 'PolicyAssignment')!)).toBe(
      'the Resource Policy Contributor role on the subscription',
    );
  });

  it('gathers the app registration once per API, without repeats', () => {
    const needed = appRegistrationRequirements();
    const graph = needed.application.find((a) => a.api === 'Microsoft Graph')?.names ?? [];
    expect(new Set(graph).size).toBe(graph.length);
    expect(graph).toContain('DeviceManagementConfiguration.ReadWrite.All');
    expect(needed.application.find((a) => a.api === 'Office 365 Exchange Online')?.names).toEqual([
      'Exchange.ManageAsApp',
    ]);
    expect(needed.directoryRoles).toEqual(['Exchange Administrator', 'Teams Administrator']);
  });
});
