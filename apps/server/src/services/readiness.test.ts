import type { Reachability } from '@aegis/connectors';
import { describe, expect, it } from 'vitest';

import { ReadinessProbe, type Dependency, type DependencyCheck } from './readiness';

function countingCheck(answers: Reachability[]): DependencyCheck & { calls: number } {
  const check = Object.assign(
    () => {
      const answer = answers[Math.min(check.calls, answers.length - 1)];
      check.calls += 1;
      return Promise.resolve<Reachability>(answer ?? { reachable: true });
    },
    { calls: 0 },
  );
  return check;
}

describe('ReadinessProbe', () => {
  it('is ready only when every dependency answers, naming the one that does not', async () => {
    const probe = new ReadinessProbe(
      {
        devops: countingCheck([{ reachable: true }]),
        tables: countingCheck([{ reachable: false, reason: 'answered 403' }]),
        identity: () => Promise.reject(new Error('the signing keys answered 500')),
      },
      { cacheInMs: 5_000, timeoutInMs: 1_000 },
    );
    expect(await probe.report()).toMatchObject({
      ready: false,
      dependencies: {
        devops: { ready: true },
        tables: { ready: false, reason: 'answered 403' },
        identity: { ready: false, reason: 'the signing keys answered 500' },
      },
    });
  });

  it('reuses an answer while it is fresh and shares a check in progress', async () => {
    let now = 1_000;
    const checks = {
      devops: countingCheck([{ reachable: false, reason: 'answered 503' }, { reachable: true }]),
      tables: countingCheck([{ reachable: true }]),
      identity: countingCheck([{ reachable: true }]),
    } satisfies Record<Dependency, DependencyCheck & { calls: number }>;
    const probe = new ReadinessProbe(checks, {
      cacheInMs: 5_000,
      timeoutInMs: 1_000,
      now: () => now,
    });

    const [first, second] = await Promise.all([probe.report(), probe.report()]);
    expect(first).toBe(second);
    expect(first.ready).toBe(false);
    now += 4_999;
    expect((await probe.report()).ready).toBe(false);
    expect(checks.devops.calls).toBe(1);

    now += 1;
    expect((await probe.report()).ready).toBe(true);
    expect(checks.devops.calls).toBe(2);
  });
});
