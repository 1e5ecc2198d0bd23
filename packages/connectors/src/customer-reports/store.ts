// Where customer reports keep their state (issue 29, ADR 067): the MSP's branding, each client's
// schedule, the history of sends in Table storage; the PDFs and the logo in Blob storage; each
// client's period claimed with a conditional write, so that no period is sent twice. Here rather
// than in the server, so that a pipeline task can share it (ADR 084).
import type {
  AppTableEntity,
  CustomerReportBrandingRecord,
  CustomerReportBrandingUpdate,
  CustomerReportScheduleRecord,
  CustomerReportSendRecord,
  ReportPeriodState,
} from '@aegis/domain';

import type { BlobStore } from '../blobs';
import { SharedRows, type AppTables } from '../tables';

/** The table of schedules, branding, history and period claims. */
export const CUSTOMER_REPORTS_TABLE = 'AegisCustomerReports';
/** The container of archived reports (kept at least 12 months, ADR 067) and the MSP's logo. */
export const CUSTOMER_REPORTS_CONTAINER = 'customer-reports';
const LOGO_BLOB = 'branding/logo';

const SCHEDULES = 'schedule';
const BRANDING = { partitionKey: 'branding', rowKey: 'msp' };
const historyPartition = (client: string) => `sent-${client}`;
const periodPartition = (client: string) => `period-${client}`;

const DEFAULT_BRANDING: CustomerReportBrandingRecord = {
  mspName: 'Your managed service provider',
  primaryColour: '#14325C',
  contactEmail: '',
  contactPhone: '',
  website: '',
  supportMessage: '',
  logo: null,
};

const text = (row: AppTableEntity, key: string): string =>
  typeof row[key] === 'string' ? row[key] : '';
const list = (row: AppTableEntity, key: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(text(row, key) || '[]');
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
};
const numberOrNull = (row: AppTableEntity, key: string): number | null =>
  typeof row[key] === 'number' ? row[key] : null;

function scheduleOf(row: AppTableEntity): CustomerReportScheduleRecord {
  return {
    client: row.RowKey,
    customerName: text(row, 'CustomerName'),
    cadence: text(row, 'Cadence') === 'quarterly' ? 'quarterly' : 'monthly',
    dayOfMonth: typeof row.DayOfMonth === 'number' ? row.DayOfMonth : 1,
    contacts: list(row, 'Contacts'),
    technicians: list(row, 'Technicians'),
    introduction: text(row, 'Introduction'),
    enabled: row.Enabled === true,
    updatedBy: text(row, 'UpdatedBy'),
    updatedAt: text(row, 'UpdatedAt'),
  };
}

function sendOf(row: AppTableEntity): CustomerReportSendRecord {
  return {
    id: row.RowKey,
    client: text(row, 'Client'),
    periodId: text(row, 'PeriodId'),
    periodLabel: text(row, 'PeriodLabel'),
    sentAt: text(row, 'SentAt'),
    to: list(row, 'To'),
    cc: list(row, 'Cc'),
    trigger: text(row, 'Trigger') === 'scheduled' ? 'scheduled' : 'manual',
    requestedBy: text(row, 'RequestedBy'),
    sizeInBytes: typeof row.SizeInBytes === 'number' ? row.SizeInBytes : 0,
    compliancePercentage: numberOrNull(row, 'CompliancePercentage'),
    standardPercentage: numberOrNull(row, 'StandardPercentage'),
  };
}

export class CustomerReportStore {
  private readonly rows: SharedRows;

  constructor(
    private readonly tables: AppTables,
    private readonly blobs: BlobStore,
  ) {
    this.rows = new SharedRows(tables, CUSTOMER_REPORTS_TABLE);
  }

  async schedule(client: string): Promise<CustomerReportScheduleRecord | undefined> {
    const row = await this.rows.read({ partitionKey: SCHEDULES, rowKey: client });
    return row ? scheduleOf(row) : undefined;
  }

  /** Every schedule, for the scheduled run. */
  async schedules(): Promise<CustomerReportScheduleRecord[]> {
    await this.rows.read({ partitionKey: SCHEDULES, rowKey: '-' });
    const out: CustomerReportScheduleRecord[] = [];
    let token: string | undefined;
    do {
      const page = await this.tables.queryEntities(CUSTOMER_REPORTS_TABLE, {
        filter: `PartitionKey eq '${SCHEDULES}'`,
        ...(token ? { continuationToken: token } : {}),
      });
      out.push(...page.entities.map(scheduleOf));
      token = page.continuationToken;
    } while (token);
    return out;
  }

  async saveSchedule(schedule: CustomerReportScheduleRecord): Promise<void> {
    await this.rows.update({ partitionKey: SCHEDULES, rowKey: schedule.client }, () => ({
      write: {
        CustomerName: schedule.customerName,
        Cadence: schedule.cadence,
        DayOfMonth: schedule.dayOfMonth,
        Contacts: JSON.stringify(schedule.contacts),
        Technicians: JSON.stringify(schedule.technicians),
        Introduction: schedule.introduction,
        Enabled: schedule.enabled,
        UpdatedBy: schedule.updatedBy,
        UpdatedAt: schedule.updatedAt,
      },
      result: undefined,
    }));
  }

  async branding(): Promise<CustomerReportBrandingRecord> {
    const row = await this.rows.read(BRANDING);
    if (!row) return DEFAULT_BRANDING;
    const logo =
      row.HasLogo === true
        ? await this.blobs.get(CUSTOMER_REPORTS_CONTAINER, LOGO_BLOB)
        : undefined;
    return {
      mspName: text(row, 'MspName') || DEFAULT_BRANDING.mspName,
      primaryColour: text(row, 'PrimaryColour') || DEFAULT_BRANDING.primaryColour,
      contactEmail: text(row, 'ContactEmail'),
      contactPhone: text(row, 'ContactPhone'),
      website: text(row, 'Website'),
      supportMessage: text(row, 'SupportMessage'),
      logo: logo ? new TextDecoder().decode(logo.content) : null,
    };
  }

