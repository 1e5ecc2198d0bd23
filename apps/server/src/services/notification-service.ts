// The notification engine's server side (issue 28 §4, ADR 065): producers raise events; each
// becomes one notification per client, kind and subject, kept with its outbox in Table storage;
// every instance runs the same delivery loop, and a delivery's claim (with an expiry) makes one
// instance send it, another take it over if that one dies, and a failure be retried, then reported.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

import type { EntityKeys } from '@aegis/connectors/tables';
import type {
  ChannelTestResult,
  Notification,
  NotificationEvent,
  NotificationList,
  NotificationListQuery,
} from '@aegis/contracts';
import {
  DEFAULT_ENGINE_SETTINGS,
  NotFoundError,
  ConflictError,
  acknowledge,
  applyEvent,
  applyTime,
  claimDeliveries,
  isClaimable,
  routesFor,
  settleDelivery,
  snooze,
  stateOf,
  type Delivery,
  type EngineSettings,
  type MessageItem,
  type NotificationRecord,
  type NotificationRoutingRule,
  type SendOutcome,
} from '@aegis/domain';
import type { FastifyBaseLogger } from 'fastify';

import type { ChannelSender, DeliverableChannel } from './notification-channels';
import {
  notificationId,
  notificationKeys,
  parseNotificationId,
  type NotificationStore,
} from './notification-store';

/** Where rules and channels come from (the Administrator's routing, kept in Table storage). */
export interface NotificationRoutingSource {
  listRules(): Promise<readonly NotificationRoutingRule[]>;
  /** every channel by id, with what sending to it needs */
  deliverableChannels(): Promise<ReadonlyMap<string, DeliverableChannel>>;
}

export interface NotificationServiceOptions {
  readonly store: NotificationStore;
  readonly routing: NotificationRoutingSource;
  readonly sender: ChannelSender;
  readonly now: () => Date;
  readonly log: FastifyBaseLogger;
  /** this instance's name on the claims it holds */
  readonly instanceId?: string;
  readonly settings?: EngineSettings;
  /** how long a claim holds before another instance may take the delivery over */
  readonly leaseInMs?: number;
}

/** What one pass of the delivery loop did. */
export interface DeliveryPass {
  readonly delivered: number;
  /** failed now and due again later */
  readonly retrying: number;
  /** failed for good: recorded 'failed' and logged */
  readonly failed: number;
}

interface Claimed {
  readonly keys: EntityKeys;
  readonly record: NotificationRecord;
  readonly delivery: Delivery;
}

const DEFAULT_LEASE_IN_MS = 2 * 60_000;

/** The view of a notification the API returns: the outbox without its claims. */
export function notificationView(record: NotificationRecord, now: Date): Notification {
  const { escalation: _route, changedWhileSnoozed: _held, generation: _g, ...rest } = record;
  return {
    ...rest,
    kind: record.kind as Notification['kind'],
    state: stateOf(record, now.getTime()),
    deliveries: record.deliveries.map(
      ({ claimedBy: _by, claimUntil: _until, ...delivery }) => delivery,
    ),
  };
}

