// The rules of the notification engine (issue 28 §4, ADR 065), pure: every function takes the
// current record and the time, and answers the next record (or undefined: nothing to write). The
// server writes the answer with a conditional write, so two instances never both act on one state.
import { InputError } from '../errors';

import type {
  Delivery,
  DeliveryPurpose,
  EngineSettings,
  Escalation,
  NotificationEventInput,
  NotificationRecord,
  NotificationRoutingRule,
  NotificationState,
  RetryPolicy,
} from './types';

const HOUR_IN_MS = 3_600_000;
const DAY_IN_MS = 24 * HOUR_IN_MS;

/** A rule's `client` for every client. */
export const ALL_CLIENTS = '*';

/** Retries: 1, 2, 4, 8, 16 minutes, then 'failed' after the 6th attempt (about half an hour). */
export const DEFAULT_ENGINE_SETTINGS: EngineSettings = {
  retry: { maxAttempts: 6, firstDelayInMs: 60_000, maxDelayInMs: 30 * 60_000 },
  digestHourUtc: 7,
};

const iso = (time: number): string => new Date(time).toISOString();
const ms = (time: string): number => Date.parse(time);

/** Where an event goes: the enabled rules for its client (or all clients) and kind. */
export interface Routes {
  /** channel id → digest (false when any rule sends it at once) */
  readonly channels: ReadonlyMap<string, boolean>;
  readonly escalation?: Escalation;
}

export function routesFor(
  rules: readonly NotificationRoutingRule[],
  event: Pick<NotificationEventInput, 'clientCode' | 'kind'>,
): Routes {
  const channels = new Map<string, boolean>();
  const escalationChannels = new Set<string>();
  let afterHours: number | undefined;
  for (const rule of rules) {
    if (!rule.enabled || !rule.kinds.includes(event.kind)) continue;
    if (rule.client !== ALL_CLIENTS && rule.client !== event.clientCode) continue;
    for (const id of rule.channelIds) channels.set(id, (channels.get(id) ?? true) && rule.digest);
    if (rule.escalation) {
      for (const id of rule.escalation.channelIds) escalationChannels.add(id);
      afterHours = Math.min(afterHours ?? Infinity, rule.escalation.afterHours);
    }
  }
  return {
    channels,
    ...(afterHours !== undefined
      ? { escalation: { channelIds: [...escalationChannels], afterHours } }
      : {}),
  };
}

/** The next digest time after `now`: today's digest hour if still ahead, else tomorrow's. */
export function nextDigestAt(now: number, digestHourUtc: number): number {
  const day = Math.floor(now / DAY_IN_MS) * DAY_IN_MS;
  const today = day + digestHourUtc * HOUR_IN_MS;
  return today > now ? today : today + DAY_IN_MS;
}

export function isSnoozed(record: NotificationRecord, now: number): boolean {
  return record.snoozed !== undefined && ms(record.snoozed.until) > now;
}

export function stateOf(record: NotificationRecord, now: number): NotificationState {
  if (record.resolvedAt) return 'resolved';
  if (isSnoozed(record, now)) return 'snoozed';
  return record.acknowledged ? 'acknowledged' : 'open';
}

function deliveriesFor(
  channels: ReadonlyMap<string, boolean>,
  generation: number,
  purpose: DeliveryPurpose,
  now: number,
  settings: EngineSettings,
): Delivery[] {
  return [...channels].map(([channelId, digest]) => ({
    id: `${generation}.${purpose}.${channelId}`,
    channelId,
    purpose,
    digest,
    status: 'pending',
    attempts: 0,
    dueAt: iso(digest ? nextDigestAt(now, settings.digestHourUtc) : now),
  }));
}

/** The channels a notification was sent to, with their digest choice (from its deliveries). */
function channelsOf(record: NotificationRecord): Map<string, boolean> {
  const channels = new Map<string, boolean>();
  for (const d of record.deliveries) {
    if (d.purpose !== 'escalation') channels.set(d.channelId, d.digest);
  }
  return channels;
}

/** Delivered or failed entries of earlier generations are history: keep the outbox bounded. */
function pruned(deliveries: readonly Delivery[], generation: number): Delivery[] {
  return deliveries.filter(
    (d) => d.status === 'pending' || Number(d.id.split('.')[0]) >= generation - 1,
  );
}

