// The admin command endpoint of Exchange Online PowerShell v3 (REST): POST
// /adminapi/beta/{tenantId}/InvokeCommand with {"CmdletInput":{"CmdletName","Parameters"}}, for the
// Exchange and Defender for Office 365 settings that have no Graph API (docs/adr/049); Teams has
// its own service (teams-config-routes.ts). Get-/Set-/New-/Remove-{noun} over the tenant's objects of
// the admin-command workloads of the domain's TENANT_WORKLOADS.
import { randomUUID } from 'node:crypto';

import { TENANT_WORKLOADS, type AdminCommandWorkload } from '@aegis/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { JsonObject } from '../seed/policies/types';

import { origin } from './graph-common';
import type { TenantState } from './tenant-state';
import { EmulatorError, principalOf } from './wire';
import type { TenantWorld } from './world';

const VERBS = ['Get', 'Set', 'New', 'Remove'] as const;
type Verb = (typeof VERBS)[number];

function workloadOfNoun(noun: string): AdminCommandWorkload | undefined {
  return TENANT_WORKLOADS.find(
    (w): w is AdminCommandWorkload =>
      w.transport === 'adminCommand' &&
      w.service !== 'teams' &&
      w.noun.toLowerCase() === noun.toLowerCase(),
  );
}

function parseCmdlet(name: unknown): { verb: Verb; workload: AdminCommandWorkload } {
  const text = typeof name === 'string' ? name.trim() : '';
  const match = /^([A-Za-z]+)-([A-Za-z0-9]+)$/.exec(text);
  const verb = VERBS.find((v) => v.toLowerCase() === match?.[1]?.toLowerCase());
  const workload = match?.[2] ? workloadOfNoun(match[2]) : undefined;
  if (!verb || !workload || (workload.singleton && (verb === 'New' || verb === 'Remove'))) {
    throw new EmulatorError(
      400,
      'CommandNotFoundException',
      `The term '${text}' is not recognized as a name of a cmdlet, function, script file, or executable program.`,
    );
  }
  return { verb, workload };
}

function notFound(state: TenantState, identity: string): EmulatorError {
  return new EmulatorError(
    404,
    'ManagementObjectNotFoundException',
    `|Microsoft.Exchange.Management.Tasks.ManagementObjectNotFoundException|The operation couldn't be performed because object '${identity}' couldn't be found on '${state.tenant.initialDomain}'.`,
  );
}

function find(items: Map<string, JsonObject>, identity: string): [string, JsonObject] | undefined {
  const key = identity.toLowerCase();
  for (const [k, object] of items) {
    const names = [object['Identity'], object['Name'], object['Guid'], object['ExchangeObjectId']];
    if (k === key || names.some((n) => typeof n === 'string' && n.toLowerCase() === key)) {
      return [k, object];
    }
  }
  return undefined;
}

function exchangeDate(ms: number): string {
  return `/Date(${ms})/`;
}

export function registerAdminCommandRoutes(app: FastifyInstance, world: TenantWorld): void {
  app.post<{ Params: { tenant: string } }>(
    '/adminapi/beta/:tenant/InvokeCommand',
    async (request: FastifyRequest<{ Params: { tenant: string } }>) => {
      const principal = principalOf(request);
      const named = world.find(request.params.tenant);
      if (!named || named.tenantId !== principal.tenantId) {
        throw new EmulatorError(
          403,
          'Forbidden',
          `The token's tenant does not match tenant '${request.params.tenant}' of the request.`,
        );
      }
      const input = (request.body as { CmdletInput?: unknown } | undefined)?.CmdletInput as
        { CmdletName?: unknown; Parameters?: unknown } | undefined;
      if (!input || typeof input !== 'object') {
        throw new EmulatorError(400, 'BadRequest', "The request body must carry 'CmdletInput'.");
      }
      const { verb, workload } = parseCmdlet(input.CmdletName);
      const parameters = (
        input.Parameters && typeof input.Parameters === 'object' ? input.Parameters : {}
      ) as JsonObject;
      const state = world.state(principal.tenantId);
      const items = state.workloadObjects(workload);
      const identity =
        typeof parameters['Identity'] === 'string' ? parameters['Identity'] : undefined;
      const now = world.now();
      const context = `${origin(request)}/adminapi/beta/${principal.tenantId}/$metadata#Collection(Exchange.GenericHashTable)`;
      const answer = (value: JsonObject[]) => ({ '@odata.context': context, value });

      if (verb === 'Get') {
        if (identity && !workload.singleton) {
          const found = find(items, identity);
          if (!found) throw notFound(state, identity);
          return answer([found[1]]);
        }
        return answer([...items.values()]);
      }
      if (verb === 'Set') {
        const { Identity: _identity, Confirm: _confirm, ...changes } = parameters;
        if (workload.singleton) {
          const current = items.get('singleton') ?? {};
          items.set('singleton', { ...current, ...changes, WhenChanged: exchangeDate(now) });
          return answer([]);
        }
        if (!identity) {
          throw new EmulatorError(
            400,
            'ParameterBindingException',
            "Cannot bind parameter 'Identity': it is required.",
          );
        }
        const found = find(items, identity);
        if (!found) throw notFound(state, identity);
        items.set(found[0], { ...found[1], ...changes, WhenChanged: exchangeDate(now) });
        return answer([]);
      }
      if (verb === 'New') {
        const name = typeof parameters['Name'] === 'string' ? parameters['Name'] : identity;
        if (!name) {
          throw new EmulatorError(
            400,
            'ParameterBindingException',
            "Cannot bind parameter 'Name': it is required.",
          );
        }
        if (find(items, name)) {
          throw new EmulatorError(
            400,
            'ManagementObjectAlreadyExistsException',
            `|Microsoft.Exchange.Management.Tasks.ManagementObjectAlreadyExistsException|An object with the name '${name}' already exists.`,
          );
        }
        const guid = randomUUID();
        const created: JsonObject = {
          ...parameters,
          Identity: name,
          Name: name,
          Id: name,
          Guid: guid,
          ExchangeObjectId: guid,
          WhenCreated: exchangeDate(now),
          WhenChanged: exchangeDate(now),
        };
        delete created['Confirm'];
        items.set(name.toLowerCase(), created);
        return answer([created]);
      }
      if (!identity) {
        throw new EmulatorError(
          400,
          'ParameterBindingException',
          "Cannot bind parameter 'Identity': it is required.",
        );
      }
      const found = find(items, identity);
      if (!found) throw notFound(state, identity);
      items.delete(found[0]);
      return answer([]);
    },
  );
}
