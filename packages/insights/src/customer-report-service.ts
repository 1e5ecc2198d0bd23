// Customer-ready compliance reports (issue 29, ADR 067): the facts of a client's report gathered
// from the services the screens use (so its figures are theirs), rendered as the customer PDF,
// sent through the one email door with the PDF attached, archived in Blob storage and recorded.
import { ServiceError } from '@aegis/connectors';
import type { CustomerReportStore } from '@aegis/connectors/customer-reports';
import type { MailSender } from '@aegis/connectors/graph';
import type { ConfigRepository } from '@aegis/connectors/repository';
import type {
  ComplianceReport,
  CustomerReportRun,
  CustomerReportSend,
  FleetTrendPoint,
  StandardComparisonResult,
} from '@aegis/contracts';
import {
  type AuditEvent,
  clientFolder,
  customerReportBlobName,
  type CustomerReportScheduleRecord,
  customerReportSendId,
  customerReportFileName,
  CUSTOMER_REPORT_SEND_ATTEMPTS,
  duePeriod,
  NotFoundError,
  periodsEndingWith,
  type ReportPeriod,
} from '@aegis/domain';
import { customerReportFacts, readLogo, type CustomerReportInput } from '@aegis/reports';

import { inThreadRenderer, type CustomerReportRenderer } from './customer-report-renderer';

/** Where a report's facts come from: the services behind Baseline Compliance, the standard comparison, Fleet, captures, audit. */
export interface CustomerReportSources {
  readonly repository: ConfigRepository;
  compliance(client: string): Promise<ComplianceReport>;
  /** the standard catalogue's result; undefined when no setting it checks was captured */
  standard(client: string): Promise<StandardComparisonResult | undefined>;
  figuresAt(client: string, moments: readonly Date[]): Promise<(FleetTrendPoint | null)[]>;
  reviewsWaiting(client: string): Promise<number>;
  auditEvents(client: string, period: ReportPeriod): Promise<AuditEvent[]>;
}

/** Points in the report's trend: the last six periods. */
export const TREND_PERIODS = 6;
/** How long a sender holds a client's period before another may take it over. */
const CLAIM_IN_MS = 10 * 60_000;

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** What the service sends through and renders with; each optional for a narrower use. */
export interface CustomerReportServiceOptions {
  /** the email door (Graph sendMail); without one, sending says what is missing */
  readonly mail?: MailSender | undefined;
  /** where PDFs render (ADR 072); default: the calling thread */
  readonly renderer?: CustomerReportRenderer;
  readonly now?: () => Date;
}

export class CustomerReportService {
  private readonly mail: MailSender | undefined;
  private readonly renderer: CustomerReportRenderer;
  private readonly now: () => Date;

  constructor(
    private readonly sources: CustomerReportSources,
    private readonly store: CustomerReportStore,
    options: CustomerReportServiceOptions = {},
  ) {
    this.mail = options.mail;
    this.renderer = options.renderer ?? inThreadRenderer;
    this.now = options.now ?? (() => new Date());
  }

  /** The schedule or a NotFoundError naming the client. */
  async scheduleOf(client: string): Promise<CustomerReportScheduleRecord> {
    const schedule = await this.store.schedule(client);
    if (!schedule) throw new NotFoundError(`No customer report is scheduled for ${client}.`);
    return schedule;
  }

  /** The period a report now covers: the given one, else the schedule's due one, else last month. */
  async periodOf(client: string, period: ReportPeriod | undefined): Promise<ReportPeriod> {
    if (period) return period;
    const schedule = await this.store.schedule(client);
    return duePeriod(schedule?.cadence ?? 'monthly', schedule?.dayOfMonth ?? 1, this.now());
  }

  /** Everything the report says, from the screens' own services (one assembly: ADR 084). */
  async facts(client: string, period: ReportPeriod): Promise<CustomerReportInput> {
    const trendPeriods = periodsEndingWith(period, TREND_PERIODS);
    const [schedule, branding, report, standard, trend, reviews, audit, commits, tags, history] =
      await Promise.all([
        this.store.schedule(client),
        this.store.branding(),
        this.sources.compliance(client),
        this.sources.standard(client),
        // the last point is now: the figures read below, not the client's folder read again
        this.sources.figuresAt(
          client,
          trendPeriods.slice(0, -1).map((p) => new Date(p.end)),
        ),
        this.sources.reviewsWaiting(client),
        this.sources.auditEvents(client, period),
        this.sources.repository.listCommits({
          path: clientFolder(client),
          firstParent: true,
          top: 100,
        }),
        this.sources.repository.listRefs(`tags/backup/${client}/`),
        this.store.history(client, 20),
      ]);
    return customerReportFacts({
      client,
      period,
      trendPeriods,
      now: this.now(),
      branding: {
        mspName: branding.mspName,
        ...(branding.logo ? { logo: branding.logo } : {}),
        primaryColour: branding.primaryColour,
        contactEmail: branding.contactEmail,
        contactPhone: branding.contactPhone,
        website: branding.website,
        supportMessage: branding.supportMessage,
      },
      schedule,
      compliance: {
        summary: report.compliance,
        acceptedDeviations: report.acceptedDeviations,
        warnings: report.warnings,
      },
      standard,
      trend,
      reviewsWaiting: reviews,
      auditEvents: audit,
      commits: commits.map((c) => ({
        date: c.committer.date || c.author.date,
        comment: c.comment,
      })),
      backupTags: tags.map((ref) => ref.name),
      history,
    });
  }

