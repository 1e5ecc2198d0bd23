/**
 * The fleet's summary pool alone (ADR 044, ADR 075): clients of 500 policies summarised on worker
 * threads against one baseline, a cold batch (threads starting, the baseline reaching each worker
 * for the first time) and a warm one. Figures: wall time, the server thread's busy time (what the
 * pool costs the thread that answers requests) and the whole process's CPU.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

import type { RawFile } from '@aegis/connectors/repository';
import { WorkerSummarizer } from '@aegis/server';

import { generateTrees } from './engine-bench';

const POLICIES = 500;

interface PoolBatch {
  run: string;
  ms: number;
  serverThreadMs: number;
  cpuMs: number;
}

export interface FleetPoolBenchResult {
  clients: number;
  workers: number;
  baselineKilobytes: number;
  batches: PoolBatch[];
  load: [number, number];
}

export async function runFleetPoolBench(
  clients = Number(process.env.AEGIS_BENCH_POOL_CLIENTS ?? 40),
  workers = Number(process.env.AEGIS_BENCH_POOL_WORKERS ?? Math.max(1, availableParallelism() - 1)),
): Promise<FleetPoolBenchResult> {
  const { baseline, client } = generateTrees(POLICIES);
  const encoder = new TextEncoder();
  const files: RawFile[] = client.map((f) => ({
    path: f.path,
    bytes: encoder.encode(JSON.stringify(f.content)),
  }));
  const pool = new WorkerSummarizer(workers, { warn: (obj, msg) => console.warn(msg, obj) });
  const batches: PoolBatch[] = [];
  const loadBefore = loadavg()[0] ?? 0;
  try {
    const batch = async (run: string) => {
      const elu = performance.eventLoopUtilization();
      const cpu = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: clients }, (_, i) =>
          pool.summarize({
            client: `Q${String(i).padStart(2, '0')}`,
            baselineTreeId: 'bench-baseline',
            baseline,
            files,
            at: Date.now(),
          }),
        ),
      );
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      batches.push({
        run,
        ms,
        serverThreadMs: performance.eventLoopUtilization(elu).active,
        cpuMs: (used.user + used.system) / 1000,
      });
    };
    await batch('cold (threads start, baseline sent)');
    await batch('warm');
  } finally {
    await pool.close();
  }
  return {
    clients,
    workers,
    baselineKilobytes: JSON.stringify(baseline).length / 1024,
    batches,
    load: [loadBefore, loadavg()[0] ?? 0],
  };
}

export function printFleetPoolBench(r: FleetPoolBenchResult): void {
  console.log(
    `\nfleet summary pool: ${r.clients} clients of ${POLICIES} policies on ${r.workers} worker thread(s), baseline ${r.baselineKilobytes.toFixed(0)} KB of JSON`,
  );
  console.log(
    `machine load (1 min) ${r.load[0].toFixed(1)} before, ${r.load[1].toFixed(1)} after, on ${availableParallelism()} cores; server thread = the calling thread's busy time`,
  );
  console.log(
    `${'run'.padEnd(38)}${'ms'.padStart(9)}${'server thread ms'.padStart(18)}${'CPU ms'.padStart(9)}`,
  );
  for (const b of r.batches)
    console.log(
      `${b.run.padEnd(38)}${b.ms.toFixed(0).padStart(9)}${b.serverThreadMs.toFixed(0).padStart(18)}${b.cpuMs.toFixed(0).padStart(9)}`,
    );
}
