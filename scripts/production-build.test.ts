// The production build as production runs it (ADR 053): the server bundle under plain `node` (no
// tsx, no loader flags) against the emulators, its liveness, readiness and shutdown with a request
// in flight; and the task bundle, alone in a folder, running a task against the DevOps emulator
// and Azurite as an agent would.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';

import { createTablesClient } from '@aegis/connectors/tables';
import {
  startAzurite,
  startDevOpsEmulator,
  startIdentityProvider,
  SAMPLE_PROJECTS,
  STAFF_ACCOUNTS,
  type DevOpsEmulator,
  type IdentityProvider,
  type RunningAzurite,
} from '@aegis/emulators';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildServer, buildTasks, SERVER_OUT_DIR, TASK_BUNDLE } from './build';

const ROOT_DIR = path.resolve(import.meta.dirname, '..');
const AUDIENCE = 'api://aegis-production-build';
const DEVOPS_TOKEN = 'job-token';

let workDir: string;
let serverMeta: Metafile;
let idp: IdentityProvider;
let devops: DevOpsEmulator;
let azurite: RunningAzurite;
const started: ChildProcess[] = [];
const serverPids = new Set<number>();

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-production-build-'));
  [serverMeta] = await Promise.all([buildServer(), buildTasks()]);
  idp = await startIdentityProvider({ port: 0, audience: AUDIENCE, allowedOrigins: [] });
  devops = await startDevOpsEmulator({
    dataDir: path.join(workDir, 'devops'),
    port: 0,
    pipelineDurationInMs: 0,
    // the server forwards the technician's token (no on-behalf-of secret here); the task uses
    // the job's token
    verifyToken: (token) =>
      Promise.resolve(token === DEVOPS_TOKEN || token.split('.').length === 3),
  });
  azurite = await startAzurite({ location: path.join(workDir, 'azurite'), inMemory: true });
}, 120_000);

afterAll(async () => {
  for (const child of started) child.kill('SIGKILL');
  for (const pid of serverPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already stopped
    }
  }
  await devops?.close();
  await idp?.close();
  await azurite?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** Only what a production host sets: no NODE_OPTIONS, no loader, no test runner variables. */
function productionEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    AEGIS_HOST: '127.0.0.1',
    AEGIS_PORT: '0',
    AEGIS_AUTH_MODE: 'local',
    AEGIS_LOCAL_IDP_URL: idp.url,
    AEGIS_AUTH_JWKS_URL: idp.jwksUrl,
    AEGIS_AUTH_ISSUER: idp.issuer,
    AEGIS_AUTH_AUDIENCE: AUDIENCE,
    AEGIS_DEVOPS_ORG_URL: devops.url,
    AEGIS_DEVOPS_PROJECT: SAMPLE_PROJECTS.tenantManagement,
    AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString,
    AEGIS_FLEET_WORKERS: '1',
    ...overrides,
  };
}

interface RunningServer {
  child: ChildProcess;
  url: string;
  port: number;
  exited: Promise<number | null>;
  /** what it wrote so far, for failure messages */
  output(): string;
}

