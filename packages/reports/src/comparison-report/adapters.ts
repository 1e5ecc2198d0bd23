import type { ComparisonResults } from '@aegis/domain';

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

/** The options (company) baseline report from the engine's rows, category → policy → rows (spec 1 §3). */
export function fromComparisonResults(
  results: ComparisonResults,
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
  };
}

/** One standard check result, as the domain's standard baseline reports it. */
export interface StandardCheckLike {
  id: string;
  title: string;
  description?: string;
  category: string;
  expected: unknown;
  current: unknown;
  pass: boolean;
}

/** The five standard categories in display order (spec 1 §3). */
const STANDARD_CATEGORY_ORDER = [
  'Conditional Access',
  'Azure AD Settings',
  'Device Settings',
  'Defender for Office 365',
  'Exchange Security',
];

function categoryRank(name: string): number {
  const i = STANDARD_CATEGORY_ORDER.indexOf(name);
  return i === -1 ? STANDARD_CATEGORY_ORDER.length : i;
}

/**
 * The standard baseline report from the check results: category → one policy per check ('MT.1001 title') with
 * one row (the check's description, expected, current, pass).
 */
export function fromStandardBaseline(
  result: { results: readonly StandardCheckLike[] },
  meta: ReportMeta,
): ComparisonReportInput {
  const byCategory = new Map<string, ReportCategory>();
  for (const check of result.results) {
    let category = byCategory.get(check.category);
    if (!category) {
      category = { name: check.category, policies: [] };
      byCategory.set(check.category, category);
    }
    category.policies.push({
      name: `${check.id} ${check.title}`,
      rows: [
        {
          setting: check.description?.trim() || check.title,
          expected: check.expected,
          current: check.current,
          pass: check.pass,
        },
      ],
    });
  }
  const findings = [...byCategory.values()].sort(
    (a, b) => categoryRank(a.name) - categoryRank(b.name),
  );
  return {
    ...meta,
    baselineType: 'standard',
    generatedAt: meta.generatedAt ?? new Date(),
    ...summariseFindings(findings),
    findings,
  };
}
