import { z } from 'zod';

/** Spec 2 §5: three capital letters, checked on the server too. */
const clientCode = z.string().regex(/^[A-Z]{3}$/, 'must be exactly 3 uppercase letters');
const guid = z
  .string()
  .regex(
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    'must be a GUID',
  );
const domain = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.-]+$/, 'must be a domain name');

export const tenantIdQuerySchema = z.object({ domain });
export const tenantIdResponseSchema = z.object({
  /** The tenant id read from the first discovery document that answered, or null. */
  tenantId: z.string().nullable(),
  /** The domain whose discovery document answered. */
  resolvedFrom: z.string().nullable(),
});
export type TenantIdResponse = z.infer<typeof tenantIdResponseSchema>;

export const tenantPipelinesResponseSchema = z.object({
  /** Names of the pipelines under the Tenants folder (spec 2 §5 'already onboarded'). */
  pipelines: z.array(z.object({ id: z.number().int(), name: z.string(), folder: z.string() })),
});
export type TenantPipelinesResponse = z.infer<typeof tenantPipelinesResponseSchema>;

export const appDeployOnboardingPipelinesResponseSchema = z.object({
  /**
   * Every project's pipelines under Tenants and in client folders: what the app-deploy flows
   * read as 'already onboarded' (spec 2 §5, ADR 055).
   */
  pipelines: z.array(z.object({ id: z.number().int(), name: z.string(), folder: z.string() })),
});
export type AppDeployOnboardingPipelinesResponse = z.infer<
  typeof appDeployOnboardingPipelinesResponseSchema
>;

export const enterpriseAppSearchSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('found'),
    servicePrincipal: z.object({ id: z.string(), appId: z.string(), displayName: z.string() }),
  }),
  z.object({ status: z.literal('not-found') }),
  z.object({ status: z.literal('unauthorized') }),
  z.object({ status: z.literal('error'), httpStatus: z.number().int(), body: z.string() }),
]);
export type EnterpriseAppSearchResult = z.infer<typeof enterpriseAppSearchSchema>;

export const assignRolesRequestSchema = z
  .object({
    subscriptionName: z.string().trim().min(1).max(200),
    /** the client being onboarded, so the audit trail files the role assignment under it */
    clientCode: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be three capital letters (A-Z)')
      .optional(),
  })
  .strict();
export type AssignRolesRequest = z.infer<typeof assignRolesRequestSchema>;

export const roleStatusSchema = z.object({
  role: z.string(),
  ok: z.boolean(),
  message: z.string(),
});
export const assignRolesResponseSchema = z.object({
  tenantId: z.string(),
  statuses: z.array(roleStatusSchema),
  allRolesAssigned: z.boolean(),
});
export type AssignRolesResponse = z.infer<typeof assignRolesResponseSchema>;

export const globalAdminReaderRequestSchema = z
  .object({ enterpriseAppName: z.string().trim().min(1).max(256) })
  .strict();
export const globalAdminReaderResponseSchema = z.object({
  servicePrincipalId: z.string(),
  subscriptionId: z.string(),
  subscriptionName: z.string(),
});
export type GlobalAdminReaderResponse = z.infer<typeof globalAdminReaderResponseSchema>;

/** Spec 2 §7: tenant onboarding, pipeline 178. */
export const tenantOnboardingRunRequestSchema = z
  .object({
    clientCode,
    domain,
    subscriptionName: z.string().trim().min(1).max(200),
    tenantId: guid,
    enrollInPowerSupport: z.boolean(),
    region: z.string().min(1).max(60),
  })
  .strict();
export type TenantOnboardingRunRequest = z.infer<typeof tenantOnboardingRunRequestSchema>;

/** Spec 2 §7: legacy tenant onboarding, pipeline 75. */
export const tenantOnboardingLegacyRunRequestSchema = z
  .object({
    clientCode,
    domain,
    username: z.string().min(1).max(256),
    password: z.string().min(1).max(256),
    subscriptionName: z.string().trim().min(1).max(200),
  })
  .strict();
export type TenantOnboardingLegacyRunRequest = z.infer<
  typeof tenantOnboardingLegacyRunRequestSchema
>;

/** Spec 2 §7: old app-deploy onboarding, pipeline 55. */
export const appDeployOnboardingRunRequestSchema = z
  .object({
    clientCode,
    domain,
    username: z.string().min(1).max(256),
    password: z.string().min(1).max(256),
  })
  .strict();
export type AppDeployOnboardingRunRequest = z.infer<typeof appDeployOnboardingRunRequestSchema>;

/** Spec 2 §7: new app-deploy onboarding, pipeline 191. */
export const appDeployOnboardingNewRunRequestSchema = z
  .object({ clientCode, domain, clientTenantId: guid, enterpriseAppId: guid })
  .strict();
export type AppDeployOnboardingNewRunRequest = z.infer<
  typeof appDeployOnboardingNewRunRequestSchema
>;

/** A started onboarding run: where to read its status (GET /api/projects/{project}/pipelines/{pipelineId}/runs/{id}). */
export const onboardingRunResponseSchema = z.object({
  id: z.number().int(),
  pipelineId: z.number().int(),
  project: z.string(),
  state: z.string(),
  result: z.string().nullable(),
});
export type OnboardingRunResponse = z.infer<typeof onboardingRunResponseSchema>;
