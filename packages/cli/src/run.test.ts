import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { RESOURCES_ROOT, generateSampleConfigRepo } from '@aegis/emulators';
import { XMLParser } from 'fast-xml-parser';
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

/** A JUnit report as Azure DevOps' JUnit reader walks it (attributes without a prefix, lists always arrays). */
interface JUnitCase {
  classname: string;
  name: string;
  time: string;
  failure?: { message: string; type: string; '#text'?: string };
  'system-out'?: string;
}
interface JUnitSuite {
  name: string;
  tests: string;
  failures: string;
  errors: string;
  skipped: string;
  time: string;
  timestamp: string;
  testcase: JUnitCase[];
}
async function readJUnit(file: string): Promise<{ suites: JUnitSuite[]; root: JUnitSuite }> {
  const xml = await readFile(file, 'utf8');
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    isArray: (name) => name === 'testsuite' || name === 'testcase',
  }).parse(xml) as { testsuites: JUnitSuite & { testsuite: JUnitSuite[] } };
  return { suites: doc.testsuites.testsuite, root: doc.testsuites };
}

/** The JUnit schema's required attributes (the shape PublishTestResults reads). */
function expectJUnitShape(suite: JUnitSuite): void {
  for (const attribute of ['name', 'tests', 'failures', 'errors', 'skipped', 'time', 'timestamp'])
    expect(suite).toHaveProperty(attribute);
  expect(suite.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  expect(Number(suite.time)).toBeGreaterThanOrEqual(0);
  expect(Number(suite.tests)).toBe(suite.testcase.length);
  expect(Number(suite.failures)).toBe(suite.testcase.filter((c) => c.failure).length);
  for (const c of suite.testcase) {
    expect(c.classname).toMatch(/^Aegis\.(Baseline|Standard)\.[A-Za-z0-9]+$/);
    expect(c.name.length).toBeGreaterThan(0);
    if (c.failure) {
      expect(c.failure.message.length).toBeGreaterThan(0);
      expect(['critical', 'high', 'medium', 'low']).toContain(c.failure.type);
    }
  }
}

describe('aegis-compare --junit', () => {
  let out = '';
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'aegis-junit-'));
    crafted.push(out);
  });

  it('writes one test case per baseline policy, the deviating ones failing with their deviations', async () => {
    const file = join(out, 'fab.xml');
    const [r, json] = await Promise.all([
      compare('FAB', '--junit', file, '--fail-on', 'high'),
      compare('FAB', '--json'),
    ]);
    expect(r.code).toBe(1);
    const data = JSON.parse(json.out) as {
      totalCount: number;
      deviations: { path: string; highestSeverity: string }[];
    };
    const { suites, root } = await readJUnit(file);
    expect(suites).toHaveLength(1);
    const [suite] = suites as [JUnitSuite];
    expectJUnitShape(suite);
    expect(suite.name).toBe('Aegis company baseline compliance: FAB');
    expect(root.tests).toBe(suite.tests);
    expect(suite.testcase).toHaveLength(data.totalCount);
    const gated = data.deviations.filter((g) => ['critical', 'high'].includes(g.highestSeverity));
    expect(Number(suite.failures)).toBe(gated.length);
    const transport = suite.testcase.find((c) => c.name.startsWith('Transport Config'));
    expect(transport?.classname).toBe('Aegis.Baseline.Exchange');
    expect(transport?.failure?.type).toBe('critical');
    expect(transport?.failure?.['#text']).toMatch(/SmtpClientAuthenticationDisabled/);
    // a deviation below the gate passes, its deviations in the output
    const below = suite.testcase.find((c) => !c.failure && c['system-out']);
    expect(below?.['system-out']).toMatch(/^Deviations below the gate:/);
  });

  it('passes every case for the baseline against itself, and reports the standard checks', async () => {
    const same = join(out, 'same.xml');
    const r = await cli('--baseline', baselineRoot(), '--client', baselineRoot(), '--junit', same);
    expect(r.code).toBe(0);
    const [suite] = (await readJUnit(same)).suites as [JUnitSuite];
    expectJUnitShape(suite);
    expect(suite.failures).toBe('0');
    expect(Number(suite.tests)).toBeGreaterThan(50);

    const standard = join(out, 'standard.xml');
    const s = await cli('--standard', '--client', clientRoot('FAB'), '--junit', standard);
    expect(s.code).toBe(0);
    const [checks] = (await readJUnit(standard)).suites as [JUnitSuite];
    expectJUnitShape(checks);
    expect(checks.name).toMatch(/^Aegis standard catalogue \(\d+ checks\): FAB$/);
    expect(Number(checks.failures)).toBe(Number(/(\d+) failed/.exec(s.out)?.[1]));
  });

  it('exits 2 naming the file when the report cannot be written', async () => {
    const r = await compare('FAB', '--junit', join(out, 'no-such-folder', 'x.xml'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^Could not write --junit .*x\.xml/);
    expect((await cli('--client', clientRoot('FAB'), '--standard', '--junit')).err).toMatch(
      /^Missing value for --junit FILE/,
    );
  });
});
