// What a scheduled customer report's outcome says to the technicians (issue 29, ADR 072, 089). The
// run that sends it (the customer-reports pipeline task) records the period's outcome in the
// report store; the server's notification producers read it and raise this (ADR 070).
import type { NotificationEventInput } from '../notifications/types';

import type { ReportPeriod } from './period';
import type { ReportPeriodState } from './records';

/** Attempts per report in one run before its period is recorded as failed (the next run tries again). */
export const CUSTOMER_REPORT_SEND_ATTEMPTS = 3;

/**
 * The notification of a period's outcome (kind 'customer-report-failed'): one per client, its
 * fingerprint the period, so a period failing again in the next run is not said twice while a new
 * period's failure is; the period sent resolves it. Nothing while the period is unsent or sending.
 */
export function customerReportOutcomeEvent(
  client: string,
  period: ReportPeriod,
  state: ReportPeriodState,
  at: Date,
): NotificationEventInput | undefined {
  const common = {
    kind: 'customer-report-failed',
    clientCode: client,
    subject: 'scheduled-report',
    link: `/customer-reports?client=${client}`,
    occurredAt: at.toISOString(),
  };
  if (state.state === 'sent') {
    return {
      ...common,
      fingerprint: `${period.id}-sent`,
      severity: 'info',
      title: `Customer report for ${period.label} sent`,
      summary: `The scheduled report of ${client} for ${period.label} was sent.`,
      resolved: true,
    };
  }
  if (state.state !== 'failed') return undefined;
  return {
    ...common,
    fingerprint: period.id,
    severity: 'warning',
    title: `Customer report for ${period.label} not sent`,
    summary: `The scheduled report of ${client} for ${period.label} failed ${CUSTOMER_REPORT_SEND_ATTEMPTS} times: ${state.reason}\nThe next run tries again; 'Send now' sends it at once.`,
  };
}
