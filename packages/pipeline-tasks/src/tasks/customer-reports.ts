// Customer Reports (issue 29, ADR 067, 089): each scheduled client's report for its due period,
// made from the very code behind the portal's screens (@aegis/insights), emailed with the PDF
// attached, kept in Blob storage and recorded. A pipeline job run daily, not the server's work:
// a period is claimed with a conditional write, so a re-run (or a second agent) never sends it
// twice; a failing report is retried, and its recorded outcome is what the server's notification
// producers say to the technicians.
import { CustomerReportStore } from '@aegis/connectors/customer-reports';
import {
  AuditTrail,
  createCustomerReportCaches,
  createCustomerReportSources,
  CustomerReportService,
} from '@aegis/insights';

import { TaskError } from '../log';

import type { TaskContext } from './context';

/** What the run reads and writes: the repository, Table and Blob storage, the sending mailbox. */
export type CustomerReportsContext = Pick<
  TaskContext,
  'log' | 'now' | 'repository' | 'tables' | 'blobs' | 'mail'
>;

export async function runCustomerReports(context: CustomerReportsContext) {
  const { log, repository, tables, blobs, mail } = context;
  const missing = [
    ...(tables ? [] : ['AEGIS_TABLES_URL']),
    ...(blobs ? [] : ['AEGIS_BLOBS_URL']),
    ...(mail ? [] : ['AEGIS_MAIL_SENDER']),
  ];
  if (!tables || !blobs || !mail) {
    throw new TaskError(
      `Customer reports need Table and Blob storage and a sending mailbox: ${missing.join(', ')} not set for this run`,
    );
  }
  log.section('Customer reports');
  const now = () => context.now();
  const sources = createCustomerReportSources({
    repository,
    caches: createCustomerReportCaches(),
    // a capture's run date only dates the Capture screen's branches; the report counts reviews
    runDateOf: () => Promise.resolve(undefined),
    audit: new AuditTrail(tables),
    log: { warn: (detail, message) => log.warning(`${message} ${JSON.stringify(detail)}`) },
    now,
  });
  const service = new CustomerReportService(sources, new CustomerReportStore(tables, blobs), {
    mail,
    now,
  });
  const run = await service.runDue();
  for (const sent of run.sent) log.info(`Sent: ${sent.client} ${sent.periodId}`);
  for (const before of run.alreadySent) {
    log.info(`Sent before: ${before.client} ${before.periodId}`);
  }
  log.info(
    `${run.sent.length} sent, ${run.alreadySent.length} sent before, ${run.failed.length} failed`,
  );
  for (const failure of run.failed) {
    log.error(`Not sent: ${failure.client} ${failure.periodId}: ${failure.reason}`);
  }
  if (run.failed.length > 0) {
    throw new TaskError(
      `${run.failed.length} customer report(s) not sent; the next run tries them again`,
    );
  }
  return run;
}
