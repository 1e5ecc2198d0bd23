// The tenant emulator: Microsoft Graph, Azure Resource Manager and the Exchange Online admin API of
// the simulated client tenants, on Microsoft's wire formats. The tenant of a request is the `tid`
// of its bearer token, as in Microsoft's cloud. Scenario switches and faults live under /_emulator.
import { randomUUID } from 'node:crypto';

import Fastify, { type FastifyInstance } from 'fastify';
import { createRemoteJWKSet, jwtVerify } from 'jose';

import { FaultInjector, registerFaultRoutes } from '../faults';

import { registerAdminCommandRoutes } from './admin-command-routes';
import { registerArmRoutes } from './arm-routes';
import { EmulatorDeliveries } from './deliveries';
import { registerEmulatorRoutes } from './emulator-routes';
import { failWorkloadRead } from './failing-workload';
import { registerGraphRoutes } from './graph-routes';
import { registerDeliveryRoutes, registerMailRoutes, type MspTenant } from './mail-routes';
import { registerTeamsConfigurationRoutes } from './teams-config-routes';
import {
  ANY_AUDIENCE,
  EmulatorError,
  armError,
  type ApiFamily,
  errorBodyFor,
  familyOf,
  graphError,
  type TenantPrincipal,
} from './wire';
import { TenantWorld } from './world';

export type { MspTenant } from './mail-routes';

export type TenantTokenVerifier = (token: string) => Promise<TenantPrincipal | undefined>;

export interface TenantEmulatorOptions {
  world?: TenantWorld;
  verifyToken: TenantTokenVerifier;
  port?: number;
  host?: string;
  logger?: boolean;
  /** page size of Graph lists without `$top`, and of ARM lists (default 100) */
  defaultPageSize?: number;
  /** browser origins allowed to call Graph/ARM (the portal, for the onboarding popup's tokens) */
  allowedOrigins?: readonly string[];
  /** the MSP's own tenant: its app-only tokens may send mail from these mailboxes, nothing else */
  msp?: MspTenant;
  /** where received mail and webhooks are kept (default: a new, empty one) */
  deliveries?: EmulatorDeliveries;
}

export interface TenantEmulatorServer {
  app: FastifyInstance;
  world: TenantWorld;
  faults: FaultInjector;
  deliveries: EmulatorDeliveries;
}

export interface TenantEmulator {
  /** the origin, e.g. http://127.0.0.1:4704: Graph at `${url}/v1.0`, ARM at `${url}`, admin at `${url}/_emulator` */
  url: string;
  graphUrl: string;
  armUrl: string;
  world: TenantWorld;
  faults: FaultInjector;
  /** mail and webhooks received (also at /_emulator/mail and /_emulator/webhooks) */
  deliveries: EmulatorDeliveries;
  close(): Promise<void>;
}

