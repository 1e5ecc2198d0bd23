// Azure Resource Manager as Microsoft's specifications define the operations Aegis calls
// (contracts/arm.json, ADR 058): each route is an operation of the extract, registered at its path
// and method, checked for its api-versions and required body properties before it runs; another
// method on those paths is 405, a path outside them ARM's 404 or 400 (server.ts).
import { type ArmWorkload, TENANT_WORKLOADS, textOf } from '@aegis/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { JsonObject } from '../seed/policies/types';

import {
  armOperation,
  checkArmRequest,
  routePathsOf,
  successStatus,
  type ArmContractOperation,
} from './arm-contract';
import { AZURE_ROLE_DEFINITIONS } from './catalogue';
import { origin } from './graph-common';
import type { ResourceGroupRecord, RoleAssignmentRecord, TenantState } from './tenant-state';
import { EmulatorError, principalOf } from './wire';
import type { TenantWorld } from './world';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Params = Record<string, string>;
type ArmHandler = (
  request: FastifyRequest<{ Params: Params }>,
  reply: FastifyReply,
  operation: ArmContractOperation,
) => unknown;

function stateOf(world: TenantWorld, request: FastifyRequest): TenantState {
  return world.state(principalOf(request).tenantId);
}

function subscriptionJson(world: TenantWorld, tenantId: string, subscriptionId: string) {
  const subscription = world
    .subscriptions(tenantId)
    .find((s) => s.subscriptionId === subscriptionId.toLowerCase());
  if (!subscription) return undefined;
  return {
    id: `/subscriptions/${subscription.subscriptionId}`,
    authorizationSource: 'RoleBased',
    managedByTenants: [],
    subscriptionId: subscription.subscriptionId,
    tenantId,
    displayName: subscription.displayName,
    state: subscription.state,
    subscriptionPolicies: {
      locationPlacementId: 'Public_2014-09-01',
      quotaId: 'PayAsYouGo_2014-09-01',
      spendingLimit: 'Off',
    },
    tags: {},
  };
}

function requireSubscription(world: TenantWorld, request: FastifyRequest, subscriptionId: string) {
  const subscription = subscriptionJson(world, principalOf(request).tenantId, subscriptionId);
  if (!subscription) {
    throw new EmulatorError(
      404,
      'SubscriptionNotFound',
      `The subscription '${subscriptionId}' could not be found.`,
    );
  }
  return subscription;
}

function roleAssignmentJson(record: RoleAssignmentRecord): JsonObject {
  return {
    id: `${record.scope}/providers/Microsoft.Authorization/roleAssignments/${record.name}`,
    type: 'Microsoft.Authorization/roleAssignments',
    name: record.name,
    properties: {
      roleDefinitionId: record.roleDefinitionId,
      principalId: record.principalId,
      principalType: record.principalType,
      scope: record.scope,
      condition: null,
      conditionVersion: null,
      createdOn: record.createdOn,
      updatedOn: record.updatedOn,
      createdBy: record.createdBy,
      updatedBy: record.updatedBy,
      delegatedManagedIdentityResourceId: null,
      description: record.description,
    },
  };
}

function resourceGroupJson(subscriptionId: string, group: ResourceGroupRecord): JsonObject {
  return {
    id: `/subscriptions/${subscriptionId}/resourceGroups/${group.name}`,
    name: group.name,
    type: 'Microsoft.Resources/resourceGroups',
    location: group.location,
    tags: group.tags,
    properties: { provisioningState: 'Succeeded' },
  };
}

/** One page of an ARM list; `nextLink` (absolute, with a $skiptoken) while more remain. */
function armPage(request: FastifyRequest, items: readonly unknown[], pageSize: number) {
  const token = (request.query as Record<string, unknown>)['$skiptoken'];
  const offset = typeof token === 'string' ? Number(Buffer.from(token, 'base64url').toString()) : 0;
  if (!Number.isInteger(offset) || offset < 0) {
    throw new EmulatorError(400, 'InvalidSkipToken', 'The $skiptoken is not valid.');
  }
  const value = items.slice(offset, offset + pageSize);
  if (offset + pageSize >= items.length) return { value };
  const url = new URL(request.url, origin(request));
  url.searchParams.set('$skiptoken', Buffer.from(String(offset + pageSize)).toString('base64url'));
  return { value, nextLink: url.toString() };
}

