import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

import { ServiceError } from '@aegis/connectors';
import { createBlobsClient, type BlobStore } from '@aegis/connectors/blobs';
import {
  GRAPH_SCOPE,
  GraphClient,
  GraphMailSender,
  type MailSender,
} from '@aegis/connectors/graph';
import { ConfigRepository } from '@aegis/connectors/repository';
import {
  createTablesClient,
  SharedRows,
  type AppTables,
  type TablesConfig,
} from '@aegis/connectors/tables';
import { WebhookClient } from '@aegis/connectors/webhooks';
import { DEFAULT_ENGINE_SETTINGS } from '@aegis/domain';
import { AuditTrail } from '@aegis/insights';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';

import { appIdUriOf, type AegisConfig } from './config';
import { loggerOptions } from './lib/logging';
import { RepeatingPass } from './lib/repeating-pass';
import { isApiRequest, normalisedPath } from './lib/request-path';
import { auditPlugin } from './plugins/audit';
import { authPlugin } from './plugins/auth';
import { clientTenantPlugin } from './plugins/client-tenant';
import { compressionPlugin } from './plugins/compression';
import { configRepositoryPlugin } from './plugins/config-repository';
import { devOpsPlugin, type DevOpsFactory } from './plugins/devops';
import { errorHandlerPlugin } from './plugins/error-handler';
import { fleetRefreshPlugin } from './plugins/fleet-refresh';
import { heavyRequestsPlugin } from './plugins/heavy-requests';
import { openApiPlugin } from './plugins/openapi';
import { pipelineRunsPlugin } from './plugins/pipeline-runs';
import { securityPlugin } from './plugins/security';
import { telemetryPlugin } from './plugins/telemetry';
import { appTablesRoutes } from './routes/app-tables';
import { auditRoutes } from './routes/audit';
import { backupRoutes } from './routes/backups';
import { baselineRoutes } from './routes/baseline';
import { branchProtectionRoutes } from './routes/branch-protection';
import { captureRoutes } from './routes/capture';
import { clientPipelineRoutes } from './routes/client-pipelines';
import { clientSettingsRoutes } from './routes/client-settings';
import { clientRoutes } from './routes/clients';
import { comparisonRoutes } from './routes/comparison';
import { complianceRoutes } from './routes/compliance';
import { createCustomerReports, customerReportRoutes } from './routes/customer-reports';
import { devOpsHookRoutes, subscribeDevOpsHookOnReady } from './routes/devops-hooks';
import { driftRoutes } from './routes/drift';
import { createFleetServices, fleetRoutes } from './routes/fleet';
import { healthRoutes } from './routes/health';
import { notificationRoutes } from './routes/notifications';
import { notificationRoutingRoutes } from './routes/notifications/routing';
import { onboardingRoutes } from './routes/onboarding';
import { projectRoutes } from './routes/projects';
import { rolloutRoutes } from './routes/rollouts';
import { sessionRoutes } from './routes/session';
import { BranchProtectionService } from './services/branch-protection';
import { clientTenantApis, openIdTenantDiscovery } from './services/client-tenant-apis';
import type { ClientTenantApisFactory } from './services/client-tenant-onboarding';
import { createCustomerReportRenderer } from './services/customer-report-renderer';
import { raiseDriftEvents } from './services/drift-notifier';
import { DriftService } from './services/drift-service';
import { ManualBackupGuard } from './services/manual-backup-guard';
import { ChannelSender } from './services/notification-channels';
import {
  claimProducerPass,
  DevOpsProducerFacts,
  raiseProducedEvents,
} from './services/notification-producers';
import { NotificationRouting } from './services/notification-routing';
import {
  NotificationService,
  type NotificationRoutingSource,
} from './services/notification-service';
import { NotificationStore } from './services/notification-store';
import {
  HttpClientCredentials,
  HttpOnBehalfOf,
  MsalClientCredentials,
  MsalOnBehalfOf,
  type AppOwnToken,
  type OnBehalfOf,
} from './services/on-behalf-of';
import { createPipelineRunsShared, PipelineRuns } from './services/pipeline-runs';
import { PipelinesService } from './services/pipelines-service';
import { devOpsCheck, identityCheck, ReadinessProbe, tablesCheck } from './services/readiness';
import { RolloutRunner } from './services/rollout-service';
import { RolloutStore } from './services/rollout-store';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The notification engine (ADR 065): producers `raise` events, the notification routes list,
     * acknowledge and snooze; none without Table storage or without a routing source.
     */
    notifications: NotificationService | undefined;
    /** The ring loop of rollouts (ADR 074); none without Table storage or the app's own identity. */
    rolloutRunner: RolloutRunner | undefined;
  }
}

