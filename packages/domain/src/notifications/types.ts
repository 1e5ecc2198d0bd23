// The notification engine's state (issue 28 §4, ADR 065). A notification is one per client, event
// kind and subject; it carries its own outbox (`deliveries`), so a change of state and the sends it
// causes are written together, in one conditional write of one row.

export type NotificationSeverity = 'info' | 'warning' | 'critical';

/** What a producer raises: see contracts' `notificationEventSchema` for the field rules. */
export interface NotificationEventInput {
  readonly kind: string;
  readonly clientCode: string;
  /** the thing within client and kind: a run id, a deviation, 'tenant' for drift */
  readonly subject: string;
  /** changes exactly when what is said about the subject changes */
  readonly fingerprint: string;
  readonly severity: NotificationSeverity;
  readonly title: string;
  readonly summary: string;
  /** a path of the portal that shows it, e.g. /clients/ABC */
  readonly link?: string;
  readonly occurredAt: string;
  /** the subject no longer holds (drift reverted, a later backup succeeded) */
  readonly resolved?: boolean;
}

/** Why a message is sent. */
export type DeliveryPurpose = 'raised' | 'changed' | 'resolved' | 'escalation';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One message to one channel: an outbox entry with its claim and its attempts. */
export interface Delivery {
  /** unique within the notification: `{generation}.{purpose}.{channelId}` */
  readonly id: string;
  readonly channelId: string;
  readonly purpose: DeliveryPurpose;
  /** sent in the channel's daily digest rather than on its own */
  readonly digest: boolean;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  /** when it may be (re)tried: now, the digest's time, or after a backoff */
  readonly dueAt: string;
  /** the instance that is sending it, until `claimUntil` (then anyone may take it over) */
  readonly claimedBy?: string;
  readonly claimUntil?: string;
  readonly deliveredAt?: string;
  /** why the last attempt failed (the receiver's status and text), never a secret */
  readonly lastError?: string;
}

export interface ActorAt {
  readonly by: string;
  readonly at: string;
}

export interface Snooze extends ActorAt {
  readonly until: string;
  readonly reason: string;
}

export interface Escalation {
  readonly channelIds: readonly string[];
  readonly afterHours: number;
}

export interface NotificationRecord {
  readonly id: string;
  readonly clientCode: string;
  readonly kind: string;
  readonly subject: string;
  readonly fingerprint: string;
  readonly severity: NotificationSeverity;
  readonly title: string;
  readonly summary: string;
  readonly link?: string;
  /** 1 when first raised; one more each time it is raised again after resolving or changes */
  readonly generation: number;
  readonly raisedAt: string;
  /** when its fingerprint last changed (escalation counts from here) */
  readonly changedAt?: string;
  readonly updatedAt: string;
  readonly acknowledged?: ActorAt;
  readonly snoozed?: Snooze;
  readonly resolvedAt?: string;
  readonly escalatedAt?: string;
  /** where and when it escalates, from the rules that routed it */
  readonly escalation?: Escalation;
  /** it changed while snoozed: said once when the snooze ends */
  readonly changedWhileSnoozed?: boolean;
  readonly deliveries: readonly Delivery[];
}

export type NotificationState = 'open' | 'acknowledged' | 'snoozed' | 'resolved';

/** A rule as the engine needs it: which events, which channels, digest, escalation. */
export interface NotificationRoutingRule {
  readonly id: string;
  /** a client code or '*' for every client */
  readonly client: string;
  readonly kinds: readonly string[];
  readonly channelIds: readonly string[];
  readonly escalation?: Escalation;
  readonly digest: boolean;
  readonly enabled: boolean;
  /** with 'deviation-expiring': how many days before its last day an acceptance is said (ADR 070) */
  readonly deviationExpiringDays?: number;
  /** with 'approval-waiting': after how many hours a waiting request is said (ADR 070) */
  readonly approvalWaitingHours?: number;
}

/** How sends are retried: a delay that doubles from `firstDelayInMs` up to `maxDelayInMs`. */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly firstDelayInMs: number;
  readonly maxDelayInMs: number;
}

export interface EngineSettings {
  readonly retry: RetryPolicy;
  /** the hour (UTC) the daily digests go out */
  readonly digestHourUtc: number;
}
