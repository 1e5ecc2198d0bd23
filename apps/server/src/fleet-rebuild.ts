import { ConfigRepository } from '@aegis/connectors/repository';

import { buildApp } from './app';
import { loadConfig } from './config';

/**
 * The cold rebuild of every client's fleet summary (ADR 062): the job a pipeline or an operator
 * runs after a baseline change or on a new Table storage account, instead of the first Fleet page
 * doing it. Configured as the server is (environment variables); it reads the configuration
 * repository as the Aegis app's own identity and stores into the server's Table storage account.
 * Exit 0: every summary stored; 1: some could not be computed; 2: not configured for it.
 */
async function main(): Promise<number> {
  const config = loadConfig(process.env);
  const app = await buildApp({ config });
  try {
    await app.ready();
    const rebuild = app.rebuildFleetSummaries;
    if (!rebuild || !app.aegisDevOps) {
      app.log.error(
        'The rebuild needs Table storage (AEGIS_TABLES_CONNECTION_STRING or AEGIS_TABLES_ACCOUNT_URL) and the Aegis app identity (AEGIS_APP_CLIENT_ID, AEGIS_APP_CLIENT_SECRET, AEGIS_ENTRA_TENANT_ID)',
      );
      return 2;
    }
    const started = performance.now();
    const result = await rebuild(new ConfigRepository(app.aegisDevOps, app.configRepositoryShared));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    app.log.info(
      result,
      `fleet summaries at ${result.commitId}: ${result.computed} of ${result.clients} clients computed and stored in ${seconds} s`,
    );
    for (const failure of result.failed) app.log.error(`fleet summary not computed: ${failure}`);
    return result.failed.length > 0 ? 1 : 0;
  } finally {
    await app.close();
  }
}

process.exitCode = await main();
