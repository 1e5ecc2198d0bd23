// Microsoft Graph, configuration part: the objects of every Graph workload (Conditional Access
// policies and named locations, directory settings, authorization and authentication methods
// policies, Intune policies, Forms settings) served where Microsoft's contract puts them and as it
// shapes them (graph-contract.ts, ADR 048): a path is a collection or a singleton as the contract
// says, each method the contract does not allow is refused with 405, responses carry navigation
// properties only when `$expand`ed, and PUT replaces where Microsoft documents PUT. Policies that
// reference groups, users or named locations are checked the way Graph checks them, and Intune
// writes honour Multi Admin Approval.
import { randomUUID } from 'node:crypto';

import { type GraphWorkload, TENANT_WORKLOADS, textOf, workloadKey } from '@aegis/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';

import type { Json, JsonObject } from '../seed/policies/types';

import { DIRECTORY_SETTING_TEMPLATES } from './catalogue';
import { entity, listPage, notFound, queryOf, stateOf } from './graph-common';
import {
  GRAPH_CONTRACT,
  GRAPH_METHODS,
  checkWriteBody,
  contractPath,
  methodNotAllowed,
  represent,
  type GraphApiVersion,
  type GraphMethod,
} from './graph-contract';
import type { TenantState } from './tenant-state';
import { EmulatorError, principalOf } from './wire';
import type { TenantWorld } from './world';

const APPROVAL_HEADER = 'x-msft-approval-justification';

const SPECIAL_USERS = new Set(['all', 'none', 'guestsorexternalusers']);
const SPECIAL_LOCATIONS = new Set(['all', 'alltrusted']);

