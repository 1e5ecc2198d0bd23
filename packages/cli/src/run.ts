import { stat, writeFile } from 'node:fs/promises';

import {
  baselineGateSuite,
  evaluateCompliance,
  meetsGate,
  runStandardBaseline,
  standardGateSuite,
  truncate,
  type GateSeverity,
  type GateTestSuite,
} from '@aegis/domain';

import { toJUnitXml } from './junit';
import { readConfigTree } from './read-tree';

const isDirectory = (dir: string): Promise<boolean> =>
  stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const USAGE =
  'Usage: aegis-compare --baseline DIR --client DIR [--standard] [--json] [--fail-on critical|high|medium|low] [--junit FILE]';

interface Args {
  baseline?: string;
  client?: string;
  standard: boolean;
  json: boolean;
  failOn?: GateSeverity;
  junit?: string;
}

function parseArgs(argv: readonly string[]): Args | string {
  const args: Args = { standard: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string | undefined => {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) return undefined;
      i++;
      return v;
    };
    if (a === '--baseline' || a === '--client') {
      const v = value();
      if (v === undefined) return `Missing value for ${a} DIR`;
      if (a === '--baseline') args.baseline = v;
      else args.client = v;
    } else if (a === '--junit') {
      const v = value();
      if (v === undefined) return 'Missing value for --junit FILE';
      args.junit = v;
    } else if (a === '--standard') args.standard = true;
    else if (a === '--json') args.json = true;
    else if (a === '--fail-on') {
      const v = value();
      if (v === undefined) return 'Missing value for --fail-on (critical, high, medium or low)';
      if (v !== 'critical' && v !== 'high' && v !== 'medium' && v !== 'low')
        return `Invalid --fail-on: ${v} (expected critical, high, medium or low)`;
      args.failOn = v;
    } else if (a === '--help' || a === '-h') return USAGE;
    else return `Unknown argument: ${a}`;
  }
  if (!args.client) return 'Missing --client DIR';
  if (!args.standard && !args.baseline) return 'Missing --baseline DIR (or use --standard)';
  return args;
}

/** The client code of a checked-out client folder (`…/Clients/FAB/M365Config/Resources`), if it is one. */
function clientCodeOf(dir: string): string | undefined {
  return /(?:^|[\\/])Clients[\\/]([A-Z]{3})(?:[\\/]|$)/.exec(dir)?.[1];
}

/** The suite named after the client when its folder says which (one report per client in a pipeline). */
function named(suite: GateTestSuite, clientDir: string): GateTestSuite {
  const code = clientCodeOf(clientDir);
  return code ? { ...suite, name: `${suite.name}: ${code}` } : suite;
}

/** Writes the gate as JUnit XML when asked (issue 17 §4); false when the file cannot be written. */
async function writeJUnit(
  args: Args,
  suite: () => GateTestSuite,
  started: number,
  io: CliIo,
): Promise<boolean> {
  if (!args.junit) return true;
  try {
    await writeFile(
      args.junit,
      toJUnitXml(
        named(suite(), args.client ?? ''),
        new Date(),
        (performance.now() - started) / 1000,
      ),
      'utf8',
    );
    return true;
  } catch (e) {
    io.err(`Could not write --junit ${args.junit}: ${e instanceof Error ? e.message : String(e)}`);
    return false;
  }
}

const pad = (s: string, n: number): string =>
  s.length >= n ? s.slice(0, n) : s + ' '.repeat(n - s.length);

/** Run the command line; returns the exit code (0 ok, 1 gate failed, 2 usage or I/O error). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    io.err(args === USAGE ? USAGE : `${args}\n${USAGE}`);
    return args === USAGE ? 0 : 2;
  }
  for (const [flag, dir] of [
    ['--client', args.client],
    ['--baseline', args.standard ? undefined : args.baseline],
  ] as const) {
    if (dir !== undefined && !(await isDirectory(dir))) {
      io.err(`${flag} is not a directory: ${dir}\n${USAGE}`);
      return 2;
    }
  }
  const started = performance.now();
  try {
    const client = await readConfigTree(args.client as string);
    if (args.standard) {
      const r = runStandardBaseline(client);
      const failing = r.results.filter((x) => !x.pass && meetsGate(x.severity, args.failOn));
      if (args.json) io.out(JSON.stringify(r, null, 2));
      else {
        io.out(
          `CIS Standard Baseline (${r.total} checks): ${r.passed} passed, ${r.failed} failed, ${r.percentage}%`,
        );
        if (r.message) io.out(r.message);
        io.out(
          `${pad('Id', 18)} ${pad('Severity', 9)} ${pad('Status', 6)} ${pad('Current', 50)} Title`,
        );
        for (const x of r.results)
          io.out(
            `${pad(x.id, 18)} ${pad(x.severity, 9)} ${pad(x.pass ? 'PASS' : 'FAIL', 6)} ${pad(truncate(x.current), 50)} ${x.title}`,
          );
      }
      if (!(await writeJUnit(args, () => standardGateSuite(r, args.failOn), started, io))) return 2;
      return args.failOn && failing.length > 0 ? 1 : 0;
    }
    const baseline = await readConfigTree(args.baseline as string);
    const data = evaluateCompliance(baseline, client);
    if (args.json) io.out(JSON.stringify(data, null, 2));
    else {
      io.out(
        `Policies: ${data.totalCount}  compliant: ${data.compliantCount}  deviations: ${data.deviationCount}  compliance: ${data.compliancePercentage}%`,
      );
      io.out(
        `critical: ${data.criticalCount}  high: ${data.highCount}  medium: ${data.mediumCount}  low: ${data.lowCount}  prerequisite: ${data.prerequisiteCount}  client-only: ${data.clientOnlyPolicies.length}`,
      );
      io.out(
        `${pad('Severity', 13)} ${pad('Category', 20)} ${pad('Change', 9)} ${pad('Props', 6)} Policy`,
      );
      for (const g of data.deviations)
        io.out(
          `${pad(g.highestSeverity, 13)} ${pad(g.category, 20)} ${pad(g.changeType, 9)} ${pad(String(g.deviationCount), 6)} ${truncate(g.policyName)}`,
        );
    }
    if (
      !(await writeJUnit(args, () => baselineGateSuite(baseline, data, args.failOn), started, io))
    )
      return 2;
    const gate = args.failOn;
    return gate && data.deviations.some((g) => meetsGate(g.highestSeverity, gate)) ? 1 : 0;
  } catch (e) {
    io.err(`Error comparing files: ${e instanceof Error ? e.message : String(e)}`);
    return 2;
  }
}
