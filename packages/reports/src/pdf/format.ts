import { breakPieces } from '@aegis/domain';

/** The signed-in user who exported a report (spec 1 §3 'Logged-in user for reports'). */
export interface ReportUser {
  displayName?: string;
  upn: string;
}

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

/** Who generated the report: the display name, else the UPN. */
export function generatedByName(user: ReportUser): string {
  const name = user.displayName?.trim();
  return name ? name : user.upn;
}

/**
 * Lets long unbroken values (paths, ids, enum values) wrap at the break points of ADR 039 (after
 * hyphens, dots and other separators; camelCase words only in a run too long for a line) without
 * changing the extracted text: a zero-width space marks each point, and pdfmake never has to cut
 * a word where it likes. `longRun` is the longest run kept whole (see {@link runFitting}).
 */
export function breakable(text: string, longRun?: number): string {
  return breakPieces(text, longRun).join('\u200b');
}

/** Roboto's average character width in ems (mixed-case text). */
const AVERAGE_CHARACTER_EM = 0.5;

/** How many characters at `fontSize` surely fit a table column `width` points wide (6 pt padding each side). */
export function runFitting(width: number, fontSize: number): number {
  return Math.max(8, Math.floor((width - 12) / (fontSize * AVERAGE_CHARACTER_EM)));
}