/** Registers an operation of the extract at its paths; answers 405 for the methods it lacks. */
class ArmRouter {
  private readonly methodsByPath = new Map<string, Set<string>>();

  constructor(private readonly app: FastifyInstance) {}

  route(operationId: string, handler: ArmHandler): void {
    const operation = armOperation(operationId);
    for (const url of routePathsOf(operation)) {
      const methods = this.methodsByPath.get(url) ?? new Set<string>();
      methods.add(operation.method);
      this.methodsByPath.set(url, methods);
      this.app.route<{ Params: Params }>({
        method: operation.method,
        url,
        // the response body, or a promise of it: Fastify sends either
        handler: (request, reply) => {
          checkArmRequest(request, operation);
          return handler(request, reply, operation);
        },
      });
    }
  }

  /** ARM refuses a method a resource type does not have (405, ARM's error body). */
  refuseOtherMethods(): void {
    for (const [url, methods] of this.methodsByPath) {
      const others = (['GET', 'PUT', 'PATCH', 'POST', 'DELETE'] as const).filter(
        (m) => !methods.has(m),
      );
      if (others.length === 0) continue;
      this.app.route({
        method: others,
        url,
        handler: (request) => {
          throw new EmulatorError(
            405,
            'MethodNotAllowed',
            `The requested resource does not support http method '${request.method}'.`,
          );
        },
      });
    }
  }
}

function armWorkload(resourceType: string): ArmWorkload {
  const workload = TENANT_WORKLOADS.find(
    (w): w is ArmWorkload => w.transport === 'arm' && w.resourceType === resourceType,
  );
  if (!workload) throw new Error(`no ARM workload for ${resourceType}`);
  return workload;
}

