// Policy Configurations and Policy Types (specification/policy/7.1/policy.json): list, get,
// create, replace and delete a project's branch policies; what they enforce is in ../branch-policies.
import { textOf } from '@aegis/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { assertMayEditPolicies, POLICY_TYPES } from '../branch-policies';
import type { DevOpsState, PolicyConfigurationRecord, ProjectRecord } from '../state';

import {
  DevOpsError,
  callerIdentity,
  identityRef,
  intParam,
  pageByContinuation,
  projectUrl,
  queryParam,
  requireProject,
  wrap,
  type Query,
} from './common';

interface PolicyBody {
  isEnabled?: unknown;
  isBlocking?: unknown;
  type?: { id?: unknown };
  settings?: unknown;
}

type ProjectParams = { org: string; project: string };

function invalid(message: string): DevOpsError {
  return new DevOpsError(400, 'InvalidArgumentValueException', message);
}

function typeOf(id: string) {
  return POLICY_TYPES.find((t) => t.id.toLowerCase() === id.toLowerCase());
}

/** The fields of a create or replace body, checked as the service checks them. */
function parseBody(body: PolicyBody | undefined) {
  const typeId = typeof body?.type?.id === 'string' ? body.type.id : '';
  const type = typeOf(typeId);
  if (!type) {
    throw new DevOpsError(
      404,
      'PolicyTypeNotFoundException',
      `TF400856: Policy type ${typeId || '(none)'} does not exist.`,
    );
  }
  if (typeof body?.isEnabled !== 'boolean' || typeof body.isBlocking !== 'boolean') {
    throw invalid('Value cannot be null.\r\nParameter name: isEnabled, isBlocking');
  }
  const settings = body.settings;
  if (!settings || typeof settings !== 'object' || Array.isArray(settings)) {
    throw invalid('Value cannot be null.\r\nParameter name: settings');
  }
  const scope = (settings as { scope?: unknown }).scope;
  if (
    !Array.isArray(scope) ||
    scope.some(
      (s: { refName?: unknown; matchKind?: unknown } | null) =>
        !s ||
        typeof s !== 'object' ||
        (s.refName !== undefined && typeof s.refName !== 'string') ||
        (s.matchKind !== undefined && !/^(exact|prefix)$/i.test(textOf(s.matchKind))),
    )
  ) {
    throw invalid('The policy settings need a scope: [{ repositoryId, refName, matchKind }].');
  }
  const count = (settings as { minimumApproverCount?: unknown }).minimumApproverCount;
  if (
    count !== undefined &&
    (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 10)
  ) {
    throw invalid('minimumApproverCount must be a whole number from 1 to 10.');
  }
  return {
    typeId: type.id,
    isEnabled: body.isEnabled,
    isBlocking: body.isBlocking,
    settings: settings as Record<string, unknown>,
  };
}

function scopesOf(settings: Record<string, unknown>): { repositoryId?: string | null }[] {
  return settings['scope'] as { repositoryId?: string | null }[];
}

