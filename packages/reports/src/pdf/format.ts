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

/** Lets long unbroken values (paths, ids) wrap after separators without changing the extracted text. */
export function breakable(text: string): string {
  return text
    .replace(/([./\\_\-:,[\]@])(?=\S)/g, '$1\u200b')
    .replace(/([a-z])(?=[A-Z][a-z])/g, '$1\u200b');
}
