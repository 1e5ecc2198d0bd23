import { DevOpsClient } from '@aegis/connectors/devops';
import type { RawFile } from '@aegis/connectors/repository';
import { ConfigRepository, createConfigRepositoryShared } from '@aegis/connectors/repository';
import { BASELINE_ROOT, CLIENTS_FOLDER } from '@aegis/domain';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '@aegis/emulators';
import {
  createFleetCaches,
  FleetService,
  inThreadSummarizer,
  type FleetSummarizer,
  type SummaryTask,
} from '@aegis/insights';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { WorkerSummarizer } from '../../src/services/fleet-summarizer';
import { startSeededDevOpsForUser, type SeededDevOpsForUser } from '../devops-fixture';

const REPO = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };
const AT = Date.parse('2026-11-24T12:00:00Z');

describe('fleet summaries on worker threads (ADR 044)', () => {
  let devops: SeededDevOpsForUser;
  let repository: ConfigRepository;
  /** the seeded ABC and CON folders as read from the archive, and the seeded baseline */
  const folders = new Map<string, RawFile[]>();
  let baselineTask: Pick<SummaryTask, 'baselineTreeId' | 'baseline'>;

  beforeAll(async () => {
    devops = await startSeededDevOpsForUser();
    const api = new DevOpsClient({
      organizationUrl: devops.emulator.url,
      getToken: () => Promise.resolve(devops.token),
      retry: { maxRetries: 0 },
    });
    repository = new ConfigRepository(api, createConfigRepositoryShared(REPO));
    const baseline = await repository.readTree(BASELINE_ROOT);
    baselineTask = { baselineTreeId: 'seeded-baseline', baseline: baseline?.files ?? [] };
    const tip = await repository.branchTip();
    await repository.forEachFile(CLIENTS_FOLDER, { commit: tip }, (file) => {
      const client = file.path.split('/')[2] ?? '';
      folders.set(client, [...(folders.get(client) ?? []), file]);
    });
  });
  afterAll(async () => {
    await devops.close();
  });

  const taskFor = (client: string): SummaryTask => ({
    client,
    ...baselineTask,
    files: folders.get(client) ?? [],
    at: AT,
  });

  it("computes on a worker the summary the server's thread computes", async () => {
    const pool = new WorkerSummarizer(2, { warn: () => undefined });
    try {
      for (const client of ['ABC', 'CON']) {
        const expected = await inThreadSummarizer.summarize(taskFor(client));
        expect(expected.hasConfiguration).toBe(true);
        expect(expected.deviations.length).toBeGreaterThan(0);
        expect(await pool.summarize(taskFor(client))).toEqual(expected);
      }
      // a second baseline (a baseline change) is sent to the worker beside the first
      const changed = { ...taskFor('ABC'), baselineTreeId: 'changed', baseline: [] };
      expect((await pool.summarize(changed)).compliancePercentage).not.toBe(
        (await pool.summarize(taskFor('ABC'))).compliancePercentage,
      );
      // a tree's baseline reaches the workers once: a later task of the tree reads that, not its own
      const sameTree = { ...taskFor('ABC'), baseline: [] };
      expect(await pool.summarize(sameTree)).toEqual(
        await inThreadSummarizer.summarize(taskFor('ABC')),
      );
    } finally {
      await pool.close();
    }
  });

  it('rejects the tasks of a closed pool and starts a new pool for the next task', async () => {
    const pool = new WorkerSummarizer(1, { warn: () => undefined });
    try {
      const lost = pool.summarize(taskFor('ABC')).catch((error: unknown) => error);
      await pool.close();
      await expect(lost).resolves.toMatchObject({
        message: expect.stringMatching(/Terminating worker thread/),
      });
      expect((await pool.summarize(taskFor('ABC'))).hasConfiguration).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('reads a client alone, then summarises it in its own thread, when its worker fails', async () => {
    const captures = { overviews: () => Promise.resolve(new Map()) };
    const fleetWith = async (summarizer: FleetSummarizer) => {
      const warnings: string[] = [];
      const service = new FleetService(
        repository,
        captures,
        createFleetCaches(),
        { warn: (_obj, msg) => warnings.push(msg) },
        summarizer,
        () => new Date(AT),
      );
      return { fleet: await service.fleet(), warnings };
    };
    const failingForCon: FleetSummarizer = {
      capacity: 1,
      summarize: (task) =>
        task.client === 'CON'
          ? Promise.reject(new Error('worker gone'))
          : inThreadSummarizer.summarize(task),
      close: () => Promise.resolve(),
    };
    const expected = await fleetWith(inThreadSummarizer);
    const actual = await fleetWith(failingForCon);
    expect(actual.warnings).toEqual([
      'fleet: client not summarised from the zip',
      'fleet: summary worker failed, summarised here',
    ]);
    expect(expected.warnings).toEqual([]);
    const con = (f: typeof expected) => f.fleet.rows.find((r) => r.client === 'CON');
    expect(con(actual)?.compliancePercentage).toEqual(expect.any(Number));
    expect(actual.fleet.rows).toEqual(expected.fleet.rows);
  });
});
