import type { ComparisonReportInput } from './types';

/** What every section needs, computed once. */
export interface ReportContext {
  input: ComparisonReportInput;
  /** What the totals count: policies for the options baseline, checks for the standard one. */
  noun: { singular: string; plural: string };
  passed: number;
  failed: number;
  total: number;
  /** The baseline as the cover and summary name it. */
  baselineTitle: string;
}

export function reportContext(input: ComparisonReportInput): ReportContext {
  const standard = input.baselineType === 'standard';
  const { passed, failed } = input.totals;
  return {
    input,
    noun: standard
      ? { singular: 'check', plural: 'checks' }
      : { singular: 'policy', plural: 'policies' },
    passed,
    failed,
    total: passed + failed,
    baselineTitle: standard ? 'CIS Standard Baseline' : 'Options Baseline (company baseline)',
  };
}
