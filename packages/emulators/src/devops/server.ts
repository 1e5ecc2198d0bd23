// The Azure DevOps emulator: the REST subset Aegis uses, on the real wire format, backed by real git
// repositories on disk. Auth, api-version and faults are enforced in hooks, before any route runs.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';

import Fastify, { type FastifyInstance } from 'fastify';

import { FaultInjector, SIGN_IN_PAGE_HTML, registerFaultRoutes } from '../faults';

import { BACKUP_PIPELINE_ID, backupEffect } from './backup-effect';
import { PipelineRunner, type PipelineEffect } from './pipeline-runner';
import { DevOpsError, apiVersionOf, apiVersionProblem, errorBody } from './routes/common';
import { registerCoreRoutes } from './routes/core';
import { registerGitPullRequestRoutes } from './routes/git-pull-requests';
import { registerGitPushRoutes } from './routes/git-pushes';
import { registerGitRepositoryRoutes } from './routes/git-repositories';
import { registerPipelineRoutes } from './routes/pipelines';
import { registerPolicyConfigurationRoutes } from './routes/policy-configurations';
import { registerServiceHookRoutes, ServiceHookDelivery } from './routes/service-hooks';
import { PULL_REQUEST_PAGE, registerWebPages } from './routes/web-pages';
import { EmulatorClock, PipelineScheduler } from './scheduler';
import { DevOpsState, STATE_FILE } from './state';
import { taskEffect, taskOfPipeline, type TaskRuntime } from './task-effects';

export interface DevOpsEmulatorOptions {
  /** folder holding the state file and the bare repositories */
  dataDir: string;
  /** 0 (default) picks a free port */
  port?: number;
  host?: string;
  /** organization name, the first path segment (default 'aegis-msp') */
  organization?: string;
  /**
   * Decides whether a bearer token (or a PAT sent as Basic) is accepted. Default: any non-empty
   * token. Embedders that can should verify signatures against their JWKS.
   */
  verifyToken?: (token: string) => Promise<boolean>;
  /** how rejected credentials are answered: 401, or 203 with a sign-in page (reference §1.4) */
  authFailure?: '401' | '203';
  /** total duration of a pipeline run (default 3000 ms) */
  pipelineDurationInMs?: number;
  /**
   * Client tenants and table storage for the pipeline tasks (ADR 023). With it, the catalogue's
   * pipelines run the real tasks; without it only the backup pipeline does something (it tags
   * main's copy of the client's configuration).
   */
  taskRuntime?: TaskRuntime;
  /** effects by pipeline id, on top of the built-in ones */
  pipelineEffects?: Record<number, PipelineEffect>;
  now?: () => Date;
  /**
   * Queue scheduled runs on their own every `intervalInMs` (npm start). Without it schedules run
   * only when the clock is advanced (`scheduler.advance`, `POST /_emulator/clock/advance`).
   */
  runSchedules?: { intervalInMs?: number };
  logger?: boolean;
  /** page size of continuation-token lists when no $top is sent (default: everything) */
  defaultPageSize?: number;
}

export interface DevOpsServer {
  app: FastifyInstance;
  state: DevOpsState;
  runner: PipelineRunner;
  faults: FaultInjector;
  clock: EmulatorClock;
  scheduler: PipelineScheduler;
  hooks: ServiceHookDelivery;
}

export interface DevOpsEmulator {
  /** the organization URL, e.g. http://127.0.0.1:4567/aegis-msp: what a DevOps client is given */
  url: string;
  /** http://127.0.0.1:4567, where the admin endpoints (/_emulator/...) live */
  origin: string;
  organization: string;
  state: DevOpsState;
  runner: PipelineRunner;
  faults: FaultInjector;
  clock: EmulatorClock;
  scheduler: PipelineScheduler;
  /** service hook deliveries (`idle()` waits for those under way) */
  hooks: ServiceHookDelivery;
  close(): Promise<void>;
}

function credentialOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const pat = decoded.slice(decoded.indexOf(':') + 1);
    return pat || undefined;
  }
  return undefined;
}

export function hasDevOpsState(dataDir: string): boolean {
  return existsSync(path.join(dataDir, STATE_FILE));
}

