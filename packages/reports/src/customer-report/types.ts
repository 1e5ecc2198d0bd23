import type { BackupHealth, NotCapturedWorkload, ReportPeriod, Severity } from '@aegis/domain';

/** The MSP's branding on the customer report's cover (issue 29 §1). */
export interface ReportBranding {
  mspName: string;
  /** PNG, JPEG or SVG: a data URL or the file's bytes */
  logo?: string | Uint8Array;
  /** the brand colour (#RRGGBB) of titles and rules; the report palette's navy when absent */
  primaryColour?: string;
  contactEmail?: string;
  contactPhone?: string;
  website?: string;
  /** an optional line on how to reach support */
  supportMessage?: string;
}

/** A figure at one point of the trend. */
export interface TrendFigure {
  periodLabel: string;
  compliancePercentage: number | null;
  standardPercentage: number | null;
}

/** A policy that deviates from the company baseline. */
export interface ReportDeviation {
  policyName: string;
  category: string;
  severity: Severity;
  /** the baseline policy is not in the tenant at all */
  isMissing: boolean;
  deviationCount: number;
}

/** An accepted exception: a deviation the customer and the MSP agreed to keep. */
export interface ReportException {
  policyName: string;
  properties: string[];
  reason?: string;
  acceptedBy: string;
  approvedBy?: string;
  /** yyyy-mm-dd; none: until revoked */
  expiresAt?: string;
}

/** Something the MSP did for the customer this period. */
export interface ReportChange {
  /** ISO */
  date: string;
  /** 'Configuration captured', 'Baseline deployed', … */
  kind: string;
  description: string;
}

export interface ReportRestorePoint {
  /** ISO */
  date: string;
  name: string;
}

/** Everything the customer report says: facts gathered by the server, no I/O here. */
export interface CustomerReportInput {
  branding: ReportBranding;
  customerName: string;
  clientCode: string;
  period: ReportPeriod;
  generatedAt: Date;
  /** the client's editable introduction; paragraphs split on blank lines */
  introduction?: string;
  compliance: {
    percentage: number;
    totalCount: number;
    compliantCount: number;
    deviationCount: number;
    acceptedCount: number;
    counts: Record<Severity, number>;
  };
  /** the standard catalogue's pass rate; none when no setting it checks was captured */
  standard?: { percentage: number; passed: number; total: number };
  /** oldest first, the last point being this period */
  trend: TrendFigure[];
  previous?: { compliancePercentage: number | null; standardPercentage: number | null };
  deviations: ReportDeviation[];
  exceptions: ReportException[];
  changes: ReportChange[];
  backups: { health: BackupHealth; restorePoints: ReportRestorePoint[] };
  openItems: { reviewsWaiting: number; approvalsWaiting: number; details: string[] };
  notCaptured: NotCapturedWorkload[];
}