/** The table of the rows every instance shares (ADR 060): guards and tallies. */
const SHARED_STATE_TABLE = 'AegisSharedState';

/** A readiness answer is reused this long; each dependency gets this long to answer (ADR 053). */
const READINESS_CACHE_IN_MS = 5_000;
/** A heavy request takes seconds; a refused one is asked to wait about that long (ADR 057). */
const HEAVY_REQUEST_RETRY_AFTER_IN_SECONDS = 5;
const READINESS_TIMEOUT_IN_MS = 3_000;

export interface BuildAppOptions {
  readonly config: AegisConfig;
  /** Where log lines go (tests capture them); standard output by default. */
  readonly logStream?: NodeJS.WritableStream;
  /** Overrides AEGIS_LOG_LEVEL. */
  readonly logLevel?: string;
  /** Ports: tests inject fakes; by default each adapter is built from `config`. */
  readonly createDevOps?: DevOpsFactory;
  /** The AppTables port; by default the Table storage adapter built from `config`. */
  readonly tables?: AppTables;
  /**
   * Aegis's own tables: the audit trail (AegisAudit, ADR 037) and the state every instance shares
   * (AegisSharedState, ADR 060); by default the Table storage account of the configuration.
   * Without one the audit trail is the log alone and manual backups are refused.
   */
  readonly auditTables?: AppTables;
  /** The clock of shared claims and tally windows (ADR 060); tests fix it. */
  readonly now?: () => Date;
  /** Graph and ARM in a client tenant; by default the REST adapters for the configured hosts. */
  readonly createClientTenantApis?: ClientTenantApisFactory;
  /** Notification rules and channels (ADR 065); by default those kept in Table storage. */
  readonly notificationRouting?: NotificationRoutingSource;
  /** Blob storage of archived customer reports; by default the account of the configuration. */
  readonly blobs?: BlobStore;
  /** The email port; by default Graph sendMail from AEGIS_MAIL_SENDER with the app's own token. */
  readonly mailSender?: MailSender;
}

