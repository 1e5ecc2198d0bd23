import { z } from 'zod';

/**
 * Client tenants (ADR 020): where a client's Global Administrator signs in and consents, and the
 * Aegis app's id and API scope. Absent when onboarding is not configured.
 */
export const clientTenantAuthSchema = z.object({
  /** `https://login.microsoftonline.com` or the local identity provider. */
  loginUrl: z.string(),
  /** The Aegis multi-tenant app registration (admin consent, the Global Administrator popup). */
  clientId: z.string(),
  /** The Aegis API's delegated scope, traded on-behalf-of for Graph and ARM by the server. */
  apiScope: z.string(),
});
export type ClientTenantAuth = z.infer<typeof clientTenantAuthSchema>;

/** How the browser signs in: the embedded identity provider or Entra ID through MSAL. */
export const authConfigSchema = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('local'),
    identityProviderUrl: z.string(),
    clientTenants: clientTenantAuthSchema.optional(),
  }),
  z.object({
    mode: z.literal('entra'),
    clientId: z.string(),
    authority: z.string(),
    /** The Aegis API's scope: the browser's token is for the Aegis API, with its roles (ADR 031). */
    apiScope: z.string(),
    clientTenants: clientTenantAuthSchema.optional(),
  }),
]);
export type AuthConfig = z.infer<typeof authConfigSchema>;

/** The Aegis app roles (issue 18), least to most powerful; each includes the ones before it. */
export const aegisRoleSchema = z.enum(['Reader', 'Operator', 'Approver', 'Administrator']);

export const meSchema = z.object({
  upn: z.string(),
  displayName: z.string().nullable(),
  /** The signed-in account's Aegis roles; empty for an account without access to Aegis. */
  roles: z.array(aegisRoleSchema),
});
export type Me = z.infer<typeof meSchema>;

/** The body of every Aegis API error. */
export const apiErrorSchema = z.object({
  error: z.string(),
  statusCode: z.number(),
  message: z.string(),
  field: z.string().optional(),
  /** a machine-readable reason where a screen must tell one failure from another (ADR 042) */
  code: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
