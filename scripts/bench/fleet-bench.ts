/**
 * Fleet benchmark through the server (issue 17): a fleet of simulated clients (200 by default) of 500
 * policies each, generated like the engine bench's corpus and pushed beside the seeded sample, each client
 * with its own drift; one client with a history of 20 merges and backup tags. Cold and warm time of the
 * fleet table, of every row's sparkline trend and of one client's 20-point trend, with the DevOps requests
 * the server made (trees are read once per distinct tree id: zips counted apart).
 */
import { availableParallelism, loadavg } from 'node:os';

import type { Fleet, FleetTrend, FleetTrendList } from '@aegis/contracts';
import { backupTagMessage, backupTagName, type ConfigFile } from '@aegis/domain';

import { generateTrees } from './engine-bench';
import { pushTree, startBenchServer, type RequestCounts } from './server-fixture';

const POLICIES = 500;
const TREND_POINTS = 20;
/** Issue 17's goals on this 2-core machine. */
const COLD_GOAL_MS = 60_000;
const WARM_GOAL_MS = 2_000;

export interface FleetBenchResult {
  clients: number;
  policies: number;
  setupSeconds: number;
  rows: {
    run: string;
    ms: number;
    cpuMs: number;
    gitCpuMs: number;
    peakHeapMegabytes: number;
    /** the issue's goal for this run (cold < 60 s, warm < 2 s) */
    goalMs: number;
    requests: RequestCounts;
    responseKilobytes: number;
  }[];
  /** the machine's 1-minute load average before and after the timed runs */
  load: [number, number];
  summary: Fleet['summary'];
  trendPoints: number;
}

/** Client codes QAA, QAB, … (three capital letters, apart from the sample's). */
function clientCode(i: number): string {
  const letter = (n: number) => String.fromCharCode(65 + (n % 26));
  return `Q${letter(Math.floor(i / 26))}${letter(i)}`;
}

/** A client's copy: the generated client with a drift of its own (a few settings changed, one policy gone). */
function clientCopy(base: readonly ConfigFile[], i: number): ConfigFile[] {
  return base.flatMap((f, k) => {
    if (k === (i * 7) % base.length) return [];
    if (k % 97 !== i % 97) return [f];
    const content = { ...(f.content as Record<string, unknown>), state: `disabled-${i}` };
    return [{ path: f.path, content }];
  });
}

export async function runFleetBench(
  clients = Number(process.env.AEGIS_BENCH_FLEET_CLIENTS ?? 200),
): Promise<FleetBenchResult> {
  const server = await startBenchServer('fleet');
  try {
    const setupStart = performance.now();
    const { baseline, client } = generateTrees(POLICIES);
    await pushTree(server.pusher, '/M365Config/Resources', baseline, 500);
    const codes = Array.from({ length: clients }, (_, i) => clientCode(i));
    for (const [i, code] of codes.entries()) {
      await pushTree(
        server.pusher,
        `/Clients/${code}/M365Config/Resources`,
        clientCopy(client, i),
        1000,
      );
    }
    // history of the first client: merges touching its folder, and a backup after every fourth
    const traced = codes[0] ?? 'QAA';
    const edited = client[1];
    for (let step = 1; step <= TREND_POINTS; step++) {
      const content = { ...(edited?.content as Record<string, unknown>), revision: step };
      const commitId = await server.pusher.commit(
        'main',
        await server.pusher.branchTip(),
        `Merged PR: ${traced} configuration capture ${step}`,
        [
          {
            changeType: 'edit',
            path: `/Clients/${traced}/M365Config/Resources/${edited?.path ?? ''}`,
            content: JSON.stringify(content, null, 2),
          },
        ],
      );
      if (step % 4 === 0) {
        const date = new Date(Date.now() + step * 60_000);
        await server.pusher.tag(
          backupTagName(traced, date, true),
          commitId,
          backupTagMessage(traced, date, true),
        );
      }
    }
    const setupSeconds = (performance.now() - setupStart) / 1000;

    const rows: FleetBenchResult['rows'] = [];
    const loadBefore = loadavg()[0] ?? 0;
    const measure = async <T>(run: string, url: string): Promise<T> => {
      server.takeRequests();
      const { body, ms, bytes, cpuMs, gitCpuMs, peakHeapMegabytes } = await server.get<T>(url);
      rows.push({
        run,
        ms,
        cpuMs,
        gitCpuMs,
        peakHeapMegabytes,
        goalMs: run.includes('cold') ? COLD_GOAL_MS : WARM_GOAL_MS,
        requests: server.takeRequests(),
        responseKilobytes: bytes / 1024,
      });
      return body;
    };
    await measure<Fleet>('fleet table, cold', '/api/fleet');
    const fleet = await measure<Fleet>('fleet table, warm', '/api/fleet');
    await measure<Fleet>('fleet table, warm again', '/api/fleet');
    await measure<FleetTrendList>('sparklines (12), cold', '/api/fleet/trends?points=12');
    await measure<FleetTrendList>('sparklines (12), warm', '/api/fleet/trends?points=12');
    const trendUrl = `/api/fleet/${traced}/trend?points=${TREND_POINTS}`;
    const trend = await measure<FleetTrend>(`${traced} trend (${TREND_POINTS}), cold`, trendUrl);
    await measure<FleetTrend>(`${traced} trend (${TREND_POINTS}), warm`, trendUrl);
    return {
      clients: fleet.rows.length,
      policies: baseline.length,
      setupSeconds,
      rows,
      summary: fleet.summary,
      trendPoints: trend.points.length,
      load: [loadBefore, loadavg()[0] ?? 0],
    };
  } finally {
    await server.close();
  }
}

export function printFleetBench(r: FleetBenchResult): void {
  console.log(
    `\nfleet through the server: ${r.clients} clients (sample + generated) of ${r.policies} baseline policies; setup ${r.setupSeconds.toFixed(0)} s`,
  );
  console.log(
    `summary: ${r.summary.compliant} compliant, ${r.summary.atRisk} at risk, ${r.summary.critical} critical, ${r.summary.incomplete} data missing; trend of ${r.trendPoints} points`,
  );
  console.log(
    `machine load (1 min) ${r.load[0].toFixed(1)} before, ${r.load[1].toFixed(1)} after the timed runs, on ${availableParallelism()} cores; CPU = this process's threads (server, summary workers, emulator), git CPU = the emulator's git processes`,
  );
  console.log(
    `${'run'.padEnd(30)}${'ms'.padStart(9)}${'vs goal'.padStart(9)}${'CPU ms'.padStart(9)}${'git CPU'.padStart(9)}${'heap MB'.padStart(9)}${'DevOps req'.padStart(12)}${'zips'.padStart(6)}${'listings'.padStart(10)}${'resp KB'.padStart(9)}`,
  );
  for (const row of r.rows)
    console.log(
      `${row.run.padEnd(30)}${row.ms.toFixed(0).padStart(9)}${`${(row.ms / row.goalMs).toFixed(2)}x`.padStart(9)}${row.cpuMs.toFixed(0).padStart(9)}${row.gitCpuMs.toFixed(0).padStart(9)}${row.peakHeapMegabytes.toFixed(0).padStart(9)}${String(row.requests.all).padStart(12)}${String(row.requests.zips).padStart(6)}${String(row.requests.listings).padStart(10)}${row.responseKilobytes.toFixed(0).padStart(9)}`,
    );
  console.log(
    `goals: cold < ${COLD_GOAL_MS / 1000} s, warm < ${WARM_GOAL_MS / 1000} s ("vs goal" = time / goal; below 1.00x meets it)`,
  );
}