export function registerArmRoutes(app: FastifyInstance, world: TenantWorld, pageSize = 100): void {
  const router = new ArmRouter(app);

  router.route('Subscriptions_List', (request) => {
    const tenantId = principalOf(request).tenantId;
    const all = world
      .subscriptions(tenantId)
      .map((s) => subscriptionJson(world, tenantId, s.subscriptionId));
    return armPage(request, all, pageSize);
  });

  router.route('RoleAssignments_Create', async (request, reply, operation) => {
    const subscription = requireSubscription(
      world,
      request,
      request.params['subscriptionId'] ?? '',
    );
    const state = stateOf(world, request);
    const principal = principalOf(request);
    const name = (request.params['roleAssignmentName'] ?? '').toLowerCase();
    if (!GUID.test(name)) {
      throw new EmulatorError(
        400,
        'InvalidRoleAssignmentId',
        `The role assignment ID '${request.params['roleAssignmentName'] ?? ''}' is not valid. The role assignment ID must be a GUID.`,
      );
    }
    const properties = (request.body as { properties: JsonObject }).properties;
    const roleDefinitionId = properties['roleDefinitionId'];
    const roleGuid =
      typeof roleDefinitionId === 'string'
        ? roleDefinitionId.split('/').pop()?.toLowerCase()
        : undefined;
    const def = AZURE_ROLE_DEFINITIONS.find((d) => d.name === roleGuid);
    if (!def) {
      throw new EmulatorError(
        400,
        'RoleDefinitionDoesNotExist',
        `The specified role definition with ID '${roleGuid ?? ''}' does not exist.`,
      );
    }
    const principalId = properties['principalId'];
    if (
      typeof principalId !== 'string' ||
      !state.directoryObjects.has(principalId.toLowerCase()) ||
      !state.isVisible(principalId.toLowerCase())
    ) {
      throw new EmulatorError(
        400,
        'PrincipalNotFound',
        `Principal ${typeof principalId === 'string' ? principalId.replace(/-/g, '') : ''} does not exist in the directory ${state.tenant.tenantId}. Check that you have the correct principal ID. If you are creating this principal and then immediately assigning a role, this error might be related to a replication delay. In this case, set the role assignment principalType property to a value, such as ServicePrincipal, User, or Group.  See https://aka.ms/docs-principaltype`,
      );
    }
    const failing = world.scenarios(state.tenant.tenantId).failingRoleAssignment;
    if (failing && failing.toLowerCase() === def.roleName.toLowerCase()) {
      const caller = principal.oid ?? principal.appId ?? '';
      throw new EmulatorError(
        403,
        'AuthorizationFailed',
        `The client '${principal.upn ?? caller}' with object id '${caller}' does not have authorization to perform action 'Microsoft.Authorization/roleAssignments/write' over scope '${subscription.id}/providers/Microsoft.Authorization/roleAssignments/${name}' or the scope is invalid. If access was recently granted, please refresh your credentials.`,
      );
    }
    const id = `${subscription.id}/providers/Microsoft.Authorization/roleAssignments/${name}`;
    const duplicate = [...state.roleAssignments.values()].find(
      (r) =>
        r.name !== name &&
        r.scope === subscription.id &&
        r.principalId === principalId.toLowerCase() &&
        r.roleDefinitionId.toLowerCase().endsWith(def.name),
    );
    if (duplicate) {
      throw new EmulatorError(409, 'RoleAssignmentExists', 'The role assignment already exists.');
    }
    const now = new Date(world.now()).toISOString();
    const existing = state.roleAssignments.get(id);
    const record: RoleAssignmentRecord = {
      name,
      scope: subscription.id,
      roleDefinitionId: `${subscription.id}/providers/Microsoft.Authorization/roleDefinitions/${def.name}`,
      principalId: principalId.toLowerCase(),
      principalType:
        typeof properties['principalType'] === 'string' ? properties['principalType'] : 'User',
      description: typeof properties['description'] === 'string' ? properties['description'] : null,
      createdOn: existing?.createdOn ?? now,
      updatedOn: now,
      createdBy: existing?.createdBy ?? principal.oid ?? null,
      updatedBy: principal.oid ?? null,
    };
    state.roleAssignments.set(id, record);
    return reply
      .code(successStatus(operation, existing ? 200 : 201))
      .send(roleAssignmentJson(record));
  });

  registerResourceGroupRoutes(router, world);
  registerResourceListRoute(router, world, pageSize);
  registerPolicyAssignmentRoutes(router, world, pageSize);
  registerMaintenanceConfigurationRoutes(router, world);
  router.refuseOtherMethods();
}

/** Resource groups: read and created (Aegis's, for maintenance configurations). */
function registerResourceGroupRoutes(router: ArmRouter, world: TenantWorld): void {
  const keyOf = (request: FastifyRequest<{ Params: Params }>) => {
    const subscription = requireSubscription(
      world,
      request,
      request.params['subscriptionId'] ?? '',
    );
    const name = request.params['resourceGroupName'] ?? '';
    return { subscription, name, key: `${subscription.subscriptionId}/${name.toLowerCase()}` };
  };
  router.route('ResourceGroups_Get', (request) => {
    const { subscription, name, key } = keyOf(request);
    const group = stateOf(world, request).resourceGroups.get(key);
    if (!group) {
      throw new EmulatorError(
        404,
        'ResourceGroupNotFound',
        `Resource group '${name}' could not be found.`,
      );
    }
    return resourceGroupJson(subscription.subscriptionId, group);
  });
  router.route('ResourceGroups_CreateOrUpdate', async (request, reply, operation) => {
    const { subscription, name, key } = keyOf(request);
    const body = request.body as { location: string; tags?: unknown };
    const state = stateOf(world, request);
    const existing = state.resourceGroups.get(key);
    const group: ResourceGroupRecord = {
      name: existing?.name ?? name,
      location: body.location,
      tags: (body.tags && typeof body.tags === 'object' ? body.tags : {}) as JsonObject,
    };
    state.resourceGroups.set(key, group);
    return reply
      .code(successStatus(operation, existing ? 200 : 201))
      .send(resourceGroupJson(subscription.subscriptionId, group));
  });
}