/** The Aegis API and the SPA, as one Fastify app; server.ts and the tests build exactly this. */
export async function buildApp({
  config,
  logStream,
  logLevel,
  createDevOps,
  tables,
  auditTables,
  createClientTenantApis,
  notificationRouting: injectedRouting,
  blobs,
  mailSender,
  now = () => new Date(),
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // Secrets never reach the logs (ARCHITECTURE §5): redacted at any depth, and in logged URLs.
    logger: loggerOptions(logLevel ?? config.AEGIS_LOG_LEVEL, logStream),
    bodyLimit: 5 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const connectOrigins = [
    config.AEGIS_LOCAL_IDP_URL,
    'https://login.microsoftonline.com',
    'https://graph.microsoft.com',
  ]
    .filter((url): url is string => Boolean(url))
    .map((url) => new URL(url).origin);

  // First: the routes registered after it take its logger factory, and its hook runs first.
  await app.register(telemetryPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(compressionPlugin);
  await app.register(securityPlugin, { connectOrigins });
  // Before any route, so that every route is seen and checked (authentication is per route).
  await app.register(authPlugin, {
    jwksUrl: config.AEGIS_AUTH_JWKS_URL,
    issuer: config.AEGIS_AUTH_ISSUER,
    audience: config.AEGIS_AUTH_AUDIENCE,
  });
  await app.register(heavyRequestsPlugin, {
    perUser: config.AEGIS_HEAVY_REQUESTS_PER_USER,
    retryAfterInSeconds: HEAVY_REQUEST_RETRY_AFTER_IN_SECONDS,
  });
  const appClientId = config.AEGIS_APP_CLIENT_ID ?? config.AEGIS_ENTRA_CLIENT_ID;
  const onBehalfOf = onBehalfOfFrom(config, appClientId);
  const appOwnToken = appOwnTokenFrom(config, appClientId);
  await app.register(clientTenantPlugin, {
    loginUrl: config.AEGIS_LOGIN_URL,
    audiences: [appIdUriOf(config, appClientId), ...(appClientId ? [appClientId] : [])],
    onBehalfOf,
  });
  const configuredTables = tablesOf(config);
  const storage = auditTables ?? configuredTables;
  const auditTrail = new AuditTrail(storage);
  if (!auditTrail.stored) {
    app.log.warn('Table storage is not configured: the audit trail is kept in the log only');
  }
  const sharedRows = storage ? new SharedRows(storage, SHARED_STATE_TABLE) : undefined;
  await app.register(auditPlugin, { trail: auditTrail, now });
  await app.register(openApiPlugin);

  await app.register(devOpsPlugin, {
    organizationUrl: config.AEGIS_DEVOPS_ORG_URL,
    createDevOps,
    timeoutInMs: config.AEGIS_UPSTREAM_TIMEOUT_MS,
    // DevOps tokens on the technician's behalf (ADR 031), in the staff tenant
    ...(onBehalfOf ? { onBehalfOf } : {}),
    ...(config.AEGIS_ENTRA_TENANT_ID ? { tenantId: config.AEGIS_ENTRA_TENANT_ID } : {}),
    ...(appOwnToken ? { appOwnToken } : {}),
  });
  await app.register(configRepositoryPlugin, {
    project: config.AEGIS_DEVOPS_PROJECT,
    repository: config.AEGIS_DEVOPS_CONFIG_REPO,
  });
  await app.register(pipelineRunsPlugin, {
    shared: createPipelineRunsShared(config.AEGIS_PIPELINE_IDS),
  });

  // fleet summaries are stored in Aegis's own Table storage account, read by every instance
  const fleet = createFleetServices(config, storage, app.log);
  await app.register(devOpsHookRoutes, { config, fleetServiceFor: fleet.storingServiceFor });
  subscribeDevOpsHookOnReady(app, config);

  await app.register(healthRoutes, {
    readiness: new ReadinessProbe(
      {
        devops: devOpsCheck(config.AEGIS_DEVOPS_ORG_URL),
        tables: tablesCheck(tables ?? storage),
        identity: identityCheck(config.AEGIS_AUTH_JWKS_URL),
      },
      { cacheInMs: READINESS_CACHE_IN_MS, timeoutInMs: READINESS_TIMEOUT_IN_MS },
    ),
  });
  await app.register(sessionRoutes, { config });
  await app.register(projectRoutes);
  // One Table storage client for the app's tables; asked for per request, so that an account left
  // unconfigured fails only the requests that need it (with the adapter's 'not configured' error).
  const appTables = (): AppTables =>
    tables ?? configuredTables ?? createTablesClient(tablesConfigOf(config));
  await app.register(clientRoutes, { config, tables: appTables });
  await app.register(appTablesRoutes, { tables: appTables });
  await app.register(auditRoutes, { trail: auditTrail });
  // notification channels and rules live in Aegis's own account, beside the audit trail (ADR 066)
  const notificationRouting = storage && new NotificationRouting(storage);
  // one email door (ADR 065): notifications and customer reports send through the same sender
  const mail = mailSender ?? mailSenderFrom(config, appOwnToken);
  // the engine (ADR 065): notifications and their outbox in the same account, every instance delivering
  const routingSource = injectedRouting ?? notificationRouting;
  const notifications =
    storage && routingSource
      ? new NotificationService({
          store: new NotificationStore(storage),
          routing: routingSource,
          sender: new ChannelSender({
            mail,
            webhooks: new WebhookClient({ timeoutInMs: config.AEGIS_UPSTREAM_TIMEOUT_MS }),
            portalUrl: config.AEGIS_PUBLIC_URL ?? '',
          }),
          now,
          log: app.log,
          settings: {
            ...DEFAULT_ENGINE_SETTINGS,
            digestHourUtc: config.AEGIS_NOTIFICATION_DIGEST_HOUR_UTC,
          },
        })
      : undefined;
  app.decorate('notifications', notifications);
  if (notifications && config.AEGIS_NOTIFICATION_PASS_MS > 0) {
    const delivery = new RepeatingPass(
      () => notifications.runDue(),
      app.log,
      'The notification delivery pass',
    );
    app.addHook('onReady', (done) => {
      delivery.start(config.AEGIS_NOTIFICATION_PASS_MS);
      done();
    });
    app.addHook('onClose', async () => delivery.stop());
  }
  if (notifications && storage && config.AEGIS_NOTIFICATION_PASS_MS > 0) {
    // drift events from the checks the pipeline stored, on each pass of the engine's interval
    const drift = new DriftService(storage);
    const pass = new RepeatingPass(
      () => raiseDriftEvents(drift, notifications, app.log),
      app.log,
      'The drift notification pass',
    );
    app.addHook('onReady', (done) => {
      pass.start(config.AEGIS_NOTIFICATION_PASS_MS);
      done();
    });
    app.addHook('onClose', async () => pass.stop());
  }

  const producersDevOps = app.aegisDevOps;
  if (
    notifications &&
    sharedRows &&
    routingSource &&
    producersDevOps &&
    config.AEGIS_NOTIFICATION_PRODUCER_PASS_MS > 0
  ) {
    // the other producers (ADR 070): facts read with the app's own DevOps identity, one instance a pass
    const interval = config.AEGIS_NOTIFICATION_PRODUCER_PASS_MS;
    const instanceId = `${hostname()}:${process.pid}:${randomUUID()}`;
    const facts = new DevOpsProducerFacts(
      producersDevOps,
      new ConfigRepository(producersDevOps, app.configRepositoryShared),
      new PipelineRuns(producersDevOps, createPipelineRunsShared(config.AEGIS_PIPELINE_IDS)),
      config.AEGIS_DEVOPS_PROJECT,
      now,
    );
    const pass = new RepeatingPass(
      async () => {
        if (!(await claimProducerPass(sharedRows, instanceId, now(), interval))) return;
        await raiseProducedEvents({
          facts,
          // the scheduled customer reports' outcomes, where Blob storage makes them possible
          customerReports:
            blobs || config.AEGIS_BLOBS_CONNECTION_STRING || config.AEGIS_BLOBS_ACCOUNT_URL
              ? () => reports.storeOf()
              : undefined,
          notifications,
          rules: () => routingSource.listRules(),
          now,
          log: app.log,
        });
      },
      app.log,
      'The notification producers pass',
    );
    // asked every engine interval, run once a producer interval by whichever instance claims it
    const askEveryMs = Math.min(interval, config.AEGIS_NOTIFICATION_PASS_MS || interval);
    app.addHook('onReady', (done) => {
      pass.start(askEveryMs);
      done();
    });
    app.addHook('onClose', async () => pass.stop());
  }

  await app.register(notificationRoutingRoutes, {
    routing: () => notificationRouting ?? new NotificationRouting(appTables()),
    now,
  });
  await app.register(notificationRoutes, {
    notifications: () => {
      if (notifications) return notifications;
      throw new ServiceError(
        'Notifications need Table storage: set a connection string or an account URL.',
        { service: 'tables', statusCode: 503, code: 'NotConfigured' },
      );
    },
    now,
  });
  await app.register(backupRoutes, {
    config,
    ...(sharedRows ? { manualBackups: new ManualBackupGuard(sharedRows, { now }) } : {}),
  });
  await app.register(clientPipelineRoutes, { tables: appTables });
  await app.register(clientSettingsRoutes);
  // trees (by git tree id) are cached once, app-wide, by the ConfigRepository (ADR 014)
  await app.register(comparisonRoutes);
  // before the routes that change a client on main, whose hook it adds (ADR 062)
  await app.register(fleetRefreshPlugin, { serviceOf: fleet.storingServiceOf });
  await app.register(complianceRoutes, { now });
  await app.register(fleetRoutes, { config, services: fleet });
  await app.register(captureRoutes, { config });
  const reports = createCustomerReports({
    config,
    tables: appTables,
    blobs: () => blobs ?? createBlobsClient(blobsConfigOf(config)),
    mail,
    audit: auditTrail,
    renderer: createCustomerReportRenderer(config.AEGIS_REPORT_WORKERS),
    now,
  });
  app.addHook('onClose', async () => reports.close());
  await app.register(customerReportRoutes, { reports, now });
  await app.register(branchProtectionRoutes, { config });
  // the drift check writes its results to Aegis's own account (ADR 063)
  await app.register(driftRoutes, {
    config,
    tables: () => storage ?? appTables(),
  });
  await app.register(baselineRoutes, { project: config.AEGIS_DEVOPS_PROJECT });
  // rollouts (ADR 074): one shared row each; every instance runs the ring loop as the app itself
  const rollouts = sharedRows && new RolloutStore(sharedRows);
  await app.register(rolloutRoutes, {
    project: config.AEGIS_DEVOPS_PROJECT,
    ...(rollouts ? { store: rollouts } : {}),
    now,
  });
  const appDevOps = app.aegisDevOps;
  const rolloutRuns =
    appDevOps &&
    new PipelineRuns(appDevOps, createPipelineRunsShared(config.AEGIS_PIPELINE_IDS), app.log);
  const rolloutRunner =
    rollouts && appDevOps && rolloutRuns
      ? new RolloutRunner({
          project: config.AEGIS_DEVOPS_PROJECT,
          runs: rolloutRuns,
          pipelines: new PipelinesService(appDevOps, rolloutRuns),
          store: rollouts,
          repository: new ConfigRepository(appDevOps, app.configRepositoryShared),
          log: app.log,
          instanceId: `${hostname()}:${process.pid}:${randomUUID()}`,
          claimLeaseInMs: config.AEGIS_ROLLOUT_CLAIM_LEASE_MS,
          now,
        })
      : undefined;
  app.decorate('rolloutRunner', rolloutRunner);
  if (rolloutRunner && config.AEGIS_ROLLOUT_PASS_MS > 0) {
    const pass = new RepeatingPass(() => rolloutRunner.pass(), app.log, 'The rollout pass');
    app.addHook('onReady', (done) => {
      pass.start(config.AEGIS_ROLLOUT_PASS_MS);
      done();
    });
    app.addHook('onClose', async () => pass.stop());
  }
  await app.register(onboardingRoutes, {
    appClientId,
    project: config.AEGIS_DEVOPS_PROJECT,
    createClientTenantApis:
      createClientTenantApis ??
      clientTenantApis({ graphUrl: config.AEGIS_GRAPH_URL, armUrl: config.AEGIS_ARM_URL }),
    discoverTenant: openIdTenantDiscovery(config.AEGIS_LOGIN_URL),
  });

  registerSpa(app, config.AEGIS_WEB_DIST);
  warnWhenMainIsUnprotected(app, config);
  return app;
}

/**
 * At start-up, says in the log when four eyes does not hold in Azure DevOps (ADR 051); the portal
 * shows the same from `GET /api/branch-protection`. It never holds up the start.
 */
function warnWhenMainIsUnprotected(app: FastifyInstance, config: AegisConfig): void {
  app.addHook('onReady', (done) => {
    const devops = app.aegisDevOps;
    if (!devops) {
      app.log.warn(
        "Aegis has no Azure DevOps service identity (AEGIS_APP_CLIENT_ID, AEGIS_APP_CLIENT_SECRET, AEGIS_ENTRA_TENANT_ID): its writes to main use the technician's token, which a protected main refuses",
      );
      return done();
    }
    const repo = {
      project: config.AEGIS_DEVOPS_PROJECT,
      repository: config.AEGIS_DEVOPS_CONFIG_REPO,
    };
    void new BranchProtectionService(devops, repo, true).check().then(
      (status) => {
        if (!status.protected)
          app.log.warn(
            { gaps: status.gaps },
            `main of ${repo.repository} is not protected by the branch policy four eyes needs`,
          );
      },
      (error: Error) =>
        app.log.warn({ reason: error.message }, 'the branch policy of main could not be checked'),
    );
    done();
  });
}

/** Blob storage of archived customer reports (ADR 067), from the configuration. */
function blobsConfigOf(config: AegisConfig) {
  return {
    connectionString: config.AEGIS_BLOBS_CONNECTION_STRING,
    accountUrl: config.AEGIS_BLOBS_ACCOUNT_URL,
    timeoutInMs: config.AEGIS_UPSTREAM_TIMEOUT_MS,
  };
}

function tablesConfigOf(config: AegisConfig): TablesConfig {
  return {
    connectionString: config.AEGIS_TABLES_CONNECTION_STRING,
    accountUrl: config.AEGIS_TABLES_ACCOUNT_URL,
    timeoutInMs: config.AEGIS_UPSTREAM_TIMEOUT_MS,
  };
}

/** The Table storage account of the configuration, when there is one. */
function tablesOf(config: AegisConfig): AppTables | undefined {
  if (!config.AEGIS_TABLES_CONNECTION_STRING && !config.AEGIS_TABLES_ACCOUNT_URL) return undefined;
  return createTablesClient(tablesConfigOf(config));
}

/**
 * On-behalf-of (ADR 020) needs the Aegis app's credentials; Entra goes through
 * `@azure/msal-node`, any other authority (the local identity provider) through the same grant
 * over HTTP.
 */
function onBehalfOfFrom(config: AegisConfig, clientId: string | undefined): OnBehalfOf | undefined {
  const clientSecret = config.AEGIS_APP_CLIENT_SECRET;
  if (!clientId || !clientSecret) return undefined;
  const options = { loginUrl: config.AEGIS_LOGIN_URL, clientId, clientSecret };
  return config.AEGIS_AUTH_MODE === 'entra'
    ? new MsalOnBehalfOf(options)
    : new HttpOnBehalfOf(options);
}

/**
 * The app's own token (ADR 051) needs its credentials and the MSP's tenant; Entra through
 * `@azure/msal-node`, the local identity provider through the same grant over HTTP.
 */
function appOwnTokenFrom(
  config: AegisConfig,
  clientId: string | undefined,
): AppOwnToken | undefined {
  const clientSecret = config.AEGIS_APP_CLIENT_SECRET;
  const tenantId = config.AEGIS_ENTRA_TENANT_ID;
  if (!clientId || !clientSecret || !tenantId) return undefined;
  const options = { loginUrl: config.AEGIS_LOGIN_URL, clientId, clientSecret, tenantId };
  return config.AEGIS_AUTH_MODE === 'entra'
    ? new MsalClientCredentials(options)
    : new HttpClientCredentials(options);
}

/**
 * Email goes out through Graph sendMail from the MSP's mailbox with the app's own token, which
 * needs Mail.Send (ADR 065); none without a configured mailbox or app identity.
 */
function mailSenderFrom(
  config: AegisConfig,
  appOwnToken: AppOwnToken | undefined,
): MailSender | undefined {
  if (!config.AEGIS_MAIL_SENDER || !appOwnToken) return undefined;
  const graph = new GraphClient({
    baseUrl: config.AEGIS_GRAPH_URL,
    getToken: () => appOwnToken.acquire([GRAPH_SCOPE]),
    // the outbox retries over minutes; a send is tried once here
    retry: { maxRetries: 0 },
  });
  return new GraphMailSender(graph, config.AEGIS_MAIL_SENDER);
}

/** Serves the built SPA; unknown non-API GETs get index.html so client routes deep-link. */
function registerSpa(app: FastifyInstance, webDist: string): void {
  const indexFile = webDist ? path.join(webDist, 'index.html') : '';
  const hasSpa = indexFile !== '' && fs.existsSync(indexFile);
  if (hasSpa) {
    void app.register(fastifyStatic, {
      root: path.resolve(webDist),
      index: 'index.html',
      wildcard: true,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // Any spelling of /api (encoded, upper case, dot segments, absolute form) is an API 404.
    if (hasSpa && request.method === 'GET' && !isApiRequest(request.url)) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.code(404).send({
      error: 'NotFoundError',
      statusCode: 404,
      message: `Route ${request.method} ${normalisedPath(request.url)} not found`,
    });
  });
}
