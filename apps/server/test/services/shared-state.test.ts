import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ServiceError } from '@aegis/connectors';
import { createTablesClient, SharedRows } from '@aegis/connectors/tables';
import { startAzurite, type RunningAzurite } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ManualBackupGuard } from '../../src/services/manual-backup-guard';

// Each "instance" has its own Table storage client, as two servers would (ADR 060).
describe('rows shared by server instances (ADR 060)', () => {
  let dir: string;
  let azurite: RunningAzurite;
  const instance = () =>
    new SharedRows(
      createTablesClient({ connectionString: azurite.connectionString }),
      'AegisSharedStateTest',
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-shared-state-'));
    azurite = await startAzurite({ location: dir });
  });
  afterAll(async () => {
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no update: 40 increments at once from two instances count 40', async () => {
    const [one, two] = [instance(), instance()];
    const keys = { partitionKey: 'counter', rowKey: 'increments' };
    const increment = (rows: SharedRows) =>
      rows.update(keys, (row) => {
        const next = (typeof row?.Count === 'number' ? row.Count : 0) + 1;
        return { write: { Count: next }, result: next };
      });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => increment(i % 2 ? one : two)),
    );
    // every increment saw a different count: none was taken on a stale read
    expect([...results].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect((await one.read(keys))?.Count).toBe(40);
  });

  it('writes nothing when the decision says so', async () => {
    const rows = instance();
    const keys = { partitionKey: 'counter', rowKey: 'untouched' };
    expect(await rows.update(keys, () => ({ result: 'left alone' }))).toBe('left alone');
    expect(await rows.read(keys)).toBeUndefined();
  });

  describe('the manual-backup guard across instances', () => {
    let clock = new Date('2026-11-27T09:00:00.000Z');
    const guard = () =>
      new ManualBackupGuard(instance(), { now: () => clock, claimInMs: 60_000, polls: 0 });
    const active = new Set<number>();
    const isRunActive = async (runId: number) => active.has(runId);

    it('lets a claim lapse when its instance stopped before starting the run', async () => {
      const stopped = guard();
      let finishStart: (run: { runId: number }) => void = () => undefined;
      let claimed: () => void = () => undefined;
      const startingRun = new Promise<void>((resolve) => (claimed = resolve));
      const hanging = stopped.start('LAP', isRunActive, () => {
        // the claim is stored once the run is being started
        claimed();
        return new Promise<{ runId: number }>((resolve) => (finishStart = resolve));
      });
      await startingRun;
      const other = guard();
      // the claim holds: the other instance cannot start one meanwhile
      await expect(
        other.start('LAP', isRunActive, async () => ({ runId: 2 })),
      ).rejects.toMatchObject({
        name: 'ConflictError',
        message:
          'A manual backup of LAP is being started by another request. Wait until it completes, then start another.',
      });
      clock = new Date(clock.getTime() + 60_001);
      active.add(2);
      expect(await other.start('LAP', isRunActive, async () => ({ runId: 2 }))).toEqual({
        runId: 2,
      });
      // the stopped instance comes back late: its run does not replace the one recorded since
      finishStart({ runId: 1 });
      await hanging;
      await expect(
        guard().start('LAP', isRunActive, async () => ({ runId: 3 })),
      ).rejects.toMatchObject({
        message:
          'A manual backup of LAP is already running (run 2). Wait until it completes, then start another.',
      });
    });

    it('releases the claim when starting the run fails, keeping the previous run', async () => {
      active.add(10);
      expect(await guard().start('REL', isRunActive, async () => ({ runId: 10 }))).toEqual({
        runId: 10,
      });
      active.delete(10);
      await expect(
        guard().start('REL', isRunActive, async () => {
          throw new Error('DevOps refused the run');
        }),
      ).rejects.toThrow('DevOps refused the run');
      // no lapse needed: the next request goes ahead at once
      expect(await guard().start('REL', isRunActive, async () => ({ runId: 11 }))).toEqual({
        runId: 11,
      });
    });

    it('answers the run as started when Table storage fails after it started; the claim still guards', async () => {
      const real = createTablesClient({ connectionString: azurite.connectionString });
      // Table storage refuses to record run 99 (the write that replaces the claim)
      const failing = new Proxy(real, {
        get: (target, name, receiver) =>
          name === 'updateEntity'
            ? async (...args: Parameters<typeof real.updateEntity>) => {
                if (args[1].RunId === 99) {
                  throw new ServiceError('Server Busy', { service: 'tables', statusCode: 500 });
                }
                return target.updateEntity(...args);
              }
            : (Reflect.get(target, name, receiver) as unknown),
      });
      active.add(98);
      expect(await guard().start('UNS', isRunActive, async () => ({ runId: 98 }))).toEqual({
        runId: 98,
      });
      active.delete(98);
      const unsettled: unknown[] = [];
      const flaky = new ManualBackupGuard(new SharedRows(failing, 'AegisSharedStateTest'), {
        now: () => clock,
        claimInMs: 60_000,
        polls: 0,
      });
      expect(
        await flaky.start(
          'UNS',
          isRunActive,
          async () => ({ runId: 99 }),
          (e) => unsettled.push(e),
        ),
      ).toEqual({ runId: 99 });
      expect(unsettled).toEqual([expect.objectContaining({ message: 'Server Busy' })]);
      await expect(
        guard().start('UNS', isRunActive, async () => ({ runId: 100 })),
      ).rejects.toMatchObject({ message: expect.stringContaining('is being started') });
    });
  });
});
