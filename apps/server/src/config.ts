import { availableParallelism } from 'node:os';

import { parsePipelineIdOverrides } from '@aegis/domain';
import { z } from 'zod';

/**
 * Everything that differs between the embedded default and real Azure is here, parsed once.
 * No other module reads process.env.
 */
const configSchema = z
  .object({
    AEGIS_HOST: z.string().default('127.0.0.1'),
    AEGIS_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    AEGIS_LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /** Folder of the built SPA; empty serves the API only. */
    AEGIS_WEB_DIST: z.string().default(''),
    /** `local`: the embedded identity provider's sign-in dialog; `entra`: MSAL popup against Entra ID. */
    AEGIS_AUTH_MODE: z.enum(['local', 'entra']).default('local'),
    AEGIS_AUTH_JWKS_URL: z.url(),
    AEGIS_AUTH_ISSUER: z.string().min(1),
    /** Expected `aud` of API tokens: Azure DevOps' resource id in Entra mode (the token is forwarded to DevOps). */
    AEGIS_AUTH_AUDIENCE: z.string().min(1),
    AEGIS_LOCAL_IDP_URL: z.url().optional(),
    AEGIS_ENTRA_CLIENT_ID: z.string().optional(),
    AEGIS_ENTRA_TENANT_ID: z.string().optional(),
    /** `https://dev.azure.com/{organization}` or the emulator's organisation URL. */
    AEGIS_DEVOPS_ORG_URL: z.url(),
    /** Project holding the configuration repository and the Aegis pipelines. */
    AEGIS_DEVOPS_PROJECT: z.string().min(1).default('Aegis'),
    AEGIS_DEVOPS_CONFIG_REPO: z.string().min(1).default('M365Config'),
    /** Azure Table storage: a connection string (Azurite or an account key) or an account URL used with Entra credentials. */
    AEGIS_TABLES_CONNECTION_STRING: z.string().optional(),
    AEGIS_TABLES_ACCOUNT_URL: z.url().optional(),
    /** Azure Blob storage of archived customer reports (ADR 067): a connection string or an account URL. */
    AEGIS_BLOBS_CONNECTION_STRING: z.string().optional(),
    AEGIS_BLOBS_ACCOUNT_URL: z.url().optional(),
    /** How long Aegis waits for DevOps, Table storage, Graph or ARM before answering 504. */
    AEGIS_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
    /**
     * On SIGTERM or SIGINT the server stops accepting connections and lets requests in flight
     * finish for this long before it exits anyway (ADR 053).
     */
    AEGIS_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
    /**
     * Heavy requests (fleet, comparisons, compliance reports, capture lists) one signed-in user
     * may have running at once on this instance; one more is answered 429 (ADR 057).
     */
    AEGIS_HEAVY_REQUESTS_PER_USER: z.coerce.number().int().min(1).max(1000).default(4),
    /**
     * Application Insights (ADR 061): when set, traces and metrics go to Azure Monitor through
     * Microsoft's OpenTelemetry distribution; when absent, nothing is exported.
     */
    APPLICATIONINSIGHTS_CONNECTION_STRING: z
      .union([
        z.literal('').transform(() => undefined),
        z.string().regex(/(^|;)\s*InstrumentationKey=[^;]+/i, 'must contain InstrumentationKey=…'),
      ])
      .optional(),
    /** The service name telemetry is recorded under (Application Insights' cloud role name). */
    OTEL_SERVICE_NAME: z.string().min(1).default('aegis-server'),
    /**
     * Worker threads that compute the fleet's client summaries (ADR 044); 0 computes them in the
     * server's thread. Default: one fewer than the machine's cores, at least one.
     */
    AEGIS_FLEET_WORKERS: z.coerce
      .number()
      .int()
      .min(0)
      .max(64)
      .default(Math.max(1, availableParallelism() - 1)),
    /**
     * Worker threads that render customer report PDFs (ADR 072), so a preview or a send never
     * stalls the server's thread; 0 renders them in the server's thread.
     */
    AEGIS_REPORT_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
    /** Microsoft Graph base (without the version segment): Microsoft's cloud or the tenant emulator. */
    AEGIS_GRAPH_URL: z.url().default('https://graph.microsoft.com'),
    /** Azure Resource Manager base. */
    AEGIS_ARM_URL: z.url().default('https://management.azure.com'),
    /** Entra ID sign-in host (tenant discovery, admin consent): Microsoft's or the local identity provider. */
    AEGIS_LOGIN_URL: z.url().default('https://login.microsoftonline.com'),
    /**
     * The Aegis multi-tenant app registration (ADR 020): client tenants consent to it, their Global
     * Administrator signs in to it, and the server trades tokens on-behalf-of with its secret.
     * Defaults to AEGIS_ENTRA_CLIENT_ID.
     */
    AEGIS_APP_CLIENT_ID: z.string().optional(),
    AEGIS_APP_CLIENT_SECRET: z.string().optional(),
    /** The App ID URI of the Aegis API (its delegated scope is `{uri}/user_impersonation`); default `api://{client id}`. */
    AEGIS_APP_ID_URI: z.string().optional(),
    /**
     * The mailbox of the MSP's own tenant that notifications and reports are sent from, through
     * Graph sendMail with the Aegis app's own token (Mail.Send; ADR 065). None: no email is sent.
     */
    AEGIS_MAIL_SENDER: z.email().optional(),
    /** The portal's address as technicians open it, for links in notifications. */
    AEGIS_PUBLIC_URL: z.url().optional(),
    /**
     * The password Azure DevOps sends (HTTP basic, user `aegis`) with the `git.push` events of the
     * service hook Aegis subscribes at start-up to main of the configuration repository (ADR 062);
     * with AEGIS_PUBLIC_URL. None: no hook, merges made in DevOps are seen by the next reader.
     */
    AEGIS_DEVOPS_HOOK_SECRET: z
      .string()
      .min(24, 'AEGIS_DEVOPS_HOOK_SECRET must be at least 24 characters')
      .optional(),
    /**
     * How often each instance looks for notification sends, escalations and retries that are due
     * (ADR 065); 0 turns the loop off (tests run passes themselves).
     */
    AEGIS_NOTIFICATION_PASS_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
    /**
     * How often the notification producers read runs, backups, acceptances and open reviews
     * (ADR 070): one instance takes each pass; 0 turns them off.
     */
    AEGIS_NOTIFICATION_PRODUCER_PASS_MS: z.coerce
      .number()
      .int()
      .min(0)
      .max(86_400_000)
      .default(300_000),
    /**
     * How often each instance advances the rollouts: records finished runs, starts what is due
     * (ADR 074); 0 turns the loop off (tests run passes themselves).
     */
    AEGIS_ROLLOUT_PASS_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
    /**
     * How long an instance's claim of a rollout run holds without the run's id recorded; past it
     * another instance takes the claim over, finding or starting the run (ADR 078).
     */
    AEGIS_ROLLOUT_CLAIM_LEASE_MS: z.coerce
      .number()
      .int()
      .min(1_000)
      .max(3_600_000)
      .default(120_000),
    /** The hour (UTC, 0-23) daily notification digests go out (ADR 065). */
    AEGIS_NOTIFICATION_DIGEST_HOUR_UTC: z.coerce.number().int().min(0).max(23).default(7),
    /**
     * The organisation's ids for the pipelines the specs fix by id, `key=id,…` with the
     * catalogue's keys (capture, backup, tenantOnboarding, tenantOnboardingLegacy,
     * appDeployOnboarding, appDeployOnboardingLegacy); the specs' ids otherwise.
     */
    AEGIS_PIPELINE_IDS: z
      .string()
      .default('')
      .transform((text, ctx) => {
        try {
          return parsePipelineIdOverrides(text);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
  })
  .superRefine((env, ctx) => {
    if (env.AEGIS_AUTH_MODE === 'local' && !env.AEGIS_LOCAL_IDP_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['AEGIS_LOCAL_IDP_URL'],
        message: 'required when AEGIS_AUTH_MODE=local',
      });
    }
    if (env.AEGIS_AUTH_MODE === 'entra') {
      for (const key of ['AEGIS_ENTRA_CLIENT_ID', 'AEGIS_ENTRA_TENANT_ID'] as const) {
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'required when AEGIS_AUTH_MODE=entra',
          });
      }
    }
  });

export type AegisConfig = z.infer<typeof configSchema>;

/** Parses the environment, listing every bad variable in one error. */
export function loadConfig(env: Record<string, string | undefined>): AegisConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid Aegis configuration:\n${problems.join('\n')}`);
  }
  return parsed.data;
}

/** The Aegis API's App ID URI: the audience of a client tenant's Global Administrator token (ADR 020). */
export function appIdUriOf(config: AegisConfig, appClientId: string | undefined): string {
  return config.AEGIS_APP_ID_URI ?? `api://${appClientId ?? 'aegis'}`;
}
