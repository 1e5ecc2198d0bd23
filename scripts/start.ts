/**
 * `npm start`: builds the SPA, then runs the whole product on this machine against the
 * emulators. `npm run reset` (`--reset-only`) reseeds the sample data and exits.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { SIMULATED_TENANTS, STAFF_ACCOUNTS } from '@aegis/emulators';

import { assertPortFree, seedEmbedded, startEmbedded } from './embedded';

const rootDir = path.resolve(import.meta.dirname, '..');
const args = new Set(process.argv.slice(2));
const log = (line: string): void => console.log(`[aegis] ${line}`);

function buildWeb(): void {
  log('Building the web app ...');
  const result = spawnSync(
    'npx',
    ['vite', 'build', '--config', 'apps/web/vite.config.ts', '--logLevel', 'warn'],
    {
      cwd: rootDir,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error('The web build failed');
}

async function main(): Promise<void> {
  const port = Number(process.env.AEGIS_PORT ?? 3000);
  const host = process.env.AEGIS_HOST ?? '127.0.0.1';
  const dataDir = path.resolve(rootDir, process.env.AEGIS_DATA_DIR ?? '.aegis/data');
  if (args.has('--reset-only')) {
    await assertPortFree(port, host);
    await seedEmbedded(dataDir, log);
    log('Sample data reseeded. Run npm start to use it.');
    return;
  }
  if (!args.has('--no-build')) buildWeb();

  const aegis = await startEmbedded({
    rootDir,
    dataDir,
    port,
    host,
    reset: args.has('--reset'),
    pipelineDurationInMs: Number(process.env.AEGIS_PIPELINE_DURATION_MS ?? 4000),
    ...(process.env.AEGIS_TENANT_PROPAGATION_MS
      ? { tenantPropagationDelayInMs: Number(process.env.AEGIS_TENANT_PROPAGATION_MS) }
      : {}),
    log,
  });

  log(`Aegis is running at ${aegis.url}`);
  log('Sign in with "Sign In" and pick one of the sample staff accounts:');
  for (const account of STAFF_ACCOUNTS)
    log(`  - ${account.displayName ?? '(no display name)'} <${account.upn}>`);
  log('Simulated client tenants (client code, domain, Global Administrator; no password):');
  for (const tenant of SIMULATED_TENANTS) {
    const admin = tenant.globalAdministrator;
    log(
      `  - ${tenant.clientCode}  ${tenant.customDomain.padEnd(26)} ${admin.displayName} <${admin.upn}>${tenant.onboarded ? '' : '  (not onboarded yet)'}`,
    );
  }
  log(`Tenant scenario switches: ${aegis.tenantEmulatorUrl}/_emulator/tenants`);
  log('Press Ctrl-C to stop everything.');

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    log('Stopping ...');
    void aegis.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`[aegis] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
