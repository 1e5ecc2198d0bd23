import type { Severity } from '../severity';

/** What each severity means for the customer, in plain language (issue 29 §1). */
export const SEVERITY_MEANINGS: Record<Severity, string> = {
  critical:
    'A security control is missing or weakened (for example sign-in protection or encryption). These expose your organisation to attack and are fixed first.',
  high: 'A policy, rule or permission differs from the agreed standard. These widen access or switch off a protection and are planned for the next change window.',
  medium:
    'A configuration setting differs from the agreed standard. These carry limited risk and are corrected in routine maintenance.',
  low: 'A minor difference, often an addition on your side. These carry little risk and are reviewed with you.',
  prerequisite:
    'A component other settings depend on is not in place yet. It is set up as part of onboarding or the next deployment.',
};

/** How a figure moved between two reports. */
export type ReportMovement = 'improved' | 'worse' | 'unchanged' | 'new';

/** How a percentage moved since the last report: up is better, whole points only. */
export function movementOf(
  current: number | undefined,
  previous: number | undefined,
): ReportMovement {
  if (current === undefined || previous === undefined) return 'new';
  const delta = Math.round(current) - Math.round(previous);
  return delta > 0 ? 'improved' : delta < 0 ? 'worse' : 'unchanged';
}

/** A sentence on a percentage and its movement, for the executive summary. */
export function movementSentence(
  subject: string,
  current: number | undefined,
  previous: number | undefined,
): string {
  if (current === undefined) return `${subject} could not be measured this period.`;
  const movement = movementOf(current, previous);
  if (movement === 'new' || previous === undefined)
    return `${subject} is ${current}%; this is the first measurement in the report's history.`;
  const points = Math.abs(Math.round(current) - Math.round(previous));
  if (movement === 'unchanged')
    return `${subject} is ${current}%, unchanged since the last report.`;
  return `${subject} is ${current}%, ${movement === 'improved' ? 'up' : 'down'} ${points} point${points === 1 ? '' : 's'} from ${previous}% in the last report (${movement}).`;
}

/** `{CODE}/{period}/{CODE}_Compliance_Report_{period}.pdf`: one blob per client and period. */
export function customerReportBlobName(client: string, periodId: string): string {
  return `${client}/${periodId}/${client}_Compliance_Report_${periodId}.pdf`;
}

/** The attachment's file name. */
export function customerReportFileName(client: string, periodId: string): string {
  return `${client}_Compliance_Report_${periodId}.pdf`;
}
