/**
 * Fleet summaries stored in Table storage (issue 32 item 5, ADR 062): a fleet of 1,000 generated
 * clients of ~500 policies each beside the seeded sample, written straight into the emulator's git
 * repository with one `git fast-import` (pushing 11 GB of JSON through the REST API would take an
 * hour), and Azurite for Table storage. Timed through the server: the cold rebuild job, the Fleet
 * page from the stored summaries on the instance that rebuilt and on a second instance with cold
 * caches, and a merge changing one client until its summary is stored again.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';

import { createTablesClient } from '@aegis/connectors/tables';
import type { Fleet } from '@aegis/contracts';
import type { ConfigFile } from '@aegis/domain';
import { CONFIG_REPOSITORY_NAME, startAzurite } from '@aegis/emulators';
import { agentLog, runFleetRebuild } from '@aegis/pipeline-tasks';

import { generateTrees } from './engine-bench';
import {
  cpuMilliseconds,
  startBenchServer,
  withPeakHeap,
  type BenchServer,
  type RequestCounts,
} from './server-fixture';

const POLICIES = 500;
/** Issue 32's goals. */
const PAGE_GOAL_MS = 1_000;
const MERGE_GOAL_MS = 5_000;

export interface FleetStoreBenchResult {
  clients: number;
  policies: number;
  setupSeconds: number;
  rows: {
    run: string;
    ms: number;
    goalMs: number | undefined;
    cpuMs: number;
    gitCpuMs: number;
    peakHeapMegabytes: number;
    requests: RequestCounts;
    note: string;
  }[];
  /** resident set size of the bench process (server, workers, emulator) before and after the rebuild */
  rssMegabytes: [number, number];
  load: [number, number];
  summary: Fleet['summary'];
}

/** Client codes RAA, RAB, … (three capital letters, apart from the sample's). */
export function clientCode(i: number): string {
  const letter = (n: number) => String.fromCharCode(65 + (n % 26));
  return `${String.fromCharCode(82 + Math.floor(i / 676))}${letter(Math.floor(i / 26))}${letter(i)}`;
}

