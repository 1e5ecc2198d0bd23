import { randomUUID } from 'node:crypto';

import { isServiceError, ServiceError } from '@aegis/connectors';
import { auditClientCodeOf, hasRole, type AuditEvent } from '@aegis/domain';
import type { AuditTrail } from '@aegis/insights';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { redactDeep } from '../lib/logging';
import { registering } from '../lib/registering';
import { mergeTallies, UnauthenticatedAttempts } from '../services/unauthenticated-attempts';

import { isApiRoute } from './auth';

export type { AuditEvent } from '@aegis/domain';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Adds details to this request's audit event (issue 18 §5), e.g. the run id or pull request
     * a change created. Every change (a non-GET route that needs more than Reader) is audited anyway.
     */
    audit(details: Record<string, unknown>): void;
    /**
     * The status a change really ended with when it is only known after its 200 went out (a
     * progress stream that reports an error event).
     */
    auditOutcome(statusCode: number): void;
    /**
     * Records a change a read made besides answering (a half-made restore finished while the
     * backups are listed): one event, by the signed-in user, for that change's own action.
     */
    auditSideChange(change: SideChange): Promise<void>;
  }
}

export interface SideChange {
  /** `METHOD /route/:template` of the change it stands for, e.g. `POST /api/backups/:client/restore` */
  readonly action: string;
  readonly clientCode: string;
  readonly parameters: unknown;
  readonly statusCode: number;
  readonly details: Record<string, unknown>;
}

export interface AuditPluginOptions {
  readonly trail: AuditTrail;
  /** The clock of the 401 tally's windows, shared by every instance (ADR 060). */
  readonly now?: () => Date;
}

const MAX_PARAMETER_CHARS = 4_096;
/** What an answer names that tells an auditor what a change created (run, pull request…). */
const ANSWER_DETAILS = [
  'runId',
  'pipelineId',
  'project',
  'pullRequestId',
  'prUrl',
  'branch',
  'commitId',
  'tag',
];

const state = Symbol('audit');
interface AuditState {
  details?: Record<string, unknown>;
  /** The event recorded before the handler ran, when it ran. */
  begun?: AuditEvent;
  streamedStatus?: number;
  /** the client the answer named, for a change whose request did not name one */
  answeredClientCode?: string;
  /** the client tenant's Global Administrator who made a public change (the Global Admin tool) */
  clientTenantActor?: { upn: string; tenantId: string };
}
type Audited = FastifyRequest & { [state]?: AuditState };

/**
 * The audit trail (issue 18 §5, ADR 037). Every change made through the API (a non-GET route
 * needing more than the Reader role, whose routes change nothing) is recorded in the AegisAudit
 * table before its handler runs: if that record cannot be stored, the change is refused with 503
 * and nothing is changed. Its answer is merged in once sent; attempts refused before the handler
 * (403, 400) are recorded then. A record that cannot be stored after the fact is logged as an
 * error carrying the whole event, and every event is also a structured `audit` log line.
 */
/** How long a client waits before retrying a change the audit store could not record. */
const AUDIT_RETRY_AFTER_IN_MS = 10_000;

