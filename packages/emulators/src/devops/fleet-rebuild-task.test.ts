// The Fleet Summary Rebuild pipeline (issue 32 item 5, ADR 062) through the emulator's runner, as
// an agent runs `aegis-task fleet-rebuild`: every client's summary at main's tip stored in Table
// storage (Azurite), only the ones the table lacks or holds for other trees computed, and the
// nightly schedule of pipelines/fleet-rebuild.yml seen by the emulator's scheduler.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { RepositoryRef } from '@aegis/connectors/devops';
import { ConfigRepository, createConfigRepositoryShared } from '@aegis/connectors/repository';
import {
  createTablesClient,
  FleetSummaryStore,
  storedFor,
  summaryEntity,
  type AppTables,
} from '@aegis/connectors/tables';
import { BASELINE_ROOT, clientFolder, PIPELINE_CATALOGUE, summarizeClient } from '@aegis/domain';
import { runFleetRebuild } from '@aegis/pipeline-tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startAzurite, type RunningAzurite } from '../azurite';
import { CONFIG_REPOSITORY_NAME } from '../seed/seed-devops';
import { TenantWorld } from '../tenants/world';

import {
  startTenantPipelines,
  TENANT_MANAGEMENT_PROJECT as PROJECT,
  type TenantPipelines,
} from './tenant-pipelines';

const REPO: RepositoryRef = { project: PROJECT, repository: CONFIG_REPOSITORY_NAME };
const HOUR = 3_600_000;
const silent = { warn: () => undefined };

let dir: string;
let azurite: RunningAzurite;
let fixture: TenantPipelines;
let tables: AppTables;
let repository: ConfigRepository;
let rebuildId: number;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aegis-fleet-rebuild-'));
  azurite = await startAzurite({ location: dir });
  fixture = await startTenantPipelines(new TenantWorld({ propagationDelayInMs: 0 }), {
    tablesConnectionString: azurite.connectionString,
  });
  tables = createTablesClient({ connectionString: azurite.connectionString });
  repository = new ConfigRepository(fixture.devops, createConfigRepositoryShared(REPO));
  const pipelines = await fixture.devops.listPipelines(PROJECT);
  rebuildId = pipelines.find((p) => p.name === PIPELINE_CATALOGUE.fleetRebuild.name)!.id;
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  await azurite?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The clients whose stored row holds for main's tip now. */
async function clientsStoredForTip(): Promise<{ clients: string[]; holding: string[] }> {
  const trees = await repository.fleetTreeIds({ commit: await repository.branchTip() });
  const stored = await new FleetSummaryStore(tables, silent).read();
  const clients = [...trees.clients.keys()].sort();
  const holding = clients.filter((c) =>
    storedFor(stored.get(c), trees.baselineTreeId ?? '', trees.clients.get(c) ?? ''),
  );
  return { clients, holding };
}

describe('Fleet Summary Rebuild (aegis-task fleet-rebuild)', () => {
  it("stores every client's summary at main's tip, then computes only what no longer holds", async () => {
    const first = await fixture.run(rebuildId, {});
    expect(first.result).toBe('succeeded');
    const { clients, holding } = await clientsStoredForTip();
    expect(clients.length).toBeGreaterThan(3);
    expect(holding).toEqual(clients);
    expect(first.log).toContain(`0 summaries hold, ${clients.length} to compute`);
    expect(first.log).toContain(`${clients.length} summaries computed and stored`);

    const stored = await new FleetSummaryStore(tables, silent).read();
    const abc = stored.get('ABC')!;
    expect(abc.summary.hasConfiguration).toBe(true);
    // the figures of main's trees, as the Fleet page computes them
    const tip = { commit: await repository.branchTip() };
    const baseline = (await repository.readTree(BASELINE_ROOT, tip))!.files;
    const folder = (await repository.readTree(clientFolder('ABC'), tip))!.files;
    const fresh = summarizeClient('ABC', baseline, folder, abc.summary.computedAt);
    const { deviations, ...figures } = fresh;
    expect(abc.summary).toEqual(figures);
    const storedDeviations = await new FleetSummaryStore(tables, {
      warn: () => undefined,
    }).readDeviations(['ABC']);
    expect(storedDeviations.get('ABC')?.deviations).toEqual(deviations);
    expect(fresh.compliancePercentage).toEqual(expect.any(Number));

    // nothing changed: nothing computed
    const again = await fixture.run(rebuildId, {});
    expect(again.result).toBe('succeeded');
    expect(again.log).toContain(`${clients.length} summaries hold, 0 to compute`);

    // a row for other trees (a merge the store has not seen) is recomputed, and only it
    const outdated = summaryEntity({
      ...abc,
      clientTreeId: '0'.repeat(40),
      summary: { ...abc.summary, deviations: [] },
    })!;
    await tables.upsertEntities('AegisFleetSummaries', [outdated]);
    expect((await clientsStoredForTip()).holding).not.toContain('ABC');
    const third = await fixture.run(rebuildId, {});
    expect(third.result).toBe('succeeded');
    expect(third.log).toContain(`${clients.length - 1} summaries hold, 1 to compute`);
    expect((await clientsStoredForTip()).holding).toEqual(clients);
  });

  it('runs nightly from the schedule of pipelines/fleet-rebuild.yml', async () => {
    const queued = await fixture.emulator.scheduler.advance(25 * HOUR);
    expect(queued.map((q) => q.run.pipelineId)).toContain(rebuildId);
    await fixture.emulator.runner.waitForIdle();
  });

  it('fails naming the missing setting when the run has no Table storage', async () => {
    await expect(
      runFleetRebuild({
        log: { info() {}, section() {}, warning() {}, error() {}, succeededWithIssues() {} },
        now: () => new Date(),
        repository,
      }),
    ).rejects.toThrow('AEGIS_TABLES_URL is not set');
  });
});
