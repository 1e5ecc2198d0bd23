import { safeFileName } from '@aegis/domain';

import type { BaselineType } from './types';

/** 'Standard Baseline' or 'Options Baseline'. */
export function baselineLabel(baselineType: BaselineType): string {
  return baselineType === 'standard' ? 'Standard Baseline' : 'Options Baseline';
}

/**
 * The download name (spec 1 §7): '{client} - Standard Baseline Report.pdf' or
 * '{client} - Options Baseline Report.pdf'. Characters no file system accepts become '_'.
 */
export function comparisonReportFileName(clientName: string, baselineType: BaselineType): string {
  return `${safeFileName(clientName)} - ${baselineLabel(baselineType)} Report.pdf`;
}
