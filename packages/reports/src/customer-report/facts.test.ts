import {
  emptyAcceptedDeviations,
  parseReportPeriod,
  periodsEndingWith,
  type AuditEvent,
  type ComplianceSummary,
} from '@aegis/domain';
import { describe, expect, it } from 'vitest';

import { customerReportFacts, type CustomerReportReads } from './facts';

const period = parseReportPeriod('2026-10');
const trendPeriods = periodsEndingWith(period, 3);

const summary: ComplianceSummary = {
  totalCount: 10,
  compliantCount: 8,
  deviationCount: 2,
  criticalCount: 1,
  highCount: 1,
  mediumCount: 0,
  lowCount: 0,
  prerequisiteCount: 0,
  compliancePercentage: 80,
  missingPoliciesCount: 1,
  clientOnlyPolicies: [],
  matchingApplied: false,
  matchesAppliedCount: 0,
  acceptedDeviationsApplied: true,
  acceptedDeviationsCount: 0,
  deviations: [],
};

function audit(action: string, at: string, outcome: 'succeeded' | 'failed'): AuditEvent {
  return {
    id: `${action}-${at}`,
    at,
    actor: { upn: 'tech@msp.example', oid: 'o', roles: [] },
    action,
    clientCode: 'FAB',
    parameters: {},
    result: { outcome },
  };
}

function reads(overrides: Partial<CustomerReportReads> = {}): CustomerReportReads {
  return {
    client: 'FAB',
    period,
    trendPeriods,
    now: new Date('2026-11-05T08:00:00Z'),
    branding: { mspName: 'Northwind' },
    compliance: {
      summary,
      acceptedDeviations: emptyAcceptedDeviations('FAB'),
      warnings: ['The matching configuration could not be loaded and was not applied.'],
    },
    standard: { percentage: 70, passed: 7, total: 10 },
    trend: [
      { compliancePercentage: 60, standardPercentage: 50 },
      { compliancePercentage: 75, standardPercentage: 65 },
    ],
    reviewsWaiting: 2,
    auditEvents: [],
    commits: [],
    backupTags: [],
    history: [],
    ...overrides,
  };
}

describe('customerReportFacts', () => {
  it("ends the trend with now's figures and compares with the previous period's", () => {
    const facts = customerReportFacts(reads());
    expect(facts.trend.map((t) => t.compliancePercentage)).toEqual([60, 75, 80]);
    expect(facts.trend.map((t) => t.standardPercentage)).toEqual([50, 65, 70]);
    expect(facts.trend.at(-1)?.periodLabel).toBe('October 2026');
    expect(facts.previous).toEqual({ compliancePercentage: 75, standardPercentage: 65 });
    expect(facts.customerName).toBe('FAB');
    expect(facts.openItems).toEqual({
      reviewsWaiting: 2,
      approvalsWaiting: 0,
      details: ['The matching configuration could not be loaded and was not applied.'],
    });
  });

  it('compares with the last report sent for an earlier period, not one for this period', () => {
    const facts = customerReportFacts(
      reads({
        history: [
          { periodId: '2026-10', compliancePercentage: 79, standardPercentage: 69 },
          { periodId: '2026-09', compliancePercentage: 77, standardPercentage: null },
        ],
      }),
    );
    expect(facts.previous).toEqual({ compliancePercentage: 77, standardPercentage: null });
  });

  it("lists the period's merges and succeeded changes in date order, and the newest backups", () => {
    const facts = customerReportFacts(
      reads({
        commits: [
          { date: '2026-11-01T10:00:00Z', comment: 'after the period' },
          { date: '2026-10-20T10:00:00Z', comment: 'Capture of FAB\n\nbody' },
          { date: '2026-09-30T23:00:00Z', comment: 'before the period' },
        ],
        auditEvents: [
          audit('POST /api/baseline/deploy/runs', '2026-10-10T09:00:00.000Z', 'succeeded'),
          audit('POST /api/baseline/deploy/runs', '2026-10-11T09:00:00.000Z', 'failed'),
          audit('PUT /api/settings', '2026-10-12T09:00:00.000Z', 'succeeded'),
        ],
        backupTags: [
          'refs/tags/backup/FAB/20261031_020000',
          'refs/tags/backup/FAB/20261105_020000',
          'refs/tags/backup/CON/20261105_020000',
        ],
      }),
    );
    expect(facts.changes.map((c) => [c.date.slice(0, 10), c.description])).toEqual([
      ['2026-10-10', 'By tech@msp.example'],
      ['2026-10-20', 'Capture of FAB'],
    ]);
    expect(facts.backups.restorePoints.map((p) => p.name)).toEqual([
      'backup/FAB/20261105_020000',
      'backup/FAB/20261031_020000',
    ]);
    expect(facts.backups.health).toBe('Healthy');
  });

  it('leaves the standard out when nothing it checks was captured', () => {
    const facts = customerReportFacts(reads({ standard: undefined }));
    expect(facts.standard).toBeUndefined();
    expect(facts.trend.at(-1)?.standardPercentage).toBeNull();
  });
});
