// What a customer report says, made from the facts read for it (issue 29, ADR 067, ADR 084): one
// pure function, so the portal's preview and 'send now' and a scheduled run say the same thing
// from the same reads.
import {
  auditActionText,
  backupHealth,
  parseBackupTag,
  sortBackupsNewestFirst,
  type AcceptedDeviationsConfig,
  type AuditEvent,
  type ComplianceSummary,
  type ReportPeriod,
} from '@aegis/domain';

import type { CustomerReportInput, ReportBranding, ReportChange } from './types';

/** Restore points listed: the newest ten. */
const RESTORE_POINTS = 10;

/** Audited actions that changed a client's tenant or configuration, as the customer reads them. */
const CHANGE_ACTIONS = new Set([
  'POST /api/baseline/deploy/runs',
  'POST /api/baseline/offboard/runs',
  'POST /api/backups/:client/restore',
  'POST /api/capture/clients/:client/pull-requests',
  'POST /api/compliance/:client/accepted-deviations',
  'DELETE /api/compliance/:client/accepted-deviations',
]);

/** Both percentages at one moment; null where there was nothing to measure. */
export interface ReportFigures {
  compliancePercentage: number | null;
  standardPercentage: number | null;
}

/** Everything read for one client's report, as the screens' own reads give it. */
export interface CustomerReportReads {
  client: string;
  period: ReportPeriod;
  /** the periods of the trend, oldest first, the last being `period` */
  trendPeriods: readonly ReportPeriod[];
  now: Date;
  branding: ReportBranding;
  /** the client's schedule: its customer's name and introduction, when it has one */
  schedule?: { customerName: string; introduction: string } | undefined;
  /** Baseline Compliance as its screen shows it now */
  compliance: {
    summary: ComplianceSummary;
    acceptedDeviations: AcceptedDeviationsConfig;
    warnings: readonly string[];
  };
  /** the standard comparison's figures; undefined when no setting it checks was captured */
  standard?: { percentage: number; passed: number; total: number } | undefined;
  /**
   * the figures as each trend period but the last ended, oldest first; the last point is now, so
   * it is not read at all (a second read of the client's folder otherwise)
   */
  trend: readonly (ReportFigures | null)[];
  reviewsWaiting: number;
  /** the audit trail's events of the client in the period */
  auditEvents: readonly AuditEvent[];
  /** the client folder's merged commits, newest first */
  commits: readonly { date: string; comment: string }[];
  /** the names of the client's backup tags (refs or short names) */
  backupTags: readonly string[];
  /** the figures recorded with the sends of the client's reports, newest first */
  history: readonly ({ periodId: string } & ReportFigures)[];
}

const firstLine = (text: string): string => text.split('\n', 1)[0]?.trim() ?? '';

/** The report's content from its reads: no I/O, no clock but `now`. */
export function customerReportFacts(reads: CustomerReportReads): CustomerReportInput {
  const { client, period, now, schedule } = reads;
  const summary = reads.compliance.summary;
  const accepted = reads.compliance.acceptedDeviations;
  const restorePoints = sortBackupsNewestFirst(
    reads.backupTags.flatMap((name) => {
      const parsed = parseBackupTag(name, client);
      return parsed ? [parsed] : [];
    }),
  );
  // since the last report sent for an earlier period; else as the previous period ended
  const last = reads.trendPeriods.length - 1;
  const lastSent = reads.history.find((s) => s.periodId < period.id);
  const previous = lastSent ?? reads.trend[last - 1] ?? undefined;
  const inPeriod = (iso: string) => iso >= period.start && iso < period.end;
  const changes: ReportChange[] = [
    ...reads.commits
      .filter((c) => inPeriod(new Date(c.date).toISOString()))
      .map((c) => ({
        date: c.date,
        kind: 'Configuration change merged',
        description: firstLine(c.comment),
      })),
    ...reads.auditEvents
      .filter((e) => CHANGE_ACTIONS.has(e.action) && e.result.outcome === 'succeeded')
      .map((e) => ({
        date: e.at,
        kind: auditActionText(e.action),
        description: `By ${e.actor.upn}`,
      })),
  ].sort((a, b) => a.date.localeCompare(b.date));
  const current: ReportFigures = {
    compliancePercentage: summary.compliancePercentage,
    standardPercentage: reads.standard?.percentage ?? null,
  };
  return {
    branding: reads.branding,
    customerName: schedule?.customerName || client,
    clientCode: client,
    period,
    generatedAt: now,
    ...(schedule?.introduction ? { introduction: schedule.introduction } : {}),
    compliance: {
      percentage: summary.compliancePercentage,
      totalCount: summary.totalCount,
      compliantCount: summary.compliantCount,
      deviationCount: summary.deviationCount,
      acceptedCount: summary.acceptedDeviationsCount,
      counts: {
        critical: summary.criticalCount,
        high: summary.highCount,
        medium: summary.mediumCount,
        low: summary.lowCount,
        prerequisite: summary.prerequisiteCount,
      },
    },
    ...(reads.standard
      ? {
          standard: {
            percentage: reads.standard.percentage,
            passed: reads.standard.passed,
            total: reads.standard.total,
          },
        }
      : {}),
    // the last point is now: the figures the screens show as the report is made
    trend: reads.trendPeriods.map((p, i) => {
      const point = i === last ? current : (reads.trend[i] ?? null);
      return {
        periodLabel: p.label,
        compliancePercentage: point?.compliancePercentage ?? null,
        standardPercentage: point?.standardPercentage ?? null,
      };
    }),
    ...(previous
      ? {
          previous: {
            compliancePercentage: previous.compliancePercentage,
            standardPercentage: previous.standardPercentage,
          },
        }
      : {}),
    deviations: summary.deviations.map((d) => ({
      policyName: d.policyName,
      category: d.category,
      severity: d.highestSeverity,
      isMissing: d.isMissing,
      deviationCount: d.deviationCount,
    })),
    exceptions: accepted.acceptedDeviations.map((a) => ({
      policyName: a.policyName,
      properties: a.properties,
      ...(a.reason ? { reason: a.reason } : {}),
      acceptedBy: a.acceptedBy,
      ...(a.approvedBy ? { approvedBy: a.approvedBy } : {}),
      ...(a.expiresAt ? { expiresAt: a.expiresAt } : {}),
    })),
    changes,
    backups: {
      health: backupHealth(restorePoints[0]?.date, now),
      restorePoints: restorePoints
        .slice(0, RESTORE_POINTS)
        .map((b) => ({ date: b.date.toISOString(), name: b.tagName })),
    },
    openItems: {
      reviewsWaiting: reads.reviewsWaiting,
      approvalsWaiting: accepted.pendingAcceptances?.length ?? 0,
      details: [...reads.compliance.warnings],
    },
    notCaptured: summary.notCaptured ?? [],
  };
}
