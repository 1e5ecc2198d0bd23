import { buildApp } from './app';
import { loadConfig } from './config';

/**
 * The scheduled run of customer reports (issue 29, ADR 067): the job the customer-reports pipeline
 * runs every day. Configured as the server is; it reads the configuration repository as the Aegis
 * app's own identity, sends each client's due report once and records it.
 * Exit 0: nothing failed; 1: some reports failed (named in the log; the next run retries them);
 * 2: not configured for it.
 */
async function main(): Promise<number> {
  const config = loadConfig(process.env);
  const app = await buildApp({ config });
  try {
    await app.ready();
    const run = app.runCustomerReports;
    if (!run) {
      app.log.error(
        'The run needs the Aegis app identity (AEGIS_APP_CLIENT_ID, AEGIS_APP_CLIENT_SECRET, AEGIS_ENTRA_TENANT_ID)',
      );
      return 2;
    }
    const result = await run();
    app.log.info(
      result,
      `customer reports: ${result.sent.length} sent, ${result.alreadySent.length} sent before, ${result.failed.length} failed`,
    );
    for (const failure of result.failed) {
      app.log.error(
        `customer report not sent: ${failure.client} ${failure.periodId}: ${failure.reason}`,
      );
    }
    return result.failed.length > 0 ? 1 : 0;
  } finally {
    await app.close();
  }
}

process.exitCode = await main();
