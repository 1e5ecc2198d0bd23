import type { AuditEvent } from '@aegis/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { UnauthenticatedAttempts } from '../../src/services/unauthenticated-attempts';

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
});
