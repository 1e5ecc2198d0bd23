import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** Azurite's well-known development account (public, documented by Microsoft). */
export const AZURITE_ACCOUNT_NAME = 'devstoreaccount1';
export const AZURITE_ACCOUNT_KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface StartAzuriteOptions {
  /** Folder where Azurite keeps its tables; created if missing. */
  location: string;
  /** Port to listen on; a free one is picked when omitted. */
  port?: number;
  host?: string;
  /** Keep everything in memory instead of `location` (tests that need no persistence). */
  inMemory?: boolean;
  /** How long to wait for the service to listen. */
  startTimeoutInMs?: number;
  /** Forward Azurite's output to this process's stdout/stderr. */
  verbose?: boolean;
}

export interface RunningAzurite {
  connectionString: string;
  /** The service's endpoint, e.g. http://127.0.0.1:10002/devstoreaccount1 */
  tableEndpoint: string;
  port: number;
  stop(): Promise<void>;
}

/** Azurite's services Aegis uses: tables (app tables, audit, shared rows) and blobs (reports). */
export type AzuriteService = 'table' | 'blob';

/** A connection string for Azurite's table (or blob) service at `host:port`. */
export function azuriteConnectionString(
  port: number,
  host = '127.0.0.1',
  service: AzuriteService = 'table',
): string {
  const endpoint = service === 'table' ? 'TableEndpoint' : 'BlobEndpoint';
  return [
    'DefaultEndpointsProtocol=http',
    `AccountName=${AZURITE_ACCOUNT_NAME}`,
    `AccountKey=${AZURITE_ACCOUNT_KEY}`,
    `${endpoint}=http://${host}:${port}/${AZURITE_ACCOUNT_NAME};`,
  ].join(';');
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function azuriteEntry(service: AzuriteService): string {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve('azurite/package.json');
  return join(dirname(packageJson), 'dist', 'src', service, 'main.js');
}

/** A port that was free a moment ago (Azurite prints 0 when asked for port 0). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function waitForStart(child: ChildProcess, timeoutInMs: number, verbose: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Azurite did not start within ${timeoutInMs} ms:\n${output}`));
    }, timeoutInMs);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      if (verbose) process.stdout.write(text);
      if (/successfully (started|listening|listens)/i.test(output)) {
        cleanup();
        resolve();
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`Azurite exited with code ${code} before listening:\n${output}`));
    };
    function cleanup() {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

async function startOnce(
  options: StartAzuriteOptions,
  port: number,
  service: AzuriteService,
): Promise<RunningAzurite> {
  const host = options.host ?? '127.0.0.1';
  mkdirSync(options.location, { recursive: true });
  const args = [
    azuriteEntry(service),
    `--${service}Host`,
    host,
    `--${service}Port`,
    String(port),
    ...(options.inMemory ? ['--inMemoryPersistence'] : ['--location', options.location]),
    '--skipApiVersionCheck',
    '--loose',
    '--disableTelemetry',
    ...(options.verbose ? [] : ['--silent']),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await waitForStart(child, options.startTimeoutInMs ?? 20_000, options.verbose ?? false);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  // Keep draining output so the child never blocks on a full pipe.
  child.stdout?.on('data', (chunk: Buffer) => {
    if (options.verbose) process.stdout.write(chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (options.verbose) process.stderr.write(chunk);
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  // A parent that exits without stopping it (process.exit, a forced stop after a deadline) takes
  // Azurite along instead of leaving it listening; SIGINT so that it still flushes its data.
  const stopWithParent = (): void => {
    child.kill('SIGINT');
  };
  process.once('exit', stopWithParent);
  void exited.then(() => process.off('exit', stopWithParent));
  return {
    connectionString: azuriteConnectionString(port, host, service),
    tableEndpoint: `http://${host}:${port}/${AZURITE_ACCOUNT_NAME}`,
    port,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // Azurite flushes its database to disk on SIGINT only, then closes its server.
      const closed = new Promise<void>((resolve) => {
        const onData = (chunk: Buffer) => {
          if (/successfully closed/i.test(chunk.toString())) resolve();
        };
        child.stdout?.on('data', onData);
      });
      child.kill('SIGINT');
      await Promise.race([exited, closed, delay(10_000)]);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/**
 * Starts Azurite's table service (Microsoft's emulator) as a child process and resolves once it
 * listens. Data persists in `location` unless `inMemory` is set.
 */
export function startAzurite(options: StartAzuriteOptions): Promise<RunningAzurite> {
  return startService(options, 'table');
}

/**
 * Starts Azurite's blob service (archived customer reports, ADR 067) the same way; give it its own
 * `location`, Azurite keeps each service's data in the folder it is started with.
 */
export function startAzuriteBlob(options: StartAzuriteOptions): Promise<RunningAzurite> {
  return startService(options, 'blob');
}

async function startService(
  options: StartAzuriteOptions,
  service: AzuriteService,
): Promise<RunningAzurite> {
  if (options.port !== undefined) return startOnce(options, options.port, service);
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(options, await freePort(options.host), service);
    } catch (error) {
      lastError = error;
      if (!/EADDRINUSE/.test(String(error))) throw error;
    }
  }
  throw lastError;
}