function stringsAt(object: JsonObject | undefined, key: string): string[] {
  const value = object?.[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function objectAt(object: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = object?.[key];
  return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

/**
 * Graph refuses a Conditional Access policy naming a group, user or named location that does not
 * exist in the tenant (e.g. "1054: Invalid group value: …").
 */
export function checkConditionalAccessReferences(state: TenantState, policy: JsonObject): void {
  const conditions = objectAt(policy, 'conditions');
  const users = objectAt(conditions, 'users');
  for (const key of ['includeGroups', 'excludeGroups']) {
    for (const id of stringsAt(users, key)) {
      if (!state.objectOfType(id, '#microsoft.graph.group')) {
        throw new EmulatorError(400, 'BadRequest', `1054: Invalid group value: ${id}.`);
      }
    }
  }
  for (const key of ['includeUsers', 'excludeUsers']) {
    for (const id of stringsAt(users, key)) {
      if (SPECIAL_USERS.has(id.toLowerCase())) continue;
      if (!state.objectOfType(id, '#microsoft.graph.user')) {
        throw new EmulatorError(400, 'BadRequest', `Invalid user value: ${id}.`);
      }
    }
  }
  const locations = objectAt(conditions, 'locations');
  const named = state.workloadObjects({ category: 'ConditionalAccess', kind: 'NamedLocation' });
  for (const key of ['includeLocations', 'excludeLocations']) {
    for (const id of stringsAt(locations, key)) {
      if (SPECIAL_LOCATIONS.has(id.toLowerCase())) continue;
      if (!named.has(id)) {
        throw new EmulatorError(400, 'BadRequest', `Invalid location value: ${id}.`);
      }
    }
  }
}

/** The Conditional Access policies that use a named location (a location in use cannot be deleted). */
function policiesUsingLocation(state: TenantState, locationId: string): string[] {
  const policies = state.workloadObjects({ category: 'ConditionalAccess', kind: 'Policy' });
  return [...policies.values()]
    .filter((p) => {
      const locations = objectAt(objectAt(p, 'conditions'), 'locations');
      return [
        ...stringsAt(locations, 'includeLocations'),
        ...stringsAt(locations, 'excludeLocations'),
      ].includes(locationId);
    })
    .map((p) => textOf(p['displayName'] ?? p['id']));
}

function bodyOf(request: FastifyRequest): JsonObject {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new EmulatorError(400, 'BadRequest', 'Empty Payload. JSON content expected.');
  }
  return structuredClone(body) as JsonObject;
}

function timestamp(world: TenantWorld): string {
  return new Date(world.now()).toISOString().replace('Z', '0000Z');
}

/**
 * The justification of a Multi Admin Approval request: Intune asks for it Base64-encoded in the
 * header; anything that is not Base64 of UTF-8 text is refused.
 */
function decodeJustification(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const text = header.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  try {
    const decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(text, 'base64'));
    return decoded.trim() ? decoded : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Multi Admin Approval (Intune): when the tenant turns it on, an app-only write needs a
 * justification and is then queued for a second administrator (202) instead of applied.
 * Answers true when the write was queued (the reply is sent).
 */
async function queuedForApproval(
  world: TenantWorld,
  workload: GraphWorkload,
  request: FastifyRequest,
  reply: FastifyReply,
  apply: () => void,
): Promise<boolean> {
  if (!workload.intune) return false;
  const state = stateOf(world, request);
  if (!world.scenarios(state.tenant.tenantId).multiAdminApproval) return false;
  if (!principalOf(request).appOnly) return false;
  const justification = decodeJustification(request.headers[APPROVAL_HEADER]);
  if (justification === undefined) {
    throw new EmulatorError(
      400,
      'BadRequest',
      `This operation is protected by Multi Admin Approval. Send a business justification, Base64-encoded, in the ${APPROVAL_HEADER} header to request approval.`,
    );
  }
  const approval = state.requestApproval(
    `${request.method} ${request.url.split('?')[0] ?? ''}`,
    justification,
    apply,
  );
  await reply.code(202).send({
    id: approval.id,
    status: 'needsApproval',
    message: `The change is waiting for approval by a second administrator (Multi Admin Approval request ${approval.id}).`,
  });
  return true;
}

/**
 * Registers the handlers of a path template for the methods its contract allows; every other
 * method is answered 405, as Graph answers a method a resource does not support.
 */
function routes(
  scope: FastifyInstance,
  version: GraphApiVersion,
  template: string,
  handlers: Partial<Record<GraphMethod, RouteHandlerMethod>>,
): void {
  const allowed = contractPath(version, template).methods;
  const url = template.replace(/\{id\}/g, ':id');
  for (const method of GRAPH_METHODS) {
    const handler = handlers[method];
    if (allowed.includes(method)) {
      if (handler) scope.route({ method, url, handler });
    } else {
      scope.route({
        method,
        url,
        handler: () => {
          throw methodNotAllowed(method, template);
        },
      });
    }
  }
}

/** The stored object with this id (a collection of one keeps its object under 'singleton'). */
function entryById(
  items: Map<string, JsonObject>,
  id: string,
): [key: string, object: JsonObject] | undefined {
  const direct = items.get(id);
  if (direct) return [id, direct];
  for (const [key, object] of items) if (object['id'] === id) return [key, object];
  return undefined;
}

function registerSingleton(
  scope: FastifyInstance,
  world: TenantWorld,
  version: GraphApiVersion,
  workload: GraphWorkload,
) {
  const fragment = workload.path.slice(1);
  const template = workload.path;
  const write =
    (replace: boolean): RouteHandlerMethod =>
    async (request, reply) => {
      const state = stateOf(world, request);
      const body = bodyOf(request);
      checkWriteBody(version, template, body);
      const items = state.workloadObjects(workload);
      const apply = () => {
        const current = items.get('singleton') ?? {};
        const id = current['id'] ?? body['id'];
        // PUT replaces the whole object; PATCH changes the properties it names
        const next = replace ? { ...body } : { ...current, ...body };
        if (id !== undefined) next['id'] = id;
        items.set('singleton', next);
        state.recordChange(principalOf(request), workloadKey(workload), current, next);
      };
      if (await queuedForApproval(world, workload, request, reply, apply)) return reply;
      apply();
      return reply.code(204).send();
    };
  routes(scope, version, template, {
    GET: (request) => {
      const object = stateOf(world, request).workloadObjects(workload).get('singleton');
      if (!object) throw notFound(fragment);
      const shaped = represent(version, template, object, queryOf(request)['expand']);
      return entity(request, shaped, `${fragment}/$entity`);
    },
    PATCH: write(false),
    PUT: write(true),
  });
}

/** What Graph checks when an object is created, beyond its naming property. */
function checkCreate(state: TenantState, workload: GraphWorkload, body: JsonObject): void {
  const key = `${workload.category}/${workload.kind}`;
  if (key === 'ConditionalAccess/Policy') checkConditionalAccessReferences(state, body);
  if (key === 'AzureAD/DirectorySetting') {
    const templateId = body['templateId'];
    if (
      typeof templateId !== 'string' ||
      !DIRECTORY_SETTING_TEMPLATES.some((t) => t.id === templateId.toLowerCase())
    ) {
      throw new EmulatorError(
        400,
        'Request_BadRequest',
        "Invalid value specified for property 'templateId' of resource 'DirectorySetting'.",
      );
    }
  }
  if (key === 'Intune/DeviceCompliancePolicy') {
    const actions = body['scheduledActionsForRule'];
    if (!Array.isArray(actions) || actions.length === 0) {
      throw new EmulatorError(
        400,
        'BadRequest',
        'A compliance policy is created with its scheduledActionsForRule (at least the block action).',
      );
    }
  }
}

function registerCollection(
  scope: FastifyInstance,
  world: TenantWorld,
  version: GraphApiVersion,
  workload: GraphWorkload,
  pageSize: number,
) {
  const fragment = workload.path.slice(1);
  const itemTemplate = `${workload.path}/{id}`;
  const isCaPolicy = workload.category === 'ConditionalAccess' && workload.kind === 'Policy';
  const isNamedLocation =
    workload.category === 'ConditionalAccess' && workload.kind === 'NamedLocation';
  const nameProperty = workload.nameProperty ?? 'displayName';
  const stampOf = (): Record<string, Json> =>
    isCaPolicy || isNamedLocation
      ? { modifiedDateTime: timestamp(world) }
      : { lastModifiedDateTime: timestamp(world) };

  routes(scope, version, workload.path, {
    GET: (request) => {
      const expand = queryOf(request)['expand'];
      const items = [...stateOf(world, request).workloadObjects(workload).values()].map((o) =>
        represent(version, itemTemplate, o, expand),
      );
      return listPage(request, items, fragment, pageSize);
    },
    POST: async (request, reply) => {
      const state = stateOf(world, request);
      const body = bodyOf(request);
      if (
        nameProperty !== 'id' &&
        (typeof body[nameProperty] !== 'string' || body[nameProperty] === '')
      ) {
        throw new EmulatorError(
          400,
          'BadRequest',
          `Invalid value specified for property '${nameProperty}'. The property is required.`,
        );
      }
      checkCreate(state, workload, body);
      const now = timestamp(world);
      // navigation properties in the body are created with the object (deep insert)
      const created: JsonObject = {
        ...body,
        id: nameProperty === 'id' && typeof body['id'] === 'string' ? body['id'] : randomUUID(),
        createdDateTime: now,
        ...stampOf(),
      };
      const items = state.workloadObjects(workload);
      const apply = () => {
        items.set(textOf(created['id']), created);
        state.recordChange(principalOf(request), workloadKey(workload), undefined, created);
      };
      if (await queuedForApproval(world, workload, request, reply, apply)) return reply;
      apply();
      const shaped = represent(version, itemTemplate, created, undefined);
      return reply.code(201).send(entity(request, shaped, `${fragment}/$entity`));
    },
  });
  routes(scope, version, itemTemplate, {
    GET: (request) => {
      const { id } = request.params as { id: string };
      const found = entryById(stateOf(world, request).workloadObjects(workload), id);
      if (!found) throw notFound(id);
      const shaped = represent(version, itemTemplate, found[1], queryOf(request)['expand']);
      return entity(request, shaped, `${fragment}/$entity`);
    },
    PATCH: async (request, reply) => {
      const { id } = request.params as { id: string };
      const state = stateOf(world, request);
      const items = state.workloadObjects(workload);
      const found = entryById(items, id);
      if (!found) throw notFound(id);
      const body = bodyOf(request);
      delete body['id'];
      const next: JsonObject = { ...found[1], ...body };
      if (isCaPolicy) checkConditionalAccessReferences(state, next);
      const stamp = workload.singleton ? {} : stampOf();
      const apply = () => {
        const updated = { ...next, ...stamp };
        items.set(found[0], updated);
        state.recordChange(principalOf(request), workloadKey(workload), found[1], updated);
      };
      if (await queuedForApproval(world, workload, request, reply, apply)) return reply;
      apply();
      return reply.code(204).send();
    },
    DELETE: async (request, reply) => {
      const { id } = request.params as { id: string };
      const state = stateOf(world, request);
      const items = state.workloadObjects(workload);
      const found = entryById(items, id);
      if (!found) throw notFound(id);
      if (isNamedLocation) {
        const users = policiesUsingLocation(state, id);
        if (users.length > 0) {
          throw new EmulatorError(
            400,
            'BadRequest',
            `The named location is referenced by Conditional Access policies: ${users.join(', ')}.`,
          );
        }
      }
      const apply = () => {
        items.delete(found[0]);
        state.recordChange(principalOf(request), workloadKey(workload), found[1], undefined);
      };
      if (await queuedForApproval(world, workload, request, reply, apply)) return reply;
      apply();
      return reply.code(204).send();
    },
  });
  // navigation collections of an object the contract lists (a Settings Catalog policy's settings)
  const prefix = `${itemTemplate}/`;
  for (const template of Object.keys(GRAPH_CONTRACT.versions[version].paths)) {
    const path = contractPath(version, template);
    if (!template.startsWith(prefix) || !path.exists || path.kind !== 'collection') continue;
    const property = template.slice(prefix.length);
    if (property.includes('/')) continue;
    routes(scope, version, template, {
      GET: (request) => {
        const { id } = request.params as { id: string };
        const found = entryById(stateOf(world, request).workloadObjects(workload), id);
        if (!found) throw notFound(id);
        const value = found[1][property];
        const members = Array.isArray(value)
          ? value.filter((s): s is JsonObject => !!s && typeof s === 'object' && !Array.isArray(s))
          : [];
        return listPage(request, members, `${fragment}('${id}')/${property}`, pageSize);
      },
    });
  }
}

function registerDirectorySettingTemplates(
  scope: FastifyInstance,
  version: GraphApiVersion,
  pageSize: number,
) {
  const json = (t: (typeof DIRECTORY_SETTING_TEMPLATES)[number]): JsonObject => ({
    id: t.id,
    deletedDateTime: null,
    displayName: t.displayName,
  });
  routes(scope, version, '/directorySettingTemplates', {
    GET: (request) =>
      listPage(
        request,
        DIRECTORY_SETTING_TEMPLATES.map(json),
        'directorySettingTemplates',
        pageSize,
      ),
  });
  routes(scope, version, '/directorySettingTemplates/{id}', {
    GET: (request) => {
      const { id } = request.params as { id: string };
      const template = DIRECTORY_SETTING_TEMPLATES.find((t) => t.id === id.toLowerCase());
      if (!template) throw notFound(id);
      return entity(request, json(template), 'directorySettingTemplates/$entity');
    },
  });
}

/**
 * Registers every Graph configuration workload on a /v1.0 or /beta scope where Microsoft's
 * contract of that version has its path, shaped as the contract says.
 */
export function graphConfigRoutes(
  scope: FastifyInstance,
  world: TenantWorld,
  version: GraphApiVersion,
  pageSize: number,
): void {
  for (const workload of TENANT_WORKLOADS) {
    if (workload.transport !== 'graph' || workload.path === '/groups') continue;
    const kind = contractPath(version, workload.path).kind;
    if (kind === 'collection') registerCollection(scope, world, version, workload, pageSize);
    else if (kind === 'singleton') registerSingleton(scope, world, version, workload);
  }
  registerDirectorySettingTemplates(scope, version, pageSize);
}
