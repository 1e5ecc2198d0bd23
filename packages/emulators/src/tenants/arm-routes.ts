// Azure Resource Manager: subscriptions, role definitions and role assignments (reference
// graph-arm-identity.md §2), with api-version checked per resource provider as ARM does.
import { TENANT_WORKLOADS } from '@aegis/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { JsonObject } from '../seed/policies/types';

import { AZURE_ROLE_DEFINITIONS } from './catalogue';
import { origin } from './graph-common';
import { ODataQueryError, matches, parseFilter } from './odata';
import type {
  AliasRecord,
  ResourceGroupRecord,
  RoleAssignmentRecord,
  TenantState,
} from './tenant-state';
import { EmulatorError, principalOf } from './wire';
import type { TenantWorld } from './world';

/** api-versions each resource type accepts (Azure/azure-rest-api-specs, stable and preview). */
export const ARM_API_VERSIONS: Readonly<Record<string, readonly string[]>> = {
  subscriptions: ['2016-06-01', '2019-06-01', '2020-01-01', '2021-01-01', '2022-12-01'],
  'Microsoft.Authorization/roleDefinitions': ['2015-07-01', '2018-01-01-preview', '2022-04-01'],
  'Microsoft.Authorization/roleAssignments': [
    '2015-07-01',
    '2018-09-01-preview',
    '2020-04-01-preview',
    '2020-10-01-preview',
    '2022-04-01',
  ],
  'Microsoft.Resources/resourceGroups': ['2019-10-01', '2020-06-01', '2021-04-01', '2022-09-01'],
  'Microsoft.Subscription/aliases': ['2020-09-01', '2021-10-01'],
  // 2025-03-01: the default of @azure/arm-policy 7
  'Microsoft.Authorization/policyAssignments': [
    '2021-06-01',
    '2022-06-01',
    '2023-04-01',
    '2025-03-01',
  ],
  'Microsoft.Maintenance/maintenanceConfigurations': [
    '2022-07-01-preview',
    '2023-04-01',
    '2023-09-01-preview',
  ],
};

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function requireApiVersion(request: FastifyRequest, resourceType: string): void {
  const version = (request.query as Record<string, unknown>)['api-version'];
  if (typeof version !== 'string' || version === '') {
    throw new EmulatorError(
      400,
      'MissingApiVersionParameter',
      'The api-version query parameter (?api-version=) is required for all requests.',
    );
  }
  const supported = ARM_API_VERSIONS[resourceType] ?? [];
  if (!supported.includes(version)) {
    const [namespace, ...type] = resourceType.split('/');
    throw new EmulatorError(
      400,
      'NoRegisteredProviderFound',
      `No registered resource provider found for location 'global' and API version '${version}' for type '${type.join('/') || namespace}'. The supported api-versions are '${supported.join(', ')}'. The supported locations are ', global'.`,
    );
  }
}

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

