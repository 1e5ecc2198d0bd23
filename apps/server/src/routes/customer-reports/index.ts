import type { BlobStore } from '@aegis/connectors/blobs';
import { CustomerReportStore } from '@aegis/connectors/customer-reports';
import type { MailSender } from '@aegis/connectors/graph';
import type { ConfigRepository } from '@aegis/connectors/repository';
import type { AppTables } from '@aegis/connectors/tables';
import {
  customerReportClientParamsSchema,
  customerReportHistorySchema,
  customerReportPeriodQuerySchema,
  customerReportRunSchema,
  customerReportScheduleBodySchema,
  customerReportScheduleResponseSchema,
  customerReportSendParamsSchema,
  customerReportSendSchema,
  reportBrandingBodySchema,
  reportBrandingSchema,
  sendCustomerReportBodySchema,
} from '@aegis/contracts';
import { duePeriod, NotFoundError, parseReportPeriod } from '@aegis/domain';
import {
  type AuditTrail,
  createCustomerReportCaches,
  createCustomerReportSources,
  CustomerReportService,
  type CustomerReportRenderer,
} from '@aegis/insights';
import { readLogo } from '@aegis/reports';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import type { AegisConfig } from '../../config';
import { registering } from '../../lib/registering';
import { actorName } from '../../plugins/auth';
import { CaptureService, createCaptureCaches } from '../../services/capture-service';
import type { PipelineRuns } from '../../services/pipeline-runs';

const tags = ['customer-reports'];

export interface CustomerReportsOptions {
  readonly config: Pick<AegisConfig, 'AEGIS_DEVOPS_PROJECT'>;
  /** Table storage of the schedules, branding and history; asked for per request */
  readonly tables: () => AppTables;
  /** Blob storage of the archived PDFs; asked for per request, so that without one only these routes fail */
  readonly blobs: () => BlobStore;
  /** the email door (Graph sendMail); without one, 'send now' says what is missing */
  readonly mail: MailSender | undefined;
  readonly audit: AuditTrail;
  /** where the PDFs render (ADR 072): the server's pool keeps its thread free for requests */
  readonly renderer: CustomerReportRenderer;
  readonly now?: () => Date;
}

/** Who reads: a signed-in technician, with their request's identity. */
export interface CustomerReportReader {
  configRepository: ConfigRepository;
  pipelineRuns: PipelineRuns;
  log: FastifyBaseLogger;
}

/** The parts every reader shares (caches, ports), and the service of each reader over them. */
export function createCustomerReports({
  config,
  tables,
  blobs,
  mail,
  audit,
  renderer,
  now = () => new Date(),
}: CustomerReportsOptions) {
  const caches = createCustomerReportCaches();
  const captureCaches = createCaptureCaches();
  const sourcesOf = (reader: CustomerReportReader) => {
    const captures = new CaptureService(
      reader.configRepository,
      reader.pipelineRuns,
      captureCaches,
      config.AEGIS_DEVOPS_PROJECT,
    );
    return createCustomerReportSources({
      repository: reader.configRepository,
      caches,
      runDateOf: (branch) => captures.runDateOf(branch),
      audit,
      log: reader.log,
      now,
    });
  };
  const storeOf = () => new CustomerReportStore(tables(), blobs());
  return {
    storeOf,
    serviceOf: (reader: CustomerReportReader) =>
      new CustomerReportService(sourcesOf(reader), storeOf(), {
        mail,
        renderer,
        now,
      }),
    close: () => renderer.close(),
  };
}

export type CustomerReports = ReturnType<typeof createCustomerReports>;

export interface CustomerReportRoutesOptions {
  readonly reports: CustomerReports;
  readonly now?: () => Date;
}

