/**
 * The benches' shared setup (one copy): an identity provider, a seeded DevOps emulator in a temporary folder
 * and the Aegis server built as `npm start` builds it, whose DevOps requests are counted; plus a pusher that
 * writes generated trees to main in batches.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';

import { DevOpsClient, type FileChange, type RepositoryRef } from '@aegis/connectors/devops';
import { ConfigRepository, createConfigRepositoryShared } from '@aegis/connectors/repository';
import type { AppTables } from '@aegis/connectors/tables';
import type { ConfigFile } from '@aegis/domain';
import {
  buildDevOpsServer,
  CONFIG_REPOSITORY_NAME,
  jwksTokenVerifier,
  listenDevOpsEmulator,
  SAMPLE_PROJECTS,
  seedDevOps,
  startIdentityProvider,
  type DevOpsEmulator,
  type IdentityProvider,
} from '@aegis/emulators';
import { buildApp, loadConfig, type BuildAppOptions } from '@aegis/server';
import type { FastifyInstance } from 'fastify';

export const BENCH_USER = 'alex.morgan@aegis-msp.example';
/** 'Bypass policies when pushing' of the Git Repositories security namespace */
const POLICY_EXEMPT = 128;
const AUDIENCE = 'api://aegis-bench';
export const BENCH_REPO: RepositoryRef = {
  project: SAMPLE_PROJECTS.tenantManagement,
  repository: CONFIG_REPOSITORY_NAME,
};

/** The DevOps requests the server made since the last reset, by kind. */
export interface RequestCounts {
  all: number;
  zips: number;
  listings: number;
}

export interface BenchServer {
  app: FastifyInstance;
  emulator: DevOpsEmulator;
  idp: IdentityProvider;
  /** a DevOps client of the bench user, to write test data */
  pusher: ConfigRepository;
  /** a bearer token of the bench user for the server */
  token(): Promise<string>;
  /** the server's DevOps requests since the last call, then zeroed */
  takeRequests(): RequestCounts;
  /**
   * One more server instance over the same emulator and Table storage (its own caches): GET as
   * the bench user, like `get`.
   */
  anotherInstance(): Promise<{ app: FastifyInstance; get: BenchServer['get'] }>;
  /**
   * GET through the server as the bench user: the parsed body, the time taken, the CPU time this
   * process and its finished child processes (the emulator's git) used meanwhile — a figure the
   * other work on a shared machine does not inflate as it does wall time — and the peak heap used.
   */
  get<T>(url: string): Promise<GetResult<T>>;
  close(): Promise<void>;
}

export interface GetResult<T> {
  body: T;
  ms: number;
  bytes: number;
  /** CPU of this process's threads (server, summary workers, in-process emulator) meanwhile */
  cpuMs: number;
  /** CPU of the emulator's `git` processes meanwhile (Azure DevOps' own servers' work in production) */
  gitCpuMs: number;
  peakHeapMegabytes: number;
}

/**
 * CPU time a process used so far, in ms, from Linux /proc (0 elsewhere): its own (all its threads)
 * and its waited-for children's (the emulator's `git`).
 */
function procCpuMilliseconds(pid: number | 'self'): { own: number; children: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields 14 to 17 of stat (utime, stime, cutime, cstime), in clock ticks of 1/100 s
    const ticks = (i: number) => Number(fields[i - 3]) * 10;
    return { own: ticks(14) + ticks(15), children: ticks(16) + ticks(17) };
  } catch {
    return { own: 0, children: 0 };
  }
}

/**
 * CPU time used so far, in ms: by this process (all its threads: the server, its summary workers and
 * an in-process emulator) and by its waited-for children (the emulator's `git`).
 */
export function cpuMilliseconds(): { own: number; children: number } {
  const own = process.cpuUsage();
  return { own: (own.user + own.system) / 1000, children: procCpuMilliseconds('self').children };
}

/** Samples the heap used while `work` runs; its peak in MB. */
export async function withPeakHeap<T>(work: () => Promise<T>): Promise<{ value: T; peak: number }> {
  const used = () => getHeapStatistics().used_heap_size;
  let peak = used();
  const timer = setInterval(() => {
    peak = Math.max(peak, used());
  }, 100);
  try {
    const value = await work();
    peak = Math.max(peak, used());
    return { value, peak: peak / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

/** The DevOps emulator the server is pointed at: in this process, or in a child process. */
interface BenchDevOps {
  url: string;
  close(): Promise<void>;
}

export interface BenchServerOptions {
  /** Aegis's own Table storage (audit trail, shared state, fleet summaries); none by default */
  tables?: AppTables;
  /** configuration beside the bench's own (e.g. AEGIS_HEAVY_REQUESTS_PER_USER) */
  env?: Record<string, string>;
  /** app tables, Blob storage and the mailbox, for the benches that send customer reports */
  ports?: Pick<BuildAppOptions, 'tables' | 'blobs' | 'mailSender'>;
}

export async function startBenchServer(
  name: string,
  options: BenchServerOptions = {},
): Promise<BenchServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `aegis-bench-${name}-`));
  const idp = await startIdentityProvider({ port: 0, audience: AUDIENCE, allowedOrigins: [] });
  await seedDevOps(dataDir);
  const emulator = await listenDevOpsEmulator(
    buildDevOpsServer({ dataDir, verifyToken: jwksTokenVerifier(idp) }),
    { port: 0 },
  );
  return { ...(await serveOver(emulator, idp, dataDir, options)), emulator };
}

/** A bench server whose DevOps emulator runs in a child process: its CPU is counted apart. */
export interface BenchServerApart extends Omit<BenchServer, 'emulator'> {
  /** CPU the emulator's process and its `git` children used so far, ms */
  emulatorCpuMilliseconds(): number;
}

