// The compliance gate of a pipeline (issue 17 §4): every baseline policy or standard check as a test
// case, failing when it deviates at or above the gate's severity, so a JUnit report of it shows the
// gate in Azure DevOps' Tests tab. Pure model; the CLI writes it as JUnit XML.
import { categoryOf, isComparableFile, policyFileName, toResourcePath } from '../comparison';
import type { ComplianceData, ConfigFile, DeviationGroup } from '../comparison/types';
import { truncate } from '../formatting';
import { policyDisplayName } from '../matching';
import { SEVERITY_ORDER, type Severity } from '../severity';
import type { StandardBaselineResult } from '../standard-baseline';

export type GateSeverity = Exclude<Severity, 'prerequisite'>;

/** Whether a severity trips a gate set at `threshold` (prerequisites never do); no threshold: everything. */
export function meetsGate(severity: Severity, threshold: GateSeverity | undefined): boolean {
  if (severity === 'prerequisite') return false;
  if (!threshold) return true;
  return SEVERITY_ORDER.indexOf(severity) <= SEVERITY_ORDER.indexOf(threshold);
}

export interface GateTestCase {
  /** the group a test runner shows it under (dotted, as JUnit class names are) */
  classname: string;
  name: string;
  failure?: { message: string; type: string; details: string };
  /** deviations below the gate, reported without failing */
  output?: string;
}

export interface GateTestSuite {
  name: string;
  cases: GateTestCase[];
}

const className = (prefix: string, category: string) =>
  `${prefix}.${category.replace(/[^A-Za-z0-9]+/g, '')}`;

function deviationLines(group: DeviationGroup): string {
  return group.deviations
    .map((d) =>
      d.isMissing
        ? `${group.policyName} is missing from the client (${d.severity})`
        : `${d.property}: baseline ${truncate(JSON.stringify(d.baselineValue) ?? 'undefined')}, client ${truncate(JSON.stringify(d.clientValue) ?? 'undefined')} (${d.severity})`,
    )
    .join('\n');
}

/**
 * The company-baseline gate: one test case per baseline policy compared (as evaluateCompliance counts them),
 * a failure for a policy that deviates at or above `failOn` (any deviation without it).
 */
export function baselineGateSuite(
  baselineFiles: Iterable<ConfigFile>,
  data: ComplianceData,
  failOn?: GateSeverity,
): GateTestSuite {
  const byPath = new Map(data.deviations.map((g) => [g.path, g]));
  const cases: GateTestCase[] = [];
  const seen = new Set<string>();
  for (const file of baselineFiles) {
    const path = toResourcePath(file.path);
    if (!isComparableFile(path) || seen.has(path)) continue;
    seen.add(path);
    const group = byPath.get(path);
    const name = group?.policyName ?? policyDisplayName(file.content, policyFileName(path));
    const testCase: GateTestCase = {
      classname: className('Aegis.Baseline', group?.category ?? categoryOf(path)),
      name: `${name} (${path})`,
    };
    if (group) {
      const lines = deviationLines(group);
      if (meetsGate(group.highestSeverity, failOn)) {
        testCase.failure = {
          message: group.isMissing
            ? `Missing from the client (${group.highestSeverity})`
            : `${group.deviationCount} deviation(s) from the company baseline, highest ${group.highestSeverity}`,
          type: group.highestSeverity,
          details: lines,
        };
      } else {
        testCase.output = `Deviations below the gate:\n${lines}`;
      }
    }
    cases.push(testCase);
  }
  cases.sort((a, b) => a.classname.localeCompare(b.classname) || a.name.localeCompare(b.name));
  return { name: 'Aegis company baseline compliance', cases };
}

/** The standard catalogue gate: one test case per check, failing when it fails at or above `failOn`. */
export function standardGateSuite(
  result: StandardBaselineResult,
  failOn?: GateSeverity,
): GateTestSuite {
  return {
    name: `Aegis standard catalogue (${result.total} checks)`,
    cases: result.results.map((r) => {
      const testCase: GateTestCase = {
        classname: className('Aegis.Standard', r.category),
        name: `${r.id} ${r.title}`,
      };
      const detail = `Expected: ${r.expected}\nCurrent: ${r.current}${r.file ? `\nFile: ${r.file}` : ''}\nControl: ${r.controlReference}\n${r.rationale}`;
      if (!r.pass && meetsGate(r.severity, failOn)) {
        testCase.failure = {
          message: `${r.severity}: expected ${truncate(r.expected)}, found ${truncate(r.current)}`,
          type: r.severity,
          details: detail,
        };
      } else if (!r.pass) {
        testCase.output = `Failing below the gate (${r.severity}).\n${detail}`;
      }
      return testCase;
    }),
  };
}
