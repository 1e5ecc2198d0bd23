/**
 * The embedded default: the Aegis server wired to the emulators on this machine
 * (Azure DevOps emulator, local identity provider, Azurite). Used by `npm start` and e2e.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

import { createBlobsClient } from '@aegis/connectors/blobs';
import { CustomerReportStore } from '@aegis/connectors/customer-reports';
import { DEVOPS_RESOURCE, type DevOpsApi } from '@aegis/connectors/devops';
import { createTablesClient } from '@aegis/connectors/tables';
import { PIPELINE_CATALOGUE } from '@aegis/domain';
import {
  AEGIS_ENTERPRISE_APP,
  buildDevOpsServer,
  jwksTokenVerifier,
  listenDevOpsEmulator,
  SAMPLE_CLIENTS,
  SAMPLE_PROJECTS,
  seedAppTables,
  seedDevOps,
  startAzurite,
  startAzuriteBlob,
  startIdentityProvider,
  aegisAppRegistration,
  tenantWorldDirectory,
  buildTenantEmulator,
  jwksTenantTokenVerifier,
  listenTenantEmulator,
  tenantTaskRuntime,
  TENANT_EMULATOR_AUDIENCES,
  TenantWorld,
} from '@aegis/emulators';
import { buildApp, loadConfig, NotificationRouting } from '@aegis/server';

export interface EmbeddedOptions {
  readonly rootDir: string;
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  /** Wipe the data folder and seed the sample data again before starting. */
  readonly reset: boolean;
  readonly pipelineDurationInMs: number;
  /** ms between admin consent and the enterprise app being visible to Graph (default 3000) */
  readonly tenantPropagationDelayInMs?: number;
  readonly log: (line: string) => void;
}

export interface EmbeddedAegis {
  /** the portal, at the address the server listens on */
  readonly url: string;
  /** the Azure DevOps emulator's organisation URL (`{origin}/{organisation}`) */
  readonly devOpsOrganizationUrl: string;
  /** the local identity provider (sign-in dialog, tokens, JWKS) */
  readonly identityProviderUrl: string;
  /** the simulated client tenants' live state, shared by the tenant emulator and the identity provider */
  readonly tenantWorld: TenantWorld;
  /** Graph at `${tenantEmulatorUrl}/v1.0`, ARM at the origin, switches at `/_emulator/tenants` */
  readonly tenantEmulatorUrl: string;
  close(): Promise<void>;
}

const AUDIENCE = 'api://aegis-embedded';
const SEEDED_MARKER = 'seeded.json';
/** Set once the sample notification channels and rules are in Table storage. */
const NOTIFICATIONS_SEEDED_MARKER = 'notifications-seeded.json';
/** Set once the sample clients' customer reports are scheduled and their first ones sent. */
const REPORTS_SEEDED_MARKER = 'customer-reports-seeded.json';
/** The MSP's mailbox notifications and reports are sent from (Graph sendMail, ADR 065). */
export const SAMPLE_MAIL_SENDER = 'aegis-alerts@aegis-msp.example';

/**
 * Issue 29: the sample clients' monthly reports are scheduled (on the 1st, so last month's is
 * due), the MSP's branding set, and the due reports sent once by the scheduled run itself, so the
 * history and the emulator's mailbox are not empty on a fresh start.
 */
async function seedSampleReports(dataDir: string, store: CustomerReportStore): Promise<void> {
  const marker = path.join(dataDir, REPORTS_SEEDED_MARKER);
  if (await exists(marker)) return;
  await store.saveBranding({
    mspName: 'Aegis Managed Services',
    primaryColour: '#14325C',
    contactEmail: 'servicedesk@aegis-msp.example',
    contactPhone: '+44 20 7946 0000',
    website: 'aegis-msp.example',
    supportMessage: 'Our service desk answers every working day from 08:00 to 18:00.',
  });
  const at = new Date().toISOString();
  for (const client of SAMPLE_CLIENTS.filter((c) => ['ABC', 'CON', 'FAB'].includes(c.code))) {
    const domain = `${client.code.toLowerCase()}.example`;
    await store.saveSchedule({
      client: client.code,
      customerName: client.name,
      cadence: 'monthly',
      dayOfMonth: 1,
      contacts: [`it-lead@${domain}`],
      technicians: ['alex.morgan@aegis-msp.example'],
      introduction: `Dear ${client.name} team,\n\nthis is your monthly report on the security and configuration of your Microsoft 365 tenant.`,
      enabled: true,
      updatedBy: 'Aegis sample data',
      updatedAt: at,
    });
  }
  await writeFile(marker, JSON.stringify({ seededAt: at }));
}

