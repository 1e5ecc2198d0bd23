// Service Hooks - Subscriptions (hooks 7.1, MicrosoftDocs/vsts-rest-api-specs serviceHooks.json):
// web hook subscriptions to the `git.push` event of the `tfs` publisher, delivered as Azure DevOps
// delivers them: an HTTP POST of the event (id, eventType, message, resource, resourceContainers,
// createdDate) to the consumer's url, with its basic credentials and extra headers. Only what Aegis
// subscribes to is served; other publishers, events and consumers are refused naming the input.
import { randomUUID } from 'node:crypto';

import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { DevOpsState, HookSubscriptionRecord, RefUpdateEvent } from '../state';

import { baseUrl, callerIdentity, DevOpsError, identityRef, wrap } from './common';

const SUBSCRIPTIONS_PATH = '/:org/_apis/hooks/subscriptions';

interface SubscriptionBody {
  publisherId?: unknown;
  eventType?: unknown;
  resourceVersion?: unknown;
  consumerId?: unknown;
  consumerActionId?: unknown;
  publisherInputs?: unknown;
  consumerInputs?: unknown;
}

function inputError(message: string): DevOpsError {
  return new DevOpsError(400, 'ServiceHookException', message);
}

function stringInputs(value: unknown, name: string): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw inputError(`${name} must be an object of string values.`);
  }
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw inputError(`${name}.${key} must be a string.`);
    out[key] = v;
  }
  return out;
}

