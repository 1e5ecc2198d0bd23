import closeWithGrace from 'close-with-grace';

import { buildApp } from './app';
import { loadConfig } from './config';
import { startTelemetry } from './telemetry';

/**
 * Runs the Aegis server standalone from environment variables (README 'Configuration for real
 * Azure'). On SIGTERM or SIGINT it stops accepting connections, lets the requests in flight finish
 * within AEGIS_SHUTDOWN_GRACE_MS and exits (ADR 053).
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  // before the app exists, so that its first requests are traced (ADR 061)
  const stopTelemetry = await startTelemetry(config);
  const app = await buildApp({ config });
  let stopping = false;
  // A kept-alive connection would hold the close open after its request finished: while stopping,
  // every answer ends its connection, and the client reconnects to another instance.
  app.addHook('onSend', async (_request, reply) => {
    if (stopping) reply.header('connection', 'close');
  });
  closeWithGrace(
    { delay: config.AEGIS_SHUTDOWN_GRACE_MS, logger: app.log },
    async ({ signal, err }) => {
      stopping = true;
      if (err) app.log.error({ err }, 'Stopping after an unexpected error');
      else app.log.info(`${signal ?? 'Exit'}: finishing the requests in flight, then stopping`);
      await app.close();
      // what could not be sent is lost, but the server stopped cleanly
      await stopTelemetry?.().catch((error: unknown) =>
        app.log.warn({ err: error }, 'Telemetry still buffered could not be sent'),
      );
    },
  );
  await app.listen({ host: config.AEGIS_HOST, port: config.AEGIS_PORT });
}

await main();
