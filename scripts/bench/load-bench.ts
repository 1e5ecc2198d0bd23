/**
 * Load (issue 32 item 6): 20 technicians at once against the server over HTTP, with the DevOps
 * emulator in a child process (the same process group, not the server's event loop): each runs
 * rounds of the Fleet page, a client's compliance report, a comparison (streamed to its result) and
 * the client's capture overview, with the fleet's summaries stored beforehand by the rebuild
 * pipeline's task (in Azurite), as in production. Latency per route (p50, p95, max), and per round
 * (the first, cold, apart), answers other than 200, the
 * server's memory before and after, and CPU apart: the server's process and the emulator's (with
 * its `git`, Azure DevOps' own work in production), in all and per request of each route alone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';

import { createTablesClient } from '@aegis/connectors/tables';
import { STAFF_ACCOUNTS, startAzurite } from '@aegis/emulators';
import { agentLog, runFleetRebuild } from '@aegis/pipeline-tasks';

import { cpuMilliseconds, startBenchServerApart } from './server-fixture';

const TECHNICIANS = Number(process.env.AEGIS_BENCH_LOAD_TECHNICIANS ?? 20);
const ROUNDS = Number(process.env.AEGIS_BENCH_LOAD_ROUNDS ?? 3);
/**
 * 'stored' (default): the rebuild task stores the fleet's summaries first, as in production;
 * 'page': no Table storage, so the first Fleet page makes them (the bench before ADR 090)
 */
const SUMMARIES = process.env.AEGIS_BENCH_LOAD_SUMMARIES === 'page' ? 'page' : 'stored';
const CLIENTS = ['ABC', 'CON', 'FAB', 'NWT', 'WWI'];
/** Issue 32's goal for every page's first answer. */
const P95_GOAL_MS = 2_000;

interface Sample {
  route: string;
  /** the technician's round, 0 the first (cold: every technician arrives at once on a fresh server) */
  round: number;
  /** from the start of the load, ms */
  startedAt: number;
  ms: number;
  /** the machine's 1-minute load average when it was answered */
  load: number;
  status: number;
  /** CPU and DevOps requests while it ran: its own only when it ran alone */
  cpu: CpuSplit;
  devopsRequests: number;
}

/** CPU used, ms: by the server's process (server, summary workers, the bench's HTTP client) and by the emulator's. */
interface CpuSplit {
  server: number;
  emulator: number;
}

/** What one request of a route run alone costs: CPU apart, and the server's requests to DevOps. */
interface AloneCost extends CpuSplit {
  devopsRequests: number;
}

/** A route's latency in one round of the technicians, and the machine's load meanwhile. */
export interface RoundFigures {
  round: number;
  count: number;
  p50: number;
  p95: number;
  max: number;
  failed: number;
  /** from the start of the load, ms: the round's first request sent, its last answer */
  from: number;
  to: number;
  /** the 1-minute load average over its answers, lowest and highest */
  load: [number, number];
}

