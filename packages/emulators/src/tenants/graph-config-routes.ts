// Microsoft Graph, configuration part: every Graph workload of the domain's TENANT_WORKLOADS
// (Conditional Access policies and named locations, directory settings, authorization and
// authentication methods policies, Intune policies, Forms settings), as collections
// (GET list, POST, GET/PATCH/DELETE by id) or singletons (GET, PATCH). Policies that reference
// groups, users or named locations are checked the way Graph checks them, and Intune writes honour
// Multi Admin Approval.
import { randomUUID } from 'node:crypto';

import { TENANT_WORKLOADS, type GraphWorkload } from '@aegis/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { Json, JsonObject } from '../seed/policies/types';

import { entity, listPage, notFound, stateOf } from './graph-common';
import type { TenantState } from './tenant-state';
import { EmulatorError, principalOf } from './wire';
import type { TenantWorld } from './world';

export const APPROVAL_HEADER = 'x-msft-approval-justification';

const SPECIAL_USERS = new Set(['all', 'none', 'guestsorexternalusers']);
const SPECIAL_LOCATIONS = new Set(['all', 'alltrusted']);

function stringsAt(object: JsonObject | undefined, key: string): string[] {
  const value = object?.[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function objectAt(object: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = object?.[key];
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
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
    .map((p) => String(p['displayName'] ?? p['id']));
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
  const justification = request.headers[APPROVAL_HEADER];
  if (typeof justification !== 'string' || justification.trim() === '') {
    throw new EmulatorError(
      400,
      'BadRequest',
      `This operation is protected by Multi Admin Approval. Send a business justification in the ${APPROVAL_HEADER} header to request approval.`,
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

function registerSingleton(scope: FastifyInstance, world: TenantWorld, workload: GraphWorkload) {
  const fragment = workload.path.slice(1);
  scope.get(workload.path, async (request) => {
    const object = stateOf(world, request).workloadObjects(workload).get('singleton');
    if (!object) throw notFound(fragment);
    return entity(request, object, `${fragment}/$entity`);
  });
  scope.patch(workload.path, async (request, reply) => {
    const state = stateOf(world, request);
    const body = bodyOf(request);
    const items = state.workloadObjects(workload);
    const apply = () => {
      const current = items.get('singleton') ?? {};
      items.set('singleton', { ...current, ...body, id: current['id'] ?? body['id'] ?? null });
    };
    if (await queuedForApproval(world, workload, request, reply, apply)) return reply;
    apply();
    return reply.code(204).send();
  });
}

function registerCollection(
  scope: FastifyInstance,
  world: TenantWorld,
  workload: GraphWorkload,
  pageSize: number,
) {
  const fragment = workload.path.slice(1);
  const isCaPolicy = workload.category === 'ConditionalAccess' && workload.kind === 'Policy';
  const isNamedLocation =
    workload.category === 'ConditionalAccess' && workload.kind === 'NamedLocation';
  const nameProperty = workload.nameProperty ?? 'displayName';

  scope.get(workload.path, async (request) =>
    listPage(
      request,
      [...stateOf(world, request).workloadObjects(workload).values()],
      fragment,
      pageSize,
    ),
  );
  scope.get<{ Params: { id: string } }>(`${workload.path}/:id`, async (request) => {
    const object = stateOf(world, request).workloadObjects(workload).get(request.params.id);
    if (!object) throw notFound(request.params.id);
    return entity(request, object, `${fragment}/$entity`);
  });
  if (workload.kind === 'ConfigurationPolicy') {
    // settings catalog: a policy's settings are a sub-collection
    scope.get<{ Params: { id: string } }>(`${workload.path}/:id/settings`, async (request) => {
      const object = stateOf(world, request).workloadObjects(workload).get(request.params.id);
      if (!object) throw notFound(request.params.id);
      const settings = Array.isArray(object['settings']) ? object['settings'] : [];
      return listPage(
        request,
        settings.filter((s): s is JsonObject => !!s && typeof s === 'object' && !Array.isArray(s)),
        `${fragment}('${request.params.id}')/settings`,
        pageSize,
      );
    });
  }
  scope.post(workload.path, async (request, reply) => {
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
    if (isCaPolicy) checkConditionalAccessReferences(state, body);
    const now = timestamp(world);
    const created: JsonObject = {
      ...body,
      id: nameProperty === 'id' && typeof body['id'] === 'string' ? body['id'] : randomUUID(),
      createdDateTime: now,
      ...(isCaPolicy || isNamedLocation
        ? { modifiedDateTime: now }
        : { lastModifiedDateTime: now }),
    };
    const items = state.workloadObjects(workload);
    const apply = () => items.set(String(created['id']), created);
    if (await queuedForApproval(world, workload, request, reply, apply)) return reply;
    apply();
    return reply.code(201).send(entity(request, created, `${fragment}/$entity`));
  });
  scope.patch<{ Params: { id: string } }>(`${workload.path}/:id`, async (request, reply) => {
    const state = stateOf(world, request);
    const items = state.workloadObjects(workload);
    const current = items.get(request.params.id);
    if (!current) throw notFound(request.params.id);
    const body = bodyOf(request);
    delete body['id'];
    const next: JsonObject = { ...current, ...body };
    if (isCaPolicy) checkConditionalAccessReferences(state, next);
    const stamp: Record<string, Json> =
      isCaPolicy || isNamedLocation
        ? { modifiedDateTime: timestamp(world) }
        : { lastModifiedDateTime: timestamp(world) };
    const apply = () => items.set(request.params.id, { ...next, ...stamp });
    if (await queuedForApproval(world, workload, request, reply, apply)) return reply;
    apply();
    return reply.code(204).send();
  });
  scope.delete<{ Params: { id: string } }>(`${workload.path}/:id`, async (request, reply) => {
    const state = stateOf(world, request);
    const items = state.workloadObjects(workload);
    if (!items.has(request.params.id)) throw notFound(request.params.id);
    if (isNamedLocation) {
      const users = policiesUsingLocation(state, request.params.id);
      if (users.length > 0) {
        throw new EmulatorError(
          400,
          'BadRequest',
          `The named location is referenced by Conditional Access policies: ${users.join(', ')}.`,
        );
      }
    }
    const apply = () => items.delete(request.params.id);
    if (await queuedForApproval(world, workload, request, reply, apply)) return reply;
    apply();
    return reply.code(204).send();
  });
}

/** Registers every Graph configuration workload on a /v1.0 or /beta scope. */
export function graphConfigRoutes(
  scope: FastifyInstance,
  world: TenantWorld,
  pageSize: number,
): void {
  for (const workload of TENANT_WORKLOADS) {
    if (workload.transport !== 'graph' || workload.path === '/groups') continue;
    if (workload.singleton) registerSingleton(scope, world, workload);
    else registerCollection(scope, world, workload, pageSize);
  }
}