/** Starts `node apps/server/dist/server.mjs` and waits for Fastify's 'Server listening at'. */
async function startServer(
  overrides: Record<string, string> = {},
  how: 'node' | 'npm run start:prod' = 'node',
): Promise<RunningServer> {
  const child =
    how === 'node'
      ? spawn(process.execPath, [path.join(SERVER_OUT_DIR, 'server.mjs')], {
          env: productionEnv(overrides),
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn('npm', ['run', 'start:prod'], {
          cwd: ROOT_DIR,
          env: { ...productionEnv(overrides), HOME: process.env.HOME },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
  started.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      // the server's own pid (under npm it is not `child`), so that a failed test leaves nothing
      const pid = /"pid":(\d+)/.exec(output)?.[1];
      if (pid) serverPids.add(Number(pid));
      if (listening?.[1]) resolve(listening[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  return { child, url, port: Number(new URL(url).port), exited, output: () => output };
}

async function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** An Azure DevOps stand-in whose connection data answers only when the test says so. */
async function heldDevOps(): Promise<{
  url: string;
  arrived: Promise<void>;
  release(): void;
  close(): Promise<void>;
}> {
  let release = (): void => undefined;
  let arrived = (): void => undefined;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((request, response) => {
    arrived();
    void released.then(() => response.writeHead(401).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/held`,
    arrived: arrival,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One item of telemetry as Application Insights' ingestion endpoint receives it. */
interface TelemetryEnvelope {
  name: string;
  tags?: Record<string, string>;
  data?: { baseType?: string; baseData?: Record<string, unknown> };
}

/**
 * An Application Insights ingestion endpoint (`/v2.1/track`) that keeps what it is sent. The
 * exporter speaks only HTTPS, so it has a certificate for 127.0.0.1 made for the test, which the
 * server is told to trust (`NODE_EXTRA_CA_CERTS`).
 */
async function capturingIngestion(): Promise<{
  url: string;
  certificateFile: string;
  envelopes: TelemetryEnvelope[];
  close(): Promise<void>;
}> {
  const keyFile = path.join(workDir, 'ingestion-key.pem');
  const certificateFile = path.join(workDir, 'ingestion-cert.pem');
  await promisify(execFile)('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ...['-keyout', keyFile, '-out', certificateFile],
  ]);
  const envelopes: TelemetryEnvelope[] = [];
  const receive = (request: IncomingMessage, response: ServerResponse): void => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = (
        request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw
      ).toString();
      const items = (text.trim().startsWith('[') ? JSON.parse(text) : []) as TelemetryEnvelope[];
      if (request.url?.startsWith('/v2.1/track')) envelopes.push(...items);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ itemsReceived: items.length, itemsAccepted: items.length, errors: [] }),
        );
    });
  };
  const server = createHttpsServer(
    { key: await readFile(keyFile), cert: await readFile(certificateFile) },
    receive,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    certificateFile,
    envelopes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the server bundle', () => {
  it('imports no dev dependency and nothing of the emulators', () => {
    const inputs = Object.keys(serverMeta.inputs);
    expect(inputs.some((input) => input.startsWith('packages/emulators/'))).toBe(false);
    expect(inputs).toContain('packages/connectors/src/devops/devops-client.ts');
    // every package left as an import is installed by `npm ci --omit=dev`: a dependency of the
    // server or of an Aegis package bundled into it
    const bundledPackages = new Set(
      inputs.flatMap((input) => /^packages\/[^/]+\//.exec(input) ?? []),
    );
    const declared = new Set<string>();
    for (const folder of ['apps/server/', ...bundledPackages]) {
      const manifest = JSON.parse(
        readFileSync(path.join(ROOT_DIR, folder, 'package.json'), 'utf8'),
      ) as {
        dependencies?: Record<string, string>;
      };
      for (const name of Object.keys(manifest.dependencies ?? {})) declared.add(name);
    }
    const imported = Object.values(serverMeta.outputs)
      .flatMap((output) => output.imports)
      .filter((entry) => entry.external && !entry.path.startsWith('node:'))
      .map((entry) =>
        entry.path
          .split('/')
          .slice(0, entry.path.startsWith('@') ? 2 : 1)
          .join('/'),
      );
    expect(bundledPackages.size).toBeGreaterThan(0);
    expect([...new Set(imported)].filter((name) => !declared.has(name))).toEqual([]);
  });

  it('runs under plain node against the emulators: health, readiness and a DevOps-backed route', async () => {
    const server = await startServer();
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });

    const ready = await fetch(`${server.url}/api/health/ready`);
    expect(await ready.json()).toMatchObject({
      ready: true,
      dependencies: { devops: { ready: true }, tables: { ready: true }, identity: { ready: true } },
    });
    expect(ready.status).toBe(200);

    const administrator = STAFF_ACCOUNTS.find((account) => account.roles.includes('Administrator'));
    const token = await idp.issueToken(administrator?.upn ?? '');
    const projects = await fetch(`${server.url}/api/projects`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(projects.status).toBe(200);
    expect(JSON.stringify(await projects.json())).toContain(SAMPLE_PROJECTS.tenantManagement);

    server.child.kill('SIGTERM');
    expect({ code: await server.exited, output: server.output() }).toMatchObject({ code: 0 });
    expect(await portAccepts(server.port)).toBe(false);
  });

  it('sends its requests and their DevOps calls to Application Insights when configured (ADR 061)', async () => {
    const ingestion = await capturingIngestion();
    try {
      const server = await startServer({
        APPLICATIONINSIGHTS_CONNECTION_STRING: `InstrumentationKey=00000000-0000-0000-0000-000000000000;IngestionEndpoint=${ingestion.url}/`,
        NODE_EXTRA_CA_CERTS: ingestion.certificateFile,
        // the SDK's own usage reports go to Microsoft, which this machine does not reach
        APPLICATIONINSIGHTS_STATSBEAT_DISABLED: 'true',
      });
      const token = await idp.issueToken(STAFF_ACCOUNTS[0]?.upn ?? '');
      const projects = await fetch(`${server.url}/api/projects`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(projects.status).toBe(200);
      // stopping flushes what is buffered
      server.child.kill('SIGTERM');
      expect({ code: await server.exited, output: server.output() }).toMatchObject({ code: 0 });

      const request = ingestion.envelopes.find(
        (item) =>
          item.data?.baseType === 'RequestData' &&
          item.data.baseData?.['name'] === 'GET /api/projects',
      );
      expect(request?.tags?.['ai.cloud.role']).toBe('aegis-server');
      const operationId = request?.tags?.['ai.operation.id'];
      expect(operationId).toMatch(/^[0-9a-f]{32}$/);
      const dependency = ingestion.envelopes.find(
        (item) =>
          item.data?.baseType === 'RemoteDependencyData' &&
          String(item.data.baseData?.['name']).endsWith('/{organization}/_apis/projects'),
      );
      expect(dependency?.tags?.['ai.operation.id']).toBe(operationId);
      expect(dependency?.tags?.['ai.operation.parentId']).toBe(request?.data?.baseData?.['id']);
      // the request's log lines carry its trace
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.includes('"url":"/api/projects"'));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toContain(`"trace_id":"${operationId}"`);
      expect(JSON.stringify(ingestion.envelopes)).not.toContain(token);
    } finally {
      await ingestion.close();
    }
  });

  it('runs through npm run start:prod and stops when npm alone gets SIGTERM', async () => {
    const server = await startServer({}, 'npm run start:prod');
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    server.child.kill('SIGTERM');
    await server.exited;
    await expect.poll(() => portAccepts(server.port)).toBe(false);
  });

  it('answers 503 naming the dependency that does not answer', async () => {
    const server = await startServer({ AEGIS_TABLES_CONNECTION_STRING: '' });
    const ready = await fetch(`${server.url}/api/health/ready`);
    expect(ready.status).toBe(503);
    const report = (await ready.json()) as {
      dependencies: Record<string, { ready: boolean; reason?: string }>;
    };
    expect(report.dependencies['tables']).toMatchObject({ ready: false });
    expect(report.dependencies['tables']?.reason).toMatch(/AEGIS_TABLES_CONNECTION_STRING/);
    expect(report.dependencies['devops']).toEqual({ ready: true });
    server.child.kill('SIGTERM');
    expect({ code: await server.exited, output: server.output() }).toMatchObject({ code: 0 });
  });

  it('on SIGTERM stops accepting connections and finishes the request in flight', async () => {
    const held = await heldDevOps();
    try {
      const server = await startServer({ AEGIS_DEVOPS_ORG_URL: held.url });
      const inFlight = fetch(`${server.url}/api/health/ready`);
      await held.arrived;
      server.child.kill('SIGTERM');
      await expect.poll(() => portAccepts(server.port)).toBe(false);
      held.release();
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ dependencies: { devops: { ready: true } } });
      expect({ code: await server.exited, output: server.output() }).toMatchObject({ code: 0 });
    } finally {
      await held.close();
    }
  });

  it('exits with 1 when a request outlives the grace period', async () => {
    const held = await heldDevOps();
    try {
      const server = await startServer({
        AEGIS_DEVOPS_ORG_URL: held.url,
        AEGIS_SHUTDOWN_GRACE_MS: '100',
      });
      const inFlight = fetch(`${server.url}/api/health/ready`).then(
        (response) => response.status,
        () => 'aborted',
      );
      await held.arrived;
      server.child.kill('SIGTERM');
      expect({ code: await server.exited, output: server.output() }).toMatchObject({ code: 1 });
      expect(await inFlight).toBe('aborted');
    } finally {
      held.release();
      await held.close();
    }
  });
});

describe('the task bundle', () => {
  /** Runs the bundle copied alone into a folder: nothing of the repository can be resolved. */
  async function runBundle(
    args: string[],
    env: Record<string, string> = {},
  ): Promise<{ code: number | null; output: string }> {
    const agentDir = await mkdtemp(path.join(workDir, 'agent-'));
    const bundle = path.join(agentDir, 'aegis-task.mjs');
    await copyFile(TASK_BUNDLE, bundle);
    const child = spawn(process.execPath, [bundle, ...args], {
      cwd: agentDir,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, output };
  }

  it('prints its usage with --help', async () => {
    const { code, output } = await runBundle(['--help']);
    expect(output).toMatch(/^Usage: aegis-task <capture\|/);
    expect(code).toBe(0);
  });

  it('runs app-deploy onboarding against the DevOps emulator and Table storage', async () => {
    const { code, output } = await runBundle(
      ['appdeploy-onboard', '--client', 'PBX', '--domain', 'pbx.example'],
      {
        SYSTEM_COLLECTIONURI: `${devops.url}/`,
        SYSTEM_TEAMPROJECT: SAMPLE_PROJECTS.tenantManagement,
        SYSTEM_ACCESSTOKEN: DEVOPS_TOKEN,
        BUILD_BUILDID: '9001',
        AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString,
      },
    );
    expect(output).toContain('Created table PBXWorkstationApps');
    expect(code).toBe(0);
    const tables = createTablesClient({ connectionString: azurite.connectionString });
    expect(await tables.listTables()).toContain('PBXWorkstationApps');
  });
});