/** The subscription a body describes; DevOpsError (400) naming the input that is not served. */
function subscriptionOf(
  body: SubscriptionBody,
  state: DevOpsState,
): Omit<HookSubscriptionRecord, 'id' | 'createdBy' | 'createdDate' | 'modifiedDate'> {
  if (body.publisherId !== 'tfs')
    throw inputError(`Publisher '${String(body.publisherId)}' not found.`);
  if (body.eventType !== 'git.push') {
    throw inputError(`Event type '${String(body.eventType)}' is not supported by publisher 'tfs'.`);
  }
  if (body.consumerId !== 'webHooks')
    throw inputError(`Consumer '${String(body.consumerId)}' not found.`);
  if (body.consumerActionId !== 'httpRequest') {
    throw inputError(`Consumer action '${String(body.consumerActionId)}' not found.`);
  }
  const publisherInputs = stringInputs(body.publisherInputs, 'publisherInputs');
  const consumerInputs = stringInputs(body.consumerInputs, 'consumerInputs');
  const project = state.data.projects.find((p) => p.id === publisherInputs['projectId']);
  if (!project)
    throw inputError('publisherInputs.projectId must name a project of the organization.');
  const repository = publisherInputs['repository'];
  if (
    repository &&
    !state.data.repositories.some((r) => r.id === repository && r.projectId === project.id)
  ) {
    throw inputError(
      `publisherInputs.repository '${repository}' is not a repository of the project.`,
    );
  }
  let url: URL;
  try {
    url = new URL(consumerInputs['url'] ?? '');
  } catch {
    throw inputError('consumerInputs.url must be an absolute http or https URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw inputError('consumerInputs.url must be an absolute http or https URL.');
  }
  return {
    publisherId: 'tfs',
    eventType: 'git.push',
    resourceVersion: typeof body.resourceVersion === 'string' ? body.resourceVersion : '1.0',
    consumerId: 'webHooks',
    consumerActionId: 'httpRequest',
    publisherInputs,
    consumerInputs,
    status: 'enabled',
  };
}

function subscriptionJson(request: FastifyRequest, state: DevOpsState, s: HookSubscriptionRecord) {
  const url = `${baseUrl(request, state.data.organization)}/_apis/hooks/subscriptions/${s.id}`;
  // the service never gives a secret back
  const { basicAuthPassword, ...consumerInputs } = s.consumerInputs;
  return {
    id: s.id,
    url,
    status: s.status,
    publisherId: s.publisherId,
    eventType: s.eventType,
    resourceVersion: s.resourceVersion,
    eventDescription: 'Code pushed',
    consumerId: s.consumerId,
    consumerActionId: s.consumerActionId,
    actionDescription: `To host ${new URL(s.consumerInputs['url'] ?? 'http://unknown').host}`,
    createdBy: identityRef(request, state, s.createdBy),
    createdDate: s.createdDate,
    modifiedBy: identityRef(request, state, s.createdBy),
    modifiedDate: s.modifiedDate,
    publisherInputs: s.publisherInputs,
    consumerInputs:
      basicAuthPassword === undefined
        ? consumerInputs
        : { ...consumerInputs, basicAuthPassword: '********' },
  };
}

export function registerServiceHookRoutes(app: FastifyInstance, state: DevOpsState): void {
  app.get(SUBSCRIPTIONS_PATH, (request) =>
    wrap(state.data.hookSubscriptions.map((s) => subscriptionJson(request, state, s))),
  );

  app.post<{ Body: SubscriptionBody }>(SUBSCRIPTIONS_PATH, (request) => {
    const now = new Date().toISOString();
    const subscription: HookSubscriptionRecord = {
      id: randomUUID(),
      ...subscriptionOf(request.body ?? {}, state),
      createdBy: callerIdentity(request),
      createdDate: now,
      modifiedDate: now,
    };
    state.data.hookSubscriptions.push(subscription);
    state.save();
    return subscriptionJson(request, state, subscription);
  });

  app.get<{ Params: { id: string } }>(`${SUBSCRIPTIONS_PATH}/:id`, (request) =>
    subscriptionJson(request, state, subscriptionById(state, request.params.id)),
  );

  // Replace Subscription: the whole subscription anew, keeping its id and creation
  app.put<{ Params: { id: string }; Body: SubscriptionBody }>(
    `${SUBSCRIPTIONS_PATH}/:id`,
    (request) => {
      const existing = subscriptionById(state, request.params.id);
      const replaced: HookSubscriptionRecord = {
        ...existing,
        ...subscriptionOf(request.body ?? {}, state),
        modifiedDate: new Date().toISOString(),
      };
      state.data.hookSubscriptions = state.data.hookSubscriptions.map((s) =>
        s.id === existing.id ? replaced : s,
      );
      state.save();
      return subscriptionJson(request, state, replaced);
    },
  );

  app.delete<{ Params: { id: string } }>(`${SUBSCRIPTIONS_PATH}/:id`, async (request, reply) => {
    subscriptionById(state, request.params.id);
    state.data.hookSubscriptions = state.data.hookSubscriptions.filter(
      (s) => s.id !== request.params.id,
    );
    state.save();
    return reply.code(204).send();
  });
}

function subscriptionById(state: DevOpsState, id: string): HookSubscriptionRecord {
  const found = state.data.hookSubscriptions.find((s) => s.id === id);
  if (!found) {
    throw new DevOpsError(
      404,
      'SubscriptionNotFoundException',
      `Subscription ${id} was not found.`,
    );
  }
  return found;
}

/** Headers a subscription sends: its basic credentials and its `httpHeaders` ("Name:value" lines). */
function consumerHeaders(inputs: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  for (const line of (inputs['httpHeaders'] ?? '').split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  if (inputs['basicAuthUsername'] !== undefined || inputs['basicAuthPassword'] !== undefined) {
    const credentials = `${inputs['basicAuthUsername'] ?? ''}:${inputs['basicAuthPassword'] ?? ''}`;
    headers['authorization'] = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  return headers;
}

/** Whether a push matches a subscription's publisher inputs (project, repository, branch). */
function matches(s: HookSubscriptionRecord, update: RefUpdateEvent): boolean {
  const inputs = s.publisherInputs;
  if (s.status !== 'enabled' || inputs['projectId'] !== update.project.id) return false;
  if (inputs['repository'] && inputs['repository'] !== update.repository.id) return false;
  const branch = inputs['branch'];
  return !branch || update.refName === `refs/heads/${branch.replace(/^refs\/heads\//, '')}`;
}

/**
 * Delivers a push to every subscription it matches, as the service does: one POST per
 * subscription, not waited for by the push. Delivery failures are logged by the emulator only
 * (the real service retries and puts the subscription on probation).
 */
export class ServiceHookDelivery {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly state: DevOpsState,
    private readonly organizationUrl: () => string,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  deliver(update: RefUpdateEvent): void {
    for (const s of this.state.data.hookSubscriptions.filter((sub) => matches(sub, update))) {
      const delivery = this.post(s, update).finally(() => this.inFlight.delete(delivery));
      this.inFlight.add(delivery);
    }
  }

  /** Resolves when every delivery started so far has been answered (tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async post(s: HookSubscriptionRecord, update: RefUpdateEvent): Promise<void> {
    const org = this.organizationUrl();
    const repositoryUrl = `${org}/${update.project.id}/_apis/git/repositories/${update.repository.id}`;
    const branch = update.refName.replace(/^refs\/heads\//, '');
    const text = `${update.pushedBy.displayName} pushed updates to ${update.repository.name}:${branch}.`;
    const event = {
      subscriptionId: s.id,
      notificationId: Math.floor(Math.random() * 1_000_000),
      id: randomUUID(),
      eventType: 'git.push',
      publisherId: 'tfs',
      message: { text, html: text, markdown: text },
      detailedMessage: { text, html: text, markdown: text },
      resource: {
        commits: update.commits.map((c) => ({
          commitId: c.commitId,
          comment: c.comment,
          url: `${repositoryUrl}/commits/${c.commitId}`,
        })),
        refUpdates: [
          {
            name: update.refName,
            oldObjectId: update.oldObjectId,
            newObjectId: update.newObjectId,
          },
        ],
        repository: {
          id: update.repository.id,
          name: update.repository.name,
          url: repositoryUrl,
          project: { id: update.project.id, name: update.project.name, state: 'wellFormed' },
          defaultBranch: 'refs/heads/main',
          remoteUrl: `${org}/${encodeURIComponent(update.project.name)}/_git/${encodeURIComponent(update.repository.name)}`,
        },
        pushedBy: {
          id: update.pushedBy.id,
          displayName: update.pushedBy.displayName,
          uniqueName: update.pushedBy.uniqueName,
        },
        pushId: update.pushId,
        date: update.date,
        url: `${repositoryUrl}/pushes/${update.pushId}`,
      },
      resourceVersion: s.resourceVersion,
      resourceContainers: {
        collection: { id: this.state.data.organization },
        account: { id: this.state.data.organization },
        project: { id: update.project.id },
      },
      createdDate: new Date().toISOString(),
    };
    try {
      const response = await fetch(s.consumerInputs['url'] ?? '', {
        method: 'POST',
        headers: consumerHeaders(s.consumerInputs),
        body: JSON.stringify(event),
        signal: AbortSignal.timeout(20_000),
      });
      await response.arrayBuffer();
      if (!response.ok) this.log(`service hook ${s.id}: ${response.status} from the consumer`);
    } catch (error) {
      this.log(`service hook ${s.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
