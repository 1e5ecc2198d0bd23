import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  DEFAULT_ENGINE_SETTINGS,
  acknowledge,
  applyEvent,
  applyTime,
  claimDeliveries,
  nextDigestAt,
  nextDueAt,
  routesFor,
  settleDelivery,
  snooze,
  stateOf,
} from './engine';
import type { NotificationEventInput, NotificationRecord, NotificationRoutingRule } from './types';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-27T10:00:00.000Z');

const rules: NotificationRoutingRule[] = [
  {
    id: 'r1',
    client: '*',
    kinds: ['drift'],
    channelIds: ['mail', 'teams'],
    escalation: { channelIds: ['oncall'], afterHours: 4 },
    digest: false,
    enabled: true,
  },
  { id: 'r2', client: 'ABC', kinds: ['drift'], channelIds: ['psa'], digest: true, enabled: true },
  { id: 'r3', client: 'CON', kinds: ['drift'], channelIds: ['con'], digest: false, enabled: true },
  { id: 'r4', client: '*', kinds: ['drift'], channelIds: ['off'], digest: false, enabled: false },
];

const drift = (fingerprint: string, extra: Partial<NotificationEventInput> = {}) => ({
  kind: 'drift',
  clientCode: 'ABC',
  subject: 'tenant',
  fingerprint,
  severity: 'warning' as const,
  title: 'Drift in the tenant',
  summary: '1 object changed',
  link: '/clients/ABC',
  occurredAt: new Date(T0).toISOString(),
  ...extra,
});

const newId = (generation: number) => `ABC-tenant-${generation}`;

function raise(current: NotificationRecord | undefined, event: NotificationEventInput, at = T0) {
  return applyEvent(current, event, routesFor(rules, event), at, newId);
}

const sent = (record: NotificationRecord | undefined) =>
  (record?.deliveries ?? []).map((d) => `${d.purpose}:${d.channelId}`);

describe('routes', () => {
  it("takes the client's and every-client rules for the kind, enabled only; immediate wins", () => {
    const routes = routesFor(
      [...rules, { ...rules[1]!, id: 'r5', channelIds: ['mail'] }],
      drift('a'),
    );
    expect([...routes.channels]).toEqual([
      ['mail', false],
      ['teams', false],
      ['psa', true],
    ]);
    expect(routes.escalation).toEqual({ channelIds: ['oncall'], afterHours: 4 });
  });
});

describe('one notification per client, kind and subject until it changes or resolves', () => {
  it('raises once and sends to each channel; the digest channel waits for the digest hour', () => {
    const record = raise(undefined, drift('a'))!;
    expect(sent(record)).toEqual(['raised:mail', 'raised:teams', 'raised:psa']);
    const psa = record.deliveries.find((d) => d.channelId === 'psa')!;
    expect(psa.dueAt).toBe('2026-11-28T07:00:00.000Z');
    expect(stateOf(record, T0)).toBe('open');
  });

  it('sends nothing for the same fingerprint, every hour', () => {
    const record = raise(undefined, drift('a'))!;
    for (let hour = 1; hour < 24; hour += 1) {
      expect(raise(record, drift('a'), T0 + hour * HOUR)).toBeUndefined();
    }
  });

  it('sends again when the fingerprint changes, and asks for a new acknowledgement', () => {
    const record = acknowledge(raise(undefined, drift('a'))!, 'alex', T0 + HOUR)!;
    const changed = raise(record, drift('b', { summary: '2 objects changed' }), T0 + 2 * HOUR)!;
    expect(changed.id).toBe('ABC-tenant-2');
    expect(changed.acknowledged).toBeUndefined();
    expect(changed.summary).toBe('2 objects changed');
    expect(sent(changed).filter((d) => d.startsWith('changed'))).toEqual([
      'changed:mail',
      'changed:teams',
      'changed:psa',
    ]);
  });

  it('says resolved once, then a new occurrence is a new notification', () => {
    const record = raise(undefined, drift('a'))!;
    const resolved = raise(record, drift('a', { resolved: true }), T0 + HOUR)!;
    expect(stateOf(resolved, T0 + HOUR)).toBe('resolved');
    expect(sent(resolved).filter((d) => d.startsWith('resolved'))).toHaveLength(3);
    expect(raise(resolved, drift('a', { resolved: true }), T0 + 2 * HOUR)).toBeUndefined();
    const again = raise(resolved, drift('a'), T0 + 3 * HOUR)!;
    expect(again.id).toBe('ABC-tenant-2');
    expect(record.id).toBe('ABC-tenant-1');
    expect(again.resolvedAt).toBeUndefined();
  });

  it('raises nothing for a resolution of something never raised', () => {
    expect(raise(undefined, drift('a', { resolved: true }))).toBeUndefined();
  });
});

