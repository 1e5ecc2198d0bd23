import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { RESOURCES_ROOT, generateSampleConfigRepo } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runCli } from './run';

/** A checkout of the sample configuration repository, written to a temporary folder. */
let checkout = '';
const baselineRoot = (): string => join(checkout, RESOURCES_ROOT);
const clientRoot = (code: string): string => join(checkout, 'Clients', code, RESOURCES_ROOT);

beforeAll(async () => {
  checkout = await mkdtemp(join(tmpdir(), 'aegis-cli-'));
  for (const [path, text] of generateSampleConfigRepo()) {
    const full = join(checkout, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, text);
  }
});

afterAll(async () => {
  for (const dir of [checkout, ...crafted])
    if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * A client resources root written from the baseline, each file passed through `edit` (undefined drops it).
 * Removed after the tests.
 */
async function craftClient(
  edit: (path: string, text: string) => string | undefined,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'aegis-cli-client-'));
  crafted.push(dir);
  for (const [path, text] of generateSampleConfigRepo()) {
    if (!path.startsWith(`${RESOURCES_ROOT}/`)) continue;
    const relative = path.slice(RESOURCES_ROOT.length + 1);
    const content = edit(relative, text);
    if (content === undefined) continue;
    const full = join(dir, relative);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  }
  return dir;
}
const crafted: string[] = [];

