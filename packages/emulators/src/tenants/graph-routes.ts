// Microsoft Graph, directory part: organization, domains, users, groups, service principals,
// directory role templates, directory roles (activate from template) and role members ($ref).
// Served under /v1.0 and /beta. Reference: docs/reference/graph-tenant-emulator.md.
import { randomUUID } from 'node:crypto';

import { textOf } from '@aegis/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { JsonObject } from '../seed/policies/types';

import { registerGraphAuditLogRoutes } from './audit-log-routes';
import { DIRECTORY_ROLE_TEMPLATES } from './catalogue';
import { entity, listPage, notFound, queryOf, stateOf, withoutBaseType } from './graph-common';
import { graphConfigRoutes } from './graph-config-routes';
import type { TenantState, DirectoryRoleRecord } from './tenant-state';
import { EmulatorError, principalOf } from './wire';
import type { TenantWorld } from './world';

const USER = '#microsoft.graph.user';
const GROUP = '#microsoft.graph.group';
const SERVICE_PRINCIPAL = '#microsoft.graph.servicePrincipal';

export interface GraphRouteOptions {
  defaultPageSize: number;
}

function organization(state: TenantState): JsonObject {
  const t = state.tenant;
  return {
    id: t.tenantId,
    deletedDateTime: null,
    businessPhones: [],
    city: null,
    country: null,
    countryLetterCode: t.countryLetterCode,
    createdDateTime: '2019-05-02T08:10:41Z',
    displayName: t.displayName,
    tenantType: 'AAD',
    onPremisesSyncEnabled: null,
    preferredLanguage: 'en',
    verifiedDomains: t.domains.map((name) => ({
      capabilities: name === t.initialDomain ? 'Email, OfficeCommunicationsOnline' : 'Email',
      isDefault: name === t.customDomain,
      isInitial: name === t.initialDomain,
      name,
      type: 'Managed',
    })),
  };
}

function domains(state: TenantState): JsonObject[] {
  const t = state.tenant;
  return t.domains.map((name) => ({
    id: name,
    authenticationType: 'Managed',
    availabilityStatus: null,
    isAdminManaged: true,
    isDefault: name === t.customDomain,
    isInitial: name === t.initialDomain,
    isRoot: true,
    isVerified: true,
    supportedServices: ['Email', 'OfficeCommunicationsOnline'],
    passwordValidityPeriodInDays: 2147483647,
    passwordNotificationWindowInDays: 14,
  }));
}

function roleJson(role: DirectoryRoleRecord): JsonObject {
  return {
    id: role.id,
    deletedDateTime: null,
    description: role.description,
    displayName: role.displayName,
    roleTemplateId: role.roleTemplateId,
  };
}

function requireBody(request: FastifyRequest): JsonObject {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new EmulatorError(400, 'BadRequest', 'Empty Payload. JSON content expected.');
  }
  return body as JsonObject;
}

function findUser(state: TenantState, idOrUpn: string): JsonObject | undefined {
  const key = decodeURIComponent(idOrUpn).toLowerCase();
  return state
    .objectsOfType(USER)
    .find((u) => u['id'] === key || textOf(u['userPrincipalName'] ?? '').toLowerCase() === key);
}

function visibleServicePrincipals(state: TenantState, counting: boolean): JsonObject[] {
  return state
    .objectsOfType(SERVICE_PRINCIPAL)
    .filter((sp) => state.isVisible(textOf(sp['id']), counting))
    .map(withoutBaseType);
}

