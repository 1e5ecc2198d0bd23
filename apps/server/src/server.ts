import closeWithGrace from 'close-with-grace';

import { buildApp } from './app';
import { loadConfig } from './config';

/**
 * Runs the Aegis server standalone from environment variables (README 'Configuration for real
 * Azure'). On SIGTERM or SIGINT it stops accepting connections, lets the requests in flight finish
 * within AEGIS_SHUTDOWN_GRACE_MS and exits (ADR 053).
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
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
    },
  );
  await app.listen({ host: config.AEGIS_HOST, port: config.AEGIS_PORT });
}

await main();
