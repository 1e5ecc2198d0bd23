import type { BaselineType, ReportUser } from './types';

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

/** The report date, en-GB (dd/mm/yyyy). */
export function formatReportDate(date: Date): string {
  return dateFormat.format(date);
}

const longDateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** The cover's date, en-GB in words (21 May 2025). */
export function formatReportLongDate(date: Date): string {
  return longDateFormat.format(date);
}

/** 'Standard Baseline' or 'Options Baseline'. */
export function baselineLabel(baselineType: BaselineType): string {
  return baselineType === 'standard' ? 'Standard Baseline' : 'Options Baseline';
}

/** Who generated the report: the display name, else the UPN. */
export function generatedByName(user: ReportUser): string {
  const name = user.displayName?.trim();
  return name ? name : user.upn;
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

/** Lets long unbroken values (paths, ids) wrap after separators without changing the extracted text. */
export function breakable(text: string): string {
  return text
    .replace(/([./\\_\-:,[\]@])(?=\S)/g, '$1\u200b')
    .replace(/([a-z])(?=[A-Z][a-z])/g, '$1\u200b');
}
