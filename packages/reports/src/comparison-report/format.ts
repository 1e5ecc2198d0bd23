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
  // eslint-disable-next-line no-control-regex
  const safe = clientName.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim();
  return `${safe} - ${baselineLabel(baselineType)} Report.pdf`;
}
