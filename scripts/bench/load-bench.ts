/**
 * Load (issue 32 item 6): 20 technicians at once against the server over HTTP, with the emulators
 * in the same process: each runs rounds of the Fleet page, a client's compliance report, a
 * comparison (streamed to its result) and the client's capture overview. Latency per route (p50,
 * p95, max), answers other than 200, and the process's memory before and after.
 */
import { availableParallelism, loadavg } from 'node:os';

import { STAFF_ACCOUNTS } from '@aegis/emulators';

import { startBenchServer } from './server-fixture';

const TECHNICIANS = Number(process.env.AEGIS_BENCH_LOAD_TECHNICIANS ?? 20);
const ROUNDS = Number(process.env.AEGIS_BENCH_LOAD_ROUNDS ?? 3);
const CLIENTS = ['ABC', 'CON', 'FAB', 'NWT', 'WWI'];
/** Issue 32's goal for every page's first answer. */
const P95_GOAL_MS = 2_000;

interface Sample {
  route: string;
  ms: number;
  status: number;
}

export interface LoadBenchResult {
  technicians: number;
  rounds: number;
  accounts: number;
  routes: { route: string; count: number; p50: number; p95: number; max: number; failed: number }[];
  /** resident set and heap used by the process (server, emulator), MB */
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
  const server = await startBenchServer('load', {
    env: { AEGIS_HEAVY_REQUESTS_PER_USER: String(Math.max(4, perAccount)) },
  });
  try {
    const base = await server.app.listen({ host: '127.0.0.1', port: 0 });
    const tokens = new Map<string, string>();
    for (const upn of accounts) tokens.set(upn, await server.idp.issueToken(upn));
    const samples: Sample[] = [];
    const timed = async (route: string, url: string, token: string, body?: unknown) => {
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
      samples.push({ route, ms: performance.now() - start, status: response.status });
    };
    const before = memory();
    const loadBefore = loadavg()[0] ?? 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: TECHNICIANS }, async (_, t) => {
        const token = tokens.get(accounts[t % accounts.length] ?? '') ?? '';
        for (let round = 0; round < ROUNDS; round++) {
          const client = CLIENTS[(t + round) % CLIENTS.length] ?? 'ABC';
          await timed('GET /api/fleet', '/api/fleet', token);
          await timed('GET /api/compliance/{client}', `/api/compliance/${client}`, token);
          await timed('POST /api/comparison/runs', '/api/comparison/runs', token, {
            client,
            baselineType: round % 2 === 0 ? 'options' : 'standard',
          });
          await timed(
            'GET /api/capture/clients/{client}/overview',
            `/api/capture/clients/${client}/overview`,
            token,
          );
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const after = memory();
    const byRoute = new Map<string, Sample[]>();
    for (const s of samples) byRoute.set(s.route, [...(byRoute.get(s.route) ?? []), s]);
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
        };
      }),
      memory: { before, after },
      seconds,
      load: [loadBefore, loadavg()[0] ?? 0],
    };
  } finally {
    await server.close();
  }
}

export function printLoadBench(r: LoadBenchResult): void {
  console.log(
    `\nload: ${r.technicians} technicians at once (on ${r.accounts} sample accounts), ${r.rounds} rounds of fleet, compliance report, comparison and capture overview each, over HTTP; ${r.seconds.toFixed(0)} s in all`,
  );
  console.log(
    `this machine: ${availableParallelism()} cores shared with other work, load (1 min) ${r.load[0].toFixed(1)} before and ${r.load[1].toFixed(1)} after, the DevOps emulator in the same process: the figures are noisy, compare runs on a quiet machine`,
  );
  console.log(
    `memory of the process (server and emulator): RSS ${r.memory.before.rss.toFixed(0)} MB before, ${r.memory.after.rss.toFixed(0)} MB after; heap used ${r.memory.before.heap.toFixed(0)} MB before, ${r.memory.after.heap.toFixed(0)} MB after`,
  );
  console.log(
    `${'route'.padEnd(44)}${'count'.padStart(7)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'max ms'.padStart(9)}${'not 200'.padStart(9)}${'p95 vs goal'.padStart(13)}`,
  );
  for (const row of r.routes)
    console.log(
      `${row.route.padEnd(44)}${String(row.count).padStart(7)}${row.p50.toFixed(0).padStart(9)}${row.p95.toFixed(0).padStart(9)}${row.max.toFixed(0).padStart(9)}${String(row.failed).padStart(9)}${`${(row.p95 / P95_GOAL_MS).toFixed(2)}x`.padStart(13)}`,
    );
  console.log(`goal: p95 < ${P95_GOAL_MS / 1000} s for every route (below 1.00x meets it)`);
}
