// The embedded default's TaskRuntime: the pipeline tasks reach the simulated client tenants the way
// an agent reaches real ones — an app-only token of the Aegis app from the tenant's authority
// (client credentials at the local identity provider) and the tenant emulator's Graph, admin
// command and ARM endpoints through HttpTenantGateway. Customer reports are sent from the MSP's
// mailbox through the tenant emulator's Graph sendMail, with a token of the MSP's own tenant.
import { createBlobsClient } from '@aegis/connectors/blobs';
import { GraphClient, GraphMailSender, type MailSender } from '@aegis/connectors/graph';
import { createTablesClient } from '@aegis/connectors/tables';
import {
  HttpTenantGateway,
  MICROSOFT_CLOUD_DOORS,
  defaultScopeOf,
  type TenantService,
} from '@aegis/pipeline-tasks';

import { DEFAULT_SUBSCRIPTION_NAME, findSimulatedTenant } from '../tenants/registry';

import type { TaskRuntime } from './task-effects';

export interface TenantTaskRuntimeOptions {
  /** the local identity provider's URL (tenant authorities at `{url}/{tenantId}`) */
  identityProviderUrl: string;
  /** the Aegis app registration */
  clientId: string;
  clientSecret: string;
  /** the tenant emulator's origin (Graph, Exchange admin API, Teams configuration, ARM) */
  tenantEmulatorUrl: () => string;
  /** Azurite or a storage account, for app-deploy onboarding, the fleet rebuild and reports */
  tablesConnectionString?: string;
  /** Azurite's blob service, for the customer reports' PDFs */
  blobsConnectionString?: string;
  /** the MSP's mailbox customer reports are sent from, and the MSP's own tenant it is in */
  mail?: { tenantId: string; sender: string };
}

export function tenantTaskRuntime(options: TenantTaskRuntimeOptions): TaskRuntime {
  const tokens = new Map<string, { token: string; expiresAt: number }>();
  const token = async (tenantId: string, service: TenantService): Promise<string> => {
    const key = `${tenantId}:${service}`;
    const cached = tokens.get(key);
    if (cached && cached.expiresAt > Date.now() + 60_000) return cached.token;
    const response = await fetch(`${options.identityProviderUrl}/${tenantId}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: options.clientId,
        client_secret: options.clientSecret,
        scope: defaultScopeOf(MICROSOFT_CLOUD_DOORS[service]),
      }),
    });
    const body = (await response.json()) as {
      access_token?: string;
      expires_in?: number;
      error_description?: string;
    };
    if (!response.ok || !body.access_token) {
      throw new Error(
        `No token for tenant ${tenantId}: ${body.error_description ?? response.status}`,
      );
    }
    tokens.set(key, {
      token: body.access_token,
      expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000,
    });
    return body.access_token;
  };
  const mail = options.mail;
  // the tenant emulator's address is known only once it listens: a sender per message
  const mailSender: MailSender | undefined = mail && {
    sender: mail.sender,
    send: (message, sendOptions) =>
      new GraphMailSender(
        new GraphClient({
          baseUrl: options.tenantEmulatorUrl(),
          getToken: () => token(mail.tenantId, 'graph'),
        }),
        mail.sender,
      ).send(message, sendOptions),
  };
  return {
    tenant: (clientCodeOrTenantId) => {
      const tenant = findSimulatedTenant(clientCodeOrTenantId);
      if (!tenant) {
        return Promise.reject(new Error(`No client tenant is known for '${clientCodeOrTenantId}'`));
      }
      const subscription =
        tenant.subscriptions.find((s) => s.displayName === DEFAULT_SUBSCRIPTION_NAME) ??
        tenant.subscriptions[0];
      const origin = options.tenantEmulatorUrl();
      return Promise.resolve(
        new HttpTenantGateway({
          tenantId: tenant.tenantId,
          urls: { graph: origin, exchange: origin, teams: origin, arm: origin },
          ...(subscription ? { subscriptionId: subscription.subscriptionId } : {}),
          getToken: (service) => token(tenant.tenantId, service),
        }),
      );
    },
    ...(options.tablesConnectionString
      ? { tables: createTablesClient({ connectionString: options.tablesConnectionString }) }
      : {}),
    ...(options.blobsConnectionString
      ? { blobs: createBlobsClient({ connectionString: options.blobsConnectionString }) }
      : {}),
    ...(mailSender ? { mail: mailSender } : {}),
  };
}
