// For tests of code that calls the tenant emulator: opaque tokens instead of signed JWTs.
// `delegatedToken(tenant)` acts as the tenant's Global Administrator, `appToken(tenant)` as the
// Aegis enterprise app (client credentials); both open Graph, ARM and the admin API.
import {
  Client,
  HTTPMessageHandler,
  RetryHandler,
  type Context,
  type Middleware,
} from '@microsoft/microsoft-graph-client';

import { findSimulatedTenant, type SimulatedTenant } from './registry';
import { buildTenantEmulator, listenTenantEmulator, type TenantEmulator } from './server';
import { ANY_AUDIENCE, type TenantPrincipal } from './wire';
import { AEGIS_ENTERPRISE_APP, TenantWorld, type TenantWorldOptions } from './world';

export const delegatedToken = (tenant: SimulatedTenant): string => `user:${tenant.tenantId}`;
export const appToken = (tenant: SimulatedTenant): string => `app:${tenant.tenantId}`;
/** The Aegis app's own token in the MSP's tenant (client credentials), e.g. for sendMail. */
export const mspAppToken = `app:${AEGIS_ENTERPRISE_APP.ownerTenantId}`;
/** The MSP's mailbox notifications and reports are sent from, in tests. */
export const MSP_MAILBOX = 'aegis-alerts@aegis-msp.example';

function opaquePrincipal(token: string): TenantPrincipal | undefined {
  const [kind, tenantId] = token.split(':');
  if (kind === 'app' && tenantId === AEGIS_ENTERPRISE_APP.ownerTenantId) {
    return { tenantId, audience: ANY_AUDIENCE, appOnly: true, appId: AEGIS_ENTERPRISE_APP.appId };
  }
  const tenant = tenantId ? findSimulatedTenant(tenantId) : undefined;
  if (!tenant) return undefined;
  if (kind === 'app') {
    return {
      tenantId: tenant.tenantId,
      audience: ANY_AUDIENCE,
      appOnly: true,
      appId: AEGIS_ENTERPRISE_APP.appId,
    };
  }
  if (kind !== 'user') return undefined;
  return {
    tenantId: tenant.tenantId,
    audience: ANY_AUDIENCE,
    appOnly: false,
    oid: tenant.globalAdministrator.oid,
    upn: tenant.globalAdministrator.upn,
  };
}

export async function startTestTenantEmulator(
  options: {
    world?: TenantWorld;
    worldOptions?: TenantWorldOptions;
    defaultPageSize?: number;
  } = {},
): Promise<TenantEmulator> {
  return listenTenantEmulator(
    buildTenantEmulator({
      world: options.world ?? new TenantWorld(options.worldOptions),
      verifyToken: (token) => Promise.resolve(opaquePrincipal(token)),
      msp: { tenantId: AEGIS_ENTERPRISE_APP.ownerTenantId, mailboxes: [MSP_MAILBOX] },
      ...(options.defaultPageSize ? { defaultPageSize: options.defaultPageSize } : {}),
    }),
  );
}

/**
 * Microsoft's own Graph client (`@microsoft/microsoft-graph-client`) against the emulator. The
 * library's AuthenticationHandler sends tokens to https Graph hosts only; the emulator is plain
 * http on localhost, so the bearer header comes from a middleware of our own in front of the
 * library's RetryHandler and HTTPMessageHandler.
 */
export function microsoftGraphClient(emulatorUrl: string, token: string): Client {
  let next: Middleware | undefined;
  const bearer: Middleware = {
    execute: async (context: Context) => {
      const headers = new Headers(context.options?.headers);
      headers.set('Authorization', `Bearer ${token}`);
      context.options = { ...context.options, headers };
      await next?.execute(context);
    },
    setNext: (middleware: Middleware) => {
      next = middleware;
    },
  };
  const retry = new RetryHandler();
  bearer.setNext?.(retry);
  retry.setNext(new HTTPMessageHandler());
  return Client.initWithMiddleware({ baseUrl: `${emulatorUrl}/`, middleware: bearer });
}
