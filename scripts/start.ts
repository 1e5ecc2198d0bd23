/**
 * `npm start`: builds the SPA, then runs the whole product on this machine against the
 * emulators. `npm run reset` (`--reset-only`) reseeds the sample data and exits.
 */
import path from 'node:path';

import { DEVOPS_SCOPE } from '@aegis/connectors/devops';
import { SIMULATED_TENANTS, STAFF_ACCOUNTS } from '@aegis/emulators';

import { buildWeb } from './build';
import { assertPortFree, seedEmbedded, startEmbedded, type EmbeddedAegis } from './embedded';

const rootDir = path.resolve(import.meta.dirname, '..');
const args = new Set(process.argv.slice(2));
const log = (line: string): void => console.log(`[aegis] ${line}`);

/** How long stopping may take before the process exits anyway (Azurite goes with it). */
const STOP_DEADLINE_IN_MS = 8_000;

let running: EmbeddedAegis | undefined;
let stopping = false;

/**
 * SIGTERM or SIGINT (Ctrl-C, or a process manager signalling npm, which passes it on) stops
 * everything, also while seeding or starting: what has not started yet is never started.
 */
function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping ...`);
  setTimeout(() => {
    log(`Still stopping after ${STOP_DEADLINE_IN_MS / 1000} s: exiting anyway.`);
    process.exit(1);
  }, STOP_DEADLINE_IN_MS).unref();
  if (!running) process.exit(0);
  void running.close().then(() => process.exit(0));
}

async function main(): Promise<void> {
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const port = Number(process.env.AEGIS_PORT ?? 3000);
  const host = process.env.AEGIS_HOST ?? '127.0.0.1';
  const dataDir = path.resolve(rootDir, process.env.AEGIS_DATA_DIR ?? '.aegis/data');
  if (args.has('--reset-only')) {
    await assertPortFree(port, host);
    await seedEmbedded(dataDir, log);
    log('Sample data reseeded. Run npm start to use it.');
    return;
  }
  if (!args.has('--no-build')) {
    log('Building the web app ...');
    await buildWeb();
  }

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

  running = aegis;

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
  const devOpsOrigin = new URL(aegis.devOpsOrganizationUrl).origin;
  log('The emulators (README "The emulators"):');
  log(`  Azure DevOps organisation: ${aegis.devOpsOrganizationUrl}`);
  log(
    `    a token: POST ${aegis.identityProviderUrl}/oauth2/v2.0/token {"username":"${STAFF_ACCOUNTS[0]?.upn ?? ''}","scope":"${DEVOPS_SCOPE}"}`,
  );
  log(`  Tenant scenario switches: ${aegis.tenantEmulatorUrl}/_emulator/tenants`);
  log(
    `  Fault switches: POST ${devOpsOrigin}/_emulator/faults (DevOps), ${aegis.tenantEmulatorUrl}/_emulator/faults (Graph, ARM)`,
  );
  log('Press Ctrl-C to stop everything.');
}

main().catch((error: unknown) => {
  console.error(`[aegis] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
