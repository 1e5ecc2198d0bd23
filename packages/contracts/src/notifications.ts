import { ALL_CLIENTS, CLIENT_CODE_PATTERN } from '@aegis/domain';
import { z } from 'zod';

/**
 * The events Aegis raises (issue 28 §4). A rule routes events by kind; an event of a kind is one
 * notification per client, kind and `subject` until its `fingerprint` changes or it resolves.
 */
export const NOTIFICATION_EVENT_KINDS = [
  'drift',
  'capture-failed',
  'backup-failed',
  'backup-missed',
  'deviation-expiring',
  'approval-waiting',
  'deploy-failed',
  'deploy-awaiting-approval',
  'customer-report-failed',
] as const;
export const notificationEventKindSchema = z.enum(NOTIFICATION_EVENT_KINDS);
export type NotificationEventKind = z.infer<typeof notificationEventKindSchema>;

/** How each kind is named on the rules screen and in messages. */
export const NOTIFICATION_EVENT_KIND_LABELS: Readonly<Record<NotificationEventKind, string>> = {
  drift: 'Drift detected, changed or resolved',
  'capture-failed': 'Capture failed or partial',
  'backup-failed': 'Backup failed or partial',
  'backup-missed': 'Backup missed',
  'deviation-expiring': 'Accepted deviation expiring or expired',
  'approval-waiting': 'Approval waiting too long',
  'deploy-failed': 'Deploy or off-board failed',
  'deploy-awaiting-approval': 'Deploy or off-board waits for Multi Admin Approval',
  'customer-report-failed': 'Customer report not sent',
};

export const NOTIFICATION_SEVERITIES = ['info', 'warning', 'critical'] as const;
export const notificationSeveritySchema = z.enum(NOTIFICATION_SEVERITIES);
export type NotificationSeverity = z.infer<typeof notificationSeveritySchema>;

const clientCodeSchema = z
  .string()
  .regex(CLIENT_CODE_PATTERN, 'must be a client code (3 uppercase letters)');
const isoTimeSchema = z.iso.datetime({ offset: true, message: 'must be an ISO date and time' });

/**
 * What a producer raises through the notification service (issue 28 §4). `subject` names the
 * thing within the client and kind (a run id, a deviation, 'tenant' for drift); `fingerprint`
 * changes exactly when what is said about it changes. `resolved: true` says it no longer holds.
 */
export const notificationEventSchema = z.object({
  kind: notificationEventKindSchema,
  clientCode: clientCodeSchema,
  subject: z.string().min(1).max(200),
  fingerprint: z.string().min(1).max(200),
  severity: notificationSeveritySchema,
  title: z.string().min(1).max(300),
  summary: z.string().max(4_000),
  /** a path of the portal that shows it, e.g. /clients/ABC */
  link: z.string().startsWith('/').max(500).optional(),
  occurredAt: isoTimeSchema,
  resolved: z.boolean().optional(),
});
export type NotificationEvent = z.infer<typeof notificationEventSchema>;

export const NOTIFICATION_STATES = ['open', 'acknowledged', 'snoozed', 'resolved'] as const;
export const notificationStateSchema = z.enum(NOTIFICATION_STATES);
export type NotificationState = z.infer<typeof notificationStateSchema>;

const actorAtSchema = z.object({ by: z.string(), at: z.string() });