/**
 * An event arrives. A new subject (or one that resolved before) raises a notification and sends
 * it; the same fingerprint again sends nothing; a changed fingerprint sends once more (a new
 * generation, with its own id) and asks for a new acknowledgement; `resolved` closes it and says so once. While snoozed nothing is
 * sent: a change is said when the snooze ends. Undefined: nothing to write.
 */
export function applyEvent(
  current: NotificationRecord | undefined,
  event: NotificationEventInput,
  routes: Routes,
  now: number,
  /** the notification's id for a generation (ids name one generation) */
  newId: (generation: number) => string,
  settings: EngineSettings = DEFAULT_ENGINE_SETTINGS,
): NotificationRecord | undefined {
  const content = {
    fingerprint: event.fingerprint,
    severity: event.severity,
    title: event.title,
    summary: event.summary,
    ...(event.link ? { link: event.link } : {}),
  };
  if (!current || current.resolvedAt) {
    if (event.resolved) return undefined;
    const generation = (current?.generation ?? 0) + 1;
    return {
      id: newId(generation),
      clientCode: event.clientCode,
      kind: event.kind,
      subject: event.subject,
      ...content,
      generation,
      raisedAt: iso(now),
      updatedAt: iso(now),
      ...(routes.escalation ? { escalation: routes.escalation } : {}),
      deliveries: [
        ...pruned(current?.deliveries ?? [], generation),
        ...deliveriesFor(routes.channels, generation, 'raised', now, settings),
      ],
    };
  }
  const snoozed = isSnoozed(current, now);
  if (event.resolved) {
    const { changedWhileSnoozed: _said, ...rest } = current;
    return {
      ...rest,
      resolvedAt: iso(now),
      updatedAt: iso(now),
      deliveries: snoozed
        ? current.deliveries
        : [
            ...current.deliveries,
            ...deliveriesFor(channelsOf(current), current.generation, 'resolved', now, settings),
          ],
    };
  }
  if (current.fingerprint === event.fingerprint) return undefined;
  const generation = current.generation + 1;
  const { acknowledged: _ack, escalatedAt: _esc, link: _link, ...rest } = current;
  return {
    ...rest,
    ...content,
    id: newId(generation),
    generation,
    changedAt: iso(now),
    updatedAt: iso(now),
    ...(routes.escalation ? { escalation: routes.escalation } : {}),
    ...(snoozed ? { changedWhileSnoozed: true } : {}),
    deliveries: snoozed
      ? current.deliveries
      : [
          ...pruned(current.deliveries, generation),
          ...deliveriesFor(routes.channels, generation, 'changed', now, settings),
        ],
  };
}

/** Someone takes it on: escalation stops. The first acknowledgement stands. */
export function acknowledge(
  record: NotificationRecord,
  by: string,
  now: number,
): NotificationRecord | undefined {
  if (record.acknowledged || record.resolvedAt) return undefined;
  return { ...record, acknowledged: { by, at: iso(now) }, updatedAt: iso(now) };
}

/** Quiet until `until`, for a reason: nothing is sent and nothing escalates meanwhile. */
export function snooze(
  record: NotificationRecord,
  change: { by: string; until: string; reason: string },
  now: number,
): NotificationRecord {
  if (!(ms(change.until) > now)) throw new InputError('must be in the future', 'until');
  if (!change.reason.trim()) throw new InputError('must say why', 'reason');
  if (record.resolvedAt) throw new InputError('the notification is resolved', 'id');
  return {
    ...record,
    snoozed: { by: change.by, at: iso(now), until: change.until, reason: change.reason.trim() },
    updatedAt: iso(now),
  };
}

/**
 * When escalation is due: N hours unacknowledged, counted from when it was raised or last changed,
 * or from the end of a snooze (a snooze is 'not now', so the hours start again after it).
 */
export function escalationDueAt(record: NotificationRecord): number | undefined {
  if (!record.escalation || record.escalatedAt || record.acknowledged || record.resolvedAt) {
    return undefined;
  }
  const from = Math.max(
    ms(record.changedAt ?? record.raisedAt),
    record.snoozed ? ms(record.snoozed.until) : 0,
  );
  return from + record.escalation.afterHours * HOUR_IN_MS;
}

/**
 * What time alone changes: a snooze that ended says the change it held back, and an
 * unacknowledged notification escalates to its second route. Undefined: nothing to write.
 */