export const auditPlugin = fp<AuditPluginOptions>(
  registering((app: FastifyInstance, { trail, now }) => {
    app.decorateRequest('audit', function audit(this: Audited, details) {
      const current = (this[state] ??= {});
      current.details = { ...current.details, ...details };
    });
    app.decorateRequest('auditOutcome', function auditOutcome(this: Audited, statusCode) {
      (this[state] ??= {}).streamedStatus = statusCode;
    });
    app.decorateRequest(
      'auditSideChange',
      async function auditSideChange(this: Audited, change: SideChange) {
        const event: AuditEvent = {
          id: randomUUID(),
          at: new Date().toISOString(),
          actor: { upn: this.user.upn, oid: this.user.oid, roles: this.user.roles },
          action: change.action,
          clientCode: change.clientCode,
          parameters: redactDeep(change.parameters),
          result: {
            statusCode: change.statusCode,
            outcome: change.statusCode < 400 ? 'succeeded' : 'failed',
          },
          details: change.details,
        };
        this.log.info({ audit: event }, 'audit');
        try {
          await trail.record(event);
        } catch (error) {
          // The change already happened: the event must not be lost silently.
          this.log.error({ audit: event, err: error }, 'audit event could not be stored');
        }
      },
    );

    app.addHook('preHandler', async (request: Audited) => {
      if (request.routeOptions.config.auditAsClientTenantAdministrator) {
        // refused tokens answer 403 here and are tallied below, like unauthenticated changes
        const session = await request.clientTenant();
        (request[state] ??= {}).clientTenantActor = {
          upn: session.upn,
          tenantId: session.tenantId,
        };
      }
      if (!isAuditedChange(request)) return;
      const event = eventOf(request, { outcome: 'started' });
      try {
        await trail.begin(event);
      } catch (error) {
        request.log.error({ audit: event, err: error }, 'audit event could not be stored');
        throw new ServiceError(
          `The audit trail could not be written, so nothing was changed: ${(error as Error).message}`,
          {
            service: 'tables',
            statusCode: 503,
            code: 'AuditUnavailable',
            // the store's own hint when it gave one, else a short wait before trying again
            retryAfterInMs:
              (isServiceError(error) ? error.retryAfterInMs : undefined) ?? AUDIT_RETRY_AFTER_IN_MS,
            cause: error,
          },
        );
      }
      (request[state] ??= {}).begun = event;
    });

    app.addHook('onSend', async (request: Audited, reply, payload) => {
      if (!isAuditedChange(request) || reply.statusCode >= 400 || typeof payload !== 'string') {
        return payload;
      }
      const details = detailsOfAnswer(payload, request.params);
      if (details) request.audit(details);
      // a change whose client the service resolved (a deploy or off-board names a pipeline)
      const answered = clientCodeOfAnswer(payload);
      if (answered) (request[state] ??= {}).answeredClientCode = answered;
      return payload;
    });

    // Changes refused with 401 have no verified account: tallied, one event per action and
    // minute, so that anyone who can reach the server cannot fill the trail (ADR 043); every
    // instance adds its counts into that one event (ADR 060).
    const unauthenticated = new UnauthenticatedAttempts(
      async (events) => {
        for (const event of events) {
          app.log.warn({ audit: event }, 'audit');
          try {
            await trail.tally(event, mergeTallies);
          } catch (error) {
            app.log.error({ audit: event, err: error }, 'audit event could not be stored');
          }
        }
      },
      undefined,
      now,
    );
    app.addHook('onClose', async () => unauthenticated.flush());

    app.addHook('onResponse', async (request: Audited, reply) => {
      const refusedAdministrator =
        reply.statusCode === 403 &&
        request.routeOptions.config.auditAsClientTenantAdministrator === true &&
        !request[state]?.clientTenantActor;
      if (
        (reply.statusCode === 401 && !request.user && isChangeRoute(request)) ||
        refusedAdministrator
      ) {
        unauthenticated.note({
          action: `${request.method} ${request.routeOptions.url}`,
          reason: /^Bearer\s+\S+$/i.test(request.headers.authorization ?? '')
            ? 'invalid token'
            : 'no token',
          source: request.ip,
        });
        return;
      }
      if (!isAuditedChange(request)) return;
      const current = request[state] ?? {};
      const statusCode = current.streamedStatus ?? reply.statusCode;
      const started = current.begun ?? eventOf(request, { outcome: 'started' });
      const clientCode = started.clientCode ?? current.answeredClientCode;
      const event: AuditEvent = {
        ...started,
        ...(clientCode ? { clientCode } : {}),
        result: { statusCode, outcome: statusCode < 400 ? 'succeeded' : 'failed' },
        ...(current.details ? { details: current.details } : {}),
      };
      request.log.info({ audit: event }, 'audit');
      try {
        await (current.begun ? trail.complete(event) : trail.record(event));
      } catch (error) {
        // The change (or refusal) already happened: the event must not be lost silently.
        request.log.error({ audit: event, err: error }, 'audit event could not be stored');
      }
    });
  }),
  { name: 'audit', dependencies: ['auth'] },
);

/**
 * A change: a non-GET API route needing a role above Reader, asked by a signed-in account, or a
 * public change made by a client tenant's verified Global Administrator.
 */
function isAuditedChange(request: Audited): boolean {
  if (request[state]?.clientTenantActor) return true;
  return isChangeRoute(request) && Boolean(request.user);
}

/** A non-GET API route needing a role above Reader (Reader routes change nothing). */
function isChangeRoute(request: FastifyRequest): boolean {
  const { url, config, method } = request.routeOptions;
  if (request.is404 || !url || !isApiRoute(url) || !config.role) return false;
  return method !== 'GET' && method !== 'HEAD' && !hasRole(['Reader'], config.role);
}

function eventOf(request: Audited, result: AuditEvent['result']): AuditEvent {
  const clientCode = auditClientCodeOf(request);
  const administrator = request[state]?.clientTenantActor;
  return {
    id: randomUUID(),
    at: new Date().toISOString(),
    actor: administrator
      ? {
          upn: administrator.upn,
          oid: '',
          roles: [`Global Administrator of tenant ${administrator.tenantId}`],
        }
      : { upn: request.user.upn, oid: request.user.oid, roles: request.user.roles },
    action: `${request.method} ${request.routeOptions.url}`,
    ...(clientCode ? { clientCode } : {}),
    parameters: parametersOf(request),
    result,
  };
}

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

/** The client an answer names (`clientCode`), when the request itself did not. */
function clientCodeOfAnswer(payload: string): string | undefined {
  try {
    const body = JSON.parse(payload) as unknown;
    if (!body || typeof body !== 'object') return undefined;
    return auditClientCodeOf({ body });
  } catch {
    return undefined;
  }
}

/**
 * Ids an answer names (run, pull request, branch…), for the event's details. A run started through
 * the projects API answers only its id: where it lives (project, pipeline) comes from the address,
 * so the trail can open its log (ADR 042).
 */
export function detailsOfAnswer(
  payload: string,
  params: unknown,
): Record<string, unknown> | undefined {
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const fields = body as Record<string, unknown>;
  const details: Record<string, unknown> = {};
  // a pipeline run answers its own id next to the pipeline's
  if (fields.pipelineId !== undefined && typeof fields.id === 'number') details.runId = fields.id;
  for (const key of ANSWER_DETAILS) {
    const value = fields[key];
    if (typeof value === 'string' || typeof value === 'number') details[key] = value;
  }
  const address = (params ?? {}) as Record<string, unknown>;
  const pipelineId = Number(address['pipelineId']);
  if (
    typeof fields.id === 'number' &&
    details.runId === undefined &&
    typeof address['projectId'] === 'string' &&
    Number.isInteger(pipelineId)
  ) {
    details.runId = fields.id;
    details.pipelineId = pipelineId;
    details.project = address['projectId'];
  }
  return Object.keys(details).length > 0 ? details : undefined;
}