/** Customer-ready compliance reports (issue 29): branding, schedules, preview, send now, history. */
export const customerReportRoutes: FastifyPluginCallbackZod<CustomerReportRoutesOptions> =
  registering((app, { reports, now = () => new Date() }) => {
    const { storeOf, serviceOf } = reports;

    app.get(
      '/api/customer-reports/branding',
      { config: { role: 'Reader' }, schema: { tags, response: { 200: reportBrandingSchema } } },
      async () => storeOf().branding(),
    );

    app.put(
      '/api/customer-reports/branding',
      {
        config: { role: 'Administrator' },
        schema: { tags, body: reportBrandingBodySchema, response: { 200: reportBrandingSchema } },
      },
      async (request) => {
        // a file named .png that is no image is refused here, naming the field, not in every report
        if (typeof request.body.logo === 'string') readLogo(request.body.logo);
        const store = storeOf();
        await store.saveBranding(request.body);
        return store.branding();
      },
    );

    app.get(
      '/api/customer-reports/:client/schedule',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          params: customerReportClientParamsSchema,
          response: { 200: customerReportScheduleResponseSchema },
        },
      },
      async (request) => {
        const store = storeOf();
        const schedule = await store.schedule(request.params.client);
        if (!schedule) return { schedule: null };
        const due = duePeriod(schedule.cadence, schedule.dayOfMonth, now());
        const state = await store.periodState(schedule.client, due.id);
        return {
          schedule: {
            ...schedule,
            duePeriod: { id: due.id, label: due.label, sent: state.state === 'sent' },
          },
        };
      },
    );

    app.put(
      '/api/customer-reports/:client/schedule',
      {
        config: { role: 'Operator' },
        schema: {
          tags,
          params: customerReportClientParamsSchema,
          body: customerReportScheduleBodySchema,
          response: { 200: customerReportScheduleResponseSchema },
        },
      },
      async (request) => {
        const store = storeOf();
        const { client } = request.params;
        const at = now();
        const schedule = {
          ...request.body,
          client,
          updatedBy: actorName(request.user),
          updatedAt: at.toISOString(),
        };
        await store.saveSchedule(schedule);
        const due = duePeriod(schedule.cadence, schedule.dayOfMonth, at);
        const state = await store.periodState(client, due.id);
        return {
          schedule: {
            ...schedule,
            duePeriod: { id: due.id, label: due.label, sent: state.state === 'sent' },
          },
        };
      },
    );

    /** The report as it would be sent now: the same PDF. */
    app.get(
      '/api/customer-reports/:client/preview',
      {
        config: { role: 'Reader', heavy: true },
        schema: {
          tags,
          params: customerReportClientParamsSchema,
          querystring: customerReportPeriodQuerySchema,
        },
      },
      async (request, reply) => {
        const service = serviceOf(request);
        const { client } = request.params;
        const period = await service.periodOf(
          client,
          request.query.period ? parseReportPeriod(request.query.period) : undefined,
        );
        const { bytes, fileName } = await service.pdf(client, period);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `inline; filename="${fileName}"`)
          .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      },
    );

    app.get(
      '/api/customer-reports/:client/sends',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          params: customerReportClientParamsSchema,
          response: { 200: customerReportHistorySchema },
        },
      },
      async (request) => ({ sends: await storeOf().history(request.params.client) }),
    );

    /** 'Send now': the period's report to the customer's contacts, technicians in copy. */
    app.post(
      '/api/customer-reports/:client/sends',
      {
        config: { role: 'Operator', heavy: true },
        schema: {
          tags,
          params: customerReportClientParamsSchema,
          body: sendCustomerReportBodySchema,
          response: { 201: customerReportSendSchema },
        },
      },
      async (request, reply) => {
        const service = serviceOf(request);
        const { client } = request.params;
        const period = await service.periodOf(
          client,
          request.body.period ? parseReportPeriod(request.body.period) : undefined,
        );
        const send = await service.send(client, period, 'manual', actorName(request.user));
        return reply.code(201).send(send);
      },
    );

    /** A sent report's PDF, from Blob storage: the bytes that were attached. */
    app.get(
      '/api/customer-reports/:client/sends/:sendId/pdf',
      { config: { role: 'Reader' }, schema: { tags, params: customerReportSendParamsSchema } },
      async (request, reply) => {
        const { client, sendId } = request.params;
        const store = storeOf();
        const send = await store.send(client, sendId);
        const bytes = send ? await store.pdf(client, sendId) : undefined;
        if (!send || !bytes) throw new NotFoundError(`No report ${sendId} was sent to ${client}.`);
        return reply
          .header('content-type', 'application/pdf')
          .header(
            'content-disposition',
            `attachment; filename="${client}_Compliance_Report_${send.periodId}.pdf"`,
          )
          .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      },
    );

    /** Sends every due report not sent yet (what the scheduled run does), now. */
    app.post(
      '/api/customer-reports/runs',
      {
        config: { role: 'Administrator', heavy: true },
        schema: { tags, response: { 200: customerReportRunSchema } },
      },
      async (request) => serviceOf(request).runDue(),
    );
  });
