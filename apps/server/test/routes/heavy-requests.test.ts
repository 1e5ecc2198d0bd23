// Issue 26 §2: one user's many heavy requests must not slow the portal for everyone (ADR 057).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';

const READER = 'night.shift@aegis-msp.example';
const OTHER = 'sam.taylor@aegis-msp.example';
const PER_USER = 4;

describe('heavy requests per user', () => {
  let env: AppWithDevOps;

  beforeAll(async () => {
    env = await buildWithSeededDevOps();
  });
  afterEach(() => env.devops.emulator.faults.clear());
  afterAll(() => env.close());

  const fleetAs = (user: string) => env.t.injectAs(user, { method: 'GET', url: '/api/fleet' });

  it("answers one user's fifth concurrent fleet request 429 with Retry-After; another user is served", async () => {
    // Azure DevOps lists refs slowly, so every request started below is still running when the
    // last one starts.
    env.devops.emulator.faults.add({ kind: 'latency', latencyInMs: 1_500, pathPattern: '/refs' });
    const mine = Array.from({ length: PER_USER + 1 }, () => fleetAs(READER));
    const others = fleetAs(OTHER);
    const answers = await Promise.all(mine);

    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const refused = answers.find((a) => a.statusCode === 429);
    expect(refused?.headers['retry-after']).toBe('5');
    expect(refused?.json()).toMatchObject({
      error: 'TooManyRequestsError',
      statusCode: 429,
      message: `You already have ${PER_USER} large requests running (fleet, comparisons, compliance reports, capture lists). Try again when one of them has finished.`,
    });
    expect((await others).statusCode).toBe(200);

    // the places are given back when the requests end, whether they succeeded or failed
    env.devops.emulator.faults.clear();
    env.devops.emulator.faults.add({ kind: 'error', statusCode: 500, pathPattern: '/_apis/' });
    const failing = await Promise.all(Array.from({ length: PER_USER }, () => fleetAs(READER)));
    expect(failing.every((a) => a.statusCode !== 429)).toBe(true);
    env.devops.emulator.faults.clear();
    const again = await Promise.all(Array.from({ length: PER_USER }, () => fleetAs(READER)));
    expect(again.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
  }, 120_000);

  it('does not count requests that are not heavy', async () => {
    env.devops.emulator.faults.add({ kind: 'latency', latencyInMs: 1_000 });
    const answers = await Promise.all(
      Array.from({ length: PER_USER + 2 }, () =>
        env.t.injectAs(READER, { method: 'GET', url: '/api/backups/ABC/restores' }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(PER_USER + 2).fill(200));
  });
});
