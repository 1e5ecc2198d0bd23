/** Comparison compliance percentage (spec 1 §9): passed over total, rounded; 0 when total is 0. */
export function comparisonPercentage(passed: number, total: number): number {
  return total > 0 ? Math.round((passed / total) * 100) : 0;
}

export type PassRateIcon = 'tick' | 'warning' | 'cross';

/** Pass-rate icon (spec 1 §9): at least 90 a tick, at least 70 a warning, otherwise a cross. */
export function passRateIcon(percentage: number): PassRateIcon {
  if (percentage >= 90) return 'tick';
  if (percentage >= 70) return 'warning';
  return 'cross';
}

/** Summary format: one decimal (spec 1 §9). */
export function formatSummaryPercentage(percentage: number): string {
  return `${percentage.toFixed(1)}%`;
}

/** Detailed-header format: no decimals (spec 1 §9). */
export function formatHeaderPercentage(percentage: number): string {
  return `${Math.round(percentage)}%`;
}

export type ComplianceBand = 'excellent' | 'moderate' | 'poor';

export interface BandInfo {
  band: ComplianceBand;
  colour: 'green' | 'amber' | 'red';
  /** Width of the bar in percent; 0 is drawn as a full red bar. */
  barWidth: number;
}

/** Coloured band (spec 1 §9, spec 3 §9): ≥80 excellent green, ≥50 moderate amber, else poor red; 0 is a full red bar. */
export function complianceBand(percentage: number): BandInfo {
  if (percentage >= 80) return { band: 'excellent', colour: 'green', barWidth: percentage };
  if (percentage >= 50) return { band: 'moderate', colour: 'amber', barWidth: percentage };
  return { band: 'poor', colour: 'red', barWidth: percentage === 0 ? 100 : percentage };
}

/**
 * Baseline compliance percentage (spec 3 §5): compliant over (total − prerequisites), rounded; 0 when total
 * is 0; 100 when the denominator is 0.
 */
export function baselineCompliancePercentage(
  compliantCount: number,
  totalCount: number,
  prerequisiteCount: number,
): number {
  if (totalCount === 0) return 0;
  const denominator = totalCount - prerequisiteCount;
  if (denominator <= 0) return 100;
  return Math.round((compliantCount / denominator) * 100);
}

/** Score description of the baseline view (spec 3 §9). */
export function scoreDescription(score: number): string {
  if (score >= 90) return 'Excellent! Your configuration closely follows the baseline.';
  if (score >= 75) return 'Good compliance with some deviations to review.';
  if (score >= 50) return 'Moderate compliance. Review critical deviations.';
  return 'Low compliance. Immediate attention required.';
}

/** Score description of the PDF (spec 3 §9). */
export function pdfScoreDescription(score: number): string {
  if (score >= 90) return 'Excellent compliance with baseline';
  if (score >= 75) return 'Good compliance with some deviations';
  if (score >= 50) return 'Moderate compliance - review required';
  return 'Low compliance - immediate attention needed';
}

/** Area status of a per-area tile: All Pass, Mixed or Needs Attention. */
export function areaStatus(
  passed: number,
  failed: number,
): 'All Pass' | 'Mixed' | 'Needs Attention' {
  if (failed === 0) return 'All Pass';
  if (passed > 0) return 'Mixed';
  return 'Needs Attention';
}