describe('escalation', () => {
  it('escalates to the second route after N hours unacknowledged, once', () => {
    const record = raise(undefined, drift('a'))!;
    expect(nextDueAt({ ...record, deliveries: [] })).toBe(new Date(T0 + 4 * HOUR).toISOString());
    expect(applyTime(record, T0 + 4 * HOUR - 1)).toBeUndefined();
    const escalated = applyTime(record, T0 + 4 * HOUR)!;
    expect(escalated.escalatedAt).toBe(new Date(T0 + 4 * HOUR).toISOString());
    expect(sent(escalated).filter((d) => d.startsWith('escalation'))).toEqual([
      'escalation:oncall',
    ]);
    expect(applyTime(escalated, T0 + 9 * HOUR)).toBeUndefined();
  });

  it('never escalates once acknowledged', () => {
    const record = acknowledge(raise(undefined, drift('a'))!, 'alex', T0 + HOUR)!;
    expect(record.acknowledged).toEqual({ by: 'alex', at: new Date(T0 + HOUR).toISOString() });
    expect(applyTime(record, T0 + 100 * HOUR)).toBeUndefined();
    expect(stateOf(record, T0 + HOUR)).toBe('acknowledged');
  });

  it('counts the hours again from a change', () => {
    const record = raise(undefined, drift('a'))!;
    const changed = raise(record, drift('b'), T0 + 3 * HOUR)!;
    expect(applyTime(changed, T0 + 5 * HOUR)).toBeUndefined();
    expect(applyTime(changed, T0 + 7 * HOUR)?.escalatedAt).toBeDefined();
  });
});

describe('snooze', () => {
  const until = new Date(T0 + 10 * HOUR).toISOString();

  it('holds back escalation and changes until its end, then says the change once', () => {
    const record = snooze(
      raise(undefined, drift('a'))!,
      { by: 'sam', until, reason: 'maintenance window' },
      T0 + HOUR,
    );
    expect(stateOf(record, T0 + 2 * HOUR)).toBe('snoozed');
    expect(applyTime(record, T0 + 6 * HOUR)).toBeUndefined();
    const changed = raise(record, drift('b'), T0 + 7 * HOUR)!;
    expect(sent(changed)).toEqual(sent(record));
    const woken = applyTime(changed, T0 + 10 * HOUR)!;
    expect(sent(woken).filter((d) => d.startsWith('changed'))).toHaveLength(3);
    expect(woken.changedWhileSnoozed).toBeUndefined();
    // the hours start again at the end of the snooze
    expect(woken.escalatedAt).toBeUndefined();
    expect(applyTime(woken, T0 + 14 * HOUR)?.escalatedAt).toBe(
      new Date(T0 + 14 * HOUR).toISOString(),
    );
  });

  it('refuses an end in the past and an empty reason, naming the field', () => {
    const record = raise(undefined, drift('a'))!;
    expect(() =>
      snooze(record, { by: 'sam', until: new Date(T0).toISOString(), reason: 'x' }, T0),
    ).toThrow(expect.objectContaining({ field: 'until' }));
    expect(() => snooze(record, { by: 'sam', until, reason: '  ' }, T0)).toThrow(
      expect.objectContaining({ field: 'reason' }),
    );
  });
});

