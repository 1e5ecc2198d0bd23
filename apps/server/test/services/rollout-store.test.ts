import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTablesClient, SharedRows } from '@aegis/connectors/tables';
import { ConflictError, NotFoundError, planRollout, type RolloutEvent } from '@aegis/domain';
import { startAzurite, type RunningAzurite } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { RolloutStore } from '../../src/services/rollout-store';

const PLANNER = { upn: 'alex.approver@aegis-msp.example' };

// Each "instance" has its own Table storage client, as two servers would (ADR 060, ADR 069).
describe('rollouts in Table storage (ADR 069)', () => {
  let dir: string;
  let azurite: RunningAzurite;
  const instance = () =>
    new RolloutStore(
      new SharedRows(
        createTablesClient({ connectionString: azurite.connectionString }),
        'AegisRolloutsTest',
      ),
    );
  const rollout = (id: string) =>
    planRollout({
      id,
      commitId: 'c0ffee',
      createdBy: PLANNER.upn,
      plan: ['MSP', 'ABC', 'NWT'].map((client) => ({ client, creates: 1, updates: 0, deletes: 0 })),
      rings: [
        { name: 'Our own tenant', clients: ['MSP'] },
        { name: 'The rest', clients: ['ABC', 'NWT'] },
      ],
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-rollouts-'));
    azurite = await startAzurite({ location: dir });
  });
  afterAll(async () => {
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('claims a deploy once when two instances claim it at the same moment', async () => {
    const [one, two] = [instance(), instance()];
    await one.create(rollout('r-claim'));
    await two.apply('r-claim', { type: 'start', by: PLANNER });
    const claim = (by: string): RolloutEvent => ({
      type: 'deploy-started',
      client: 'MSP',
      claim: { token: `token-${by}`, by, at: '2026-11-27T12:00:00.000Z' },
    });
    const outcomes = await Promise.allSettled([
      one.apply('r-claim', claim('one')),
      two.apply('r-claim', claim('two')),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toBeInstanceOf(ConflictError);
    const winner = outcomes[0]?.status === 'fulfilled' ? 'one' : 'two';
    expect((await one.get('r-claim')).deploys.MSP).toEqual({
      status: 'running',
      claim: { token: `token-${winner}`, by: winner, at: '2026-11-27T12:00:00.000Z' },
    });
  });

  it('advances a ring once whatever instance hears the run finish, and keeps the state for a new one', async () => {
    const [one, two] = [instance(), instance()];
    await one.create(rollout('r-ring'));
    for (const event of [
      { type: 'start', by: PLANNER },
      {
        type: 'deploy-started',
        client: 'MSP',
        claim: { token: 'token', by: 'one', at: '2026-11-27T12:00:00.000Z' },
      },
      { type: 'run-recorded', phase: 'deploy', client: 'MSP', runId: 41 },
    ] as RolloutEvent[]) {
      await one.apply('r-ring', event);
    }
    const finished: RolloutEvent = {
      type: 'deploy-finished',
      client: 'MSP',
      result: 'succeeded',
      backupTag: 'backup/MSP/20261127_120000',
    };
    const outcomes = await Promise.allSettled([
      one.apply('r-ring', finished),
      two.apply('r-ring', finished),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    // a server started afterwards reads the same rollout: ring 2 next, MSP's backup recorded
    const restarted = await instance().get('r-ring');
    expect(restarted).toMatchObject({
      status: 'running',
      currentRing: 1,
      deploys: { MSP: { status: 'succeeded', runId: 41, backupTag: 'backup/MSP/20261127_120000' } },
    });
  });

  it('refuses a second rollout with the same id and answers 404 for an unknown one', async () => {
    const store = instance();
    await store.create(rollout('r-once'));
    await expect(store.create(rollout('r-once'))).rejects.toBeInstanceOf(ConflictError);
    await expect(store.get('r-none')).rejects.toBeInstanceOf(NotFoundError);
    await expect(store.apply('r-none', { type: 'start', by: PLANNER })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
