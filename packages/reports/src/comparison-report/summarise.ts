import { comparisonPercentage } from '@aegis/domain';

import type { ReportCategory, ReportCategorySummary, ReportPolicy, ReportTotals } from './types';

/** A policy passes only when every one of its rows passes (spec 1 §4). */
export function reportPolicyPasses(policy: ReportPolicy): boolean {
  return policy.rows.every((r) => r.pass);
}

/**
 * Per-area summaries and totals counted in policies, as the screen's tiles count them; percentages are
 * passed over total, rounded (spec 1 §9).
 */
export function summariseFindings(findings: readonly ReportCategory[]): {
  totals: ReportTotals;
  categories: ReportCategorySummary[];
} {
  let passed = 0;
  let failed = 0;
  const categories = findings.map((category) => {
    const passing = category.policies.filter(reportPolicyPasses).length;
    const failing = category.policies.length - passing;
    passed += passing;
    failed += failing;
    return {
      name: category.name,
      passing,
      failing,
      percentage: comparisonPercentage(passing, passing + failing),
    };
  });
  return {
    totals: { score: comparisonPercentage(passed, passed + failed), passed, failed },
    categories,
  };
}
