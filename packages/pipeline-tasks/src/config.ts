// The configuration a task reads from the environment an Azure Pipelines agent provides
// (predefined variables, pipeline variables and secret variables mapped into `env:`), validated
// with zod so a missing value fails the run with its name.
import { z } from 'zod';

import { MICROSOFT_CLOUD_DOORS, type ServiceDoor, type TenantService } from './tenant/doors';

const url = z.url();

const environmentSchema = z.object({
  /** predefined: the organisation URL, e.g. https://dev.azure.com/contoso/ */
  SYSTEM_COLLECTIONURI: url,
  /** predefined: the project name */
  SYSTEM_TEAMPROJECT: z.string().min(1),
  /** the job's token; YAML maps it explicitly (`SYSTEM_ACCESSTOKEN: $(System.AccessToken)`) */
  SYSTEM_ACCESSTOKEN: z.string().min(1),
  /** predefined: the run id (capture branch and backup tag messages name it) */
  BUILD_BUILDID: z.coerce.number().int().positive(),
  /** predefined: who started the run */
  BUILD_REQUESTEDFOREMAIL: z.string().optional(),
  /** the configuration repository (default M365Config) */
  AEGIS_CONFIG_REPOSITORY: z.string().min(1).default('M365Config'),
  /** the client tenant: id, and the Aegis multi-tenant app consented in it */
  AEGIS_TENANT_ID: z.string().min(1).optional(),
  AEGIS_CLIENT_ID: z.string().min(1).optional(),
  /** either a client secret (secret variable) or a federated token (workload identity) */
  AEGIS_CLIENT_SECRET: z.string().min(1).optional(),
  AEGIS_FEDERATED_TOKEN: z.string().min(1).optional(),
  AEGIS_FEDERATED_TOKEN_FILE: z.string().min(1).optional(),
  /**
   * each service's door (docs/adr/049): its URL and its tokens' audience; the defaults are
   * Microsoft's public cloud, and an audience defaults to the URL except for Teams
   */
  AEGIS_AUTHORITY_HOST: url.default('https://login.microsoftonline.com'),
  AEGIS_GRAPH_URL: url.default(MICROSOFT_CLOUD_DOORS.graph.url),
  AEGIS_GRAPH_AUDIENCE: z.string().min(1).optional(),
  AEGIS_EXCHANGE_URL: url.default(MICROSOFT_CLOUD_DOORS.exchange.url),
  AEGIS_EXCHANGE_AUDIENCE: z.string().min(1).optional(),
  AEGIS_TEAMS_URL: url.default(MICROSOFT_CLOUD_DOORS.teams.url),
  AEGIS_TEAMS_AUDIENCE: z.string().min(1).default(MICROSOFT_CLOUD_DOORS.teams.audience),
  AEGIS_ARM_URL: url.default(MICROSOFT_CLOUD_DOORS.arm.url),
  AEGIS_ARM_AUDIENCE: z.string().min(1).optional(),
  AEGIS_SUBSCRIPTION_ID: z.string().min(1).optional(),
  /** the resource group Aegis creates maintenance configurations in (ARM has them only there) */
  AEGIS_RESOURCE_GROUP: z.string().min(1).optional(),
  /** table storage for app-deploy onboarding */
  AEGIS_TABLES_URL: url.optional(),
  AEGIS_TABLES_CONNECTION_STRING: z.string().min(1).optional(),
  /** Blob storage for customer reports' PDFs */
  AEGIS_BLOBS_URL: url.optional(),
  AEGIS_BLOBS_CONNECTION_STRING: z.string().min(1).optional(),
  /** the MSP's mailbox customer reports are sent from (in AEGIS_TENANT_ID, Graph Mail.Send) */
  AEGIS_MAIL_SENDER: z.email().optional(),
});

export type TaskEnvironment = z.infer<typeof environmentSchema>;

export interface TenantCredentialSettings {
  tenantId: string;
  clientId: string;
  authorityHost: string;
  secret?: string;
  federatedToken?: string;
  federatedTokenFile?: string;
}

/** Reads and validates the agent's environment; the error names every missing variable. */
export function readTaskEnvironment(env: NodeJS.ProcessEnv): TaskEnvironment {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const names = parsed.error.issues.map((issue) => issue.path.join('.'));
    throw new Error(
      `The pipeline environment is incomplete or invalid: ${[...new Set(names)].join(', ')}`,
    );
  }
  return parsed.data;
}

/** The door of each service of the client tenant: URL and token audience. */
export function tenantDoors(env: TaskEnvironment): Record<TenantService, ServiceDoor> {
  const trimmed = (value: string) => value.replace(/\/+$/, '');
  return {
    graph: {
      url: trimmed(env.AEGIS_GRAPH_URL),
      audience: env.AEGIS_GRAPH_AUDIENCE ?? trimmed(env.AEGIS_GRAPH_URL),
    },
    exchange: {
      url: trimmed(env.AEGIS_EXCHANGE_URL),
      audience: env.AEGIS_EXCHANGE_AUDIENCE ?? trimmed(env.AEGIS_EXCHANGE_URL),
    },
    teams: { url: trimmed(env.AEGIS_TEAMS_URL), audience: env.AEGIS_TEAMS_AUDIENCE },
    arm: {
      url: trimmed(env.AEGIS_ARM_URL),
      audience: env.AEGIS_ARM_AUDIENCE ?? trimmed(env.AEGIS_ARM_URL),
    },
  };
}

/** The client tenant's credentials, or a clear message naming what is missing. */
export function tenantCredentialSettings(env: TaskEnvironment): TenantCredentialSettings {
  const missing = [
    ...(env.AEGIS_TENANT_ID ? [] : ['AEGIS_TENANT_ID']),
    ...(env.AEGIS_CLIENT_ID ? [] : ['AEGIS_CLIENT_ID']),
    ...(env.AEGIS_CLIENT_SECRET || env.AEGIS_FEDERATED_TOKEN || env.AEGIS_FEDERATED_TOKEN_FILE
      ? []
      : ['AEGIS_CLIENT_SECRET or AEGIS_FEDERATED_TOKEN(_FILE)']),
  ];
  if (missing.length > 0 || !env.AEGIS_TENANT_ID || !env.AEGIS_CLIENT_ID) {
    throw new Error(`The client tenant's credentials are missing: ${missing.join(', ')}`);
  }
  return {
    tenantId: env.AEGIS_TENANT_ID,
    clientId: env.AEGIS_CLIENT_ID,
    authorityHost: env.AEGIS_AUTHORITY_HOST,
    ...(env.AEGIS_CLIENT_SECRET ? { secret: env.AEGIS_CLIENT_SECRET } : {}),
    ...(env.AEGIS_FEDERATED_TOKEN ? { federatedToken: env.AEGIS_FEDERATED_TOKEN } : {}),
    ...(env.AEGIS_FEDERATED_TOKEN_FILE
      ? { federatedTokenFile: env.AEGIS_FEDERATED_TOKEN_FILE }
      : {}),
  };
}