export function buildDevOpsServer(options: DevOpsEmulatorOptions): DevOpsServer {
  const state = DevOpsState.load(options.dataDir, options.organization);
  const clock = new EmulatorClock(options.now);
  const runner = new PipelineRunner(state, {
    ...(options.pipelineDurationInMs !== undefined
      ? { durationInMs: options.pipelineDurationInMs }
      : {}),
    now: () => clock.now(),
  });
  const scheduler = new PipelineScheduler(state, runner, clock);
  if (options.runSchedules) scheduler.start(options.runSchedules.intervalInMs);
  state.defaultPageSize = options.defaultPageSize;
  // The token the runner's jobs call this emulator with (an agent's System.AccessToken).
  const jobToken = `job-${randomUUID()}`;
  if (options.taskRuntime) {
    const taskRuntime = options.taskRuntime;
    const organizationUrl = () => {
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      return `http://127.0.0.1:${port}/${state.data.organization}`;
    };
    runner.resolveWith((pipeline) => {
      const task = taskOfPipeline(pipeline);
      return task
        ? taskEffect(task, state, { runtime: taskRuntime, organizationUrl, jobToken })
        : undefined;
    });
  } else {
    runner.register(BACKUP_PIPELINE_ID, backupEffect);
  }
  for (const [id, effect] of Object.entries(options.pipelineEffects ?? {})) {
    runner.register(Number(id), effect);
  }
  const faults = new FaultInjector((_status, message, typeKey) => errorBody(message, typeKey));
  const verifyToken = options.verifyToken ?? ((token: string) => Promise.resolve(token.length > 0));

  const app = Fastify({
    logger: options.logger ?? false,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    bodyLimit: 50 * 1024 * 1024,
    // Closing ends every connection, including responses a client gave up on (a timed-out zip
    // still streaming), which would otherwise hold the close for a minute.
    forceCloseConnections: true,
  });

  app.addHook('onRequest', async (_request, reply) => {
    const id = randomUUID();
    reply.header('ActivityId', id);
    reply.header('x-vss-e2eid', id);
    reply.header('X-TFS-ProcessId', id);
  });
  app.addHook('onRequest', faults.hook);
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/_emulator/')) return;
    // a browser opening a pull request's webUrl carries no token (the portal signs in itself)
    if (request.method === 'GET' && PULL_REQUEST_PAGE.test(request.url)) return;
    const token = credentialOf(request.headers.authorization);
    const accepted =
      token !== undefined && (token === jobToken || (await verifyToken(token).catch(() => false)));
    if (accepted) return;
    if (token !== undefined && options.authFailure === '203') {
      await reply.code(203).type('text/html; charset=utf-8').send(SIGN_IN_PAGE_HTML);
      return;
    }
    await reply
      .code(401)
      .header(
        'WWW-Authenticate',
        'Bearer authorization_uri=https://login.microsoftonline.com/common, Basic realm="https://dev.azure.com/"',
      )
      .header('X-TFS-FedAuthRedirect', 'https://spsprodweu5.vssps.visualstudio.com/_signin')
      .send(
        errorBody(
          "TF400813: The user '' is not authorized to access this resource.",
          'UnauthorizedRequestException',
          'Microsoft.TeamFoundation.Framework.Server.UnauthorizedRequestException, Microsoft.TeamFoundation.Framework.Server',
        ),
      );
  });
  app.addHook('preHandler', async (request, reply) => {
    if (request.method === 'OPTIONS' || !/\/_apis\//i.test(request.url)) return;
    const version = apiVersionOf(request);
    if (!version) {
      await reply
        .code(400)
        .send(
          errorBody(
            `No api-version was supplied for the "${request.method}" request. The version must be supplied either as part of the Accept header (e.g. "application/json; api-version=1.0") or as a query parameter (e.g. "?api-version=1.0").`,
            'VssVersionNotSpecifiedException',
          ),
        );
      return;
    }
    const problem = apiVersionProblem(version);
    if (problem) await reply.code(400).send(errorBody(problem.message, problem.typeKey));
  });

  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof DevOpsError) {
      return reply
        .code(error.statusCode)
        .send(errorBody(error.message, error.typeKey, error.typeName));
    }
    const statusCode = (error as { statusCode?: number }).statusCode;
    if (statusCode && statusCode >= 400 && statusCode < 500) {
      return reply
        .code(statusCode)
        .send(errorBody((error as Error).message, 'InvalidRequestException'));
    }
    request.log.error(error);
    return reply
      .code(500)
      .send(errorBody(`VS402900: ${(error as Error).message}`, 'VssServiceException'));
  });
  app.setNotFoundHandler(async (request, reply) =>
    reply
      .code(404)
      .send(
        errorBody(
          `The controller for path '${request.url.split('?')[0]}' was not found or does not implement IController.`,
          'HttpException',
          'System.Web.HttpException, System.Web',
        ),
      ),
  );

  registerFaultRoutes(app, faults);
  app.get('/_emulator/health', () => ({
    status: 'ok',
    organization: state.data.organization,
  }));
  app.get('/_emulator/clock', () => ({ now: clock.now().toISOString() }));
  // Moves the emulator's clock ahead and runs every schedule whose time passed meanwhile.
  app.post<{ Body: { minutes?: number; hours?: number; days?: number } | undefined }>(
    '/_emulator/clock/advance',
    async (request, reply) => {
      const { minutes = 0, hours = 0, days = 0 } = request.body ?? {};
      const ms = ((days * 24 + hours) * 60 + minutes) * 60_000;
      if (!Number.isFinite(ms) || ms < 0) {
        return reply
          .code(400)
          .send(
            errorBody(
              'minutes, hours and days must be positive numbers',
              'InvalidRequestException',
            ),
          );
      }
      const queued = await scheduler.advance(ms);
      return {
        now: clock.now().toISOString(),
        runs: queued.map((q) => ({
          id: q.run.id,
          pipelineId: q.run.pipelineId,
          cron: q.cron,
          dueAt: q.dueAt.toISOString(),
        })),
      };
    },
  );
  // Stands in for the Security ACL API (not emulated): sets what an identity may do on a
  // repository, as a Project Administrator would in Azure DevOps (GIT_PERMISSION bits).
  app.put<{ Body: { repository?: unknown; identityId?: unknown; allow?: unknown } | undefined }>(
    '/_emulator/git-permissions',
    async (request, reply) => {
      const { repository, identityId, allow } = request.body ?? {};
      const repo = state.data.repositories.find((r) => r.name === repository);
      if (!repo || typeof identityId !== 'string' || !identityId || !Number.isInteger(allow)) {
        return reply
          .code(400)
          .send(
            errorBody(
              'repository (a repository name), identityId and allow (an integer) are required',
              'InvalidRequestException',
            ),
          );
      }
      const grants = state.data.gitPermissions.filter(
        (g) =>
          !(g.repositoryId === repo.id && g.identityId.toLowerCase() === identityId.toLowerCase()),
      );
      if ((allow as number) !== 0) {
        grants.push({ repositoryId: repo.id, identityId, allow: allow as number });
      }
      state.data.gitPermissions = grants;
      state.save();
      return { repositoryId: repo.id, identityId, allow };
    },
  );
  app.post('/_emulator/runner/idle', async () => {
    await runner.waitForIdle();
    return { idle: true };
  });
  registerCoreRoutes(app, state);
  registerPipelineRoutes(app, state, runner);
  registerGitRepositoryRoutes(app, state);
  registerGitPushRoutes(app, state);
  registerGitPullRequestRoutes(app, state);
  registerPolicyConfigurationRoutes(app, state);
  registerServiceHookRoutes(app, state);
  registerWebPages(app, state);
  const hooks = new ServiceHookDelivery(
    state,
    () => {
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      return `http://127.0.0.1:${port}/${state.data.organization}`;
    },
    (message) => app.log.warn(message),
  );
  state.onRefUpdated((update) => hooks.deliver(update));
  app.addHook('onClose', async () => {
    scheduler.stop();
    await runner.close();
    await hooks.idle();
  });
  return { app, state, runner, faults, clock, scheduler, hooks };
}

export async function listenDevOpsEmulator(
  server: DevOpsServer,
  options: Pick<DevOpsEmulatorOptions, 'port' | 'host'>,
): Promise<DevOpsEmulator> {
  const host = options.host ?? '127.0.0.1';
  await server.app.listen({ port: options.port ?? 0, host });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const origin = `http://${host}:${port}`;
  const organization = server.state.data.organization;
  return {
    url: `${origin}/${organization}`,
    origin,
    organization,
    state: server.state,
    runner: server.runner,
    faults: server.faults,
    clock: server.clock,
    scheduler: server.scheduler,
    hooks: server.hooks,
    close: () => server.app.close(),
  };
}
