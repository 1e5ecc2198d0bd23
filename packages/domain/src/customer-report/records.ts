// What customer reports keep (issue 29, ADR 067, ADR 084): the rows of schedules, branding, sends
// and period claims, in domain terms, so that the server and a pipeline task share one store.
import type { ReportCadence } from './period';

/** A client's schedule: when its report goes, to whom, and who changed it last. */
export interface CustomerReportScheduleRecord {
  client: string;
  customerName: string;
  cadence: ReportCadence;
  /** 1–28 (quarterly: in January, April, July and October) */
  dayOfMonth: number;
  /** the customer's contacts who receive the report */
  contacts: string[];
  /** technicians in copy */
  technicians: string[];
  introduction: string;
  enabled: boolean;
  updatedBy: string;
  updatedAt: string;
}

/** The MSP's branding as kept; the logo a data URL, when there is one. */
export interface CustomerReportBrandingRecord {
  mspName: string;
  primaryColour: string;
  contactEmail: string;
  contactPhone: string;
  website: string;
  supportMessage: string;
  logo: string | null;
}

/** A change of the branding: a logo of null removes it, an absent one keeps it. */
export type CustomerReportBrandingUpdate = Omit<CustomerReportBrandingRecord, 'logo'> & {
  logo?: string | null | undefined;
};

/** One report sent: to whom, when, and the figures it said. */
export interface CustomerReportSendRecord {
  id: string;
  client: string;
  periodId: string;
  periodLabel: string;
  sentAt: string;
  to: string[];
  cc: string[];
  trigger: 'manual' | 'scheduled';
  requestedBy: string;
  sizeInBytes: number;
  compliancePercentage: number | null;
  standardPercentage: number | null;
}

/** The state of one client's period: claimed by a sender until a moment, sent, or failed. */
export type ReportPeriodState =
  | { state: 'free' }
  | { state: 'sending'; until: string }
  | { state: 'sent'; sendId: string }
  | { state: 'failed'; attempts: number; reason: string };

/** Larger than any date in milliseconds: `MAX - ms` sorts the newest send first. */
const MAX_TIME_MS = 8_640_000_000_000_000;

/** The id of a send made at `sentAt`: newest first in the partition, unique per millisecond and period. */
export function customerReportSendId(sentAt: Date, periodId: string): string {
  return `${String(MAX_TIME_MS - sentAt.getTime()).padStart(16, '0')}-${periodId.toLowerCase()}`;
}
