import type { AuditEvent } from '@aegis/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { mergeTallies, UnauthenticatedAttempts } from '../../src/services/unauthenticated-attempts';

describe('tallying changes refused with 401 (ADR 043)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes one event per action and window, whatever the rate, naming at most 10 sources', async () => {
    vi.useFakeTimers();
    const written: AuditEvent[][] = [];
    const tally = new UnauthenticatedAttempts(async (events) => {
      written.push([...events]);
    }, 60_000);
    const start = new Date('2026-11-24T04:00:00.000Z');
    for (let i = 0; i < 5_000; i += 1) {
      tally.note(
        {
          action: i % 2 ? 'POST /api/app-tables' : 'POST /api/backups/:client/runs',
          reason: i % 5 ? 'no token' : 'invalid token',
          source: `10.0.0.${i % 25}`,
        },
        new Date(start.getTime() + i),
      );
    }
    expect(written).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(written).toHaveLength(1);
    const [backups, tables] = written[0]!;
    expect(backups).toMatchObject({
      at: '2026-11-24T04:00:00.000Z',
      action: 'POST /api/backups/:client/runs',
      result: { statusCode: 401, outcome: 'failed' },
      details: { attempts: 2_500, noToken: 2_000, invalidToken: 500 },
    });
    expect(tables?.details).toMatchObject({ attempts: 2_500, until: '2026-11-24T04:00:04.999Z' });
    expect((backups?.details?.sources as string[]).length).toBe(10);
    // the other 15 sources are counted, not named: 2 500 attempts less those of the 10 named
    expect(backups?.details?.fromOtherSources).toBe(2_500 - 10 * 100);

    // a later attempt opens a new window; nothing is written for an empty one
    tally.note({ action: 'POST /api/app-tables', reason: 'no token', source: '10.0.0.1' });
    await tally.flush();
    expect(written).toHaveLength(2);
    expect(written[1]).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(written).toHaveLength(2);
  });

  it('gives every instance the same window and event for an action, whenever its first attempt came', async () => {
    const events: AuditEvent[] = [];
    const clock = { now: new Date('2026-11-24T04:00:41.000Z') };
    const instances = [0, 1].map(
      () =>
        new UnauthenticatedAttempts(
          async (written) => {
            events.push(...written);
          },
          60_000,
          () => clock.now,
        ),
    );
    instances[0]!.note({ action: 'POST /api/app-tables', reason: 'no token', source: 'a' });
    clock.now = new Date('2026-11-24T04:00:59.999Z');
    instances[1]!.note({ action: 'POST /api/app-tables', reason: 'invalid token', source: 'b' });
    await Promise.all(instances.map((instance) => instance.flush()));
    expect(events).toHaveLength(2);
    expect(events[0]!.id).toBe(events[1]!.id);
    expect(events.map((event) => event.at)).toEqual([
      '2026-11-24T04:00:00.000Z',
      '2026-11-24T04:00:00.000Z',
    ]);
    // an attempt in the next window closes the open one and opens its own event
    clock.now = new Date('2026-11-24T04:01:00.000Z');
    instances[0]!.note({ action: 'POST /api/app-tables', reason: 'no token', source: 'a' });
    await instances[0]!.flush();
    expect(events[2]).toMatchObject({ at: '2026-11-24T04:01:00.000Z' });
    expect(events[2]!.id).not.toBe(events[0]!.id);
  });

  it("adds two instances' tallies: attempts sum, the busiest 10 sources are named, the rest counted", () => {
    const tallyOf = (bySource: Record<string, number>, until: string): AuditEvent => {
      const attempts = Object.values(bySource).reduce((sum, n) => sum + n, 0);
      return {
        id: 'same',
        at: '2026-11-24T04:00:00.000Z',
        actor: { upn: '(unauthenticated)', oid: '', roles: [] },
        action: 'POST /api/app-tables',
        parameters: {},
        result: { statusCode: 401, outcome: 'failed' },
        details: {
          attempts: attempts + 5,
          until,
          noToken: attempts,
          invalidToken: 5,
          sources: Object.keys(bySource),
          attemptsBySource: bySource,
          fromOtherSources: 5,
        },
      };
    };
    const one = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`10.0.0.${i}`, i + 1]));
    const two = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`10.0.0.${i + 4}`, 10]));
    const merged = mergeTallies(
      tallyOf(one, '2026-11-24T04:00:30.000Z'),
      tallyOf(two, '2026-11-24T04:00:10.000Z'),
    );
    // one: 1..8 attempts from 10.0.0.0-7 (36); two: 10 each from 10.0.0.4-10 (70); 5 unnamed each
    expect(merged.details).toMatchObject({
      attempts: 36 + 70 + 10,
      until: '2026-11-24T04:00:30.000Z',
      noToken: 106,
      invalidToken: 10,
    });
    const named = merged.details!.attemptsBySource as Record<string, number>;
    expect(Object.keys(named)).toHaveLength(10);
    expect(named['10.0.0.7']).toBe(18);
    // 11 sources: the least busy (10.0.0.0, one attempt) is counted with the 10 unnamed
    expect(named).not.toHaveProperty('10.0.0.0');
    expect(merged.details!.fromOtherSources).toBe(11);
    expect(merged.details!.sources).toEqual(Object.keys(named));
  });
});