export class NotificationService {
  private readonly store: NotificationStore;
  private readonly settings: EngineSettings;
  private readonly instanceId: string;
  private readonly leaseInMs: number;
  constructor(private readonly options: NotificationServiceOptions) {
    this.store = options.store;
    this.settings = options.settings ?? DEFAULT_ENGINE_SETTINGS;
    this.instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomUUID()}`;
    this.leaseInMs = options.leaseInMs ?? DEFAULT_LEASE_IN_MS;
  }

  /**
   * An event from a producer. Answers the notification as it now stands (undefined when a
   * resolution found nothing open), after trying its immediate sends once.
   */
  async raise(event: NotificationEvent): Promise<Notification | undefined> {
    const rules = await this.options.routing.listRules();
    const routes = routesFor(rules, event);
    const keys = notificationKeys(event.clientCode, event.kind, event.subject);
    const record = await this.store.update(keys, (current) => {
      const next = applyEvent(
        current,
        event,
        routes,
        this.options.now().getTime(),
        (generation) => notificationId(keys, generation),
        this.settings,
      );
      return { next, result: next ?? current };
    });
    if (!record) return undefined;
    await this.deliver([keys]);
    return notificationView((await this.store.read(keys)) ?? record, this.options.now());
  }

  /** Acknowledged by `by`: escalation stops. 404 for an unknown id, 409 for a superseded one. */
  async acknowledge(id: string, by: string): Promise<Notification> {
    return this.change(id, (record, now) => acknowledge(record, by, now));
  }

  /** Snoozed until `until` for `reason`: nothing is sent or escalated meanwhile. */
  async snooze(
    id: string,
    change: { by: string; until: string; reason: string },
  ): Promise<Notification> {
    return this.change(id, (record, now) => snooze(record, change, now));
  }

  async get(id: string): Promise<Notification> {
    const found = parseNotificationId(id);
    const record = found && (await this.store.read(found.keys));
    if (!found || !record || record.id !== id) {
      throw new NotFoundError(`There is no notification ${id}.`);
    }
    return notificationView(record, this.options.now());
  }

  /** Newest first; `unread` counts the open ones nobody acknowledged. */
  async list(query: NotificationListQuery): Promise<NotificationList> {
    const now = this.options.now();
    const all = (await this.store.list(query.client))
      .map((record) => notificationView(record, now))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    return {
      notifications: all
        .filter((n) => !query.state || n.state === query.state)
        .slice(0, query.limit),
      unread: all.filter((n) => n.state === 'open').length,
    };
  }

  /** 'Send test': one message to the channel now, and what its receiver answered. */
  async sendTest(channelId: string): Promise<ChannelTestResult> {
    const channel = (await this.options.routing.deliverableChannels()).get(channelId);
    if (!channel) throw new NotFoundError(`There is no notification channel ${channelId}.`);
    const now = this.options.now();
    const record: NotificationRecord = {
      id: `test-${now.getTime()}`,
      clientCode: 'Aegis',
      kind: 'test',
      subject: 'test',
      fingerprint: 'test',
      severity: 'info',
      title: `Test message to '${channel.name}'`,
      summary: 'Aegis sent this test message from the notification channels screen.',
      // the screen the test is sent from
      link: '/notification-rules',
      generation: 1,
      raisedAt: now.toISOString(),
      updatedAt: now.toISOString(),
      deliveries: [],
    };
    const { outcome, statusCode } = await this.options.sender.send(
      channel,
      [{ record, purpose: 'raised', deliveryId: 'test' }],
      record.id,
    );
    return {
      channelId,
      outcome: outcome.ok ? 'delivered' : 'failed',
      ...(statusCode !== undefined ? { statusCode } : {}),
      message: outcome.ok ? 'The receiver accepted the test message.' : outcome.error,
      at: now.toISOString(),
    };
  }

  /**
   * One pass of the delivery loop, on any instance: escalations and snooze ends that are due, then
   * every claimable send (digests grouped into one message per channel).
   */
  async runDue(): Promise<DeliveryPass> {
    return this.deliver(await this.store.due(this.options.now()));
  }

  private async change(
    id: string,
    apply: (record: NotificationRecord, now: number) => NotificationRecord | undefined,
  ): Promise<Notification> {
    const found = parseNotificationId(id);
    if (!found) throw new NotFoundError(`There is no notification ${id}.`);
    const record = await this.store.update(found.keys, (current) => {
      if (!current || current.generation < found.generation) {
        throw new NotFoundError(`There is no notification ${id}.`);
      }
      if (current.id !== id) {
        throw new ConflictError(
          `The notification changed since (now ${current.id}); read it again.`,
        );
      }
      const next = apply(current, this.options.now().getTime());
      return { next, result: next ?? current };
    });
    return notificationView(record, this.options.now());
  }

  /**
   * Claims what is due in these rows, sends it, and records each outcome. Row by row, so that a
   * claim is sent well within its lease even when receivers are slow; digests, one message per
   * channel, after the rows.
   */
  private async deliver(rows: readonly EntityKeys[]): Promise<DeliveryPass> {
    const pass = { delivered: 0, retrying: 0, failed: 0 };
    let channels: ReadonlyMap<string, DeliverableChannel> | undefined;
    const channelsOnce = async () =>
      (channels ??= await this.options.routing.deliverableChannels());
    const digests = new Map<string, Claimed[]>();
    for (const keys of rows) {
      for (const claimed of await this.claim(keys)) {
        if (claimed.delivery.digest) {
          const group = digests.get(claimed.delivery.channelId) ?? [];
          digests.set(claimed.delivery.channelId, [...group, claimed]);
        } else {
          await this.sendAndSettle([claimed], await channelsOnce(), pass);
        }
      }
    }
    for (const group of digests.values()) {
      await this.sendAndSettle(group, await channelsOnce(), pass);
    }
    return pass;
  }

  /** Sends one message (one delivery, or a channel's digest) and records it for each delivery. */
  private async sendAndSettle(
    group: readonly Claimed[],
    channels: ReadonlyMap<string, DeliverableChannel>,
    pass: { delivered: number; retrying: number; failed: number },
  ): Promise<void> {
    const first = group[0];
    if (!first) return;
    const channel = channels.get(first.delivery.channelId);
    const outcome: SendOutcome = channel
      ? (
          await this.options.sender.send(
            channel,
            group.map((c): MessageItem => ({
              record: c.record,
              purpose: c.delivery.purpose,
              deliveryId: c.delivery.id,
            })),
            group.length === 1
              ? `${first.record.id}.${first.delivery.id}`
              : `digest.${first.delivery.channelId}.${first.delivery.dueAt}`,
          )
        ).outcome
      : { ok: false, error: 'The channel was deleted.', retryable: false };
    for (const c of group) pass[await this.settle(c, outcome)] += 1;
  }

  /** Applies what time changed (escalation, a snooze's end) and claims the sends now due. */
  private async claim(keys: EntityKeys): Promise<Claimed[]> {
    return this.store.update(keys, (current) => {
      if (!current) return { next: undefined, result: [] };
      const now = this.options.now().getTime();
      const timed = applyTime(current, now, this.settings) ?? current;
      const due = timed.deliveries.filter((d) => isClaimable(d, now)).map((d) => d.id);
      const { record, claimed } = claimDeliveries(timed, due, this.instanceId, now, this.leaseInMs);
      return {
        next: claimed.length > 0 || timed !== current ? record : undefined,
        result: claimed.map((delivery) => ({ keys, record, delivery })),
      };
    });
  }

  private async settle(
    claimed: Claimed,
    outcome: SendOutcome,
  ): Promise<'delivered' | 'retrying' | 'failed'> {
    const { keys, delivery } = claimed;
    const after = await this.store.update(keys, (current) => {
      const next =
        current &&
        settleDelivery(
          current,
          delivery.id,
          this.instanceId,
          outcome,
          this.options.now().getTime(),
          this.settings.retry,
        );
      return { next, result: next ?? current };
    });
    const status = after?.deliveries.find((d) => d.id === delivery.id)?.status;
    if (outcome.ok) return 'delivered';
    if (status === 'failed') {
      // never silent: the notification shows it, and the log says which and why
      this.options.log.error(
        {
          notification: claimed.record.id,
          delivery: delivery.id,
          channel: delivery.channelId,
          reason: outcome.error,
        },
        'A notification could not be delivered; it is recorded as failed',
      );
      return 'failed';
    }
    this.options.log.warn(
      { notification: claimed.record.id, delivery: delivery.id, reason: outcome.error },
      'A notification delivery failed; it will be tried again',
    );
    return 'retrying';
  }
}