/** One message of a notification to one channel (the engine's outbox entry, claims left out). */
export const notificationDeliverySchema = z.object({
  id: z.string(),
  channelId: z.string(),
  purpose: z.enum(['raised', 'changed', 'resolved', 'escalation']),
  /** sent in the channel's daily digest rather than on its own */
  digest: z.boolean(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int().min(0),
  dueAt: z.string(),
  deliveredAt: z.string().optional(),
  /** why the last attempt failed (the receiver's status and text), never a secret */
  lastError: z.string().optional(),
});
export type NotificationDelivery = z.infer<typeof notificationDeliverySchema>;

/** A notification as the notification centre lists it. */
export const notificationSchema = z.object({
  id: z.string(),
  kind: notificationEventKindSchema,
  clientCode: z.string(),
  subject: z.string(),
  fingerprint: z.string(),
  severity: notificationSeveritySchema,
  title: z.string(),
  summary: z.string(),
  link: z.string().optional(),
  state: notificationStateSchema,
  raisedAt: z.string(),
  /** when what it says last changed */
  changedAt: z.string().optional(),
  updatedAt: z.string(),
  acknowledged: actorAtSchema.optional(),
  snoozed: actorAtSchema.extend({ until: z.string(), reason: z.string() }).optional(),
  resolvedAt: z.string().optional(),
  escalatedAt: z.string().optional(),
  deliveries: z.array(notificationDeliverySchema),
});
export type Notification = z.infer<typeof notificationSchema>;

/** `GET /api/notifications`: newest first; `unread` counts open notifications nobody acknowledged. */
export const notificationListQuerySchema = z.strictObject({
  state: notificationStateSchema.optional(),
  client: clientCodeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  unread: z.number().int().min(0),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const notificationIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be a notification id (letters, digits, - and _)'),
});

/** `POST /api/notifications/:id/snooze`: quiet until `until` (in the future), for a reason. */
export const snoozeNotificationSchema = z.strictObject({
  reason: z.string().trim().min(1, 'must say why').max(500),
  until: isoTimeSchema,
});
export type SnoozeNotification = z.infer<typeof snoozeNotificationSchema>;

// ---- channels (Administrator) ----

export const NOTIFICATION_CHANNEL_TYPES = ['email', 'teams', 'webhook'] as const;
export const notificationChannelTypeSchema = z.enum(NOTIFICATION_CHANNEL_TYPES);
export type NotificationChannelType = z.infer<typeof notificationChannelTypeSchema>;

const channelNameSchema = z.string().trim().min(1, 'must not be empty').max(100);
const httpsUrlSchema = z
  .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
  .max(2_000);
const recipientsSchema = z
  .array(z.email({ message: 'must be an email address' }).max(254))
  .min(1, 'must name at least one recipient')
  .max(50);
/** The generic webhook's HMAC-SHA256 key: written, never read back. */
const webhookSecretSchema = z.string().min(16, 'must be at least 16 characters').max(256);

/** A channel as written: email recipients, a Teams Workflows webhook, or a signed webhook. */
export const notificationChannelInputSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('email'),
    name: channelNameSchema,
    recipients: recipientsSchema,
  }),
  z.strictObject({ type: z.literal('teams'), name: channelNameSchema, url: httpsUrlSchema }),
  z.strictObject({
    type: z.literal('webhook'),
    name: channelNameSchema,
    url: httpsUrlSchema,
    /** required when creating; left out on an update, the stored secret is kept */
    secret: webhookSecretSchema.optional(),
  }),
]);
export type NotificationChannelInput = z.infer<typeof notificationChannelInputSchema>;

/** A channel as read: the webhook secret is never returned, only whether one is set. */
export const notificationChannelSchema = z.object({
  id: z.string(),
  type: notificationChannelTypeSchema,
  name: z.string(),
  recipients: z.array(z.string()).optional(),
  url: z.string().optional(),
  secretSet: z.boolean().optional(),
  updatedAt: z.string(),
  updatedBy: z.string(),
});
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

export const notificationChannelListSchema = z.object({
  channels: z.array(notificationChannelSchema),
});
export type NotificationChannelList = z.infer<typeof notificationChannelListSchema>;

/** `POST /api/notifications/channels/:id/test`: what the receiver answered to a test message. */
export const channelTestResultSchema = z.object({
  channelId: z.string(),
  outcome: z.enum(['delivered', 'failed']),
  /** the receiver's HTTP status, when it answered */
  statusCode: z.number().int().optional(),
  message: z.string(),
  at: z.string(),
});
export type ChannelTestResult = z.infer<typeof channelTestResultSchema>;

// ---- rules (Administrator) ----

const channelIdsSchema = z
  .array(z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be a channel id'))
  .min(1, 'must name at least one channel')
  .max(20);

/**
 * A rule routes events of some kinds, for one client or all, to channels; unacknowledged after
 * `escalation.afterHours`, to the escalation channels; with `digest`, once a day in one message.
 */
export const notificationRuleInputSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100),
  client: z.union([z.literal(ALL_CLIENTS), clientCodeSchema], {
    message: "must be a client code (3 uppercase letters) or '*' for all clients",
  }),
  kinds: z.array(notificationEventKindSchema).min(1, 'must name at least one event kind'),
  channelIds: channelIdsSchema,
  escalation: z
    .strictObject({
      channelIds: channelIdsSchema,
      afterHours: z.number().int().min(1).max(168),
    })
    .optional(),
  digest: z.boolean().default(false),
  enabled: z.boolean().default(true),
  /** with 'deviation-expiring': say an acceptance this many days before its last day (default 14) */
  deviationExpiringDays: z.number().int().min(1).max(365).optional(),
  /** with 'approval-waiting': say a request waiting this many hours (default 24) */
  approvalWaitingHours: z.number().int().min(1).max(720).optional(),
});
export type NotificationRuleInput = z.input<typeof notificationRuleInputSchema>;

export const notificationRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  client: z.string(),
  kinds: z.array(notificationEventKindSchema),
  channelIds: z.array(z.string()),
  escalation: z.object({ channelIds: z.array(z.string()), afterHours: z.number() }).optional(),
  digest: z.boolean(),
  enabled: z.boolean(),
  deviationExpiringDays: z.number().optional(),
  approvalWaitingHours: z.number().optional(),
  updatedAt: z.string(),
  updatedBy: z.string(),
});
export type NotificationRule = z.infer<typeof notificationRuleSchema>;

export const notificationRuleListSchema = z.object({ rules: z.array(notificationRuleSchema) });
export type NotificationRuleList = z.infer<typeof notificationRuleListSchema>;

export const notificationConfigIdParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be an id (letters, digits, - and _)'),
});