/** A management group's assignment: it applies to every subscription below it (inherited). */
function atManagementGroup(object: JsonObject): boolean {
  return /^\/providers\/Microsoft\.Management\/managementGroups\//i.test(textOf(object['id']));
}

/**
 * A subscription's list with ARM's `$filter` for policy assignments: none lists what applies to
 * the subscription (its own, its resource groups', inherited ones), atScope() leaves out the
 * resource groups', atExactScope() keeps only the subscription's own.
 */
function policyAssignmentsFilter(
  request: FastifyRequest,
  subscriptionId: string,
): (object: JsonObject) => boolean {
  const filter = (request.query as Record<string, unknown>)['$filter'];
  const id = (object: JsonObject) => textOf(object['id'] ?? '').toLowerCase();
  const own = (object: JsonObject) =>
    id(object).startsWith(`${subscriptionId.toLowerCase()}/providers/`);
  const inside = (object: JsonObject) => id(object).startsWith(`${subscriptionId.toLowerCase()}/`);
  if (filter === undefined) return (o) => inside(o) || atManagementGroup(o);
  if (filter === 'atScope()') return (o) => own(o) || atManagementGroup(o);
  if (filter === 'atExactScope()') return own;
  throw new EmulatorError(
    400,
    'InvalidFilterInQueryString',
    `Invalid $filter '${textOf(filter)}'.`,
  );
}

/**
 * Policy assignments at the subscription: listed with ARM's three filters, created or replaced
 * (201, the only success Microsoft's specification gives a PUT), deleted.
 */
function registerPolicyAssignmentRoutes(
  router: ArmRouter,
  world: TenantWorld,
  pageSize: number,
): void {
  const workload = armWorkload('Microsoft.Authorization/policyAssignments');
  router.route('PolicyAssignments_List', (request) => {
    const subscription = requireSubscription(
      world,
      request,
      request.params['subscriptionId'] ?? '',
    );
    const items = [...stateOf(world, request).workloadObjects(workload).values()];
    return armPage(
      request,
      items.filter(policyAssignmentsFilter(request, subscription.id)),
      pageSize,
    );
  });
  const lookup = (request: FastifyRequest<{ Params: Params }>) => {
    const subscription = requireSubscription(
      world,
      request,
      request.params['subscriptionId'] ?? '',
    );
    const name = request.params['policyAssignmentName'] ?? '';
    const items = stateOf(world, request).workloadObjects(workload);
    const object = items.get(name.toLowerCase());
    const mine = object && inScope(object, subscription.id) ? object : undefined;
    return { subscription, name, items, object: mine };
  };
  router.route('PolicyAssignments_Get', (request) => {
    const { name, object } = lookup(request);
    if (!object) {
      throw new EmulatorError(
        404,
        'PolicyAssignmentNotFound',
        `The policy assignment '${name}' is not found.`,
      );
    }
    return object;
  });
  router.route('PolicyAssignments_Create', async (request, reply, operation) => {
    const { subscription, name, items, object } = lookup(request);
    const saved: JsonObject = {
      ...(request.body as JsonObject),
      id: `${subscription.id}/providers/${workload.resourceType}/${name}`,
      name,
      type: workload.resourceType,
    };
    items.set(name.toLowerCase(), saved);
    return reply.code(successStatus(operation, object ? 200 : 201)).send(saved);
  });
  router.route('PolicyAssignments_Delete', async (request, reply) => {
    const { name, items, object } = lookup(request);
    if (!object) return reply.code(204).send();
    items.delete(name.toLowerCase());
    return reply.code(200).send(object);
  });
}

