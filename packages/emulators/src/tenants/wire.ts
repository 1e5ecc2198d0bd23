// Wire formats shared by the tenant emulator's routes: the caller (principal), which API family a
// path belongs to, Graph and ARM error bodies, and the error routes throw.
import type { FastifyRequest } from 'fastify';

/** Who called: what a verified bearer token says. */
export interface TenantPrincipal {
  tenantId: string;
  /** the token's `aud` */
  audience: string;
  /** an application token (client credentials) rather than a signed-in user */
  appOnly: boolean;
  appId?: string;
  /** the signed-in user's object id */
  oid?: string;
  upn?: string;
}

export type ApiFamily = 'graph' | 'arm' | 'exchange' | 'teams';

/** A test principal's audience that every API accepts (test-support's opaque tokens only). */
export const ANY_AUDIENCE = '*';

export function familyOf(urlPath: string): ApiFamily {
  if (/^\/(v1\.0|beta)(\/|$|\?)/i.test(urlPath)) return 'graph';
  if (/^\/adminapi\//i.test(urlPath)) return 'exchange';
  if (/^\/Skype\.Policy\//i.test(urlPath)) return 'teams';
  return 'arm';
}

/** Graph's error body (reference §1, G-err). */
export function graphError(code: string, message: string, requestId: string): unknown {
  return {
    error: {
      code,
      message,
      innerError: {
        date: new Date().toISOString().replace(/\.\d+Z$/, ''),
        'request-id': requestId,
        'client-request-id': requestId,
      },
    },
  };
}

/** ARM's error body (common-types ErrorResponse). */
export function armError(code: string, message: string): unknown {
  return { error: { code, message } };
}

/** An error a route throws; the error handler writes it in the request family's format. */
export class EmulatorError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: TenantPrincipal;
    requestId: string;
  }
}

export function errorBodyFor(
  request: Pick<FastifyRequest, 'url' | 'requestId'>,
  code: string,
  message: string,
): unknown {
  const family = familyOf(request.url);
  return family === 'graph'
    ? graphError(code, message, request.requestId)
    : armError(code, message);
}

/** The principal of the request; routes run only after the auth hook set it. */
export function principalOf(request: FastifyRequest): TenantPrincipal {
  if (!request.principal)
    throw new EmulatorError(401, 'InvalidAuthenticationToken', 'Access token is empty.');
  return request.principal;
}
