// The Teams admin configuration service the MicrosoftTeams module's Cs* cmdlets call
// (docs/adr/049): GET /Skype.Policy/configurations/{type} lists every instance of a policy type
// as a JSON array; /Skype.Policy/configurations/{type}/configuration/{identity} reads (GET),
// sets (PUT, a merge), creates (POST) and removes (DELETE) one instance. Tokens of the Teams
// audience only (server.ts FAMILY_AUDIENCES.teams). A write accepts the parameters Microsoft's
// reference gives the cmdlet it stands for (Set-/New-Cs{noun}, the extract in
// @aegis/connectors/microsoft-contracts); a type without a New-/Remove- cmdlet has fixed instances.
import { bindParameters, cmdletContract } from '@aegis/connectors/microsoft-contracts';
import { type AdminCommandWorkload, TENANT_WORKLOADS, textOf, workloadKey } from '@aegis/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { JsonObject } from '../seed/policies/types';

import { EmulatorError, principalOf } from './wire';
import type { TenantWorld } from './world';

function workloadOfType(type: string): AdminCommandWorkload {
  const workload = TENANT_WORKLOADS.find(
    (w): w is AdminCommandWorkload =>
      w.transport === 'adminCommand' &&
      w.service === 'teams' &&
      w.configurationType?.toLowerCase() === type.toLowerCase(),
  );
  if (!workload) {
    throw new EmulatorError(404, 'NotFound', `Configuration type '${type}' was not found.`);
  }
  return workload;
}

function entryOf(
  items: Map<string, JsonObject>,
  identity: string,
): [string, JsonObject] | undefined {
  const wanted = identity.toLowerCase();
  for (const [key, object] of items) {
    if (key === wanted || textOf(object['Identity'] ?? '').toLowerCase() === wanted) {
      return [key, object];
    }
  }
  return undefined;
}

/** The body's properties, refused unless the cmdlet accepts each (Identity is the URL's). */
function parametersFor(
  workload: AdminCommandWorkload,
  verb: 'Set' | 'New' | 'Remove',
  body: unknown,
): JsonObject {
  const cmdlet = `${verb}-${workload.noun}`;
  const contract = cmdletContract('teams', cmdlet);
  if (!contract) {
    throw new EmulatorError(
      405,
      'MethodNotAllowed',
      `${workload.configurationType ?? workload.noun} has no ${cmdlet}.`,
    );
  }
  const { Identity: _identity, ...given } = (body ?? {}) as JsonObject;
  const [unknown] = bindParameters(contract, given).unknown;
  if (unknown !== undefined) {
    throw new EmulatorError(
      400,
      'BadRequest',
      `A parameter cannot be found that matches parameter name '${unknown}'.`,
    );
  }
  return given;
}

type TypeParams = { type: string };
type InstanceParams = { type: string; identity: string };

export function registerTeamsConfigurationRoutes(app: FastifyInstance, world: TenantWorld): void {
  const objectsOf = (request: FastifyRequest<{ Params: TypeParams }>) =>
    world.state(principalOf(request).tenantId).workloadObjects(workloadOfType(request.params.type));
  const notFound = (request: FastifyRequest<{ Params: InstanceParams }>) =>
    new EmulatorError(
      404,
      'NotFound',
      `${request.params.type} '${request.params.identity}' was not found.`,
    );
  const instance = '/Skype.Policy/configurations/:type/configuration/:identity';
  // kept in the tenant's audit trail; Microsoft logs Teams admin changes in the unified audit log
  // under record types Aegis does not read (ADR 064)
  const record = (
    request: FastifyRequest,
    workload: AdminCommandWorkload,
    before: JsonObject | undefined,
    after: JsonObject | undefined,
    command: { name: string; parameters: JsonObject },
  ) => {
    const principal = principalOf(request);
    world
      .state(principal.tenantId)
      .recordChange(principal, workloadKey(workload), before, after, command);
  };

  app.get<{ Params: TypeParams }>('/Skype.Policy/configurations/:type', (request) => [
    ...objectsOf(request).values(),
  ]);
  app.get<{ Params: InstanceParams }>(instance, (request) => {
    const found = entryOf(objectsOf(request), request.params.identity);
    if (!found) throw notFound(request);
    return found[1];
  });
  app.put<{ Params: InstanceParams }>(instance, (request) => {
    const items = objectsOf(request);
    const workload = workloadOfType(request.params.type);
    const changes = parametersFor(workload, 'Set', request.body);
    const found = entryOf(items, request.params.identity);
    if (!found) throw notFound(request);
    const updated = { ...found[1], ...changes };
    items.set(found[0], updated);
    record(request, workload, found[1], updated, {
      name: `Set-${workload.noun}`,
      parameters: changes,
    });
    return updated;
  });
  app.post<{ Params: InstanceParams }>(instance, async (request, reply) => {
    const items = objectsOf(request);
    const identity = request.params.identity;
    const workload = workloadOfType(request.params.type);
    const parameters = parametersFor(workload, 'New', request.body);
    if (entryOf(items, identity)) {
      throw new EmulatorError(409, 'Conflict', `${request.params.type} '${identity}' exists.`);
    }
    const created = { ...parameters, Identity: identity };
    items.set(identity.toLowerCase(), created);
    record(request, workload, undefined, created, { name: `New-${workload.noun}`, parameters });
    return reply.code(201).send(created);
  });
  app.delete<{ Params: InstanceParams }>(instance, async (request, reply) => {
    const workload = workloadOfType(request.params.type);
    parametersFor(workload, 'Remove', undefined);
    const items = objectsOf(request);
    const found = entryOf(items, request.params.identity);
    if (!found) throw notFound(request);
    items.delete(found[0]);
    record(request, workload, found[1], undefined, {
      name: `Remove-${workload.noun}`,
      parameters: { Identity: request.params.identity },
    });
    return reply.code(204).send();
  });
}
