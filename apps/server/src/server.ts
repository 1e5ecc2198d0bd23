import { buildApp } from './app';
import { loadConfig } from './config';

/** Runs the Aegis server standalone from environment variables (see README). */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const app = await buildApp({ config });
  const close = async (): Promise<void> => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close());
  process.once('SIGTERM', () => void close());
  await app.listen({ host: config.AEGIS_HOST, port: config.AEGIS_PORT });
}

await main();