function bearerOf(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

export function buildTenantEmulator(options: TenantEmulatorOptions): TenantEmulatorServer {
  const world = options.world ?? new TenantWorld();
  const deliveries = options.deliveries ?? new EmulatorDeliveries();
  const msp = options.msp;
  const faults = new FaultInjector((status, message) =>
    graphError(status === 429 ? 'TooManyRequests' : 'ServiceUnavailable', message, randomUUID()),
  );
  const app = Fastify({
    logger: options.logger ?? false,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    bodyLimit: 20 * 1024 * 1024,
    // Graph's alternate keys, e.g. /servicePrincipals(appId='…') → /servicePrincipals/appId=…
    rewriteUrl: (request) =>
      (request.url ?? '/').replace(
        /\/(servicePrincipals|directoryRoles)\((appId|roleTemplateId)=(?:'|%27)([^'%]+)(?:'|%27)\)/i,
        '/$1/$2=$3',
      ),
  });
  app.decorateRequest('principal', undefined);
  app.decorateRequest('requestId', '');

  app.addHook('onRequest', async (request, reply) => {
    const clientRequestId = request.headers['client-request-id'];
    request.requestId = randomUUID();
    const family = familyOf(request.url);
    if (family === 'graph') {
      reply.header('request-id', request.requestId);
      reply.header(
        'client-request-id',
        typeof clientRequestId === 'string' ? clientRequestId : request.requestId,
      );
    } else {
      reply.header('x-ms-request-id', request.requestId);
      reply.header('x-ms-correlation-request-id', request.requestId);
    }
  });
  const allowedOrigins = options.allowedOrigins ?? [];
  app.addHook('onRequest', async (request, reply) => {
    const requestOrigin = request.headers.origin;
    if (requestOrigin && allowedOrigins.includes(requestOrigin)) {
      reply.header('access-control-allow-origin', requestOrigin);
      reply.header(
        'access-control-allow-headers',
        'authorization, content-type, client-request-id, consistencylevel, x-msft-approval-justification',
      );
      reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
      reply.header('access-control-expose-headers', 'request-id, client-request-id, retry-after');
      reply.header('vary', 'origin');
    }
    if (request.method === 'OPTIONS') await reply.code(204).send();
  });
  app.addHook('onRequest', faults.hook);
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/_emulator/')) return;
    const token = bearerOf(request.headers.authorization);
    const principal = token ? await options.verifyToken(token).catch(() => undefined) : undefined;
    // The MSP's own tenant is not simulated: the emulator keeps only its mailboxes.
    if (principal && msp && principal.tenantId === msp.tenantId) {
      if (!/^\/(v1\.0|beta)\/users\/[^/]+\/sendMail(\?|$)/i.test(request.url)) {
        await reply
          .code(403)
          .send(
            graphError(
              'Authorization_RequestDenied',
              "The tenant emulator serves the MSP's own tenant for sendMail only.",
              request.requestId,
            ),
          );
        return;
      }
      request.principal = principal;
      return;
    }
    const tenant = principal ? world.find(principal.tenantId) : undefined;
    if (!principal || !tenant) {
      const family = familyOf(request.url);
      if (family === 'graph') {
        await reply
          .code(401)
          .header(
            'WWW-Authenticate',
            'Bearer realm="", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize"',
          )
          .send(
            graphError(
              'InvalidAuthenticationToken',
              token
                ? 'Access token validation failure. Invalid audience.'
                : 'Access token is empty.',
              request.requestId,
            ),
          );
        return;
      }
      await reply
        .code(401)
        .send(
          armError(
            token ? 'InvalidAuthenticationToken' : 'AuthenticationFailed',
            token
              ? 'The access token is invalid.'
              : "Authentication failed. The 'Authorization' header is missing.",
          ),
        );
      return;
    }
    const family = familyOf(request.url);
    if (!audienceFits(family, principal.audience)) {
      await reply
        .code(401)
        .send(
          family === 'graph'
            ? graphError(
                'InvalidAuthenticationToken',
                'Access token validation failure. Invalid audience.',
                request.requestId,
              )
            : armError(
                'InvalidAuthenticationTokenAudience',
                `The access token has been obtained for wrong audience or resource '${principal.audience}'. It should exactly match with one of the allowed audiences ${FAMILY_AUDIENCES[family].map((a) => `'${a}'`).join(',')}.`,
              ),
        );
      return;
    }
    request.principal = { ...principal, tenantId: tenant.tenantId };
    // Per-tenant throttling switch: 429 with Retry-After, in the family's error format.
    const scenarios = world.scenarios(tenant.tenantId);
    if (scenarios.throttle && scenarios.throttle.requests > 0) {
      world.setScenarios(tenant.tenantId, {
        throttle:
          scenarios.throttle.requests > 1
            ? { ...scenarios.throttle, requests: scenarios.throttle.requests - 1 }
            : null,
      });
      const family = familyOf(request.url);
      await reply
        .code(429)
        .header('Retry-After', String(scenarios.throttle.retryAfterInSeconds))
        .send(
          family === 'graph'
            ? graphError(
                'TooManyRequests',
                'Too many requests. Please try again later.',
                request.requestId,
              )
            : armError(
                'TooManyRequests',
                'The request is being throttled as the limit has been reached for operation type. Please try again later.',
              ),
        );
    }
  });

  // Scenario 'failingWorkload': reads of one workload fail (after the body is parsed: an admin
  // command names its cmdlet in the body).
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.principal && world.find(request.principal.tenantId)) {
      failWorkloadRead(request, world.scenarios(request.principal.tenantId).failingWorkload);
    }
    done();
  });

  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof EmulatorError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return reply.code(error.statusCode).send(errorBodyFor(request, error.code, error.message));
    }
    const statusCode = (error as { statusCode?: number }).statusCode;
    if (statusCode && statusCode >= 400 && statusCode < 500) {
      const code = familyOf(request.url) === 'graph' ? 'BadRequest' : 'InvalidRequestContent';
      return reply.code(statusCode).send(errorBodyFor(request, code, (error as Error).message));
    }
    request.log.error(error);
    return reply
      .code(500)
      .send(errorBodyFor(request, 'InternalServerError', (error as Error).message));
  });
  app.setNotFoundHandler(async (request, reply) => {
    const family = familyOf(request.url);
    const path = request.url.split('?')[0] ?? request.url;
    if (family === 'graph') {
      return reply
        .code(400)
        .send(
          graphError(
            'BadRequest',
            `Resource not found for the segment '${path.split('/').pop() ?? ''}'.`,
            request.requestId,
          ),
        );
    }
    // ARM: a path outside any subscription that no tenant-level provider serves
    if (family === 'arm' && !/^\/subscriptions(\/|$)/i.test(path)) {
      return reply
        .code(400)
        .send(
          armError(
            'MissingSubscription',
            'The request did not have a subscription or a valid tenant level resource provider.',
          ),
        );
    }
    return reply
      .code(404)
      .send(
        armError(
          'InvalidResourceType',
          `The resource type could not be found in the namespace for path '${path}'.`,
        ),
      );
  });

  registerFaultRoutes(app, faults);
  registerEmulatorRoutes(app, world, deliveries);
  registerDeliveryRoutes(app, deliveries);
  registerMailRoutes(app, world, deliveries, msp);
  registerGraphRoutes(app, world, { defaultPageSize: options.defaultPageSize ?? 100 });
  registerArmRoutes(app, world, options.defaultPageSize ?? 100);
  registerAdminCommandRoutes(app, world, options.defaultPageSize ?? 1000);
  registerTeamsConfigurationRoutes(app, world);
  return { app, world, faults, deliveries };
}

