import { describe, expect, it } from 'vitest';

import { retryOnConflict, type ConflictOutcome } from './retry';

const policy = { attempts: 5, baseDelayInMs: 20, maxDelayInMs: 50 };

describe('retryOnConflict', () => {
  it('tries again after each conflict until the write settles', async () => {
    const outcomes: ConflictOutcome[] = ['conflict', 'conflict', 'settled'];
    const attempts: number[] = [];
    const waits: number[] = [];
    const outcome = await retryOnConflict(
      (attempt) => {
        attempts.push(attempt);
        return Promise.resolve(outcomes[attempt]!);
      },
      policy,
      (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    );
    expect(outcome).toBe('settled');
    expect(attempts).toEqual([0, 1, 2]);
    expect(waits).toHaveLength(2);
  });

  it('waits a jittered pause that doubles per attempt and stays under the cap', async () => {
    const waits: number[] = [];
    await retryOnConflict(
      () => Promise.resolve<ConflictOutcome>('conflict'),
      policy,
      (ms) => {
        waits.push(ms);
        return Promise.resolve();
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
      () => {
        runs += 1;
        return Promise.resolve<ConflictOutcome>('conflict');
      },
      policy,
      () => {
        pauses += 1;
        return Promise.resolve();
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
        () => Promise.resolve(),
      ),
    ).rejects.toBe(failure);
  });
});
