// `npm start` stops as a whole when only the npm process is signalled (issue 26, ADR 053): what a
// process manager, a CI runner or Ctrl-C delivered to npm alone does. Every process `npm start`
// started must be gone and every port it listened on closed afterwards.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT_DIR = path.resolve(import.meta.dirname, '..');
/** The server's port and the emulators' offsets from it (README 'Quick start'). */
const PORT_OFFSETS = [0, 101, 102, 103, 104];

let dataDir: string;
const leftovers = new Set<number>();

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-start-shutdown-'));
});

afterAll(async () => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A port whose emulator ports (port + 101 … 104) are free too. */
async function freeBasePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const free = await Promise.all(PORT_OFFSETS.map((offset) => portFree(base + offset)));
    if (free.every(Boolean)) return base;
  }
  throw new Error('No free range of ports for npm start');
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

/** Every process below `pid`, children first found first. */
function descendants(pid: number): number[] {
  let output = '';
  try {
    output = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there is none
  }
  const children = output
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0);
  return children.flatMap((child) => [child, ...descendants(child)]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface StartedNpm {
  npm: ChildProcess;
  port: number;
  output: () => string;
}

async function npmStart(): Promise<StartedNpm> {
  const port = await freeBasePort();
  const npm = spawn('npm', ['start', '--', '--no-build'], {
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      AEGIS_PORT: String(port),
      AEGIS_DATA_DIR: dataDir,
      AEGIS_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (npm.pid) leftovers.add(npm.pid);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Press Ctrl-C to stop everything.')) resolve();
    };
    npm.stdout?.on('data', onData);
    npm.stderr?.on('data', onData);
    npm.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
  return { npm, port, output: () => output };
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops the server, Azurite and the emulators when npm alone gets %s',
    async (signal) => {
      const { npm, port, output } = await npmStart();
      // the log names the address the server really listens on
      expect(output()).toContain(`Aegis is running at http://127.0.0.1:${port}\n`);
      const started = descendants(npm.pid ?? 0);
      for (const pid of started) leftovers.add(pid);
      // the script's own node process and Azurite's, at least
      expect(started.length).toBeGreaterThanOrEqual(2);
      for (const offset of PORT_OFFSETS) expect(await portAccepts(port + offset)).toBe(true);

      const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve));
      npm.kill(signal);
      await exited;
      await expect
        .poll(() => started.filter(alive), { timeout: 20_000, interval: 250 })
        .toEqual([]);
      const open = [];
      for (const offset of PORT_OFFSETS) {
        if (await portAccepts(port + offset)) open.push(port + offset);
      }
      expect(open).toEqual([]);
    },
    240_000,
  );
});
