import { MISSING, type ConfigFile, type ProgressCallback } from '../comparison';
import { comparisonPercentage } from '../scores';

import { indexClientConfig } from './access';
import { STANDARD_CHECKS } from './catalogue';
import {
  STANDARD_CATEGORIES,
  type StandardBaselineResult,
  type StandardCategory,
  type StandardCheck,
  type StandardCheckResult,
} from './types';

/** Shown when no check finds anything to evaluate (spec 1 §5). */
export const NO_SECURITY_SETTINGS_MESSAGE =
  'No security settings found to evaluate in the client configuration.';

/** Standard baseline progress steps after the fetch (30): one per category, then 95 and 100 (spec 1 §4). */
export const STANDARD_CATEGORY_PROGRESS: readonly number[] = [35, 40, 55, 70, 85];

/**
 * The standard baseline as stages of real work: one rule set (category) evaluated per stage,
 * yielding the percentage reached before each (35, 40, 55, 70, 85), then 95 when summarising;
 * returns the result. A caller that streams progress hands control back between stages, so each
 * stage reaches the browser on its own (issue 19).
 */
export function* standardBaselineStages(
  clientFiles: readonly ConfigFile[],
  checks: readonly StandardCheck[] = STANDARD_CHECKS,
): Generator<number, StandardBaselineResult, void> {
  const config = indexClientConfig(clientFiles);
  const byCategory = Object.fromEntries(
    STANDARD_CATEGORIES.map((c) => [c, []]),
  ) as unknown as Record<StandardCategory, StandardCheckResult[]>;
  const results: StandardCheckResult[] = [];
  for (const [i, category] of STANDARD_CATEGORIES.entries()) {
    yield STANDARD_CATEGORY_PROGRESS[i] ?? 85;
    for (const check of checks.filter((c) => c.category === category)) {
      let evaluation;
      try {
        evaluation = check.evaluate(config);
      } catch {
        evaluation = { expected: '', current: MISSING, pass: false };
      }
      const { evaluate: _evaluate, ...meta } = check;
      const result: StandardCheckResult = {
        ...meta,
        ...evaluation,
        pass: evaluation.current === MISSING ? false : evaluation.pass,
        evaluated: evaluation.current !== MISSING,
      };
      results.push(result);
      byCategory[category].push(result);
    }
  }
  yield 95;
  const passed = results.filter((r) => r.pass).length;
  const evaluatedCount = results.filter((r) => r.evaluated).length;
  return {
    results,
    byCategory,
    total: results.length,
    passed,
    failed: results.length - passed,
    percentage: comparisonPercentage(passed, results.length),
    evaluatedCount,
    ...(evaluatedCount === 0 ? { message: NO_SECURITY_SETTINGS_MESSAGE } : {}),
  };
}

/**
 * Run the standard baseline ('CIS Standard Baseline (70 checks)') over a client's configuration files.
 * Files are `{ path, content }` with paths relative to the resources root (or carrying `M365Config/Resources/`).
 * Progress: 35, 40, 55, 70, 85 as categories start, 95 when summarising, 100 at the end.
 */
export function runStandardBaseline(
  clientFiles: readonly ConfigFile[],
  onProgress?: ProgressCallback,
  checks: readonly StandardCheck[] = STANDARD_CHECKS,
): StandardBaselineResult {
  const stages = standardBaselineStages(clientFiles, checks);
  for (;;) {
    const step = stages.next();
    if (step.done) {
      onProgress?.(100);
      return step.value;
    }
    onProgress?.(step.value);
  }
}