export function applyTime(
  record: NotificationRecord,
  now: number,
  settings: EngineSettings = DEFAULT_ENGINE_SETTINGS,
): NotificationRecord | undefined {
  if (record.resolvedAt || isSnoozed(record, now)) return undefined;
  let next: NotificationRecord | undefined;
  if (record.changedWhileSnoozed) {
    const { changedWhileSnoozed: _said, ...rest } = record;
    next = {
      ...rest,
      updatedAt: iso(now),
      deliveries: [
        ...record.deliveries,
        ...deliveriesFor(channelsOf(record), record.generation, 'changed', now, settings).filter(
          (d) => !record.deliveries.some((existing) => existing.id === d.id),
        ),
      ],
    };
  }
  const base = next ?? record;
  const due = escalationDueAt(base);
  if (due !== undefined && due <= now && base.escalation) {
    const channels = new Map(base.escalation.channelIds.map((id) => [id, false]));
    next = {
      ...base,
      escalatedAt: iso(now),
      updatedAt: iso(now),
      deliveries: [
        ...base.deliveries,
        ...deliveriesFor(channels, base.generation, 'escalation', now, settings),
      ],
    };
  }
  return next;
}

export function isClaimable(delivery: Delivery, now: number): boolean {
  return (
    delivery.status === 'pending' &&
    ms(delivery.dueAt) <= now &&
    (delivery.claimUntil === undefined || ms(delivery.claimUntil) <= now)
  );
}

/** The earliest time one of its deliveries may be sent (for finding work), or undefined. */
export function nextDueAt(record: NotificationRecord): string | undefined {
  let next: number | undefined;
  for (const d of record.deliveries) {
    if (d.status !== 'pending') continue;
    const at = Math.max(ms(d.dueAt), d.claimUntil ? ms(d.claimUntil) : 0);
    next = Math.min(next ?? Infinity, at);
  }
  const escalation = escalationDueAt(record);
  if (escalation !== undefined) next = Math.min(next ?? Infinity, escalation);
  if (record.snoozed && record.changedWhileSnoozed) {
    next = Math.min(next ?? Infinity, ms(record.snoozed.until));
  }
  return next === undefined ? undefined : iso(next);
}

/** Claims the deliveries among `ids` nobody holds, for `owner`, for `leaseInMs`. */
export function claimDeliveries(
  record: NotificationRecord,
  ids: readonly string[],
  owner: string,
  now: number,
  leaseInMs: number,
): { record: NotificationRecord; claimed: Delivery[] } {
  const claimed: Delivery[] = [];
  const deliveries = record.deliveries.map((d) => {
    if (!ids.includes(d.id) || !isClaimable(d, now)) return d;
    const taken = { ...d, claimedBy: owner, claimUntil: iso(now + leaseInMs) };
    claimed.push(taken);
    return taken;
  });
  return { record: { ...record, deliveries }, claimed };
}

export type SendOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: string; readonly retryable: boolean };

export function retryDelayInMs(attempt: number, policy: RetryPolicy): number {
  return Math.min(policy.maxDelayInMs, policy.firstDelayInMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * Records what a send gave. Delivered is recorded whoever holds the claim now (the message went);
 * a failure is tried again after a growing delay, then recorded 'failed' for people to see.
 */
export function settleDelivery(
  record: NotificationRecord,
  deliveryId: string,
  owner: string,
  outcome: SendOutcome,
  now: number,
  policy: RetryPolicy = DEFAULT_ENGINE_SETTINGS.retry,
): NotificationRecord | undefined {
  const delivery = record.deliveries.find((d) => d.id === deliveryId);
  if (!delivery || delivery.status !== 'pending') return undefined;
  if (!outcome.ok && delivery.claimedBy !== owner) return undefined;
  const { claimedBy: _by, claimUntil: _until, ...free } = delivery;
  const attempts = delivery.attempts + 1;
  const settled: Delivery = outcome.ok
    ? { ...free, attempts, status: 'delivered', deliveredAt: iso(now) }
    : attempts >= policy.maxAttempts || !outcome.retryable
      ? { ...free, attempts, status: 'failed', lastError: outcome.error }
      : {
          ...free,
          attempts,
          lastError: outcome.error,
          dueAt: iso(now + retryDelayInMs(attempts, policy)),
        };
  return {
    ...record,
    deliveries: record.deliveries.map((d) => (d.id === deliveryId ? settled : d)),
  };
}
