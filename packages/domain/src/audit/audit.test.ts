import { describe, expect, it } from 'vitest';

import {
  auditActionText,
  auditClientCodeOf,
  auditMonthOf,
  auditMonthsBetween,
  auditRangeOf,
  auditRangeProblem,
  auditRowKey,
  previousAuditMonth,
} from '.';

describe('audit trail keys', () => {
  it('partitions by UTC month', () => {
    expect(auditMonthOf(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(auditMonthOf(new Date('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
  });

  it('orders RowKeys newest first, ties broken by id', () => {
    const keys = [
      auditRowKey(new Date('2026-11-01T00:00:00.000Z'), 'a'),
      auditRowKey(new Date('2026-11-24T01:00:00.000Z'), 'b'),
      auditRowKey(new Date('2026-11-24T01:00:00.001Z'), 'c'),
      auditRowKey(new Date('2026-11-24T01:00:00.001Z'), 'd'),
    ];
    expect([...keys].sort()).toEqual([keys[2], keys[3], keys[1], keys[0]]);
    expect(keys[0]).toMatch(/^\d{16}-a$/);
  });

  it('lists the months of a range newest first, across a year', () => {
    expect(previousAuditMonth('2026-01')).toBe('2025-12');
    expect(auditMonthsBetween('2025-11-15', '2026-02-01')).toEqual([
      '2026-02',
      '2026-01',
      '2025-12',
      '2025-11',
    ]);
    expect(auditMonthsBetween('2026-02-01', '2026-02-28')).toEqual(['2026-02']);
    expect(() => auditMonthsBetween('2026-03-01', '2026-02-01')).toThrow(/^to: must not be/);
    expect(() => auditMonthsBetween('2026-02-15', '2026-02-01')).toThrow(/^to: must not be/);
    expect(() => auditMonthsBetween('2025-01-01', '2026-02-01')).toThrow(/^from: .*12 months/);
    expect(auditMonthsBetween('2025-03-31', '2026-02-01')).toHaveLength(12);
  });

  it('names the field at fault in a range: to before from, or from too far back', () => {
    expect(auditRangeProblem('2026-11-02', '2026-11-01')).toEqual({
      field: 'to',
      message: 'must not be before from',
    });
    expect(auditRangeProblem('2026-11-01', '2026-11-01')).toBeUndefined();
    expect(auditRangeProblem('2025-12-01', '2026-11-30')).toBeUndefined();
    expect(auditRangeProblem('2025-11-30', '2026-11-01')).toMatchObject({ field: 'from' });
  });

  it('fills the missing end of a range: to today, from as far back as a query reaches', () => {
    // just after midnight UTC on the 1st: the day and month are UTC ones
    const now = new Date('2026-12-01T00:30:00.000Z');
    expect(auditRangeOf({}, now)).toEqual({ from: '2026-12-01', to: '2026-12-01' });
    expect(auditRangeOf({ from: '2026-11-15' }, now)).toEqual({
      from: '2026-11-15',
      to: '2026-12-01',
    });
    expect(auditRangeOf({ to: '2026-03-10' }, now)).toEqual({
      from: '2025-04-01',
      to: '2026-03-10',
    });
    expect(auditMonthsBetween('2025-04-01', '2026-03-10')).toHaveLength(12);
    // a from after today reads that day on, rather than a range that ends before it starts
    expect(auditRangeOf({ from: '2026-12-05' }, now)).toEqual({
      from: '2026-12-05',
      to: '2026-12-05',
    });
  });

  it('finds the client a request is about', () => {
    expect(auditClientCodeOf({ params: { client: 'ABC' } })).toBe('ABC');
    expect(auditClientCodeOf({ body: { clientCode: 'XYZ' } })).toBe('XYZ');
    expect(auditClientCodeOf({ params: { folder: 'CON' } })).toBe('CON');
    expect(auditClientCodeOf({ params: { table: 'DEFWorkstationApps' } })).toBe('DEF');
    expect(auditClientCodeOf({ params: { table: 'GENWorkstationApps' } })).toBeUndefined();
    expect(auditClientCodeOf({ params: { client: 'not a code' } })).toBeUndefined();
  });
});

describe('auditActionText', () => {
  it('says what an action did in words, and keeps an action it does not know as recorded', () => {
    expect(auditActionText('POST /api/backups/:client/restore')).toBe(
      'Proposed restoring a backup (pull request)',
    );
    expect(auditActionText('POST /api/baseline/offboard/runs')).toBe(
      'Removed baseline components from a tenant (off-board)',
    );
    expect(auditActionText('POST /api/new/route')).toBe('POST /api/new/route');
  });
});
