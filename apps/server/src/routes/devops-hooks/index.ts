import { createHash, timingSafeEqual } from 'node:crypto';

import { ConfigRepository } from '@aegis/connectors/repository';
import { devOpsPushAnswerSchema, type DevOpsPushAnswer } from '@aegis/contracts';
import { AuthenticationError, InputError, MAIN_REF, NotFoundError } from '@aegis/domain';
import type { FleetService } from '@aegis/insights';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import type { AegisConfig } from '../../config';
import { registering } from '../../lib/registering';

/** Where Azure DevOps posts the `git.push` events of the service hook (ADR 062). */
const DEVOPS_PUSH_HOOK_PATH = '/api/hooks/devops/git-push';
/** The basic user name of the hook's credentials; the password is AEGIS_DEVOPS_HOOK_SECRET. */
const DEVOPS_HOOK_USER = 'aegis';

/**
 * The parts of a `git.push` event Aegis reads. Open to every other field: the event is Azure
 * DevOps's, which adds fields without notice, so unlike Aegis's own bodies it is not closed.
 */
const gitPushEvent = z.looseObject({
  eventType: z.literal('git.push', { error: "eventType must be 'git.push'" }),
  resource: z.looseObject({
    refUpdates: z.array(
      z.looseObject({
        name: z.string(),
        oldObjectId: z.string().regex(/^[0-9a-f]{40}$/i, 'must be a 40-digit object id'),
        newObjectId: z.string().regex(/^[0-9a-f]{40}$/i, 'must be a 40-digit object id'),
      }),
    ),
    repository: z.looseObject({ id: z.string(), name: z.string() }),
  }),
});

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries the hook's basic credentials (constant time). */
function hasHookCredentials(header: string | undefined, secret: string): boolean {
  const encoded = /^Basic\s+(\S+)$/i.exec(header ?? '')?.[1];
  if (!encoded) return false;
  const expected = digest(`${DEVOPS_HOOK_USER}:${secret}`);
  return timingSafeEqual(digest(Buffer.from(encoded, 'base64').toString('utf8')), expected);
}

export interface DevOpsHookRoutesOptions {
  readonly config: AegisConfig;
  /** the fleet service over a repository read as the Aegis app; none without Table storage */
  readonly fleetServiceFor: ((repository: ConfigRepository) => FleetService) | undefined;
}

/**
 * The receiving end of Azure DevOps's service hook on main of the configuration repository: a
 * pull request completed in DevOps refreshes the fleet summaries of the clients it changed at once,
 * instead of on the next reader's page (issue 32 item 5). Authenticated by the hook's basic
 * credentials, not a user's token; answered after the refresh, so a failure is DevOps's to retry.
 */