  /** Saves the branding; the logo (a data URL, up to about 1 MB) goes to Blob storage, not a row. */
  async saveBranding(branding: CustomerReportBrandingUpdate): Promise<void> {
    if (typeof branding.logo === 'string') {
      await this.blobs.put(
        CUSTOMER_REPORTS_CONTAINER,
        LOGO_BLOB,
        new TextEncoder().encode(branding.logo),
        {
          contentType: 'text/plain',
        },
      );
    }
    await this.rows.update(BRANDING, (current) => ({
      write: {
        MspName: branding.mspName,
        PrimaryColour: branding.primaryColour,
        ContactEmail: branding.contactEmail,
        ContactPhone: branding.contactPhone,
        Website: branding.website,
        SupportMessage: branding.supportMessage,
        HasLogo: branding.logo === undefined ? current?.HasLogo === true : branding.logo !== null,
      },
      result: undefined,
    }));
  }

  /** Sends of a client, newest first. */
  async history(client: string, max = 200): Promise<CustomerReportSendRecord[]> {
    try {
      const page = await this.tables.queryEntities(CUSTOMER_REPORTS_TABLE, {
        filter: `PartitionKey eq '${historyPartition(client)}'`,
        maxPageSize: max,
      });
      return page.entities.map(sendOf);
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return [];
      throw error;
    }
  }

  async send(client: string, sendId: string): Promise<CustomerReportSendRecord | undefined> {
    const row = await this.rows.read({ partitionKey: historyPartition(client), rowKey: sendId });
    return row ? sendOf(row) : undefined;
  }

  /** Keeps a sent report: its PDF in Blob storage first, then its history row. */
  async recordSend(
    send: CustomerReportSendRecord,
    pdf: Uint8Array,
    blobName: string,
  ): Promise<void> {
    await this.blobs.put(CUSTOMER_REPORTS_CONTAINER, blobName, pdf, {
      contentType: 'application/pdf',
      metadata: { client: send.client, period: send.periodId },
    });
    await this.tables.createEntity(CUSTOMER_REPORTS_TABLE, {
      PartitionKey: historyPartition(send.client),
      RowKey: send.id,
      Client: send.client,
      PeriodId: send.periodId,
      PeriodLabel: send.periodLabel,
      SentAt: send.sentAt,
      To: JSON.stringify(send.to),
      Cc: JSON.stringify(send.cc),
      Trigger: send.trigger,
      RequestedBy: send.requestedBy,
      SizeInBytes: send.sizeInBytes,
      CompliancePercentage: send.compliancePercentage,
      StandardPercentage: send.standardPercentage,
      BlobName: blobName,
    });
  }

  /** The PDF of a send, from Blob storage. */
  async pdf(client: string, sendId: string): Promise<Uint8Array | undefined> {
    const row = await this.rows.read({ partitionKey: historyPartition(client), rowKey: sendId });
    const blobName = row ? text(row, 'BlobName') : '';
    if (!blobName) return undefined;
    return (await this.blobs.get(CUSTOMER_REPORTS_CONTAINER, blobName))?.content;
  }

  async periodState(client: string, periodId: string): Promise<ReportPeriodState> {
    const row = await this.rows.read({ partitionKey: periodPartition(client), rowKey: periodId });
    return row ? periodStateOf(row) : { state: 'free' };
  }

  /**
   * Claims a client's period for one sender until `until` (a conditional write): 'claimed', or
   * why not: sent already, or another sender holds it. A lapsed claim or a failure can be claimed.
   */
  claimPeriod(
    client: string,
    periodId: string,
    now: Date,
    until: Date,
  ): Promise<'claimed' | 'sent' | 'busy'> {
    return this.rows.update({ partitionKey: periodPartition(client), rowKey: periodId }, (row) => {
      const current = row ? periodStateOf(row) : { state: 'free' as const };
      if (current.state === 'sent') return { result: 'sent' as const };
      if (current.state === 'sending' && Date.parse(current.until) > now.getTime()) {
        return { result: 'busy' as const };
      }
      return {
        write: {
          State: 'sending',
          Until: until.toISOString(),
          Attempts: (row && typeof row.Attempts === 'number' ? row.Attempts : 0) + 1,
        },
        result: 'claimed' as const,
      };
    });
  }

  async settlePeriod(
    client: string,
    periodId: string,
    outcome: { sendId: string } | { reason: string },
  ): Promise<void> {
    await this.rows.update({ partitionKey: periodPartition(client), rowKey: periodId }, (row) => ({
      write:
        'sendId' in outcome
          ? { State: 'sent', SendId: outcome.sendId, Attempts: row?.Attempts ?? 1 }
          : {
              State: 'failed',
              Reason: outcome.reason.slice(0, 2_000),
              Attempts: row?.Attempts ?? 1,
            },
      result: undefined,
    }));
  }
}

function periodStateOf(row: AppTableEntity): ReportPeriodState {
  const state = text(row, 'State');
  if (state === 'sent') return { state: 'sent', sendId: text(row, 'SendId') };
  if (state === 'sending') return { state: 'sending', until: text(row, 'Until') };
  if (state === 'failed') {
    return {
      state: 'failed',
      attempts: typeof row.Attempts === 'number' ? row.Attempts : 1,
      reason: text(row, 'Reason'),
    };
  }
  return { state: 'free' };
}