  /** The report's PDF, as it would be sent now. */
  async pdf(
    client: string,
    period: ReportPeriod,
  ): Promise<{ bytes: Uint8Array; fileName: string }> {
    const facts = await this.facts(client, period);
    // a stored logo that is not an image fails here, naming the field, rather than in pdfmake
    if (facts.branding.logo !== undefined) readLogo(facts.branding.logo);
    return {
      bytes: await this.renderer.render(facts),
      fileName: customerReportFileName(client, period.id),
    };
  }

  /**
   * Makes, sends and archives one client's report for a period, and records it: the email with
   * the PDF attached to the customer's contacts, technicians in copy; then the PDF in Blob
   * storage and a history row. Nothing is recorded when the email could not be sent.
   */
  async send(
    client: string,
    period: ReportPeriod,
    trigger: 'manual' | 'scheduled',
    requestedBy: string,
  ): Promise<CustomerReportSend> {
    if (!this.mail) {
      throw new ServiceError(
        'Customer reports cannot be emailed: no sending mailbox is configured (AEGIS_MAIL_SENDER).',
        { service: 'graph', statusCode: 503, code: 'NotConfigured' },
      );
    }
    const schedule = await this.scheduleOf(client);
    const facts = await this.facts(client, period);
    const pdf = await this.renderer.render(facts);
    const fileName = customerReportFileName(client, period.id);
    await this.mail.send({
      subject: `${facts.customerName}: Microsoft 365 compliance report, ${period.label}`,
      body: {
        contentType: 'text',
        content: [
          schedule.introduction.trim() ||
            `Please find attached your Microsoft 365 compliance report for ${period.label}.`,
          '',
          `Compliance with our company baseline: ${facts.compliance.percentage}%.`,
          facts.standard
            ? `Compliance with the standard catalogue: ${facts.standard.percentage}%.`
            : 'Compliance with the standard catalogue could not be measured this period.',
          '',
          facts.branding.mspName,
        ].join('\n'),
      },
      to: schedule.contacts,
      cc: schedule.technicians,
      attachments: [{ name: fileName, contentType: 'application/pdf', content: pdf }],
    });
    const sentAt = this.now();
    const send: CustomerReportSend = {
      id: customerReportSendId(sentAt, period.id),
      client,
      periodId: period.id,
      periodLabel: period.label,
      sentAt: sentAt.toISOString(),
      to: schedule.contacts,
      cc: schedule.technicians,
      trigger,
      requestedBy,
      sizeInBytes: pdf.byteLength,
      compliancePercentage: facts.compliance.percentage,
      standardPercentage: facts.standard?.percentage ?? null,
    };
    await this.store.recordSend(
      send,
      pdf,
      customerReportBlobName(client, `${period.id}/${send.id}`),
    );
    return send;
  }

  /**
   * The scheduled run: each enabled schedule's due period, sent once. A client's period is claimed
   * with a conditional write first, so a second run (or instance) never sends it again; a failure
   * is retried, then recorded as the period's outcome (which the notification producers say to the
   * technicians), and the next run tries that period again.
   */
  async runDue(clients?: readonly string[]): Promise<CustomerReportRun> {
    const run: CustomerReportRun = { sent: [], alreadySent: [], failed: [] };
    const schedules = (await this.store.schedules()).filter(
      (s) => s.enabled && (!clients || clients.includes(s.client)),
    );
    for (const schedule of schedules) {
      const now = this.now();
      const period = duePeriod(schedule.cadence, schedule.dayOfMonth, now);
      const entry = { client: schedule.client, periodId: period.id };
      const claim = await this.store.claimPeriod(
        schedule.client,
        period.id,
        now,
        new Date(now.getTime() + CLAIM_IN_MS),
      );
      if (claim !== 'claimed') {
        if (claim === 'sent') run.alreadySent.push(entry);
        else run.failed.push({ ...entry, reason: 'Another run is sending this report.' });
        continue;
      }
      let lastError: unknown;
      for (let attempt = 1; attempt <= CUSTOMER_REPORT_SEND_ATTEMPTS; attempt++) {
        try {
          const send = await this.send(schedule.client, period, 'scheduled', 'scheduled run');
          await this.store.settlePeriod(schedule.client, period.id, { sendId: send.id });
          run.sent.push(entry);
          lastError = undefined;
          break;
        } catch (error) {
          lastError = error;
        }
      }
      if (lastError !== undefined) {
        const failure = reason(lastError);
        // the period's outcome is what the notification producers say (ADR 089)
        await this.store.settlePeriod(schedule.client, period.id, { reason: failure });
        run.failed.push({ ...entry, reason: failure });
      }
    }
    return run;
  }
}
