import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { redactDeep } from '../lib/logging';

import { isApiRoute } from './auth';

/** One change Aegis made: who, what, when, with which parameters (secrets removed), and the result. */
export interface AuditEvent {
  readonly at: string;
  readonly actor: { readonly upn: string; readonly oid: string; readonly roles: readonly string[] };
  readonly action: string;
  readonly parameters: unknown;
  readonly result: { readonly statusCode: number; readonly outcome: 'succeeded' | 'failed' };
  /** What the handler added through `request.audit(...)`: ids of what was created, a PR, … */
  readonly details?: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Adds details to this request's audit event (issue 18 §5), e.g. the run id or pull request
     * a change created. Every change (a non-GET route that needs a role) is audited anyway.
     */
    audit(details: Record<string, unknown>): void;
  }
}

const MAX_PARAMETER_CHARS = 4_096;
const auditDetails = Symbol('auditDetails');
type WithDetails = FastifyRequest & { [auditDetails]?: Record<string, unknown> };

/**
 * The audit trail: every change made through the API is written as a structured `audit` log event
 * when its answer is sent, with the signed-in technician, the route, its parameters (secrets
 * redacted at any depth, large bodies summarised) and the status it answered.
 */
export const auditPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('audit', function audit(this: WithDetails, details) {
      this[auditDetails] = { ...this[auditDetails], ...details };
    });

    app.addHook('onResponse', async (request: WithDetails, reply) => {
      const { url, config, method } = request.routeOptions;
      if (request.is404 || !url || !isApiRoute(url) || !config.role) return;
      if (method === 'GET' || method === 'HEAD' || !request.user) return;
      const event: AuditEvent = {
        at: new Date().toISOString(),
        actor: { upn: request.user.upn, oid: request.user.oid, roles: request.user.roles },
        action: `${request.method} ${url}`,
        parameters: parametersOf(request),
        result: {
          statusCode: reply.statusCode,
          outcome: reply.statusCode < 400 ? 'succeeded' : 'failed',
        },
        ...(request[auditDetails] ? { details: request[auditDetails] } : {}),
      };
      request.log.info({ audit: event }, 'audit');
    });
  },
  { name: 'audit', dependencies: ['auth'] },
);

function parametersOf(request: FastifyRequest): unknown {
  const parameters = redactDeep({
    params: request.params,
    query: request.query,
    body: request.body,
  }) as Record<string, unknown>;
  const body = parameters.body;
  if (body && typeof body === 'object' && JSON.stringify(body).length > MAX_PARAMETER_CHARS) {
    parameters.body = { summarised: true, fields: Object.keys(body) };
  }
  return parameters;
}