function roleDefinitionJson(scope: string, def: (typeof AZURE_ROLE_DEFINITIONS)[number]) {
  return {
    id: `${scope}/providers/Microsoft.Authorization/roleDefinitions/${def.name}`,
    type: 'Microsoft.Authorization/roleDefinitions',
    name: def.name,
    properties: {
      roleName: def.roleName,
      type: 'BuiltInRole',
      description: def.description,
      assignableScopes: ['/'],
      permissions: [{ actions: [], notActions: [], dataActions: [], notDataActions: [] }],
      createdOn: '2015-02-02T21:55:09.8806423Z',
      updatedOn: '2024-01-24T19:47:29.4133658Z',
      createdBy: null,
      updatedBy: null,
    },
  };
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

function filtered(request: FastifyRequest, items: JsonObject[]): JsonObject[] {
  const filter = (request.query as Record<string, unknown>)['$filter'];
  if (typeof filter !== 'string' || filter === '' || /^atScope\(\)$/i.test(filter)) return items;
  try {
    // ARM filters name properties without the `properties/` prefix.
    const expr = parseFilter(filter);
    return items.filter((item) =>
      matches(expr, { ...item, ...((item['properties'] as JsonObject | undefined) ?? {}) }),
    );
  } catch (error) {
    if (error instanceof ODataQueryError) {
      throw new EmulatorError(
        400,
        'InvalidFilterInQueryString',
        `Invalid $filter: ${error.message}`,
      );
    }
    throw error;
  }
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

export function registerArmRoutes(app: FastifyInstance, world: TenantWorld, pageSize = 100): void {
  app.get('/subscriptions', async (request) => {
    requireApiVersion(request, 'subscriptions');
    const tenantId = principalOf(request).tenantId;
    const all = world
      .subscriptions(tenantId)
      .map((s) => subscriptionJson(world, tenantId, s.subscriptionId));
    return armPage(request, all, pageSize);
  });
  app.get<{ Params: { sub: string } }>('/subscriptions/:sub', async (request) => {
    requireApiVersion(request, 'subscriptions');
    return requireSubscription(world, request, request.params.sub);
  });

  const roleDefinitions = '/subscriptions/:sub/providers/Microsoft.Authorization/roleDefinitions';
  app.get<{ Params: { sub: string } }>(roleDefinitions, async (request) => {
    requireApiVersion(request, 'Microsoft.Authorization/roleDefinitions');
    const subscription = requireSubscription(world, request, request.params.sub);
    const all = AZURE_ROLE_DEFINITIONS.map(
      (def) => roleDefinitionJson(subscription.id, def) as unknown as JsonObject,
    );
    return armPage(request, filtered(request, all), pageSize);
  });
  app.get<{ Params: { sub: string; name: string } }>(
    `${roleDefinitions}/:name`,
    async (request) => {
      requireApiVersion(request, 'Microsoft.Authorization/roleDefinitions');
      const subscription = requireSubscription(world, request, request.params.sub);
      const def = AZURE_ROLE_DEFINITIONS.find((d) => d.name === request.params.name.toLowerCase());
      if (!def) {
        throw new EmulatorError(
          404,
          'RoleDefinitionDoesNotExist',
          `The specified role definition with ID '${request.params.name}' does not exist.`,
        );
      }
      return roleDefinitionJson(subscription.id, def);
    },
  );

  const roleAssignments = '/subscriptions/:sub/providers/Microsoft.Authorization/roleAssignments';
  app.get<{ Params: { sub: string } }>(roleAssignments, async (request) => {
    requireApiVersion(request, 'Microsoft.Authorization/roleAssignments');
    const subscription = requireSubscription(world, request, request.params.sub);
    const state = stateOf(world, request);
    const all = [...state.roleAssignments.values()]
      .filter((r) => r.scope.toLowerCase().startsWith(subscription.id))
      .map(roleAssignmentJson);
    return armPage(request, filtered(request, all), pageSize);
  });
  app.get<{ Params: { sub: string; name: string } }>(
    `${roleAssignments}/:name`,
    async (request) => {
      requireApiVersion(request, 'Microsoft.Authorization/roleAssignments');
      const subscription = requireSubscription(world, request, request.params.sub);
      const record = stateOf(world, request).roleAssignments.get(
        `${subscription.id}/providers/Microsoft.Authorization/roleAssignments/${request.params.name.toLowerCase()}`,
      );
      if (!record) {
        throw new EmulatorError(
          404,
          'RoleAssignmentNotFound',
          `The role assignment '${request.params.name}' is not found.`,
        );
      }
      return roleAssignmentJson(record);
    },
  );
  app.put<{ Params: { sub: string; name: string } }>(
    `${roleAssignments}/:name`,
    async (request, reply) => {
      requireApiVersion(request, 'Microsoft.Authorization/roleAssignments');
      const subscription = requireSubscription(world, request, request.params.sub);
      const state = stateOf(world, request);
      const principal = principalOf(request);
      const name = request.params.name.toLowerCase();
      if (!GUID.test(name)) {
        throw new EmulatorError(
          400,
          'InvalidRoleAssignmentId',
          `The role assignment ID '${request.params.name}' is not valid. The role assignment ID must be a GUID.`,
        );
      }
      const properties = (request.body as { properties?: JsonObject } | undefined)?.properties;
      if (!properties || typeof properties !== 'object') {
        throw new EmulatorError(
          400,
          'InvalidRequestContent',
          "The request content was invalid and could not be deserialized: 'Required property 'properties' not found in JSON.'",
        );
      }
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
        description:
          typeof properties['description'] === 'string' ? properties['description'] : null,
        createdOn: existing?.createdOn ?? now,
        updatedOn: now,
        createdBy: existing?.createdBy ?? principal.oid ?? null,
        updatedBy: principal.oid ?? null,
      };
      state.roleAssignments.set(id, record);
      return reply.code(existing ? 200 : 201).send(roleAssignmentJson(record));
    },
  );
  registerResourceGroupRoutes(app, world);
  registerArmWorkloadRoutes(app, world, pageSize);
  registerSubscriptionAliasRoutes(app, world);

  app.delete<{ Params: { sub: string; name: string } }>(
    `${roleAssignments}/:name`,
    async (request, reply) => {
      requireApiVersion(request, 'Microsoft.Authorization/roleAssignments');
      const subscription = requireSubscription(world, request, request.params.sub);
      const state = stateOf(world, request);
      const id = `${subscription.id}/providers/Microsoft.Authorization/roleAssignments/${request.params.name.toLowerCase()}`;
      const record = state.roleAssignments.get(id);
      if (!record) return reply.code(204).send();
      state.roleAssignments.delete(id);
      return reply.code(200).send(roleAssignmentJson(record));
    },
  );
}

function resourceGroupJson(subscriptionId: string, group: ResourceGroupRecord): JsonObject {
  return {
    id: `/subscriptions/${subscriptionId}/resourceGroups/${group.name}`,
    name: group.name,
    type: 'Microsoft.Resources/resourceGroups',
    location: group.location,
    tags: group.tags,
    properties: { provisioningState: group.deleting ? 'Deleting' : 'Succeeded' },
  };
}

/** Resource groups: PUT and GET answer at once; DELETE is long-running (202 + Location). */
function registerResourceGroupRoutes(app: FastifyInstance, world: TenantWorld): void {
  const path = '/subscriptions/:sub/resourcegroups/:rg';
  app.get<{ Params: { sub: string; rg: string } }>(path, async (request) => {
    requireApiVersion(request, 'Microsoft.Resources/resourceGroups');
    const subscription = requireSubscription(world, request, request.params.sub);
    const group = stateOf(world, request).resourceGroups.get(
      `${subscription.subscriptionId}/${request.params.rg.toLowerCase()}`,
    );
    if (!group) {
      throw new EmulatorError(
        404,
        'ResourceGroupNotFound',
        `Resource group '${request.params.rg}' could not be found.`,
      );
    }
    return resourceGroupJson(subscription.subscriptionId, group);
  });
  app.put<{ Params: { sub: string; rg: string } }>(path, async (request, reply) => {
    requireApiVersion(request, 'Microsoft.Resources/resourceGroups');
    const subscription = requireSubscription(world, request, request.params.sub);
    const body = (request.body ?? {}) as { location?: unknown; tags?: unknown };
    if (typeof body.location !== 'string' || body.location === '') {
      throw new EmulatorError(
        400,
        'LocationRequired',
        'The location property is required for this definition.',
      );
    }
    const state = stateOf(world, request);
    const key = `${subscription.subscriptionId}/${request.params.rg.toLowerCase()}`;
    const existing = state.resourceGroups.get(key);
    const group: ResourceGroupRecord = {
      name: existing?.name ?? request.params.rg,
      location: body.location,
      tags: (body.tags && typeof body.tags === 'object' ? body.tags : {}) as JsonObject,
      deleting: false,
    };
    state.resourceGroups.set(key, group);
    return reply
      .code(existing ? 200 : 201)
      .send(resourceGroupJson(subscription.subscriptionId, group));
  });
  app.delete<{ Params: { sub: string; rg: string } }>(path, async (request, reply) => {
    requireApiVersion(request, 'Microsoft.Resources/resourceGroups');
    const subscription = requireSubscription(world, request, request.params.sub);
    const state = stateOf(world, request);
    const key = `${subscription.subscriptionId}/${request.params.rg.toLowerCase()}`;
    const group = state.resourceGroups.get(key);
    if (!group) return reply.code(204).send();
    group.deleting = true;
    const token = state.startOperation(() => state.resourceGroups.delete(key));
    return reply
      .code(202)
      .header(
        'Location',
        `${origin(request)}/subscriptions/${subscription.subscriptionId}/operationresults/${token}?api-version=2021-04-01`,
      )
      .header('Retry-After', '1')
      .send();
  });
  app.get<{ Params: { sub: string; token: string } }>(
    '/subscriptions/:sub/operationresults/:token',
    async (request, reply) => {
      requireApiVersion(request, 'Microsoft.Resources/resourceGroups');
      const done = stateOf(world, request).pollOperation(request.params.token);
      if (done === undefined) {
        throw new EmulatorError(404, 'OperationNotFound', 'The operation was not found.');
      }
      if (!done) return reply.code(202).header('Retry-After', '1').send();
      return reply.code(200).send();
    },
  );
}

/**
 * Subscription aliases (creating a subscription, e.g. a custom subscription name at onboarding):
 * PUT answers 201 Accepted with Azure-AsyncOperation; the subscription exists once it succeeded.
 */
function registerSubscriptionAliasRoutes(app: FastifyInstance, world: TenantWorld): void {
  const path = '/providers/Microsoft.Subscription/aliases/:alias';
  const aliasJson = (alias: string, record: AliasRecord | undefined) => ({
    id: `/providers/Microsoft.Subscription/aliases/${alias}`,
    name: alias,
    type: 'Microsoft.Subscription/aliases',
    properties: {
      subscriptionId: record?.subscriptionId ?? null,
      displayName: record?.displayName ?? null,
      workload: record?.workload ?? null,
      provisioningState: record?.done ? 'Succeeded' : 'Accepted',
    },
  });
  app.put<{ Params: { alias: string } }>(path, async (request, reply) => {
    requireApiVersion(request, 'Microsoft.Subscription/aliases');
    const state = stateOf(world, request);
    const props = ((request.body ?? {}) as { properties?: Record<string, unknown> }).properties;
    const displayName = props?.['displayName'];
    if (typeof displayName !== 'string' || displayName.trim() === '') {
      throw new EmulatorError(400, 'InvalidDisplayName', 'Subscription display name is required.');
    }
    const existing = state.aliases.get(request.params.alias.toLowerCase());
    if (existing) return reply.code(200).send(aliasJson(request.params.alias, existing));
    const record: AliasRecord = {
      subscriptionId: state.guid(`subscription:${displayName}`),
      displayName,
      workload: typeof props?.['workload'] === 'string' ? props['workload'] : 'Production',
      done: false,
    };
    state.aliases.set(request.params.alias.toLowerCase(), record);
    const token = state.startOperation(() => {
      record.done = true;
      state.createdSubscriptions.push({
        subscriptionId: record.subscriptionId,
        displayName,
        state: 'Enabled',
      });
    });
    return reply
      .code(201)
      .header(
        'Azure-AsyncOperation',
        `${origin(request)}/providers/Microsoft.Subscription/operations/${token}?api-version=2021-10-01`,
      )
      .header('Retry-After', '1')
      .send(aliasJson(request.params.alias, record));
  });
  app.get<{ Params: { alias: string } }>(path, async (request) => {
    requireApiVersion(request, 'Microsoft.Subscription/aliases');
    const record = stateOf(world, request).aliases.get(request.params.alias.toLowerCase());
    if (!record) {
      throw new EmulatorError(404, 'NotFound', `Alias '${request.params.alias}' was not found.`);
    }
    return aliasJson(request.params.alias, record);
  });
  app.get<{ Params: { token: string } }>(
    '/providers/Microsoft.Subscription/operations/:token',
    async (request, reply) => {
      requireApiVersion(request, 'Microsoft.Subscription/aliases');
      const done = stateOf(world, request).pollOperation(request.params.token);
      if (done === undefined) {
        throw new EmulatorError(404, 'OperationNotFound', 'The operation was not found.');
      }
      if (!done) reply.header('Retry-After', '1');
      return {
        id: `/providers/Microsoft.Subscription/operations/${request.params.token}`,
        status: done ? 'Succeeded' : 'Running',
      };
    },
  );
}

/** A management group's assignment: it applies to every subscription below it (inherited). */
function atManagementGroup(object: JsonObject): boolean {
  return /^\/providers\/Microsoft\.Management\/managementGroups\//i.test(String(object['id']));
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
  const id = (object: JsonObject) => String(object['id'] ?? '').toLowerCase();
  const own = (object: JsonObject) =>
    id(object).startsWith(`${subscriptionId.toLowerCase()}/providers/`);
  const inside = (object: JsonObject) => id(object).startsWith(`${subscriptionId.toLowerCase()}/`);
  if (filter === undefined) return (o) => inside(o) || atManagementGroup(o);
  if (filter === 'atScope()') return (o) => own(o) || atManagementGroup(o);
  if (filter === 'atExactScope()') return own;
  throw new EmulatorError(
    400,
    'InvalidFilterInQueryString',
    `Invalid $filter '${String(filter)}'.`,
  );
}

/**
 * The ARM workloads of the domain's TENANT_WORKLOADS where ARM has them: policy assignments at
 * subscription and resource-group scope; maintenance configurations listed at the subscription
 * but read, created and deleted only inside a resource group (a PUT at subscription scope finds
 * no route, as in ARM).
 */
function registerArmWorkloadRoutes(
  app: FastifyInstance,
  world: TenantWorld,
  pageSize: number,
): void {
  for (const workload of TENANT_WORKLOADS) {
    if (workload.transport !== 'arm') continue;
    const type = workload.resourceType;
    const policy = type === 'Microsoft.Authorization/policyAssignments';
    const scopes = [
      { path: `/subscriptions/:sub/providers/${type}`, group: false, byName: policy },
      {
        path: `/subscriptions/:sub/resourceGroups/:rg/providers/${type}`,
        group: true,
        byName: true,
      },
    ];
    for (const scope of scopes) {
      type Params = { sub: string; rg?: string; name: string };
      const scopeId = (request: FastifyRequest<{ Params: Params }>) => {
        const subscription = requireSubscription(world, request, request.params.sub);
        return scope.group
          ? `${subscription.id}/resourceGroups/${request.params.rg ?? ''}`
          : subscription.id;
      };
      const inScope = (object: JsonObject, prefix: string) =>
        String(object['id'] ?? '')
          .toLowerCase()
          .startsWith(`${prefix.toLowerCase()}/`);
      app.get<{ Params: Params }>(scope.path, async (request) => {
        requireApiVersion(request, type);
        const prefix = scopeId(request);
        const items = [...stateOf(world, request).workloadObjects(workload).values()];
        const listed =
          policy && !scope.group
            ? policyAssignmentsFilter(request, prefix)
            : (o: JsonObject) => inScope(o, prefix);
        return armPage(request, items.filter(listed), pageSize);
      });
      if (!scope.byName) continue;
      const byName = `${scope.path}/:name`;
      const lookup = (request: FastifyRequest<{ Params: Params }>) => {
        const prefix = scopeId(request);
        const items = stateOf(world, request).workloadObjects(workload);
        const key = request.params.name.toLowerCase();
        const object = items.get(key);
        return {
          items,
          key,
          prefix,
          object: object && inScope(object, prefix) ? object : undefined,
        };
      };
      app.get<{ Params: Params }>(byName, async (request) => {
        requireApiVersion(request, type);
        const { object } = lookup(request);
        if (!object) {
          throw new EmulatorError(
            404,
            type.endsWith('policyAssignments') ? 'PolicyAssignmentNotFound' : 'ResourceNotFound',
            `The ${type} '${request.params.name}' could not be found.`,
          );
        }
        return object;
      });
      app.put<{ Params: Params }>(byName, async (request, reply) => {
        requireApiVersion(request, type);
        const { items, key, prefix, object } = lookup(request);
        const body = (request.body ?? {}) as JsonObject;
        if (!body['properties'] || typeof body['properties'] !== 'object') {
          throw new EmulatorError(
            400,
            'InvalidRequestContent',
            "The request content was invalid and could not be deserialized: 'Required property 'properties' not found in JSON.'",
          );
        }
        const saved: JsonObject = {
          ...body,
          id: `${prefix}/providers/${type}/${request.params.name}`,
          name: request.params.name,
          type,
        };
        items.set(key, saved);
        return reply.code(object ? 200 : 201).send(saved);
      });
      app.delete<{ Params: Params }>(byName, async (request, reply) => {
        requireApiVersion(request, type);
        const { items, key, object } = lookup(request);
        if (!object) return reply.code(204).send();
        items.delete(key);
        return reply.code(200).send(object);
      });
    }
  }
}
