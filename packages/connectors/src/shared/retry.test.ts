import { describe, expect, it } from 'vitest';

import { retryOnConflict, type ConflictOutcome } from './retry';

const policy = { attempts: 5, baseDelayInMs: 20, maxDelayInMs: 50 };

describe('retryOnConflict', () => {
  it('tries again after each conflict until the write settles', async () => {
    const outcomes: ConflictOutcome[] = ['conflict', 'conflict', 'settled'];
    const attempts: number[] = [];
    const waits: number[] = [];
    const outcome = await retryOnConflict(
      async (attempt) => {
        attempts.push(attempt);
        return outcomes[attempt]!;
      },
      policy,
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(outcome).toBe('settled');
    expect(attempts).toEqual([0, 1, 2]);
    expect(waits).toHaveLength(2);
  });

  it('waits a jittered pause that doubles per attempt and stays under the cap', async () => {
    const waits: number[] = [];
    await retryOnConflict(
      async () => 'conflict',
      policy,
      async (ms) => {
        waits.push(ms);
      },
    );
    const caps = [20, 40, 50, 50];
    expect(waits).toHaveLength(caps.length);
    waits.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThanOrEqual(caps[i]!);
    });
  });

  it("answers 'conflict' once the attempts are spent, without a pause after the last", async () => {
    let runs = 0;
    let pauses = 0;
    const outcome = await retryOnConflict(
      async () => {
        runs += 1;
        return 'conflict';
      },
      policy,
      async () => {
        pauses += 1;
      },
    );
    expect(outcome).toBe('conflict');
    expect(runs).toBe(5);
    expect(pauses).toBe(4);
  });

  it('passes a failure of an attempt through untouched', async () => {
    const failure = new Error('DevOps is down');
    await expect(
      retryOnConflict(
        () => Promise.reject(failure),
        policy,
        async () => undefined,
      ),
    ).rejects.toBe(failure);
  });
});