export function registerPolicyConfigurationRoutes(app: FastifyInstance, state: DevOpsState): void {
  const typeJson = (request: FastifyRequest, project: ProjectRecord, id: string) => {
    const type = typeOf(id);
    const url = `${projectUrl(request, state, project)}/_apis/policy/types/${id}`;
    return { id, url, displayName: type?.displayName ?? id };
  };

  const configurationJson = (
    request: FastifyRequest,
    project: ProjectRecord,
    policy: PolicyConfigurationRecord,
  ) => {
    const url = `${projectUrl(request, state, project)}/_apis/policy/configurations/${policy.id}`;
    // The service answers matchKind capitalised ('Exact', 'Prefix') whatever was posted.
    const scope = (policy.settings['scope'] as { matchKind?: string }[]).map((s) => ({
      ...s,
      ...(s.matchKind
        ? { matchKind: s.matchKind.charAt(0).toUpperCase() + s.matchKind.slice(1).toLowerCase() }
        : {}),
    }));
    return {
      createdBy: identityRef(request, state, policy.createdBy),
      createdDate: policy.createdDate,
      isEnabled: policy.isEnabled,
      isBlocking: policy.isBlocking,
      isDeleted: policy.isDeleted,
      settings: { ...policy.settings, scope },
      _links: {
        self: { href: url },
        policyType: { href: typeJson(request, project, policy.typeId).url },
      },
      revision: policy.revision,
      id: policy.id,
      url,
      type: typeJson(request, project, policy.typeId),
    };
  };

  const find = (project: ProjectRecord, rawId: string): PolicyConfigurationRecord => {
    const policy = state.data.policyConfigurations.find(
      (p) => p.projectId === project.id && p.id === Number(rawId) && !p.isDeleted,
    );
    if (!policy) {
      throw new DevOpsError(
        404,
        'PolicyConfigurationNotFoundException',
        `TF400857: Policy configuration with ID ${rawId} does not exist.`,
      );
    }
    return policy;
  };

  const base = '/:org/:project/_apis/policy';

  app.get<{ Params: ProjectParams }>(`${base}/types`, (request) => {
    const project = requireProject(state, request.params.project);
    return wrap(
      POLICY_TYPES.map((t) => ({
        ...typeJson(request, project, t.id),
        description: t.description,
      })),
    );
  });

  app.get<{ Params: ProjectParams & { typeId: string } }>(`${base}/types/:typeId`, (request) => {
    const project = requireProject(state, request.params.project);
    const type = typeOf(request.params.typeId);
    if (!type) {
      throw new DevOpsError(
        404,
        'PolicyTypeNotFoundException',
        `TF400856: Policy type ${request.params.typeId} does not exist.`,
      );
    }
    return { ...typeJson(request, project, type.id), description: type.description };
  });

  app.get<{ Params: ProjectParams }>(`${base}/configurations`, async (request, reply) => {
    const project = requireProject(state, request.params.project);
    const query = request.query as Query;
    const policyType = queryParam(query, 'policyType')?.toLowerCase();
    const list = state.data.policyConfigurations
      .filter((p) => p.projectId === project.id && !p.isDeleted)
      .filter((p) => !policyType || p.typeId.toLowerCase() === policyType)
      .sort((a, b) => a.id - b.id);
    const page = pageByContinuation(
      reply,
      list,
      intParam(query, '$top'),
      queryParam(query, 'continuationToken'),
      state.defaultPageSize,
    );
    return wrap(page.map((p) => configurationJson(request, project, p)));
  });

  app.get<{ Params: ProjectParams & { configurationId: string } }>(
    `${base}/configurations/:configurationId`,
    (request) => {
      const project = requireProject(state, request.params.project);
      return configurationJson(request, project, find(project, request.params.configurationId));
    },
  );

  app.post<{ Params: ProjectParams; Body: PolicyBody | undefined }>(
    `${base}/configurations`,
    (request) => {
      const project = requireProject(state, request.params.project);
      const fields = parseBody(request.body);
      assertMayEditPolicies(state, project.id, scopesOf(fields.settings), callerIdentity(request));
      const policy: PolicyConfigurationRecord = {
        id: state.data.nextPolicyConfigurationId++,
        revision: 1,
        projectId: project.id,
        ...fields,
        isDeleted: false,
        createdBy: callerIdentity(request),
        createdDate: new Date().toISOString(),
      };
      state.data.policyConfigurations.push(policy);
      state.save();
      return configurationJson(request, project, policy);
    },
  );

  app.put<{ Params: ProjectParams & { configurationId: string }; Body: PolicyBody | undefined }>(
    `${base}/configurations/:configurationId`,
    (request) => {
      const project = requireProject(state, request.params.project);
      const policy = find(project, request.params.configurationId);
      const fields = parseBody(request.body);
      const who = callerIdentity(request);
      assertMayEditPolicies(state, project.id, scopesOf(policy.settings), who);
      assertMayEditPolicies(state, project.id, scopesOf(fields.settings), who);
      Object.assign(policy, fields);
      policy.revision += 1;
      state.save();
      return configurationJson(request, project, policy);
    },
  );

  app.delete<{ Params: ProjectParams & { configurationId: string } }>(
    `${base}/configurations/:configurationId`,
    async (request, reply) => {
      const project = requireProject(state, request.params.project);
      const policy = find(project, request.params.configurationId);
      assertMayEditPolicies(state, project.id, scopesOf(policy.settings), callerIdentity(request));
      policy.isDeleted = true;
      policy.revision += 1;
      state.save();
      return reply.code(204).send();
    },
  );
}
