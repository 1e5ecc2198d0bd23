import {
  channelTestResultSchema,
  notificationConfigIdParamsSchema,
  notificationIdParamsSchema,
  notificationListQuerySchema,
  notificationListSchema,
  notificationSchema,
  snoozeNotificationSchema,
} from '@aegis/contracts';
import { InputError } from '@aegis/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import { registering } from '../../lib/registering';
import { actorName } from '../../plugins/auth';
import type { NotificationService } from '../../services/notification-service';

export interface NotificationRoutesOptions {
  /** The engine (ADR 065); undefined without Aegis's Table storage: the routes answer 503. */
  readonly notifications: () => NotificationService;
  readonly now: () => Date;
}

const tags = ['notifications'];

/**
 * The notification centre (issue 28 §5): anyone signed in reads the notifications; an Operator
 * acknowledges (escalation stops) or snoozes one (with a reason and an end); an Administrator
 * sends a channel a test message and sees what its receiver answered.
 */
export const notificationRoutes: FastifyPluginCallbackZod<NotificationRoutesOptions> = registering(
  (app, { notifications, now }) => {
    app.get(
      '/api/notifications',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          description:
            'Notifications newest first, with the count of open ones nobody acknowledged.',
          querystring: notificationListQuerySchema,
          response: { 200: notificationListSchema },
        },
      },
      async (request) => notifications().list(request.query),
    );
    app.post(
      '/api/notifications/:id/acknowledge',
      {
        config: { role: 'Operator' },
        schema: {
          tags,
          description: 'Acknowledges a notification: who and when; its escalation stops.',
          params: notificationIdParamsSchema,
          response: { 200: notificationSchema },
        },
      },
      async (request) => {
        const notification = await notifications().acknowledge(
          request.params.id,
          actorName(request.user),
        );
        request.audit({ clientCode: notification.clientCode, kind: notification.kind });
        return notification;
      },
    );
    app.post(
      '/api/notifications/:id/snooze',
      {
        config: { role: 'Operator' },
        schema: {
          tags,
          description: 'Snoozes a notification until a time in the future, for a reason.',
          params: notificationIdParamsSchema,
          body: snoozeNotificationSchema,
          response: { 200: notificationSchema },
        },
      },
      async (request) => {
        const { reason, until } = request.body;
        if (Date.parse(until) <= now().getTime()) {
          throw new InputError('body.until: must be in the future', 'body.until');
        }
        const notification = await notifications().snooze(request.params.id, {
          by: actorName(request.user),
          until: new Date(until).toISOString(),
          reason,
        });
        request.audit({ clientCode: notification.clientCode, kind: notification.kind });
        return notification;
      },
    );
    app.post(
      '/api/notifications/channels/:id/test',
      {
        config: { role: 'Administrator' },
        schema: {
          tags,
          description:
            "Sends the channel a test message now and answers what its receiver said ('failed' is an answer, not an error).",
          params: notificationConfigIdParamsSchema,
          response: { 200: channelTestResultSchema },
        },
      },
      async (request) => {
        const result = await notifications().sendTest(request.params.id);
        request.audit({ outcome: result.outcome });
        return result;
      },
    );
  },
);