/**
 * The bench server with the DevOps emulator in a process of its own (issue 32 item 6: "the
 * emulators in the same process group"): the server's event loop no longer runs the emulator
 * (whose `git` spawns and archives are Azure DevOps' own servers' work in production), and the
 * CPU of each side is measured apart.
 */
export async function startBenchServerApart(
  name: string,
  options: BenchServerOptions = {},
): Promise<BenchServerApart> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `aegis-bench-${name}-`));
  const idp = await startIdentityProvider({ port: 0, audience: AUDIENCE, allowedOrigins: [] });
  await seedDevOps(dataDir);
  const child = fork(
    fileURLToPath(new URL('./devops-emulator-process.ts', import.meta.url)),
    [dataDir, idp.jwksUrl, idp.issuer, AUDIENCE],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: { url?: string }) =>
      message.url ? resolve(message.url) : reject(new Error('the emulator process sent no url')),
    );
    child.once('exit', (code) => reject(new Error(`the emulator process exited with ${code}`)));
  });
  const pid = child.pid ?? 0;
  const devops: BenchDevOps = {
    url,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
  return {
    ...(await serveOver(devops, idp, dataDir, options)),
    emulatorCpuMilliseconds: () => {
      const cpu = procCpuMilliseconds(pid);
      return cpu.own + cpu.children;
    },
  };
}

async function serveOver(
  emulator: BenchDevOps,
  idp: IdentityProvider,
  dataDir: string,
  { tables, env = {}, ports = {} }: BenchServerOptions,
): Promise<Omit<BenchServer, 'emulator'>> {
  let counts: RequestCounts = { all: 0, zips: 0, listings: 0 };
  const countingFetch: typeof fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    counts.all += 1;
    if (/[?&](\$|%24)format=zip/.test(url)) counts.zips += 1;
    else if (/\/items\?/.test(url) && /recursionLevel=/.test(url)) counts.listings += 1;
    return fetch(input, init);
  };
  const newApp = async () => {
    const instance = await buildApp({
      config: loadConfig({
        AEGIS_LOG_LEVEL: 'silent',
        AEGIS_AUTH_MODE: 'local',
        AEGIS_AUTH_JWKS_URL: idp.jwksUrl,
        AEGIS_AUTH_ISSUER: idp.issuer,
        AEGIS_AUTH_AUDIENCE: AUDIENCE,
        AEGIS_LOCAL_IDP_URL: idp.url,
        AEGIS_DEVOPS_ORG_URL: emulator.url,
        AEGIS_DEVOPS_PROJECT: SAMPLE_PROJECTS.tenantManagement,
        ...env,
      }),
      createDevOps: (getToken) =>
        new DevOpsClient({ organizationUrl: emulator.url, getToken, fetch: countingFetch }),
      ...(tables ? { auditTables: tables } : {}),
      ...ports,
    });
    await instance.ready();
    return instance;
  };
  const app = await newApp();
  const others: FastifyInstance[] = [];
  // The bench writes its corpus straight to main, as a pipeline's build service would; main's
  // four-eyes policy (ADR 051) refuses that push to a technician unless they may bypass policies.
  const [, payload = ''] = (await idp.issueToken(BENCH_USER)).split('.');
  const benchOid = (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { oid?: string })
    .oid;
  const granted = await fetch(new URL('/_emulator/git-permissions', emulator.url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      repository: BENCH_REPO.repository,
      identityId: benchOid,
      allow: POLICY_EXEMPT,
    }),
  });
  if (!granted.ok)
    throw new Error(`The bench user may not bypass main's policy: ${granted.status}`);
  const pusher = new ConfigRepository(
    new DevOpsClient({ organizationUrl: emulator.url, getToken: () => idp.issueToken(BENCH_USER) }),
    createConfigRepositoryShared(BENCH_REPO),
  );
  const token = () => idp.issueToken(BENCH_USER);
  const getFrom =
    (instance: FastifyInstance) =>
    async <T>(url: string): Promise<GetResult<T>> => {
      const authorization = `Bearer ${await token()}`;
      const start = performance.now();
      const cpuStart = cpuMilliseconds();
      const { value: response, peak } = await withPeakHeap(() =>
        instance.inject({ method: 'GET', url, headers: { authorization } }),
      );
      const ms = performance.now() - start;
      const cpuEnd = cpuMilliseconds();
      if (response.statusCode !== 200) {
        throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 500)}`);
      }
      return {
        body: response.json<T>(),
        ms,
        bytes: response.body.length,
        cpuMs: cpuEnd.own - cpuStart.own,
        gitCpuMs: cpuEnd.children - cpuStart.children,
        peakHeapMegabytes: peak,
      };
    };
  return {
    app,
    idp,
    pusher,
    token,
    takeRequests: () => {
      const taken = counts;
      counts = { all: 0, zips: 0, listings: 0 };
      return taken;
    },
    get: getFrom(app),
    anotherInstance: async () => {
      const other = await newApp();
      others.push(other);
      return { app: other, get: getFrom(other) };
    },
    close: async () => {
      for (const other of others) await other.close();
      await app.close();
      await emulator.close();
      await idp.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Pushes files under `root` to main, `batch` files per commit. */
export async function pushTree(
  repository: ConfigRepository,
  root: string,
  files: readonly ConfigFile[],
  batch = 250,
): Promise<void> {
  for (let i = 0; i < files.length; i += batch) {
    const changes: FileChange[] = files.slice(i, i + batch).map((f) => ({
      changeType: 'add',
      path: `${root}/${f.path}`,
      content: JSON.stringify(f.content, null, 2),
    }));
    const main = (await repository.findBranchTip('main')) ?? '';
    await repository.commit('main', main, `bench: ${root} ${i}`, changes);
  }
}