/** Run the command line in process, capturing both streams. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const compare = (code: string, ...more: string[]) =>
  cli('--baseline', baselineRoot(), '--client', clientRoot(code), ...more);

describe('aegis-compare: baseline compliance', () => {
  it('prints the summary: counts, severities and one line per deviating policy', async () => {
    const r = await compare('FAB');
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(
      /^Policies: \d+ {2}compliant: \d+ {2}deviations: \d+ {2}compliance: \d+%$/,
    );
    expect(lines[1]).toMatch(
      /^critical: \d+ {2}high: \d+ {2}medium: \d+ {2}low: \d+ {2}prerequisite: \d+ {2}client-only: 1$/,
    );
    expect(lines[2]).toMatch(/^Severity\s+Category\s+Change\s+Props\s+Policy$/);
    // FAB's declared deviations: missing CA policies, SMTP AUTH re-enabled, auto-forwarding allowed …
    expect(r.out).toMatch(
      /critical\s+ConditionalAccess\s+missing\s+1\s+CA006-Global-AttackSurfaceReduction/,
    );
    expect(r.out).toMatch(/critical\s+Exchange\s+modified\s+1\s+Transport Config/);
    expect(r.out).toMatch(/high\s+Exchange\s+modified\s+1\s+Default/);
    const deviations = Number(/deviations: (\d+)/.exec(lines[0] ?? '')?.[1]);
    expect(lines.slice(3)).toHaveLength(deviations);
  });

  it('--json prints the compliance data, which parses and agrees with the summary', async () => {
    const [json, text] = await Promise.all([compare('CON', '--json'), compare('CON')]);
    expect(json.code).toBe(0);
    const data = JSON.parse(json.out) as {
      totalCount: number;
      deviationCount: number;
      compliancePercentage: number;
      clientOnlyPolicies: { path: string }[];
      deviations: { path: string; changeType: string }[];
    };
    expect(text.out).toContain(
      `Policies: ${data.totalCount}  compliant: ${data.totalCount - data.deviationCount}  deviations: ${data.deviationCount}  compliance: ${data.compliancePercentage}%`,
    );
    expect(data.clientOnlyPolicies.map((p) => p.path).sort()).toEqual([
      'ConditionalAccess/Policy/CA900-CON-Contractors-AnyApp-AnyPlatform-BLOCK-OutsideOffice.json',
      'Exchange/TransportRule/CON - Legal Disclaimer.json',
    ]);
    expect(data.deviations.filter((g) => g.changeType === 'missing').map((g) => g.path)).toEqual([
      'Intune/DeviceCompliancePolicy/Baseline - macOS - System Security.json',
    ]);
  });

  it('exits 0 when the baseline is compared with itself, whatever the gate', async () => {
    const r = await cli(
      '--baseline',
      baselineRoot(),
      '--client',
      baselineRoot(),
      '--fail-on',
      'low',
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/deviations: 0 {2}compliance: 100%/);
  });

  // ABC deviates only in low-severity properties (sign-in frequency, OWA file types order, …)
  it.each([
    ['ABC', 'critical', 0],
    ['ABC', 'high', 0],
    ['ABC', 'medium', 0],
    ['ABC', 'low', 1],
    ['ABC', undefined, 0],
    ['FAB', 'critical', 1],
    ['FAB', 'low', 1],
    ['WWI', 'critical', 1],
  ] as const)('%s with --fail-on %s exits %i', async (code, gate, exit) => {
    const r = await compare(code, ...(gate ? ['--fail-on', gate] : []));
    expect(r.code).toBe(exit);
  });

  it.each([
    ['high', 0],
    ['medium', 1],
  ] as const)(
    'a client whose worst deviation is medium (an OWA blocked type removed) with --fail-on %s exits %i',
    async (gate, exit) => {
      const dir = await craftClient((path, text) => {
        if (path !== 'Exchange/OwaMailboxPolicy/OwaMailboxPolicy-Default.json') return text;
        const owa = JSON.parse(text) as { BlockedFileTypes: string[] };
        owa.BlockedFileTypes = owa.BlockedFileTypes.slice(0, -1);
        return JSON.stringify(owa);
      });
      const r = await cli('--baseline', baselineRoot(), '--client', dir, '--fail-on', gate);
      expect(r.out).toMatch(/critical: 0 {2}high: 0 {2}medium: 1 {2}low: 0/);
      expect(r.code).toBe(exit);
    },
  );

  it('ignores prerequisite-only deviations when gating', async () => {
    // a client that lacks only the Azure maintenance configurations (prerequisite locations)
    const dir = await craftClient((path, text) =>
      path.includes('/MaintenanceConfiguration/') ? undefined : text,
    );
    const r = await cli('--baseline', baselineRoot(), '--client', dir, '--fail-on', 'low');
    expect(r.out).toMatch(/critical: 0 {2}high: 0 {2}medium: 0 {2}low: 0 {2}prerequisite: 2/);
    expect(r.code).toBe(0);
  });
});

describe('aegis-compare --standard', () => {
  it('prints the standard baseline summary and one line per check', async () => {
    const r = await cli('--standard', '--client', clientRoot('ABC'));
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(/^CIS Standard Baseline \(70 checks\): \d+ passed, \d+ failed, \d+%$/);
    expect(
      lines.filter((l) =>
        /^(MT|AD|DEV|DEF|EXC|MS|CIS)[.\w-]*\s+(critical|high|medium|low)\s+(PASS|FAIL)/.test(l),
      ),
    ).toHaveLength(70);
  });

  it('--json parses, and --fail-on gates on failing checks at or above the severity', async () => {
    const json = await cli('--standard', '--client', clientRoot('FAB'), '--json');
    const result = JSON.parse(json.out) as {
      total: number;
      results: { id: string; pass: boolean; severity: string }[];
    };
    expect(result.total).toBe(70);
    expect(result.results.find((x) => x.id === 'EXC.1001')?.pass).toBe(false);
    const failing = result.results.filter((x) => !x.pass).map((x) => x.severity);
    const gate = await cli('--standard', '--client', clientRoot('FAB'), '--fail-on', 'critical');
    expect(gate.code).toBe(failing.includes('critical') ? 1 : 0);
    expect((await cli('--standard', '--client', clientRoot('FAB'), '--fail-on', 'low')).code).toBe(
      1,
    );
  });

  it('says so when nothing can be evaluated', async () => {
    const empty = await craftClient(() => undefined);
    const r = await cli('--standard', '--client', empty);
    expect(r.code).toBe(0);
    expect(r.out).toContain('No security settings found to evaluate in the client configuration.');
  });
});

describe('aegis-compare usage errors exit 2 and name the problem', () => {
  it.each([
    [[], 'Missing --client DIR'],
    [['--client', '/tmp'], 'Missing --baseline DIR (or use --standard)'],
    [['--client'], 'Missing value for --client DIR'],
    [['--baseline', '--client', '/tmp'], 'Missing value for --baseline DIR'],
    [['--standard', '--client', '/tmp', '--fail-on'], 'Missing value for --fail-on'],
    [['--standard', '--client', '/tmp', '--fail-on', 'severe'], 'Invalid --fail-on: severe'],
    [['--standard', '--client', '/tmp', '--verbose'], 'Unknown argument: --verbose'],
  ])('%j', async (argv, message) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(message);
    expect(r.err).toContain('Usage: aegis-compare');
  });

  it('a directory that does not exist', async () => {
    const r = await cli(
      '--baseline',
      baselineRoot(),
      '--client',
      join(checkout, 'Clients', 'NOPE'),
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--client is not a directory: ${join(checkout, 'Clients', 'NOPE')}`);
  });

  it('--help prints the usage and exits 0', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^Usage: aegis-compare --baseline DIR --client DIR/);
  });
});

describe('the aegis-compare executable', () => {
  const bin = fileURLToPath(new URL('./aegis-compare.ts', import.meta.url));
  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', bin, ...args],
        { cwd: fileURLToPath(new URL('../../..', import.meta.url)) },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('sets the process exit code from --fail-on, and 2 on usage errors', async () => {
    const [low, critical, usage] = await Promise.all([
      run(['--baseline', baselineRoot(), '--client', clientRoot('ABC'), '--fail-on', 'low']),
      run(['--baseline', baselineRoot(), '--client', clientRoot('ABC'), '--fail-on', 'critical']),
      run(['--client', clientRoot('ABC')]),
    ]);
    expect(low.code).toBe(1);
    expect(low.stdout).toMatch(/^Policies: /);
    expect(critical.code).toBe(0);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Missing --baseline DIR');
  });

  it('stops quietly when the reader closes the pipe early (| head), keeping the gate', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        bin,
        '--baseline',
        baselineRoot(),
        '--client',
        clientRoot('FAB'),
        '--fail-on',
        'low',
      ],
      { cwd: fileURLToPath(new URL('../../..', import.meta.url)) },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // The reader is gone before the first line is written.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(1);
  });
});
