// Builds a task's context from an Azure Pipelines agent's environment (config.ts): the DevOps
// connector with the job's token, the client tenant through the Aegis app's credentials
// (a client secret or a federated token) and table storage.
import { readFile } from 'node:fs/promises';

import { createBlobsClient } from '@aegis/connectors/blobs';
import { DevOpsClient } from '@aegis/connectors/devops';
import { GraphClient, GraphMailSender } from '@aegis/connectors/graph';
import { ConfigRepository, createConfigRepositoryShared } from '@aegis/connectors/repository';
import { createTablesClient } from '@aegis/connectors/tables';
import {
  ClientAssertionCredential,
  ClientSecretCredential,
  type TokenCredential,
} from '@azure/identity';

import { tenantCredentialSettings, tenantDoors, type TaskEnvironment } from './config';
import type { TaskLog } from './log';
import type { TaskContext } from './tasks/context';
import { defaultScopeOf, type TenantService } from './tenant/doors';
import { HttpTenantGateway } from './tenant/http-gateway';

function credentialFor(env: TaskEnvironment, tenantId: string): TokenCredential {
  const settings = tenantCredentialSettings({ ...env, AEGIS_TENANT_ID: tenantId });
  const options = { authorityHost: settings.authorityHost };
  if (settings.secret) {
    return new ClientSecretCredential(tenantId, settings.clientId, settings.secret, options);
  }
  const assertion = async () =>
    settings.federatedToken ?? (await readFile(settings.federatedTokenFile ?? '', 'utf8')).trim();
  return new ClientAssertionCredential(tenantId, settings.clientId, assertion, options);
}

/** An app-only token of a client tenant for one of the services the tasks call. */
export type TenantTokenProvider = (tenantId: string) => (service: TenantService) => Promise<string>;

export interface AgentOptions {
  /**
   * How tokens of the client tenant are obtained (default: the app's credential from the
   * environment, for the `.default` scope of each service's audience)
   */
  tenantTokens?: TenantTokenProvider;
}

export function agentContext(
  env: TaskEnvironment,
  log: TaskLog,
  options: AgentOptions = {},
): TaskContext {
  const devops = new DevOpsClient({
    organizationUrl: env.SYSTEM_COLLECTIONURI,
    getToken: () => Promise.resolve(env.SYSTEM_ACCESSTOKEN),
  });
  const project = env.SYSTEM_TEAMPROJECT;
  const doors = tenantDoors(env);
  const credentialTokens: TenantTokenProvider = (tenantId) => {
    const credential = credentialFor(env, tenantId);
    return async (service) => {
      const scope = defaultScopeOf(doors[service]);
      const token = await credential.getToken(scope);
      if (!token) throw new Error(`No token for ${scope}`);
      return token.token;
    };
  };
  const tables =
    env.AEGIS_TABLES_CONNECTION_STRING || env.AEGIS_TABLES_URL
      ? createTablesClient({
          ...(env.AEGIS_TABLES_CONNECTION_STRING
            ? { connectionString: env.AEGIS_TABLES_CONNECTION_STRING }
            : {}),
          ...(env.AEGIS_TABLES_URL ? { accountUrl: env.AEGIS_TABLES_URL } : {}),
        })
      : undefined;
  const blobs =
    env.AEGIS_BLOBS_CONNECTION_STRING || env.AEGIS_BLOBS_URL
      ? createBlobsClient({
          connectionString: env.AEGIS_BLOBS_CONNECTION_STRING,
          accountUrl: env.AEGIS_BLOBS_URL,
        })
      : undefined;
  // the mailbox is in the tenant the run's identity belongs to (the MSP's own)
  const mailTenant = env.AEGIS_TENANT_ID;
  const mail =
    env.AEGIS_MAIL_SENDER && mailTenant
      ? new GraphMailSender(
          new GraphClient({
            baseUrl: doors.graph.url,
            getToken: () => (options.tenantTokens ?? credentialTokens)(mailTenant)('graph'),
          }),
          env.AEGIS_MAIL_SENDER,
        )
      : undefined;
  return {
    log,
    runId: env.BUILD_BUILDID,
    ...(env.BUILD_REQUESTEDFOREMAIL ? { requestedBy: env.BUILD_REQUESTEDFOREMAIL } : {}),
    now: () => new Date(),
    devops,
    repository: new ConfigRepository(
      devops,
      createConfigRepositoryShared({ project, repository: env.AEGIS_CONFIG_REPOSITORY }),
    ),
    pipelines: { project, repository: env.AEGIS_CONFIG_REPOSITORY },
    ...(tables ? { tables } : {}),
    ...(blobs ? { blobs } : {}),
    ...(mail ? { mail } : {}),
    tenant: (tenantId) => {
      const id = tenantId ?? env.AEGIS_TENANT_ID;
      if (!id) {
        return Promise.reject(
          new Error("The client tenant's credentials are missing: AEGIS_TENANT_ID"),
        );
      }
      const tokens = (options.tenantTokens ?? credentialTokens)(id);
      const gateway = new HttpTenantGateway({
        tenantId: id,
        urls: {
          graph: doors.graph.url,
          exchange: doors.exchange.url,
          teams: doors.teams.url,
          arm: doors.arm.url,
        },
        ...(env.AEGIS_SUBSCRIPTION_ID ? { subscriptionId: env.AEGIS_SUBSCRIPTION_ID } : {}),
        ...(env.AEGIS_RESOURCE_GROUP ? { resourceGroup: env.AEGIS_RESOURCE_GROUP } : {}),
        getToken: tokens,
      });
      return Promise.resolve(gateway);
    },
  };
}
