/**
 * Drift check benchmark (issue 28 §3, ADR 063): the drift check pipeline through the emulator's
 * runner against the tenant emulator and Azurite, as `npm start` wires them. Prints the Graph
 * requests of a full check and of a quick check of a tenant where nothing changed (goal ≤ 5), the
 * time each took, and the worst case from a change in a tenant to the portal showing it at the
 * default settings (goal ≤ 15 minutes): the quick interval on the pipeline's 5-minute grid plus the
 * measured duration of a check.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import {
  DEFAULT_DRIFT_CHECK_SETTINGS,
  DRIFT_PIPELINE_PERIOD_IN_MINUTES,
  worstCaseDetectionMinutes,
} from '@aegis/domain';
import { SAMPLE_PROJECTS, startAzurite, startTenantPipelines, TenantWorld } from '@aegis/emulators';

const PROJECT = SAMPLE_PROJECTS.tenantManagement;
const DRIFT_CHECK = 232;

export interface DriftBench {
  full: { graphRequests: number; otherRequests: number; ms: number };
  quick: { graphRequests: number; otherRequests: number; ms: number };
  worstCaseMinutes: number;
}

export async function runDriftBench(): Promise<DriftBench> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aegis-drift-bench-'));
  const azurite = await startAzurite({ location: dir });
  const world = new TenantWorld({ propagationDelayInMs: 0 });
  const pipelines = await startTenantPipelines(world, {
    tablesConnectionString: azurite.connectionString,
  });
  const { tenants, devops, emulator } = pipelines;
  const count = (pattern: string) =>
    tenants.faults.add({ kind: 'latency', latencyInMs: 0, pathPattern: pattern });
  const hits = (id: string) => tenants.faults.list().find((f) => f.id === id)?.hits ?? 0;
  const check = async (kind: 'quick' | 'full') => {
    const graph = count('^/(v1\\.0|beta)/');
    const other = count('^/(adminapi|subscriptions)/');
    const started = await devops.runPipeline(PROJECT, DRIFT_CHECK, {
      templateParameters: { ClientCode: 'ABC', Kind: kind },
    });
    const t0 = performance.now();
    await emulator.runner.waitForIdle();
    const ms = performance.now() - t0;
    const finished = await devops.getRun(PROJECT, DRIFT_CHECK, started.id);
    if (finished?.result !== 'succeeded') throw new Error(`drift check ${finished?.result}`);
    const figures = { graphRequests: hits(graph), otherRequests: hits(other), ms };
    tenants.faults.clear();
    return figures;
  };
  try {
    const full = await check('full');
    // nothing changed in the tenant since: what a quick check costs most of the time
    const quick = await check('quick');
    return {
      full,
      quick,
      worstCaseMinutes: worstCaseDetectionMinutes(
        DEFAULT_DRIFT_CHECK_SETTINGS,
        Math.max(full.ms, quick.ms) / 60_000,
      ),
    };
  } finally {
    await pipelines.close();
    await azurite.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export function printDriftBench(b: DriftBench): void {
  const s = DEFAULT_DRIFT_CHECK_SETTINGS;
  console.log(`\nDrift check (emulator runner, tenant emulator, Azurite; ABC's sample tenant)`);
  console.log(
    `  full check               ${b.full.graphRequests} Graph + ${b.full.otherRequests} admin/ARM requests, ${b.full.ms.toFixed(0)} ms`,
  );
  console.log(
    `  quick check, no change   ${b.quick.graphRequests} Graph + ${b.quick.otherRequests} admin/ARM requests, ${b.quick.ms.toFixed(0)} ms (goal ≤ 5 Graph)`,
  );
  console.log(
    '  (Graph counts each $batch and each request inside it, as the emulator sees them; `npm run bench -- audit` counts HTTP requests)',
  );
  console.log(
    `  worst case change → portal at the defaults (quick every ${s.quickIntervalInMinutes} min, pipeline every ${DRIFT_PIPELINE_PERIOD_IN_MINUTES} min): ${b.worstCaseMinutes.toFixed(1)} min (goal ≤ 15)`,
  );
}
