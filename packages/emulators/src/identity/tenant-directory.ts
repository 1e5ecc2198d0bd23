/**
 * What the local identity provider needs to know about the simulated client tenants: their ids,
 * domains and Global Administrator accounts, and what happens when an administrator consents to
 * an application. The tenant emulator implements it from its registry (scenario switches
 * included); the identity provider only speaks the sign-in protocols.
 */
export interface DirectoryAccount {
  readonly oid: string;
  readonly upn: string;
  readonly displayName: string;
}

export interface DirectoryTenant {
  readonly tenantId: string;
  readonly displayName: string;
  /** Verified domains: the `.onmicrosoft.com` one and custom ones. */
  readonly domains: readonly string[];
  readonly globalAdministrators: readonly DirectoryAccount[];
}

export type ConsentOutcome =
  | { readonly granted: true }
  | { readonly granted: false; readonly error: string; readonly errorDescription: string };

export interface TenantDirectory {
  tenants(): readonly DirectoryTenant[];
  /**
   * Records an administrator's consent to `clientId` in `tenantId` (the tenant creates the
   * application's service principal), or refuses as the tenant's scenario says.
   */
  grantAdminConsent(tenantId: string, clientId: string): Promise<ConsentOutcome> | ConsentOutcome;
}

/** An application registered with the identity provider (the Aegis portal's app registration). */
export interface RegisteredApplication {
  readonly clientId: string;
  readonly displayName: string;
  /** Confidential client credential for the on-behalf-of grant; absent for public clients. */
  readonly clientSecret?: string;
  /** The `aud` of tokens for the application's own API (`api://…`). */
  readonly apiAudience?: string;
  /** Permissions shown on the admin consent page. */
  readonly permissions: readonly string[];
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A tenant by id or by one of its domains (case-insensitive), as Entra resolves `/{tenant}/…`. */
export function findTenant(
  directory: TenantDirectory | undefined,
  idOrDomain: string,
): DirectoryTenant | undefined {
  const key = idOrDomain.toLowerCase();
  return directory
    ?.tenants()
    .find((t) =>
      GUID.test(key)
        ? t.tenantId.toLowerCase() === key
        : t.domains.some((d) => d.toLowerCase() === key),
    );
}

/** An empty directory: the identity provider then serves only the staff tenant. */
export const EMPTY_DIRECTORY: TenantDirectory = {
  tenants: () => [],
  grantAdminConsent: () => ({
    granted: false,
    error: 'invalid_request',
    errorDescription: 'AADSTS90002: Tenant not found.',
  }),
};
