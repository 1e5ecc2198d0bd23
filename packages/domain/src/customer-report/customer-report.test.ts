import { describe, expect, it } from 'vitest';

import { customerReportBlobName, movementOf, movementSentence } from './customer-report';
import { duePeriod, parseReportPeriod, periodBefore, periodsEndingWith } from './period';

describe('report periods', () => {
  it('covers the month or quarter before the send date', () => {
    const november = new Date(Date.UTC(2026, 10, 5));
    expect(periodBefore('monthly', november)).toMatchObject({
      id: '2026-10',
      label: 'October 2026',
      start: '2026-10-01T00:00:00.000Z',
      end: '2026-11-01T00:00:00.000Z',
    });
    expect(periodBefore('quarterly', november)).toMatchObject({
      id: '2026-Q3',
      label: 'Q3 2026 (July to September)',
      end: '2026-10-01T00:00:00.000Z',
    });
    expect(periodBefore('monthly', new Date(Date.UTC(2027, 0, 3))).id).toBe('2026-12');
    expect(periodBefore('quarterly', new Date(Date.UTC(2027, 1, 3))).id).toBe('2026-Q4');
  });

  it('is due from the send day on, the period before until then', () => {
    expect(duePeriod('monthly', 5, new Date(Date.UTC(2026, 10, 4, 23))).id).toBe('2026-09');
    expect(duePeriod('monthly', 5, new Date(Date.UTC(2026, 10, 5))).id).toBe('2026-10');
    // quarterly reports go in January, April, July and October
    expect(duePeriod('quarterly', 1, new Date(Date.UTC(2026, 10, 20))).id).toBe('2026-Q3');
    expect(duePeriod('quarterly', 10, new Date(Date.UTC(2026, 9, 9))).id).toBe('2026-Q2');
  });

  it('parses ids and refuses others naming the field', () => {
    expect(parseReportPeriod('2026-Q4').label).toBe('Q4 2026 (October to December)');
    expect(parseReportPeriod('2026-02').end).toBe('2026-03-01T00:00:00.000Z');
    expect(() => parseReportPeriod('2026-13')).toThrow(
      expect.objectContaining({ field: 'period' }),
    );
  });

  it('lists the trend periods oldest first', () => {
    const ids = periodsEndingWith(parseReportPeriod('2026-02'), 4).map((p) => p.id);
    expect(ids).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });
});

describe('movement since the last report', () => {
  it('says improved, worse or unchanged in whole points', () => {
    expect(movementOf(80, 70)).toBe('improved');
    expect(movementOf(70, 80)).toBe('worse');
    expect(movementOf(80.2, 79.9)).toBe('unchanged');
    expect(movementOf(80, undefined)).toBe('new');
    expect(movementSentence('Compliance', 82, 75)).toBe(
      'Compliance is 82%, up 7 points from 75% in the last report (improved).',
    );
    expect(movementSentence('Compliance', 74, 75)).toContain('down 1 point from 75%');
  });

  it('names blobs by client and period', () => {
    expect(customerReportBlobName('FAB', '2026-10')).toBe(
      'FAB/2026-10/FAB_Compliance_Report_2026-10.pdf',
    );
  });
});