export async function listenTenantEmulator(
  server: TenantEmulatorServer,
  options: Pick<TenantEmulatorOptions, 'port' | 'host'> = {},
): Promise<TenantEmulator> {
  const host = options.host ?? '127.0.0.1';
  await server.app.listen({ port: options.port ?? 0, host });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${host}:${port}`;
  return {
    url,
    graphUrl: `${url}/v1.0`,
    armUrl: url,
    world: server.world,
    faults: server.faults,
    deliveries: server.deliveries,
    close: () => server.app.close(),
  };
}

/**
 * A token check that trusts an identity provider's JWKS, as Graph and ARM trust Entra ID: the
 * tenant is the `tid` claim, the audience one of `audiences`.
 */
export function jwksTenantTokenVerifier(options: {
  jwksUrl: string;
  audiences: readonly string[];
}): TenantTokenVerifier {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl));
  return async (token) => {
    const { payload } = await jwtVerify(token, keys, { audience: [...options.audiences] });
    const tid = typeof payload['tid'] === 'string' ? payload['tid'] : undefined;
    if (!tid) return undefined;
    const aud = Array.isArray(payload.aud) ? (payload.aud[0] ?? '') : (payload.aud ?? '');
    const scp = typeof payload['scp'] === 'string' ? payload['scp'] : undefined;
    const appOnly = payload['idtyp'] === 'app' || (!scp && Array.isArray(payload['roles']));
    const appId =
      typeof payload['appid'] === 'string'
        ? payload['appid']
        : typeof payload['azp'] === 'string'
          ? payload['azp']
          : undefined;
    const upn =
      typeof payload['upn'] === 'string'
        ? payload['upn']
        : typeof payload['preferred_username'] === 'string'
          ? payload['preferred_username']
          : undefined;
    return {
      tenantId: tid,
      audience: aud,
      appOnly,
      ...(appId ? { appId } : {}),
      ...(typeof payload['oid'] === 'string' ? { oid: payload['oid'] } : {}),
      ...(upn ? { upn } : {}),
    };
  };
}

/** The audiences each API accepts: a Graph token does not open ARM, as in Microsoft's cloud. */
const FAMILY_AUDIENCES: Readonly<Record<ApiFamily, readonly string[]>> = {
  graph: ['https://graph.microsoft.com', '00000003-0000-0000-c000-000000000000'],
  arm: [
    'https://management.azure.com',
    'https://management.azure.com/',
    'https://management.core.windows.net/',
  ],
  exchange: ['https://outlook.office365.com', '00000002-0000-0ff1-ce00-000000000000'],
  // the "Skype and Teams Tenant Admin API" resource of the Teams admin configuration service
  teams: ['48ac35b8-9aa8-4d74-927d-1f4a14a0b239'],
};

function audienceFits(family: ApiFamily, audience: string): boolean {
  return audience === ANY_AUDIENCE || FAMILY_AUDIENCES[family].includes(audience);
}

/** Audiences Graph, ARM, Exchange Online and the Teams configuration service accept. */
export const TENANT_EMULATOR_AUDIENCES = [
  'https://graph.microsoft.com',
  '00000003-0000-0000-c000-000000000000',
  'https://management.azure.com',
  'https://management.azure.com/',
  'https://management.core.windows.net/',
  'https://outlook.office365.com',
  '00000002-0000-0ff1-ce00-000000000000',
  '48ac35b8-9aa8-4d74-927d-1f4a14a0b239',
] as const;
