/**
 * The comparison report's input: a view model of one comparison, independent of how the engine computed it.
 * Build it with the adapters (`fromComparisonResults`, …) or by hand; the report only renders what it is given.
 */

/** Which baseline the client was compared with: the CIS standard checks or the company (options) baseline. */
export type BaselineType = 'standard' | 'options';

import type { NotCapturedWorkload } from '@aegis/domain';

import type { ReportUser } from '../pdf/format';

export type { ReportUser };

/** Choices of the Export Report modal. */
export interface ComparisonReportOptions {
  /** Custom cover logo: a data URL (PNG, JPEG or SVG) or the raw bytes of a PNG or JPEG file. */
  logo?: string | Uint8Array;
  /** Shown on the last page, 'Support Information / Contact Details', when not blank. */
  supportMessage?: string;
  /** 'Export Failed Results Only': the detailed findings keep only failing rows. */
  failedOnly: boolean;
}

/** One compared setting. `expected`/`current` are raw values: objects are shown as JSON, `undefined` as 'Missing'. */
export interface ReportRow {
  setting: string;
  expected: unknown;
  current: unknown;
  pass: boolean;
}

/** A policy (or a standard check) and its rows. It passes only when every row passes. */
export interface ReportPolicy {
  name: string;
  rows: ReportRow[];
}

/** Detailed findings of one category (area). */
export interface ReportCategory {
  name: string;
  policies: ReportPolicy[];
}

/** Per-area summary: passing and failing policies, compliance percentage (0–100). */
export interface ReportCategorySummary {
  name: string;
  passing: number;
  failing: number;
  percentage: number;
}

/** Overall result: compliance score (0–100) and policy totals. */
export interface ReportTotals {
  score: number;
  passed: number;
  failed: number;
}

export interface ComparisonReportInput {
  clientName: string;
  baselineType: BaselineType;
  generatedAt: Date;
  generatedBy: ReportUser;
  options: ComparisonReportOptions;
  totals: ReportTotals;
  /** Per-area summaries, in display order (the bar chart and the breakdown table). */
  categories: ReportCategorySummary[];
  /** Every result, category → policy → rows; `options.failedOnly` filters them when rendering. */
  findings: ReportCategory[];
  /** Workloads the client's capture did not read: not in the findings, shown as 'Not captured: {reason}' (ADR 050). */
  notCaptured?: readonly NotCapturedWorkload[];
}
