import type {
  ComparisonBaselineType,
  ComparisonResult,
  StandardCheckResultDto,
} from '@aegis/contracts';
import { areaStatus, comparisonPercentage, STANDARD_CATEGORIES } from '@aegis/domain';

/** One compared setting as the screen shows it: Setting, Expected Value, Current Value, Status. */
export interface ViewRow {
  setting: string;
  expected: unknown;
  current: unknown;
  pass: boolean;
  description: string;
}

/** A policy (company baseline: a file; standard baseline: a check); passes when all its rows do. */
export interface ViewPolicy {
  key: string;
  name: string;
  category: string;
  /** Resource path of the policy file (the file a standard check looked at). */
  path?: string;
  /** the baseline layer the policy comes from (ADR 068); undefined for the company baseline */
  layer?: string;
  pass: boolean;
  rows: ViewRow[];
  check?: StandardCheckResultDto;
}

export interface ViewCategory {
  name: string;
  policies: ViewPolicy[];
  passing: number;
  failing: number;
  percentage: number;
  status: ReturnType<typeof areaStatus>;
}

export interface ComparisonView {
  baselineType: ComparisonBaselineType;
  client: string;
  categories: ViewCategory[];
  passed: number;
  failed: number;
  /** Rounded passed over total policies (spec 1 §9). */
  score: number;
  warnings: string[];
}

function summarise(name: string, policies: ViewPolicy[]): ViewCategory {
  const passing = policies.filter((p) => p.pass).length;
  const failing = policies.length - passing;
  return {
    name,
    policies,
    passing,
    failing,
    percentage: comparisonPercentage(passing, policies.length),
    status: areaStatus(passing, failing),
  };
}

/** Both baselines as one view: category → policies → rows. */
export function toView(result: ComparisonResult): ComparisonView {
  let categories: ViewCategory[];
  if (result.baselineType === 'standard') {
    categories = STANDARD_CATEGORIES.map((category) =>
      summarise(
        category,
        result.results
          .filter((check) => check.category === category)
          .map((check) => ({
            key: check.id,
            name: `${check.id} ${check.title}`,
            category,
            ...(check.file ? { path: check.file } : {}),
            pass: check.pass,
            check,
            rows: [
              {
                setting: check.description.trim() || check.title,
                expected: check.expected,
                current: check.current,
                pass: check.pass,
                description: check.rationale,
              },
            ],
          })),
      ),
    ).filter((c) => c.policies.length > 0);
  } else {
    categories = Object.entries(result.rows)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([category, policies]) =>
        summarise(
          category,
          Object.entries(policies)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([name, rows]) => {
              const path = result.policyPaths[category]?.[name];
              const layer = result.policyLayers?.[category]?.[name];
              return {
                key: `${category}/${name}`,
                name,
                category,
                ...(path ? { path } : {}),
                ...(layer ? { layer } : {}),
                pass: rows.every((r) => r.Equal),
                rows: rows.map((r) => ({
                  setting: r.Path || '(whole file)',
                  expected: r.RefValue,
                  current: r.DiffValue,
                  pass: r.Equal,
                  description: r.Description,
                })),
              };
            }),
        ),
      );
  }
  const passed = categories.reduce((n, c) => n + c.passing, 0);
  const failed = categories.reduce((n, c) => n + c.failing, 0);
  const score =
    result.baselineType === 'standard'
      ? result.percentage
      : comparisonPercentage(passed, passed + failed);
  return {
    baselineType: result.baselineType,
    client: result.client,
    categories,
    passed,
    failed,
    score,
    warnings: result.baselineType === 'options' ? result.warnings : [],
  };
}

export type ResultFilter = 'all' | 'passed' | 'failed';

export interface ViewFilters {
  filter: ResultFilter;
  /** 'Show Only Fails': only failing rows of failing policies. */
  onlyFails: boolean;
  search: string;
}

/** Applies the toggle, the filter and the category search; empty categories are dropped. */
export function filterCategories(
  categories: readonly ViewCategory[],
  { filter, onlyFails, search }: ViewFilters,
): ViewCategory[] {
  const needle = search.trim().toLowerCase();
  const out: ViewCategory[] = [];
  for (const category of categories) {
    if (needle && !category.name.toLowerCase().includes(needle)) continue;
    const policies = category.policies
      // The toggle and the filter narrow together: 'Show Only Fails' with 'passed' shows nothing.
      .filter((p) => (p.pass ? !onlyFails && filter !== 'failed' : filter !== 'passed'))
      .map((p) => (onlyFails ? { ...p, rows: p.rows.filter((r) => !r.pass) } : p));
    if (policies.length > 0) out.push({ ...category, policies });
  }
  return out;
}

/** Progress messages by percentage (spec 1 §2). */
export function progressMessage(percent: number): string {
  if (percent >= 100) return 'Complete!';
  if (percent < 25) return 'Initialising comparison...';
  if (percent < 50) return 'Fetching configuration files...';
  if (percent < 75) return 'Analysing policies...';
  return 'Finalising results...';
}

export const BASELINE_LABELS: Record<ComparisonBaselineType, string> = {
  standard: 'CIS Standard Baseline (70 checks)',
  options: 'Options Baseline',
};
