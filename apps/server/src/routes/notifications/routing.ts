import {
  notificationChannelInputSchema,
  notificationChannelListSchema,
  notificationChannelSchema,
  notificationConfigIdParamsSchema,
  notificationRuleInputSchema,
  notificationRuleListSchema,
  notificationRuleSchema,
} from '@aegis/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { registering } from '../../lib/registering';
import { actorName } from '../../plugins/auth';
import type { ChangedBy, NotificationRouting } from '../../services/notification-routing';

export interface NotificationRoutingRoutesOptions {
  /** The channels and rules; none without Aegis's Table storage (the routes then answer 503). */
  readonly routing: () => NotificationRouting;
  readonly now: () => Date;
}

const tags = ['notifications'];
const deleted = z.object({ deleted: z.string() });

/**
 * Notification channels and rules (issue 28 §4): anyone signed in reads them (the notification
 * centre names channels); only an Administrator changes them, each change audited.
 */
export const notificationRoutingRoutes: FastifyPluginCallbackZod<NotificationRoutingRoutesOptions> =
  registering((app, { routing, now }) => {
    const changeBy = (request: FastifyRequest): ChangedBy => ({
      by: actorName(request.user),
      at: now(),
    });

    app.get(
      '/api/notifications/channels',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          description: 'The notification channels; a webhook secret is never returned.',
          response: { 200: notificationChannelListSchema },
        },
      },
      async () => ({ channels: await routing().listChannels() }),
    );
    app.post(
      '/api/notifications/channels',
      {
        config: { role: 'Administrator' },
        schema: {
          tags,
          description: 'Adds an email, Teams Workflows or signed-webhook channel.',
          body: notificationChannelInputSchema,
          response: { 201: notificationChannelSchema },
        },
      },
      async (request, reply) => {
        const channel = await routing().createChannel(request.body, changeBy(request));
        request.audit({ channelId: channel.id, channelType: channel.type });
        return reply.code(201).send(channel);
      },
    );
    app.put(
      '/api/notifications/channels/:id',
      {
        config: { role: 'Administrator' },
        schema: {
          tags,
          description: "Replaces a channel; a webhook's secret left out is kept.",
          params: notificationConfigIdParamsSchema,
          body: notificationChannelInputSchema,
          response: { 200: notificationChannelSchema },
        },
      },
      async (request) =>
        routing().updateChannel(request.params.id, request.body, changeBy(request)),
    );
    app.delete(
      '/api/notifications/channels/:id',
      {
        config: { role: 'Administrator' },
        schema: {
          tags,
          description: 'Deletes a channel that no rule uses (409 naming the rules otherwise).',
          params: notificationConfigIdParamsSchema,
          response: { 200: deleted },
        },
      },
      async (request) => {
        await routing().deleteChannel(request.params.id);
        return { deleted: request.params.id };
      },
    );

    app.get(
      '/api/notifications/rules',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          description: 'The rules that route events per client and kind to channels.',
          response: { 200: notificationRuleListSchema },
        },
      },
      async () => ({ rules: await routing().listRules() }),
    );
    app.post(
      '/api/notifications/rules',
      {
        config: { role: 'Administrator' },
        schema: {
          tags,
          description: 'Adds a rule; every channel it names must exist.',
          body: notificationRuleInputSchema,
          response: { 201: notificationRuleSchema },
        },
      },
      async (request, reply) => {
        const rule = await routing().createRule(request.body, changeBy(request));
        request.audit({ ruleId: rule.id });
        return reply.code(201).send(rule);
      },
    );
    app.put(
      '/api/notifications/rules/:id',
      {
        config: { role: 'Administrator' },
        schema: {
          tags,
          description: 'Replaces a rule.',
          params: notificationConfigIdParamsSchema,
          body: notificationRuleInputSchema,
          response: { 200: notificationRuleSchema },
        },
      },
      async (request) => routing().updateRule(request.params.id, request.body, changeBy(request)),
    );
    app.delete(
      '/api/notifications/rules/:id',
      {
        config: { role: 'Administrator' },
        schema: {
          tags,
          description: 'Deletes a rule (deleting a missing one succeeds).',
          params: notificationConfigIdParamsSchema,
          response: { 200: deleted },
        },
      },
      async (request) => {
        await routing().deleteRule(request.params.id);
        return { deleted: request.params.id };
      },
    );
  });