export interface LoadBenchResult {
  technicians: number;
  rounds: number;
  accounts: number;
  routes: {
    route: string;
    count: number;
    p50: number;
    p95: number;
    max: number;
    failed: number;
    /** one request of this route run alone afterwards (warm caches), mean over the clients */
    alone: AloneCost;
    /** the same figures per round: the first (cold) apart from the warm ones */
    rounds: RoundFigures[];
  }[];
  /** CPU during the load, in all */
  cpu: CpuSplit;
  /** the server's requests to DevOps during the load */
  devopsRequests: number;
  /** resident set and heap used by the server's process, MB */
  memory: { before: { rss: number; heap: number }; after: { rss: number; heap: number } };
  seconds: number;
  load: [number, number];
  summaries: typeof SUMMARIES;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

function latency(list: readonly Sample[]) {
  const sorted = list.map((s) => s.ms).sort((x, y) => x - y);
  return {
    count: list.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? 0,
    failed: list.filter((s) => s.status !== 200).length,
  };
}

function roundFigures(list: readonly Sample[]): RoundFigures[] {
  const rounds = [...new Set(list.map((s) => s.round))].sort((x, y) => x - y);
  return rounds.map((round) => {
    const inRound = list.filter((s) => s.round === round);
    const loads = inRound.map((s) => s.load);
    return {
      round,
      ...latency(inRound),
      from: Math.min(...inRound.map((s) => s.startedAt)),
      to: Math.max(...inRound.map((s) => s.startedAt + s.ms)),
      load: [Math.min(...loads), Math.max(...loads)],
    };
  });
}

const memory = () => {
  const m = process.memoryUsage();
  return { rss: m.rss / 2 ** 20, heap: m.heapUsed / 2 ** 20 };
};

export async function runLoadBench(): Promise<LoadBenchResult> {
  const accounts = STAFF_ACCOUNTS.filter((a) => a.roles.length > 0).map((a) => a.upn);
  // four sample accounts stand for 20 people: each may have as many heavy requests as its share
  const perAccount = Math.ceil(TECHNICIANS / accounts.length);
  // Table storage as in production: the fleet's summaries are the rebuild pipeline's, stored
  // before technicians arrive (issue 32 item 5), so a cold server reads them, not makes them
  const dir = await mkdtemp(path.join(tmpdir(), 'aegis-bench-load-'));
  const azurite = SUMMARIES === 'stored' ? await startAzurite({ location: dir }) : undefined;
  const tables = azurite && createTablesClient({ connectionString: azurite.connectionString });
  const server = await startBenchServerApart('load', {
    ...(tables ? { tables } : {}),
    env: { AEGIS_HEAVY_REQUESTS_PER_USER: String(Math.max(4, perAccount)) },
  });
  try {
    if (tables) {
      const rebuilt = await runFleetRebuild({
        log: agentLog(() => undefined),
        now: () => new Date(),
        repository: server.pusher,
        tables,
      });
      if (rebuilt.failed.length > 0) throw new Error(`fleet rebuild: ${rebuilt.failed.join('; ')}`);
    }
    server.takeRequests();
    const base = await server.app.listen({ host: '127.0.0.1', port: 0 });
    const tokens = new Map<string, string>();
    for (const upn of accounts) tokens.set(upn, await server.idp.issueToken(upn));
    const samples: Sample[] = [];
    // the server's requests to DevOps so far (the fixture counts them)
    let devopsRequests = 0;
    const cpuNow = (): CpuSplit => ({
      server: cpuMilliseconds().own,
      emulator: server.emulatorCpuMilliseconds(),
    });
    let loadStart = performance.now();
    const timed = async (
      route: string,
      url: string,
      token: string,
      round: number,
      body?: unknown,
    ) => {
      const cpuStart = cpuNow();
      const requestsStart = devopsRequests;
      const start = performance.now();
      const response = await fetch(`${base}${url}`, {
        method: body ? 'POST' : 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      // the first answer is the whole body, a comparison's stream to its result
      await response.arrayBuffer();
      const ms = performance.now() - start;
      const cpuEnd = cpuNow();
      samples.push({
        route,
        round,
        startedAt: start - loadStart,
        ms,
        load: loadavg()[0] ?? 0,
        status: response.status,
        cpu: {
          server: cpuEnd.server - cpuStart.server,
          emulator: cpuEnd.emulator - cpuStart.emulator,
        },
        devopsRequests: (devopsRequests += server.takeRequests().all) - requestsStart,
      });
    };
    // one technician's round: the four pages of one client
    const round = async (
      token: string,
      client: string,
      baselineType: 'options' | 'standard',
      r: number,
    ) => {
      await timed('GET /api/fleet', '/api/fleet', token, r);
      await timed('GET /api/compliance/{client}', `/api/compliance/${client}`, token, r);
      await timed('POST /api/comparison/runs', '/api/comparison/runs', token, r, {
        client,
        baselineType,
      });
      await timed(
        'GET /api/capture/clients/{client}/overview',
        `/api/capture/clients/${client}/overview`,
        token,
        r,
      );
    };
    const before = memory();
    const loadBefore = loadavg()[0] ?? 0;
    const cpuBefore = cpuNow();
    devopsRequests += server.takeRequests().all;
    const requestsBefore = devopsRequests;
    const start = performance.now();
    loadStart = start;
    await Promise.all(
      Array.from({ length: TECHNICIANS }, async (_, t) => {
        const token = tokens.get(accounts[t % accounts.length] ?? '') ?? '';
        for (let r = 0; r < ROUNDS; r++) {
          await round(
            token,
            CLIENTS[(t + r) % CLIENTS.length] ?? 'ABC',
            r % 2 === 0 ? 'options' : 'standard',
            r,
          );
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const cpuAfter = cpuNow();
    devopsRequests += server.takeRequests().all;
    // the counter, not the samples' sum: concurrent samples' windows overlap
    const requestsDuringLoad = devopsRequests - requestsBefore;
    const after = memory();
    const loadSamples = samples.splice(0);
    // each route alone, one request at a time (warm caches): its CPU per request, a figure the
    // other work on a shared machine does not inflate as it does wall time
    const token = tokens.get(accounts[0] ?? '') ?? '';
    for (const client of CLIENTS) {
      for (const baselineType of ['options', 'standard'] as const) {
        await round(token, client, baselineType, 0);
      }
    }
    const aloneSamples = samples.splice(0);
    const byRoute = new Map<string, Sample[]>();
    for (const s of loadSamples) byRoute.set(s.route, [...(byRoute.get(s.route) ?? []), s]);
    const aloneCost = (route: string): AloneCost => {
      const list = aloneSamples.filter((s) => s.route === route);
      const mean = (of: (s: Sample) => number) =>
        list.reduce((sum, s) => sum + of(s), 0) / Math.max(1, list.length);
      return {
        server: mean((s) => s.cpu.server),
        emulator: mean((s) => s.cpu.emulator),
        devopsRequests: mean((s) => s.devopsRequests),
      };
    };
    return {
      technicians: TECHNICIANS,
      rounds: ROUNDS,
      accounts: accounts.length,
      routes: [...byRoute].map(([route, list]) => ({
        route,
        ...latency(list),
        alone: aloneCost(route),
        rounds: roundFigures(list),
      })),
      cpu: {
        server: cpuAfter.server - cpuBefore.server,
        emulator: cpuAfter.emulator - cpuBefore.emulator,
      },
      devopsRequests: requestsDuringLoad,
      memory: { before, after },
      seconds,
      load: [loadBefore, loadavg()[0] ?? 0],
      summaries: SUMMARIES,
    };
  } finally {
    await server.close();
    await azurite?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export function printLoadBench(r: LoadBenchResult): void {
  const requests = r.routes.reduce((sum, row) => sum + row.count, 0);
  console.log(
    `\nload: ${r.technicians} technicians at once (on ${r.accounts} sample accounts), ${r.rounds} rounds of fleet, compliance report, comparison and capture overview each, over HTTP; ${r.seconds.toFixed(0)} s in all; ${r.summaries === 'stored' ? "the fleet's summaries stored by the rebuild task first (Azurite)" : "no Table storage: the first Fleet page makes the fleet's summaries"}`,
  );
  console.log(
    `this machine: ${availableParallelism()} cores shared with other work, load (1 min) ${r.load[0].toFixed(1)} before and ${r.load[1].toFixed(1)} after; the DevOps emulator in a child process: wall times are noisy, compare CPU or runs on a quiet machine`,
  );
  console.log(
    `memory of the server's process: RSS ${r.memory.before.rss.toFixed(0)} MB before, ${r.memory.after.rss.toFixed(0)} MB after; heap used ${r.memory.before.heap.toFixed(0)} MB before, ${r.memory.after.heap.toFixed(0)} MB after`,
  );
  console.log(
    `CPU during the load: server process ${(r.cpu.server / 1000).toFixed(1)} s (${(r.cpu.server / requests).toFixed(0)} ms a request, the bench's HTTP client included), DevOps emulator and its git ${(r.cpu.emulator / 1000).toFixed(1)} s (${(r.cpu.emulator / requests).toFixed(0)} ms a request); ${r.devopsRequests} requests to DevOps (${(r.devopsRequests / requests).toFixed(1)} a request)`,
  );
  console.log(
    `${'route'.padEnd(44)}${'count'.padStart(7)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'max ms'.padStart(9)}${'not 200'.padStart(9)}${'p95 vs goal'.padStart(13)}${'CPU server'.padStart(12)}${'CPU DevOps'.padStart(12)}${'to DevOps'.padStart(11)}`,
  );
  for (const row of r.routes)
    console.log(
      `${row.route.padEnd(44)}${String(row.count).padStart(7)}${row.p50.toFixed(0).padStart(9)}${row.p95.toFixed(0).padStart(9)}${row.max.toFixed(0).padStart(9)}${String(row.failed).padStart(9)}${`${(row.p95 / P95_GOAL_MS).toFixed(2)}x`.padStart(13)}${row.alone.server.toFixed(0).padStart(12)}${row.alone.emulator.toFixed(0).padStart(12)}${row.alone.devopsRequests.toFixed(1).padStart(11)}`,
    );
  console.log(
    `goal: p95 < ${P95_GOAL_MS / 1000} s for every route (below 1.00x meets it); CPU and 'to DevOps' columns: ms and DevOps requests per request of the route run alone afterwards, warm`,
  );
  console.log(
    `\nper round (round 1 is cold: every technician arrives at once on a fresh server; technicians run their rounds at their own pace, so rounds overlap)`,
  );
  console.log(
    `${'route'.padEnd(44)}${'round'.padStart(7)}${'count'.padStart(7)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'max ms'.padStart(9)}${'not 200'.padStart(9)}${'from–to s'.padStart(13)}${'load (1 min)'.padStart(14)}`,
  );
  for (const row of r.routes)
    for (const f of row.rounds)
      console.log(
        `${row.route.padEnd(44)}${String(f.round + 1).padStart(7)}${String(f.count).padStart(7)}${f.p50.toFixed(0).padStart(9)}${f.p95.toFixed(0).padStart(9)}${f.max.toFixed(0).padStart(9)}${String(f.failed).padStart(9)}${`${(f.from / 1000).toFixed(1)}–${(f.to / 1000).toFixed(1)}`.padStart(13)}${`${f.load[0].toFixed(1)}–${f.load[1].toFixed(1)}`.padStart(14)}`,
      );
}