/**
 * Maintenance configurations: only inside a resource group (a PUT at subscription scope finds no
 * route, as in ARM); the subscription's are listed by Resources_List.
 */
function registerMaintenanceConfigurationRoutes(router: ArmRouter, world: TenantWorld): void {
  const workload = armWorkload('Microsoft.Maintenance/maintenanceConfigurations');
  const lookup = (request: FastifyRequest<{ Params: Params }>) => {
    const subscription = requireSubscription(
      world,
      request,
      request.params['subscriptionId'] ?? '',
    );
    const group = `${subscription.id}/resourceGroups/${request.params['resourceGroupName'] ?? ''}`;
    const name = request.params['resourceName'] ?? '';
    const items = stateOf(world, request).workloadObjects(workload);
    const object = items.get(name.toLowerCase());
    return { group, name, items, object: object && inScope(object, group) ? object : undefined };
  };
  router.route('MaintenanceConfigurations_Get', (request) => {
    const { name, object } = lookup(request);
    if (!object) {
      throw new EmulatorError(
        404,
        'ResourceNotFound',
        `The Resource 'Microsoft.Maintenance/maintenanceConfigurations/${name}' under resource group '${request.params['resourceGroupName'] ?? ''}' was not found.`,
      );
    }
    return object;
  });
  router.route('MaintenanceConfigurations_CreateOrUpdate', async (request, reply, operation) => {
    const { group, name, items, object } = lookup(request);
    const saved: JsonObject = {
      ...(request.body as JsonObject),
      id: `${group}/providers/${workload.resourceType}/${name}`,
      name,
      type: workload.resourceType,
    };
    items.set(name.toLowerCase(), saved);
    return reply.code(successStatus(operation, object ? 200 : 201)).send(saved);
  });
  router.route('MaintenanceConfigurations_Delete', async (request, reply) => {
    const { name, items, object } = lookup(request);
    if (!object) return reply.code(204).send();
    items.delete(name.toLowerCase());
    return reply.code(200).send(object);
  });
}

function inScope(object: JsonObject, scope: string): boolean {
  return textOf(object['id'] ?? '')
    .toLowerCase()
    .startsWith(`${scope.toLowerCase()}/`);
}

/**
 * Resources_List: the subscription's resources (ARM's tracked resources, those inside resource
 * groups; extension resources such as policy assignments are not listed), as ARM lists them (no
 * `properties`), with the one `$filter` Aegis sends: `resourceType eq '…'`.
 */
function registerResourceListRoute(router: ArmRouter, world: TenantWorld, pageSize: number): void {
  const tracked = TENANT_WORKLOADS.filter(
    (w): w is ArmWorkload => w.transport === 'arm' && w.createdIn === 'resourceGroup',
  );
  router.route('Resources_List', (request) => {
    const subscription = requireSubscription(
      world,
      request,
      request.params['subscriptionId'] ?? '',
    );
    const filter = (request.query as Record<string, unknown>)['$filter'];
    const type =
      typeof filter === 'string' ? /^resourceType eq '([^']+)'$/i.exec(filter.trim())?.[1] : '';
    if (type === undefined) {
      throw new EmulatorError(
        400,
        'InvalidFilterInQueryString',
        `The emulator filters resources by resourceType eq only, not '${String(filter)}'.`,
      );
    }
    const state = stateOf(world, request);
    const listed = tracked
      .filter((w) => !type || w.resourceType.toLowerCase() === type.toLowerCase())
      .flatMap((w) => [...state.workloadObjects(w).values()])
      .filter((o) => inScope(o, subscription.id))
      .map((o) => ({
        id: o['id'],
        name: o['name'],
        type: o['type'],
        ...(o['location'] !== undefined ? { location: o['location'] } : {}),
        ...(o['tags'] !== undefined ? { tags: o['tags'] } : {}),
      }));
    return armPage(request, listed, pageSize);
  });
}
