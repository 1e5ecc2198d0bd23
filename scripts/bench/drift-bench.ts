/**
 * Drift check benchmark (issue 28 §3, ADR 063): the drift check pipeline through the emulator's
 * runner against the tenant emulator and Azurite, as `npm start` wires them. Prints the Graph
 * HTTP requests (counted at the task's fetch: a $batch is one) and the Graph operations (counted at
 * the emulator, which runs each request of a $batch on its own) of a full check and of a quick
 * check of a tenant where nothing changed (goal ≤ 5 requests), the
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

interface CheckFigures {
  /** Graph HTTP requests on the wire: each $batch envelope once, plus the requests outside one */
  graphRequests: number;
  /** Graph operations: each request inside a $batch, plus the requests outside one */
  graphOperations: number;
  /** Exchange admin API and ARM HTTP requests */
  otherRequests: number;
  ms: number;
}

export interface DriftBench {
  full: CheckFigures;
  quick: CheckFigures;
  worstCaseMinutes: number;
}

const GRAPH_PATH = /^\/(v1\.0|beta)\//;

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
  const check = async (kind: 'quick' | 'full'): Promise<CheckFigures> => {
    const graph = count('^/(v1\\.0|beta)/');
    const envelopes = count('^/(v1\\.0|beta)/\\$batch$');
    const other = count('^/(adminapi|subscriptions)/');
    // the task runs in this process: its requests to the tenant emulator's Graph door, as sent
    let graphRequests = 0;
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.origin === new URL(tenants.url).origin && GRAPH_PATH.test(url.pathname)) {
        graphRequests += 1;
      }
      return realFetch(input, init);
    };
    try {
      const started = await devops.runPipeline(PROJECT, DRIFT_CHECK, {
        templateParameters: { ClientCode: 'ABC', Kind: kind },
      });
      const t0 = performance.now();
      await emulator.runner.waitForIdle();
      const ms = performance.now() - t0;
      const finished = await devops.getRun(PROJECT, DRIFT_CHECK, started.id);
      if (finished?.result !== 'succeeded') throw new Error(`drift check ${finished?.result}`);
      return {
        graphRequests,
        graphOperations: hits(graph) - hits(envelopes),
        otherRequests: hits(other),
        ms,
      };
    } finally {
      globalThis.fetch = realFetch;
      tenants.faults.clear();
    }
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
  const line = (label: string, f: CheckFigures, goal = '') =>
    console.log(
      `  ${label.padEnd(24)} ${f.graphRequests} Graph HTTP requests (${f.graphOperations} Graph operations) + ${f.otherRequests} admin/ARM requests, ${f.ms.toFixed(0)} ms${goal}`,
    );
  line('full check', b.full);
  line('quick check, no change', b.quick, ' (goal ≤ 5 Graph requests)');
  console.log(
    '  (a $batch is one HTTP request carrying several operations: requests counted at the task, operations at the emulator)',
  );
  console.log(
    `  worst case change → portal at the defaults (quick every ${s.quickIntervalInMinutes} min, pipeline every ${DRIFT_PIPELINE_PERIOD_IN_MINUTES} min): ${b.worstCaseMinutes.toFixed(1)} min (goal ≤ 15)`,
  );
}