/** C-style quoting as git fast-import reads paths. */
const quoted = (p: string) => `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

type Writer = (text: string) => Promise<void>;

const data = (content: string) => `data ${Buffer.byteLength(content)}\n${content}\n`;

/**
 * Writes to main with `git fast-import` in the emulator's repository: `stream` writes blobs, then
 * `commit(message)` starts the one commit on main's tip, then its file lines.
 */
async function fastImport(
  server: BenchServer,
  stream: (write: Writer, commit: (message: string) => Promise<void>) => Promise<void>,
): Promise<void> {
  const repo = server.emulator.state.data.repositories.find(
    (r) => r.name === CONFIG_REPOSITORY_NAME,
  );
  if (!repo) throw new Error('the seeded configuration repository is missing');
  const tip = await server.pusher.branchTip();
  const git = spawn(
    'git',
    [`--git-dir=${server.emulator.state.repoDir(repo.id)}`, 'fast-import', '--quiet'],
    {
      stdio: ['pipe', 'ignore', 'inherit'],
    },
  );
  const done = new Promise<void>((resolve, reject) => {
    git.on('error', reject);
    git.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`git fast-import exit ${code}`)),
    );
  });
  const write: Writer = async (text) => {
    if (!git.stdin.write(text)) await new Promise((r) => git.stdin.once('drain', r));
  };
  const commit = (message: string) =>
    write(
      `commit refs/heads/main\ncommitter Bench <bench@aegis.example> ${Math.floor(Date.now() / 1000)} +0000\n${data(message)}from ${tip}\n`,
    );
  await stream(write, commit);
  git.stdin.end('\n');
  await done;
}

/**
 * One commit on main adding the generated baseline and every client folder: the client's files
 * are the generated client's with a drift of its own (one policy gone, a few settings changed),
 * unchanged files named by mark so each distinct blob is sent once.
 */
export function importFleet(
  server: BenchServer,
  baseline: readonly ConfigFile[],
  client: readonly ConfigFile[],
  codes: readonly string[],
): Promise<void> {
  const json = (f: ConfigFile) => JSON.stringify(f.content, null, 2);
  return fastImport(server, async (write, commit) => {
    for (const [mark, f] of [...baseline, ...client].entries()) {
      await write(`blob\nmark :${mark + 1}\n${data(json(f))}`);
    }
    await commit(`bench: ${codes.length} client folders`);
    for (const [k, f] of baseline.entries()) {
      await write(`M 100644 :${k + 1} ${quoted(`M365Config/Resources/${f.path}`)}\n`);
    }
    for (const [i, code] of codes.entries()) {
      for (const [k, f] of client.entries()) {
        if (k === (i * 7) % client.length) continue;
        const target = quoted(`Clients/${code}/M365Config/Resources/${f.path}`);
        if (k % 97 !== i % 97) {
          await write(`M 100644 :${baseline.length + k + 1} ${target}\n`);
        } else {
          const content = { ...(f.content as Record<string, unknown>), state: `disabled-${i}` };
          await write(`M 100644 inline ${target}\n${data(JSON.stringify(content, null, 2))}`);
        }
      }
    }
  });
}

const rssMegabytes = () => process.memoryUsage().rss / 2 ** 20;

export async function runFleetStoreBench(
  clients = Number(process.env.AEGIS_BENCH_FLEET_STORE_CLIENTS ?? 1000),
): Promise<FleetStoreBenchResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'aegis-bench-fleet-store-'));
  const azurite = await startAzurite({ location: dir });
  const tables = createTablesClient({ connectionString: azurite.connectionString });
  const server = await startBenchServer('fleet-store', { tables });
  try {
    const setupStart = performance.now();
    const { baseline, client } = generateTrees(POLICIES);
    const codes = Array.from({ length: clients }, (_, i) => clientCode(i));
    await importFleet(server, baseline, client, codes);
    const setupSeconds = (performance.now() - setupStart) / 1000;
    const rows: FleetStoreBenchResult['rows'] = [];
    const loadBefore = loadavg()[0] ?? 0;

    // the rebuild pipeline's task, as `aegis-task fleet-rebuild` runs it (here with the bench user's token)
    const rebuild = () =>
      runFleetRebuild({
        log: agentLog(() => undefined),
        now: () => new Date(),
        repository: server.pusher,
        tables,
      });
    server.takeRequests();
    const rssBefore = rssMegabytes();
    const cpuStart = cpuMilliseconds();
    const start = performance.now();
    const { value: rebuilt, peak } = await withPeakHeap(rebuild);
    const cpuEnd = cpuMilliseconds();
    rows.push({
      run: `rebuild job, cold (${rebuilt.clients} clients)`,
      ms: performance.now() - start,
      goalMs: undefined,
      cpuMs: cpuEnd.own - cpuStart.own,
      gitCpuMs: cpuEnd.children - cpuStart.children,
      peakHeapMegabytes: peak,
      requests: server.takeRequests(),
      note: `${rebuilt.computed} computed and stored, ${rebuilt.failed.length} failed (the job's own DevOps client: requests not counted)`,
    });
    const rssAfter = rssMegabytes();

    const page = async (
      run: string,
      instance: Pick<BenchServer, 'get'>,
      goalMs: number,
      note: string,
    ): Promise<Fleet> => {
      server.takeRequests();
      const r = await instance.get<Fleet>('/api/fleet');
      rows.push({
        run,
        ms: r.ms,
        goalMs,
        cpuMs: r.cpuMs,
        gitCpuMs: r.gitCpuMs,
        peakHeapMegabytes: r.peakHeapMegabytes,
        requests: server.takeRequests(),
        note,
      });
      return r.body;
    };
    const fleet = await page('fleet page, instance A', server, PAGE_GOAL_MS, 'A rebuilt');
    const b = await server.anotherInstance();
    await page('fleet page, instance B, 1st', b, PAGE_GOAL_MS, 'cold caches: rows read');
    await page('fleet page, instance B, 2nd', b, PAGE_GOAL_MS, 'warm');

    // a merge changing one client: the next page (on B) finds it stale, recomputes and stores it
    const changed = codes[Math.floor(clients / 2)] ?? 'RAA';
    const file = client[3];
    // main is protected (ADR 051): the merge is written as the completed pull request would be
    await fastImport(server, async (write, commit) => {
      await commit(`Merged PR 1001: ${changed} configuration capture`);
      const content = JSON.stringify({ ...(file?.content as object), merged: true }, null, 2);
      const target = quoted(`Clients/${changed}/M365Config/Resources/${file?.path ?? ''}`);
      await write(`M 100644 inline ${target}\n${data(content)}`);
    });
    await page(
      `merge of ${changed}, page on B`,
      b,
      MERGE_GOAL_MS,
      'its summary recomputed and stored',
    );
    await page(`merge of ${changed}, page on A`, server, PAGE_GOAL_MS, "B's row read");
    return {
      clients: fleet.rows.length,
      policies: baseline.length,
      setupSeconds,
      rows,
      rssMegabytes: [rssBefore, rssAfter],
      load: [loadBefore, loadavg()[0] ?? 0],
      summary: fleet.summary,
    };
  } finally {
    await server.close();
    await azurite.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export function printFleetStoreBench(r: FleetStoreBenchResult): void {
  console.log(
    `\nfleet summaries stored in Table storage (Azurite): ${r.clients} clients (sample + generated) of ${r.policies} baseline policies; setup (git fast-import) ${r.setupSeconds.toFixed(0)} s`,
  );
  console.log(
    `summary: ${r.summary.compliant} compliant, ${r.summary.atRisk} at risk, ${r.summary.critical} critical, ${r.summary.incomplete} data missing`,
  );
  console.log(
    `machine load (1 min) ${r.load[0].toFixed(1)} before, ${r.load[1].toFixed(1)} after, on ${availableParallelism()} cores: a shared machine, wall times are noisy, CPU times less so. Bench process RSS ${r.rssMegabytes[0].toFixed(0)} MB before the rebuild, ${r.rssMegabytes[1].toFixed(0)} MB after; heap limit ${(getHeapStatistics().heap_size_limit / 2 ** 20).toFixed(0)} MB`,
  );
  console.log(
    `${'run'.padEnd(34)}${'ms'.padStart(9)}${'vs goal'.padStart(9)}${'CPU ms'.padStart(9)}${'git CPU'.padStart(9)}${'heap MB'.padStart(9)}${'DevOps req'.padStart(12)}${'zips'.padStart(6)}  note`,
  );
  for (const row of r.rows)
    console.log(
      `${row.run.padEnd(34)}${row.ms.toFixed(0).padStart(9)}${(row.goalMs ? `${(row.ms / row.goalMs).toFixed(2)}x` : '-').padStart(9)}${row.cpuMs.toFixed(0).padStart(9)}${row.gitCpuMs.toFixed(0).padStart(9)}${row.peakHeapMegabytes.toFixed(0).padStart(9)}${String(row.requests.all).padStart(12)}${String(row.requests.zips).padStart(6)}  ${row.note}`,
    );
  console.log(
    `goals: fleet page < ${PAGE_GOAL_MS / 1000} s from any instance, a merge's summary stored < ${MERGE_GOAL_MS / 1000} s; the cold fleet of 206 clients is the 'fleet table, cold' row of the fleet bench (44 s in ADR 044). Heap = the server's thread (summary workers apart).`,
  );
}