export const devOpsHookRoutes: FastifyPluginCallbackZod<DevOpsHookRoutesOptions> = registering(
  (app, { config, fleetServiceFor }) => {
    /**
     * DevOps delivers an event at least once and retries what took too long: the same push arriving
     * again while its refresh runs joins that refresh instead of reading the trees once more.
     */
    const refreshing = new Map<string, Promise<DevOpsPushAnswer>>();
    app.post(
      DEVOPS_PUSH_HOOK_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags: ['hooks'],
          description:
            "Azure DevOps's service hook: a push to main of the configuration repository recomputes the fleet summaries of the clients it changed. HTTP basic credentials (user 'aegis', AEGIS_DEVOPS_HOOK_SECRET).",
          response: { 202: devOpsPushAnswerSchema },
        },
      },
      async (request, reply): Promise<DevOpsPushAnswer> => {
        const secret = config.AEGIS_DEVOPS_HOOK_SECRET;
        if (!secret || !fleetServiceFor || !app.aegisDevOps) {
          throw new NotFoundError(
            'Service hooks are not configured: they need AEGIS_DEVOPS_HOOK_SECRET, Table storage and the Aegis app identity',
          );
        }
        if (!hasHookCredentials(request.headers.authorization, secret)) {
          void reply.header('WWW-Authenticate', 'Basic realm="aegis-devops-hooks"');
          throw new AuthenticationError('The service hook credentials are not valid');
        }
        const parsed = gitPushEvent.safeParse(request.body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new InputError(
            `${issue?.path.join('.') ?? 'body'}: ${issue?.message ?? 'invalid'}`,
          );
        }
        const { resource } = parsed.data;
        const main = resource.refUpdates.find((u) => u.name === MAIN_REF);
        void reply.code(202);
        if (
          resource.repository.name.toLowerCase() !== config.AEGIS_DEVOPS_CONFIG_REPO.toLowerCase()
        ) {
          return {
            ignored: `not the configuration repository (${resource.repository.name})`,
            baselineChanged: false,
            refreshed: [],
          };
        }
        if (!main) return { ignored: 'main did not move', baselineChanged: false, refreshed: [] };
        const key = `${main.oldObjectId}..${main.newObjectId}`;
        let refresh = refreshing.get(key);
        if (!refresh) {
          const repository = new ConfigRepository(app.aegisDevOps, app.configRepositoryShared);
          refresh = fleetServiceFor(repository)
            .refreshAfterPush(main.oldObjectId, main.newObjectId)
            .finally(() => refreshing.delete(key));
          refreshing.set(key, refresh);
        }
        const result = await refresh;
        request.log.info(result, 'fleet: summaries refreshed after a push to main');
        return result;
      },
    );
  },
);

/**
 * At start-up, subscribes Aegis's hook to pushes of main of the configuration repository, once
 * (an existing subscription to the same URL is given the current credentials). It never holds up the start; without the
 * right ('Edit subscriptions') it says so in the log, and merges are then seen by the next reader.
 */
export function subscribeDevOpsHookOnReady(app: FastifyInstance, config: AegisConfig): void {
  const secret = config.AEGIS_DEVOPS_HOOK_SECRET;
  const publicUrl = config.AEGIS_PUBLIC_URL;
  if (!secret || !publicUrl) return;
  app.addHook('onReady', (done) => {
    const devops = app.aegisDevOps;
    if (!devops) return done();
    void ensureSubscription(
      app.log,
      devops,
      config,
      new URL(DEVOPS_PUSH_HOOK_PATH, publicUrl).href,
      secret,
    );
    done();
  });
}

async function ensureSubscription(
  log: FastifyBaseLogger,
  devops: NonNullable<FastifyInstance['aegisDevOps']>,
  config: AegisConfig,
  url: string,
  secret: string,
): Promise<void> {
  try {
    const repo = await devops.getRepository({
      project: config.AEGIS_DEVOPS_PROJECT,
      repository: config.AEGIS_DEVOPS_CONFIG_REPO,
    });
    if (!repo) throw new Error(`repository ${config.AEGIS_DEVOPS_CONFIG_REPO} not found`);
    const existing = (await devops.listGitPushHooks()).find(
      (h) => h.url === url && h.repositoryId === repo.id,
    );
    const subscription = {
      projectId: repo.projectId,
      repositoryId: repo.id,
      branch: 'main',
      url,
      basicAuthUsername: DEVOPS_HOOK_USER,
      basicAuthPassword: secret,
    };
    // DevOps never gives the password back: the existing subscription is given this start's
    // secret, so a rotated AEGIS_DEVOPS_HOOK_SECRET never leaves it answering 401 for ever
    if (existing) await devops.replaceGitPushHook(existing.id, subscription);
    else await devops.createGitPushHook(subscription);
    log.info({ url }, 'subscribed to pushes of main in Azure DevOps (service hook)');
  } catch (error) {
    log.warn(
      { reason: error instanceof Error ? error.message : String(error) },
      'the Azure DevOps service hook could not be subscribed: merges made in DevOps reach the fleet on its next read',
    );
  }
}