function directoryRoutes(app: FastifyInstance, world: TenantWorld, options: GraphRouteOptions) {
  const page = options.defaultPageSize;

  app.get('/organization', (request) => {
    const state = stateOf(world, request);
    return listPage(request, [organization(state)], 'organization', page);
  });
  app.get<{ Params: { id: string } }>('/organization/:id', (request) => {
    const state = stateOf(world, request);
    if (request.params.id !== state.tenant.tenantId) throw notFound(request.params.id);
    return entity(request, organization(state), 'organization/$entity');
  });

  app.get('/domains', (request) =>
    listPage(request, domains(stateOf(world, request)), 'domains', page),
  );
  app.get<{ Params: { id: string } }>('/domains/:id', (request) => {
    const domain = domains(stateOf(world, request)).find(
      (d) => textOf(d['id']).toLowerCase() === request.params.id.toLowerCase(),
    );
    if (!domain) throw notFound(request.params.id);
    return entity(request, domain, 'domains/$entity');
  });

  app.get('/me', (request) => {
    const principal = principalOf(request);
    if (principal.appOnly || !principal.oid) {
      throw new EmulatorError(
        400,
        'BadRequest',
        '/me request is only valid with delegated authentication flow.',
      );
    }
    const user = stateOf(world, request).objectOfType(principal.oid, USER);
    if (!user) throw notFound(principal.oid);
    return entity(request, withoutBaseType(user), 'users/$entity');
  });
  app.get('/users', (request) =>
    listPage(
      request,
      stateOf(world, request).objectsOfType(USER).map(withoutBaseType),
      'users',
      page,
    ),
  );
  app.get<{ Params: { id: string } }>('/users/:id', (request) => {
    const user = findUser(stateOf(world, request), request.params.id);
    if (!user) throw notFound(request.params.id);
    return entity(request, withoutBaseType(user), 'users/$entity');
  });

  app.post('/users', async (request, reply) => {
    const body = requireBody(request);
    for (const [name, type] of [
      ['accountEnabled', 'boolean'],
      ['displayName', 'string'],
      ['mailNickname', 'string'],
      ['userPrincipalName', 'string'],
    ] as const) {
      if (typeof body[name] !== type || body[name] === '') {
        throw new EmulatorError(
          400,
          'Request_BadRequest',
          `Invalid value specified for property '${name}' of resource 'User'.`,
        );
      }
    }
    const profile = body['passwordProfile'];
    const password =
      profile && typeof profile === 'object' && !Array.isArray(profile)
        ? profile['password']
        : undefined;
    if (typeof password !== 'string' || password.length < 8) {
      throw new EmulatorError(
        400,
        'Request_BadRequest',
        'The specified password does not comply with password complexity requirements.',
      );
    }
    const state = stateOf(world, request);
    const upn = textOf(body['userPrincipalName']).toLowerCase();
    if (findUser(state, upn)) {
      throw new EmulatorError(
        400,
        'Request_BadRequest',
        'Another object with the same value for property userPrincipalName already exists.',
      );
    }
    // the password is checked, never kept (Graph never returns it)
    const { passwordProfile: _password, ...rest } = body;
    const user: JsonObject = {
      '@odata.type': USER,
      id: randomUUID(),
      businessPhones: [],
      givenName: null,
      surname: null,
      jobTitle: null,
      mail: null,
      ...rest,
      createdDateTime: new Date(world.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
    };
    state.directoryObjects.set(textOf(user['id']), user);
    state.recordChange(principalOf(request), 'AzureAD/User', undefined, user);
    return reply.code(201).send(entity(request, withoutBaseType(user), 'users/$entity'));
  });
  app.delete<{ Params: { id: string } }>('/users/:id', async (request, reply) => {
    const state = stateOf(world, request);
    const user = findUser(state, request.params.id);
    if (!user) throw notFound(request.params.id);
    state.directoryObjects.delete(textOf(user['id']));
    for (const role of state.directoryRoles.values()) role.members.delete(textOf(user['id']));
    state.recordChange(principalOf(request), 'AzureAD/User', user, undefined);
    return reply.code(204).send();
  });

  app.get('/groups', (request) =>
    listPage(
      request,
      stateOf(world, request).objectsOfType(GROUP).map(withoutBaseType),
      'groups',
      page,
    ),
  );
  app.get<{ Params: { id: string } }>('/groups/:id', (request) => {
    const group = stateOf(world, request).objectOfType(request.params.id, GROUP);
    if (!group) throw notFound(request.params.id);
    return entity(request, withoutBaseType(group), 'groups/$entity');
  });
  app.post('/groups', async (request, reply) => {
    const body = requireBody(request);
    for (const [name, type] of [
      ['displayName', 'string'],
      ['mailNickname', 'string'],
      ['mailEnabled', 'boolean'],
      ['securityEnabled', 'boolean'],
    ] as const) {
      if (typeof body[name] !== type || body[name] === '') {
        throw new EmulatorError(
          400,
          'Request_BadRequest',
          `Invalid value specified for property '${name}' of resource 'Group'.`,
        );
      }
    }
    const group: JsonObject = {
      '@odata.type': GROUP,
      id: randomUUID(),
      deletedDateTime: null,
      classification: null,
      createdDateTime: new Date(world.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
      description: null,
      groupTypes: [],
      isAssignableToRole: null,
      membershipRule: null,
      membershipRuleProcessingState: null,
      visibility: null,
      ...body,
    };
    const state = stateOf(world, request);
    state.directoryObjects.set(textOf(group['id']), group);
    state.recordChange(principalOf(request), 'AzureAD/Group', undefined, group);
    return reply.code(201).send(entity(request, withoutBaseType(group), 'groups/$entity'));
  });
  app.patch<{ Params: { id: string } }>('/groups/:id', async (request, reply) => {
    const state = stateOf(world, request);
    const group = state.objectOfType(request.params.id, GROUP);
    if (!group) throw notFound(request.params.id);
    const body = requireBody(request);
    delete body['id'];
    const before = structuredClone(group);
    Object.assign(group, body);
    state.recordChange(principalOf(request), 'AzureAD/Group', before, group);
    return reply.code(204).send();
  });
  app.delete<{ Params: { id: string } }>('/groups/:id', async (request, reply) => {
    const state = stateOf(world, request);
    const group = state.objectOfType(request.params.id, GROUP);
    if (!group) throw notFound(request.params.id);
    state.directoryObjects.delete(request.params.id);
    for (const role of state.directoryRoles.values()) role.members.delete(request.params.id);
    state.recordChange(principalOf(request), 'AzureAD/Group', group, undefined);
    return reply.code(204).send();
  });

  app.get('/servicePrincipals', (request) => {
    const state = stateOf(world, request);
    const searching = Boolean(queryOf(request)['filter']);
    return listPage(request, visibleServicePrincipals(state, searching), 'servicePrincipals', page);
  });
  app.get<{ Params: { id: string } }>('/servicePrincipals/:id', (request) => {
    const state = stateOf(world, request);
    const alternate = /^appId=(.+)$/i.exec(decodeURIComponent(request.params.id));
    const sp = visibleServicePrincipals(state, false).find((s) =>
      alternate ? s['appId'] === alternate[1] : s['id'] === request.params.id,
    );
    if (!sp) throw notFound(alternate?.[1] ?? request.params.id);
    return entity(request, sp, 'servicePrincipals/$entity');
  });

  app.get<{ Params: { id: string } }>('/directoryObjects/:id', (request) => {
    const state = stateOf(world, request);
    const object = state.directoryObjects.get(request.params.id);
    if (!object || !state.isVisible(request.params.id)) throw notFound(request.params.id);
    return entity(request, object, 'directoryObjects/$entity');
  });

  app.get('/directoryRoleTemplates', (request) =>
    listPage(
      request,
      DIRECTORY_ROLE_TEMPLATES.map((t) => ({ ...t, deletedDateTime: null })),
      'directoryRoleTemplates',
      page,
    ),
  );
  app.get<{ Params: { id: string } }>('/directoryRoleTemplates/:id', (request) => {
    const template = DIRECTORY_ROLE_TEMPLATES.find((t) => t.id === request.params.id);
    if (!template) throw notFound(request.params.id);
    return entity(
      request,
      { ...template, deletedDateTime: null },
      'directoryRoleTemplates/$entity',
    );
  });

  app.get('/directoryRoles', (request) =>
    listPage(
      request,
      [...stateOf(world, request).directoryRoles.values()].map(roleJson),
      'directoryRoles',
      page,
    ),
  );
  app.get<{ Params: { id: string } }>('/directoryRoles/:id', (request) => {
    const role = stateOf(world, request).roleByIdOrTemplate(request.params.id);
    if (!role) throw notFound(request.params.id);
    return entity(request, roleJson(role), 'directoryRoles/$entity');
  });
  app.post('/directoryRoles', async (request, reply) => {
    const state = stateOf(world, request);
    const body = requireBody(request);
    const extra = Object.keys(body).filter(
      (k) => k !== 'roleTemplateId' && !k.startsWith('@odata'),
    );
    if (extra.length > 0) {
      throw new EmulatorError(
        400,
        'Request_BadRequest',
        `Property '${extra[0]}' is read-only and cannot be set.`,
      );
    }
    const templateId = body['roleTemplateId'];
    if (typeof templateId !== 'string') {
      throw new EmulatorError(
        400,
        'Request_BadRequest',
        "Invalid value specified for property 'roleTemplateId' of resource 'DirectoryRole'.",
      );
    }
    if ([...state.directoryRoles.values()].some((r) => r.roleTemplateId === templateId)) {
      throw new EmulatorError(
        400,
        'Request_BadRequest',
        'A conflicting object with one or more of the specified property values is present in the directory.',
      );
    }
    const role = state.activateRole(templateId);
    if (!role) throw notFound(templateId);
    return reply.code(201).send(entity(request, roleJson(role), 'directoryRoles/$entity'));
  });
  app.get<{ Params: { id: string } }>('/directoryRoles/:id/members', (request) => {
    const state = stateOf(world, request);
    const role = state.roleByIdOrTemplate(request.params.id);
    if (!role) throw notFound(request.params.id);
    const members = [...role.members]
      .map((id) => state.directoryObjects.get(id))
      .filter((o): o is JsonObject => o !== undefined);
    return listPage(request, members, 'directoryObjects', page);
  });
  app.post<{ Params: { id: string } }>(
    '/directoryRoles/:id/members/$ref',
    async (request, reply) => {
      const state = stateOf(world, request);
      const role = state.roleByIdOrTemplate(request.params.id);
      if (!role) throw notFound(request.params.id);
      const body = requireBody(request);
      const ref = body['@odata.id'];
      const objectId =
        typeof ref === 'string' ? ref.replace(/\/+$/, '').split('/').pop() : undefined;
      if (!objectId) {
        throw new EmulatorError(
          400,
          'Request_BadRequest',
          "Invalid value specified for property '@odata.id'.",
        );
      }
      if (!state.directoryObjects.has(objectId) || !state.isVisible(objectId))
        throw notFound(objectId);
      const failing = world.scenarios(state.tenant.tenantId).failingRoleAssignment;
      if (failing && failing.toLowerCase() === role.displayName.toLowerCase()) {
        throw new EmulatorError(
          403,
          'Authorization_RequestDenied',
          'Insufficient privileges to complete the operation.',
        );
      }
      if (role.members.has(objectId)) {
        throw new EmulatorError(
          400,
          'Request_BadRequest',
          "One or more added object references already exist for the following modified properties: 'members'.",
        );
      }
      role.members.add(objectId);
      return reply.code(204).send();
    },
  );
  app.delete<{ Params: { id: string; memberId: string } }>(
    '/directoryRoles/:id/members/:memberId/$ref',
    async (request, reply) => {
      const state = stateOf(world, request);
      const role = state.roleByIdOrTemplate(request.params.id);
      if (!role || !role.members.has(request.params.memberId)) {
        throw notFound(request.params.memberId);
      }
      role.members.delete(request.params.memberId);
      return reply.code(204).send();
    },
  );
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** JSON batching: up to 20 requests run in order, each through every hook (auth, throttling). */
function batchRoute(root: FastifyInstance, scope: FastifyInstance, version: string): void {
  scope.post('/$batch', async (request) => {
    const requests = (request.body as { requests?: unknown } | undefined)?.requests;
    if (!Array.isArray(requests) || requests.length === 0) {
      throw new EmulatorError(400, 'BadRequest', 'Invalid batch payload format.');
    }
    if (requests.length > 20) {
      throw new EmulatorError(
        400,
        'BadRequest',
        'Too many requests in batch. Maximum allowed is 20.',
      );
    }
    const ids = new Set<string>();
    const parsed = requests.map((r: unknown) => {
      const item = (r ?? {}) as Record<string, unknown>;
      const method = textOf(item['method'] ?? '').toUpperCase();
      if (typeof item['id'] !== 'string' || item['id'] === '' || typeof item['url'] !== 'string') {
        throw new EmulatorError(400, 'BadRequest', 'Invalid batch payload format.');
      }
      if (!METHODS.includes(method as (typeof METHODS)[number])) {
        throw new EmulatorError(400, 'BadRequest', `Invalid HTTP method '${method}' in batch.`);
      }
      if (ids.has(item['id'])) {
        throw new EmulatorError(400, 'BadRequest', 'Batch request ids must be unique.');
      }
      ids.add(item['id']);
      return {
        id: item['id'],
        method: method as (typeof METHODS)[number],
        url: item['url'],
        headers: (item['headers'] ?? {}) as Record<string, string>,
        body: item['body'],
      };
    });
    const responses = [];
    for (const sub of parsed) {
      const relative = sub.url.replace(/^https?:\/\/[^/]+\/(v1\.0|beta)/i, '');
      const result = await root.inject({
        method: sub.method,
        url: `/${version}${relative.startsWith('/') ? relative : `/${relative}`}`,
        headers: {
          ...sub.headers,
          host: request.headers.host ?? 'localhost',
          ...(request.headers.authorization
            ? { authorization: request.headers.authorization }
            : {}),
          ...(sub.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(sub.body !== undefined ? { payload: JSON.stringify(sub.body) } : {}),
      });
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'retry-after', 'location']) {
        const value = result.headers[name];
        if (typeof value === 'string') headers[name] = value;
        else if (typeof value === 'number') headers[name] = String(value);
      }
      responses.push({
        id: sub.id,
        status: result.statusCode,
        headers,
        ...(result.body ? { body: JSON.parse(result.body) as unknown } : {}),
      });
    }
    return { responses };
  });
}

/** Registers the Graph routes under /v1.0 and /beta. */
export function registerGraphRoutes(
  app: FastifyInstance,
  world: TenantWorld,
  options: GraphRouteOptions,
): void {
  for (const version of ['v1.0', 'beta'] as const) {
    void app.register(
      (scope, _options, done) => {
        directoryRoutes(scope, world, options);
        graphConfigRoutes(scope, world, version, options.defaultPageSize);
        registerGraphAuditLogRoutes(scope, world, version, options.defaultPageSize);
        batchRoute(app, scope, version);
        done();
      },
      { prefix: `/${version}` },
    );
  }
}