/** Queues a run of the Customer Reports pipeline of the sample project (ADR 089). */
async function runCustomerReportsPipeline(devops: DevOpsApi | undefined): Promise<void> {
  if (!devops) throw new Error('the app has no DevOps identity of its own');
  const project = SAMPLE_PROJECTS.tenantManagement;
  const pipeline = (await devops.listPipelines(project)).find(
    (p) => p.name === PIPELINE_CATALOGUE.customerReports.name,
  );
  if (!pipeline) throw new Error(`${PIPELINE_CATALOGUE.customerReports.name} is not defined`);
  await devops.runPipeline(project, pipeline.id);
}

/**
 * Issue 28 §6: the sample routing sends drift of every sample client by email (the tenant
 * emulator's mailbox, GET /_emulator/mail) and to a Teams Workflows webhook (its sink, GET
 * /_emulator/webhooks), escalating to on call after 4 hours unacknowledged. Seeded once, through
 * the same routing the Administrator's screens use; the sink's URL names this start's port.
 */
async function seedSampleNotifications(
  dataDir: string,
  routing: NotificationRouting,
  tenantEmulatorUrl: string,
): Promise<void> {
  const marker = path.join(dataDir, NOTIFICATIONS_SEEDED_MARKER);
  if (await exists(marker)) return;
  const change = { by: 'Aegis sample data', at: new Date() };
  const desk = await routing.createChannel(
    { type: 'email', name: 'Service desk', recipients: ['servicedesk@aegis-msp.example'] },
    change,
  );
  const teams = await routing.createChannel(
    {
      type: 'teams',
      name: 'Operations channel (Teams)',
      url: `${tenantEmulatorUrl}/_emulator/webhooks/in/teams-operations`,
    },
    change,
  );
  const onCall = await routing.createChannel(
    { type: 'email', name: 'On call', recipients: ['oncall@aegis-msp.example'] },
    change,
  );
  await routing.createRule(
    {
      name: 'Drift of every client',
      client: '*',
      kinds: ['drift'],
      channelIds: [desk.id, teams.id],
      escalation: { channelIds: [onCall.id], afterHours: 4 },
      digest: false,
      enabled: true,
    },
    change,
  );
  // the other producers (ADR 070) to the service desk, so a newcomer sees them arrive
  await routing.createRule(
    {
      name: 'Runs, backups and approvals of every client',
      client: '*',
      kinds: [
        'capture-failed',
        'backup-failed',
        'backup-missed',
        'deviation-expiring',
        'approval-waiting',
        'deploy-failed',
        'deploy-awaiting-approval',
        'customer-report-failed',
      ],
      channelIds: [desk.id],
      escalation: { channelIds: [onCall.id], afterHours: 1 },
      digest: false,
      enabled: true,
      deviationExpiringDays: 14,
      approvalWaitingHours: 24,
    },
    change,
  );
  await writeFile(marker, JSON.stringify({ seededAt: change.at.toISOString() }));
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** Refuses to touch the data while a portal on `port` may be using it. */
export async function assertPortFree(port: number, host: string): Promise<void> {
  const free = await new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
  if (!free) {
    throw new Error(
      `Port ${port} is in use: is Aegis already running? Stop it (Ctrl-C) first, or set AEGIS_PORT.`,
    );
  }
}

/** Wipes `dataDir` and seeds the sample data: configuration repository, pipelines, app tables. */
export async function seedEmbedded(dataDir: string, log: (line: string) => void): Promise<void> {
  log(
    `Seeding the sample data into ${dataDir} (configuration repository, pipelines, app tables) ...`,
  );
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  await seedDevOps(path.join(dataDir, 'devops'));
  // Azurite on a free port only while seeding; `npm start` runs its own.
  const azurite = await startAzurite({ location: path.join(dataDir, 'azurite') });
  try {
    await seedAppTables(azurite.connectionString);
  } finally {
    await azurite.stop();
  }
  await writeFile(
    path.join(dataDir, SEEDED_MARKER),
    JSON.stringify({ seededAt: new Date().toISOString() }),
  );
}

/** Starts everything, seeding on first start (or when asked); `close` stops it all in reverse order. */
export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedAegis> {
  const { dataDir, port, host, log } = options;
  await assertPortFree(port, host);
  if (options.reset || !(await exists(path.join(dataDir, SEEDED_MARKER)))) {
    await seedEmbedded(dataDir, log);
  }
  const stack: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const stop of stack.reverse()) await stop().catch(() => undefined);
  };

  let tenantEmulatorUrl = '';
  try {
    const portalOrigins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
    // The simulated cloud keeps one time: the tenants' audit logs follow the DevOps emulator's
    // clock, so a change made after `POST /_emulator/clock/advance` is after the last drift check
    // (which reads the pipeline's time) and a quick check sees it.
    let cloudNow = (): number => Date.now();
    const tenantWorld = new TenantWorld({
      now: () => cloudNow(),
      ...(options.tenantPropagationDelayInMs !== undefined
        ? { propagationDelayInMs: options.tenantPropagationDelayInMs }
        : {}),
    });
    // The Aegis app registration (ADR 020): client tenants consent to it, the server trades
    // tokens on-behalf-of with its secret.
    const aegisApp = aegisAppRegistration(AUDIENCE);
    const idp = await startIdentityProvider({
      port: port + 101,
      host,
      audience: AUDIENCE,
      allowedOrigins: portalOrigins,
      directory: tenantWorldDirectory(tenantWorld),
      applications: [aegisApp],
      // the MSP's tenant: the Aegis app's own DevOps token, for its writes to main (ADR 051)
      homeTenantId: AEGIS_ENTERPRISE_APP.ownerTenantId,
    });
    stack.push(() => idp.close());

    const azurite = await startAzurite({
      location: path.join(dataDir, 'azurite'),
      port: port + 103,
      host,
    });
    stack.push(() => azurite.stop());
    // archived customer reports (ADR 067): Azurite's blob service, kept beside its tables
    const azuriteBlob = await startAzuriteBlob({
      location: path.join(dataDir, 'azurite'),
      port: port + 105,
      host,
    });
    stack.push(() => azuriteBlob.stop());

    const devops = await listenDevOpsEmulator(
      buildDevOpsServer({
        dataDir: path.join(dataDir, 'devops'),
        // Azure DevOps accepts only tokens for itself: the server's, obtained on-behalf-of the
        // technician (ADR 031), and never the Aegis API token the browser holds.
        verifyToken: jwksTokenVerifier(idp, [DEVOPS_RESOURCE]),
        pipelineDurationInMs: options.pipelineDurationInMs,
        // scheduled pipelines run at their cron times (and when the clock is advanced)
        runSchedules: {},
        // The pipelines' work runs against the simulated tenants as an agent would (ADR 023).
        taskRuntime: tenantTaskRuntime({
          identityProviderUrl: idp.url,
          clientId: aegisApp.clientId,
          clientSecret: aegisApp.clientSecret,
          tenantEmulatorUrl: () => tenantEmulatorUrl,
          tablesConnectionString: azurite.connectionString,
          blobsConnectionString: azuriteBlob.connectionString,
          mail: { tenantId: AEGIS_ENTERPRISE_APP.ownerTenantId, sender: SAMPLE_MAIL_SENDER },
        }),
      }),
      { port: port + 102, host },
    );
    stack.push(() => devops.close());
    cloudNow = () => devops.clock.now().getTime();

    const tenants = await listenTenantEmulator(
      buildTenantEmulator({
        world: tenantWorld,
        verifyToken: jwksTenantTokenVerifier({
          jwksUrl: idp.jwksUrl,
          audiences: TENANT_EMULATOR_AUDIENCES,
        }),
        allowedOrigins: portalOrigins,
        // the MSP's own tenant: the Aegis app sends mail from its mailbox (ADR 065)
        msp: { tenantId: AEGIS_ENTERPRISE_APP.ownerTenantId, mailboxes: [SAMPLE_MAIL_SENDER] },
      }),
      { port: port + 104, host },
    );
    stack.push(() => tenants.close());
    tenantEmulatorUrl = tenants.url;

    const config = loadConfig({
      ...process.env,
      AEGIS_HOST: host,
      AEGIS_PORT: String(port),
      AEGIS_WEB_DIST: path.join(options.rootDir, 'apps/web/dist'),
      AEGIS_AUTH_MODE: 'local',
      AEGIS_AUTH_JWKS_URL: idp.jwksUrl,
      AEGIS_AUTH_ISSUER: idp.issuer,
      AEGIS_AUTH_AUDIENCE: AUDIENCE,
      AEGIS_LOCAL_IDP_URL: idp.url,
      AEGIS_DEVOPS_ORG_URL: devops.url,
      AEGIS_DEVOPS_PROJECT: SAMPLE_PROJECTS.tenantManagement,
      AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString,
      AEGIS_BLOBS_CONNECTION_STRING: azuriteBlob.connectionString,
      AEGIS_GRAPH_URL: tenants.graphUrl.replace(/\/v1\.0$/, ''),
      AEGIS_ARM_URL: tenants.armUrl,
      AEGIS_LOGIN_URL: idp.url,
      AEGIS_APP_CLIENT_ID: aegisApp.clientId,
      AEGIS_APP_CLIENT_SECRET: aegisApp.clientSecret,
      AEGIS_APP_ID_URI: AUDIENCE,
      AEGIS_ENTRA_TENANT_ID: AEGIS_ENTERPRISE_APP.ownerTenantId,
      AEGIS_MAIL_SENDER: SAMPLE_MAIL_SENDER,
      AEGIS_PUBLIC_URL: `http://localhost:${port}`,
      // the DevOps emulator tells merges to main as Azure DevOps would (ADR 062); a new secret each
      // start, since the start gives the subscription the current one
      AEGIS_DEVOPS_HOOK_SECRET: randomBytes(24).toString('base64url'),
    });
    // one simulated time for the embedded stack: advancing the DevOps emulator's clock
    // (`POST /_emulator/clock/advance`) moves the portal's too, so escalations, expiries and
    // backup health can be seen without waiting hours (ADR 070)
    const app = await buildApp({ config, now: () => devops.clock.now() });
    await seedSampleNotifications(
      dataDir,
      new NotificationRouting(createTablesClient({ connectionString: azurite.connectionString })),
      tenants.url,
    );
    await seedSampleReports(
      dataDir,
      new CustomerReportStore(
        createTablesClient({ connectionString: azurite.connectionString }),
        createBlobsClient({ connectionString: azuriteBlob.connectionString }),
      ),
    );
    stack.push(() => app.close());
    // the address it really listens on (AEGIS_HOST), not a name that may resolve elsewhere
    const url = await app.listen({ host, port });
    // the due reports (each period once, ADR 089): the sample's history, then each start's
    // catch-up, by a run of the Customer Reports pipeline as a technician would queue it (its
    // daily schedule does not replay the times the stack was down)
    void runCustomerReportsPipeline(app.aegisDevOps).catch((error: unknown) =>
      app.log.warn({ err: error }, 'the Customer Reports pipeline could not be queued'),
    );
    return {
      url,
      devOpsOrganizationUrl: devops.url,
      identityProviderUrl: idp.url,
      tenantWorld,
      tenantEmulatorUrl: tenants.url,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
