import { randomUUID } from 'node:crypto';

import { ServiceError } from '@aegis/connectors';
import {
  baselineCommitListSchema,
  createRolloutBodySchema,
  rolloutListSchema,
  rolloutParamsSchema,
  rolloutPlanBodySchema,
  rolloutPlanQuerySchema,
  rolloutPlanSchema,
  rolloutPlanStartedSchema,
  rolloutSchema,
  unreadDecisionBodySchema,
  type BaselineCommitList,
  type RolloutList,
} from '@aegis/contracts';
import type { RolloutEvent } from '@aegis/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import { registering } from '../../lib/registering';
import { actorName } from '../../plugins/auth';
import { RolloutService } from '../../services/rollout-service';
import type { RolloutStore } from '../../services/rollout-store';

const tags = ['rollouts'];

export interface RolloutRoutesOptions {
  readonly project: string;
  /** the rollouts' rows; none without Table storage (every instance must see one state, ADR 069) */
  readonly store?: RolloutStore;
  readonly now: () => Date;
}

/** A person's event on a rollout: the route's last segment, the role it needs, the event. */
const ACTIONS = [
  { segment: 'start', role: 'Approver', type: 'start' },
  { segment: 'approve', role: 'Approver', type: 'approve-ring' },
  { segment: 'resume', role: 'Approver', type: 'resume' },
  { segment: 'abort', role: 'Operator', type: 'abort' },
  { segment: 'rollback', role: 'Approver', type: 'rollback' },
] as const;

/**
 * Rollouts in rings (issue 30 §3, ADR 069, 074): a plan from fresh captures, the rollout in rings,
 * and the people's events on it. The ring loop (`RolloutRunner`) starts and follows the runs.
 */
export const rolloutRoutes: FastifyPluginCallbackZod<RolloutRoutesOptions> = registering(
  (app, { project, store, now }) => {
    const service = (request: FastifyRequest) => {
      if (!store) {
        throw new ServiceError(
          'Rollouts need Table storage, where every instance reads and advances the same rollout; it is not configured.',
          { service: 'tables', statusCode: 503, code: 'NotConfigured' },
        );
      }
      return new RolloutService({
        project,
        repository: request.configRepository,
        runs: request.pipelineRuns,
        store,
        now,
        newId: randomUUID,
      });
    };

    app.post(
      '/api/rollouts/plans',
      {
        config: { role: 'Approver' },
        schema: { tags, body: rolloutPlanBodySchema, response: { 201: rolloutPlanStartedSchema } },
      },
      async (request, reply) =>
        reply.code(201).send(await service(request).startPlan(request.body.clients)),
    );

    app.get(
      '/api/rollouts/plan',
      {
        config: { role: 'Reader' },
        schema: { tags, querystring: rolloutPlanQuerySchema, response: { 200: rolloutPlanSchema } },
      },
      async (request) => service(request).readPlan(request.query.captures, request.query.commit),
    );

    app.get(
      '/api/rollouts/commits',
      { config: { role: 'Reader' }, schema: { tags, response: { 200: baselineCommitListSchema } } },
      async (request): Promise<BaselineCommitList> => ({
        commits: await service(request).baselineCommits(),
      }),
    );

    app.post(
      '/api/rollouts',
      {
        config: { role: 'Approver' },
        schema: { tags, body: createRolloutBodySchema, response: { 201: rolloutSchema } },
      },
      async (request, reply) =>
        reply.code(201).send(await service(request).create(request.body, actorName(request.user))),
    );

    app.get(
      '/api/rollouts',
      { config: { role: 'Reader' }, schema: { tags, response: { 200: rolloutListSchema } } },
      async (request): Promise<RolloutList> => ({ rollouts: await service(request).list() }),
    );

    app.get(
      '/api/rollouts/:id',
      {
        config: { role: 'Reader' },
        schema: { tags, params: rolloutParamsSchema, response: { 200: rolloutSchema } },
      },
      async (request) => service(request).get(request.params.id),
    );

    app.post(
      '/api/rollouts/:id/unread-decisions',
      {
        config: { role: 'Approver' },
        schema: {
          tags,
          params: rolloutParamsSchema,
          body: unreadDecisionBodySchema,
          response: { 200: rolloutSchema },
        },
      },
      async (request) =>
        service(request).decideUnread(request.params.id, request.body, actorName(request.user)),
    );

    for (const action of ACTIONS) {
      app.post(
        `/api/rollouts/:id/${action.segment}`,
        {
          config: { role: action.role },
          schema: { tags, params: rolloutParamsSchema, response: { 200: rolloutSchema } },
        },
        async (request) => {
          const event: RolloutEvent = { type: action.type, by: { upn: actorName(request.user) } };
          return service(request).apply(request.params.id, event);
        },
      );
    }
  },
);
