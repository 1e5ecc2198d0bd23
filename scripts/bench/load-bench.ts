/**
 * Load (issue 32 item 6): 20 technicians at once against the server over HTTP, with the DevOps
 * emulator in a child process (the same process group, not the server's event loop): each runs
 * rounds of the Fleet page, a client's compliance report, a comparison (streamed to its result) and
 * the client's capture overview. Latency per route (p50, p95, max), answers other than 200, the
 * server's memory before and after, and CPU apart: the server's process and the emulator's (with
 * its `git`, Azure DevOps' own work in production), in all and per request of each route alone.
 */
import { availableParallelism, loadavg } from 'node:os';

import { STAFF_ACCOUNTS } from '@aegis/emulators';

import { cpuMilliseconds, startBenchServerApart } from './server-fixture';

const TECHNICIANS = Number(process.env.AEGIS_BENCH_LOAD_TECHNICIANS ?? 20);
const ROUNDS = Number(process.env.AEGIS_BENCH_LOAD_ROUNDS ?? 3);
const CLIENTS = ['ABC', 'CON', 'FAB', 'NWT', 'WWI'];
/** Issue 32's goal for every page's first answer. */
const P95_GOAL_MS = 2_000;

interface Sample {
  route: string;
  ms: number;
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
  }[];
  /** CPU during the load, in all */
  cpu: CpuSplit;
  /** the server's requests to DevOps during the load */
  devopsRequests: number;
  /** resident set and heap used by the server's process, MB */
  memory: { before: { rss: number; heap: number }; after: { rss: number; heap: number } };
  seconds: number;
  load: [number, number];
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

const memory = () => {
  const m = process.memoryUsage();
  return { rss: m.rss / 2 ** 20, heap: m.heapUsed / 2 ** 20 };
};

export async function runLoadBench(): Promise<LoadBenchResult> {
  const accounts = STAFF_ACCOUNTS.filter((a) => a.roles.length > 0).map((a) => a.upn);
  // four sample accounts stand for 20 people: each may have as many heavy requests as its share
  const perAccount = Math.ceil(TECHNICIANS / accounts.length);
  const server = await startBenchServerApart('load', {
    env: { AEGIS_HEAVY_REQUESTS_PER_USER: String(Math.max(4, perAccount)) },
  });
  try {
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
    const timed = async (route: string, url: string, token: string, body?: unknown) => {
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
        ms,
        status: response.status,
        cpu: {
          server: cpuEnd.server - cpuStart.server,
          emulator: cpuEnd.emulator - cpuStart.emulator,
        },
        devopsRequests: (devopsRequests += server.takeRequests().all) - requestsStart,
      });
    };
    // one technician's round: the four pages of one client
    const round = async (token: string, client: string, baselineType: 'options' | 'standard') => {
      await timed('GET /api/fleet', '/api/fleet', token);
      await timed('GET /api/compliance/{client}', `/api/compliance/${client}`, token);
      await timed('POST /api/comparison/runs', '/api/comparison/runs', token, {
        client,
        baselineType,
      });
      await timed(
        'GET /api/capture/clients/{client}/overview',
        `/api/capture/clients/${client}/overview`,
        token,
      );
    };
    const before = memory();
    const loadBefore = loadavg()[0] ?? 0;
    const cpuBefore = cpuNow();
    devopsRequests += server.takeRequests().all;
    const requestsBefore = devopsRequests;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: TECHNICIANS }, async (_, t) => {
        const token = tokens.get(accounts[t % accounts.length] ?? '') ?? '';
        for (let r = 0; r < ROUNDS; r++) {
          await round(
            token,
            CLIENTS[(t + r) % CLIENTS.length] ?? 'ABC',
            r % 2 === 0 ? 'options' : 'standard',
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
        await round(token, client, baselineType);
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
      routes: [...byRoute].map(([route, list]) => {
        const sorted = list.map((s) => s.ms).sort((x, y) => x - y);
        return {
          route,
          count: list.length,
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          max: sorted.at(-1) ?? 0,
          failed: list.filter((s) => s.status !== 200).length,
          alone: aloneCost(route),
        };
      }),
      cpu: {
        server: cpuAfter.server - cpuBefore.server,
        emulator: cpuAfter.emulator - cpuBefore.emulator,
      },
      devopsRequests: requestsDuringLoad,
      memory: { before, after },
      seconds,
      load: [loadBefore, loadavg()[0] ?? 0],
    };
  } finally {
    await server.close();
  }
}

export function printLoadBench(r: LoadBenchResult): void {
  const requests = r.routes.reduce((sum, row) => sum + row.count, 0);
  console.log(
    `\nload: ${r.technicians} technicians at once (on ${r.accounts} sample accounts), ${r.rounds} rounds of fleet, compliance report, comparison and capture overview each, over HTTP; ${r.seconds.toFixed(0)} s in all`,
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
}
