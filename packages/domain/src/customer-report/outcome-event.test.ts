import { describe, expect, it } from 'vitest';

import { customerReportOutcomeEvent } from './outcome-event';
import { parseReportPeriod } from './period';

const october = parseReportPeriod('2026-10');
const at = new Date(Date.UTC(2026, 10, 2, 7, 30));

describe("a scheduled customer report's outcome as a notification (ADR 089)", () => {
  it('says a failed period with its reason, fingerprinted by the period', () => {
    const event = customerReportOutcomeEvent(
      'FAB',
      october,
      { state: 'failed', attempts: 2, reason: 'sendMail answered 503' },
      at,
    );
    expect(event).toMatchObject({
      kind: 'customer-report-failed',
      clientCode: 'FAB',
      subject: 'scheduled-report',
      fingerprint: '2026-10',
      severity: 'warning',
      title: 'Customer report for October 2026 not sent',
      link: '/customer-reports?client=FAB',
      occurredAt: '2026-11-02T07:30:00.000Z',
    });
    expect(event?.summary).toContain('failed 3 times: sendMail answered 503');
    expect(event?.resolved).toBeUndefined();
  });

  it('resolves the subject once the period is sent', () => {
    expect(
      customerReportOutcomeEvent('FAB', october, { state: 'sent', sendId: 'x-2026-10' }, at),
    ).toMatchObject({ subject: 'scheduled-report', fingerprint: '2026-10-sent', resolved: true });
  });

  it('says nothing of a period not yet run or being sent', () => {
    expect(customerReportOutcomeEvent('FAB', october, { state: 'free' }, at)).toBeUndefined();
    expect(
      customerReportOutcomeEvent(
        'FAB',
        october,
        { state: 'sending', until: '2026-11-02T07:40:00.000Z' },
        at,
      ),
    ).toBeUndefined();
  });
});