describe('outbox', () => {
  it('lets one owner claim a delivery until its lease ends, then another', () => {
    const record = raise(undefined, drift('a'))!;
    const id = record.deliveries[0]!.id;
    const first = claimDeliveries(record, [id], 'one', T0, 60_000);
    expect(first.claimed.map((d) => d.id)).toEqual([id]);
    expect(claimDeliveries(first.record, [id], 'two', T0 + 59_999, 60_000).claimed).toEqual([]);
    expect(claimDeliveries(first.record, [id], 'two', T0 + 60_000, 60_000).claimed).toHaveLength(1);
  });

  it('retries a failure with a growing delay, then records it failed, never drops it', () => {
    let record = raise(undefined, drift('a'))!;
    const id = record.deliveries[0]!.id;
    const delays: number[] = [];
    let now = T0;
    for (let attempt = 1; attempt <= DEFAULT_ENGINE_SETTINGS.retry.maxAttempts; attempt += 1) {
      record = claimDeliveries(record, [id], 'one', now, 60_000).record;
      record = settleDelivery(
        record,
        id,
        'one',
        { ok: false, error: '503 Service Unavailable', retryable: true },
        now,
      )!;
      const delivery = record.deliveries.find((d) => d.id === id)!;
      expect(delivery.attempts).toBe(attempt);
      if (delivery.status === 'pending') {
        delays.push(Date.parse(delivery.dueAt) - now);
        now = Date.parse(delivery.dueAt);
      }
    }
    expect(delays).toEqual([60_000, 120_000, 240_000, 480_000, 960_000]);
    expect(record.deliveries.find((d) => d.id === id)).toMatchObject({
      status: 'failed',
      lastError: '503 Service Unavailable',
    });
  });

  it('records a refusal that will not change (4xx) failed at once', () => {
    const record = raise(undefined, drift('a'))!;
    const id = record.deliveries[0]!.id;
    const claimed = claimDeliveries(record, [id], 'one', T0, 60_000).record;
    const settled = settleDelivery(
      claimed,
      id,
      'one',
      { ok: false, error: '404', retryable: false },
      T0,
    )!;
    expect(settled.deliveries[0]).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('records delivered even when the claim was taken over meanwhile', () => {
    const record = raise(undefined, drift('a'))!;
    const id = record.deliveries[0]!.id;
    const taken = claimDeliveries(record, [id], 'two', T0 + 120_000, 60_000).record;
    const settled = settleDelivery(taken, id, 'one', { ok: true }, T0 + 130_000)!;
    expect(settled.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(settled.deliveries[0]?.claimedBy).toBeUndefined();
  });
});

describe('nextDigestAt', () => {
  it('is today at the hour when still ahead, else tomorrow', () => {
    expect(new Date(nextDigestAt(Date.parse('2026-11-27T06:59:00Z'), 7)).toISOString()).toBe(
      '2026-11-27T07:00:00.000Z',
    );
    expect(new Date(nextDigestAt(Date.parse('2026-11-27T07:00:00Z'), 7)).toISOString()).toBe(
      '2026-11-28T07:00:00.000Z',
    );
  });
});

describe('properties', () => {
  it('sends each channel one message per distinct fingerprint in a row, whatever repeats', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 30 }),
        (fingerprints) => {
          let record: NotificationRecord | undefined;
          let at = T0;
          for (const fingerprint of fingerprints) {
            at += HOUR;
            record = raise(record, drift(fingerprint), at) ?? record;
          }
          // a change is a run of equal fingerprints ending: one message each (pruning keeps
          // the latest generations only, so count generations rather than outbox entries)
          const changes = fingerprints.filter((f, i) => i === 0 || f !== fingerprints[i - 1]);
          expect(record?.generation).toBe(changes.length);
          const latest = record!.deliveries.filter((d) =>
            d.id.startsWith(`${record!.generation}.`),
          );
          expect(latest.map((d) => d.channelId).sort()).toEqual(['mail', 'psa', 'teams']);
        },
      ),
    );
  });
});
