import {
  STANDARD_CATEGORIES,
  type ComparisonResults,
  type NotCapturedWorkload,
  type StandardBaselineResult,
} from '@aegis/domain';

import { summariseFindings } from './summarise';
import type {
  ComparisonReportInput,
  ComparisonReportOptions,
  ReportCategory,
  ReportUser,
} from './types';

/** What the screen adds to a result to make a report: who, for whom, when and the modal's choices. */
export interface ReportMeta {
  clientName: string;
  generatedBy: ReportUser;
  options: ComparisonReportOptions;
  /** Defaults to now. */
  generatedAt?: Date;
}

/**
 * The options (company) baseline report from the engine's rows, category → policy → rows (spec 1 §3),
 * and the workloads the comparison left out because the capture did not read them (ADR 050).
 */
export function fromComparisonResults(
  results: ComparisonResults,
  notCaptured: readonly NotCapturedWorkload[],
  meta: ReportMeta,
): ComparisonReportInput {
  const findings: ReportCategory[] = Object.entries(results).map(([name, policies]) => ({
    name,
    policies: Object.entries(policies).map(([policyName, rows]) => ({
      name: policyName,
      rows: rows.map((r) => ({
        setting: r.Path,
        expected: r.RefValue,
        current: r.DiffValue,
        pass: r.Equal,
      })),
    })),
  }));
  return {
    ...meta,
    baselineType: 'options',
    generatedAt: meta.generatedAt ?? new Date(),
    ...summariseFindings(findings),
    findings,
    notCaptured,
  };
}

/**
 * The standard baseline report from the domain's check results: category (in the standard order) → one policy
 * per check ('MT.1001 title') with one row (the check's description, expected, current, pass). The totals
 * are the result's own; `notCaptured` are the workloads whose files were not evaluated (ADR 050).
 */
export function fromStandardBaseline(
  result: StandardBaselineResult,
  notCaptured: readonly NotCapturedWorkload[],
  meta: ReportMeta,
): ComparisonReportInput {
  const findings: ReportCategory[] = STANDARD_CATEGORIES.map((name) => ({
    name,
    policies: result.results
      .filter((check) => check.category === name)
      .map((check) => ({
        name: `${check.id} ${check.title}`,
        rows: [
          {
            setting: check.description.trim() || check.title,
            expected: check.expected,
            current: check.current,
            pass: check.pass,
          },
        ],
      })),
  })).filter((category) => category.policies.length > 0);
  return {
    ...meta,
    baselineType: 'standard',
    generatedAt: meta.generatedAt ?? new Date(),
    totals: { score: result.percentage, passed: result.passed, failed: result.failed },
    categories: summariseFindings(findings).categories,
    findings,
    notCaptured,
  };
}
