import { randomBytes } from 'node:crypto';

import { AEGIS_ENTERPRISE_APP, type TenantWorld } from '../tenants';

import type { RegisteredApplication, TenantDirectory } from './tenant-directory';

/** The simulated client tenants as the identity provider sees them: the tenant emulator's world. */
export function tenantWorldDirectory(world: TenantWorld): TenantDirectory {
  return {
    tenants: () =>
      world.tenants.map((tenant) => ({
        tenantId: tenant.tenantId,
        displayName: tenant.displayName,
        domains: tenant.domains,
        globalAdministrators: [tenant.globalAdministrator],
      })),
    grantAdminConsent: (tenantId, clientId) => {
      const result = world.adminConsent({ tenant: tenantId, clientId, signedInTenantId: tenantId });
      return result.ok
        ? { granted: true }
        : { granted: false, error: result.error, errorDescription: result.errorDescription };
    },
  };
}

/** Spec 2 §6: what the Aegis enterprise app asks a client tenant's administrator to consent to. */
export const AEGIS_APP_PERMISSIONS = [
  'Sign in and read user profile (Microsoft Graph User.Read)',
  'Read and write all applications (Microsoft Graph Application.ReadWrite.All)',
  'Read and write all directory RBAC settings (Microsoft Graph RoleManagement.ReadWrite.Directory)',
  'Read directory data (Microsoft Graph Directory.Read.All)',
  'Access Azure Service Management as organization users (Azure Service Management user_impersonation)',
] as const;

/** The Aegis app registration of the embedded default, with a secret made for this run. */
export function aegisAppRegistration(apiAudience: string): RegisteredApplication & {
  clientSecret: string;
} {
  return {
    clientId: AEGIS_ENTERPRISE_APP.appId,
    displayName: AEGIS_ENTERPRISE_APP.displayName,
    clientSecret: randomBytes(24).toString('base64url'),
    apiAudience,
    permissions: AEGIS_APP_PERMISSIONS,
  };
}
