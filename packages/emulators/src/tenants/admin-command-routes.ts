// The Exchange Online admin API the ExchangeOnlineManagement v3 module calls: POST
// /adminapi/beta/{tenantId}/InvokeCommand with {"CmdletInput":{"CmdletName","Parameters"}}, for the
// Exchange and Defender for Office 365 settings that have no Graph API (docs/adr/049). Which
// cmdlets exist and which parameters each accepts come from Microsoft's cmdlet reference (the
// extract in @aegis/connectors/microsoft-contracts), not from Aegis's workload table: an unknown
// cmdlet, an unknown (or read-only) parameter, parameters of two parameter sets or a missing
// mandatory one are refused as PowerShell refuses them. The workload table only says where the
// tenant's objects of a noun are kept. Get- lists are paged with @odata.nextLink.
import { randomUUID } from 'node:crypto';

import {
  bindParameters,
  cmdletContract,
  type ParameterBinding,
} from '@aegis/connectors/microsoft-contracts';
import {
  TENANT_WORKLOADS,
  workloadFor,
  workloadKey,
  type AdminCommandWorkload,
} from '@aegis/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { JsonObject } from '../seed/policies/types';

import { searchUnifiedAuditLog } from './audit-log-routes';
import { origin } from './graph-common';
import type { TenantState } from './tenant-state';
import { EmulatorError, principalOf } from './wire';
import type { TenantWorld } from './world';

function notRecognized(text: string): EmulatorError {
  return new EmulatorError(
    400,
    'CommandNotFoundException',
    `The term '${text}' is not recognized as a name of a cmdlet, function, script file, or executable program.`,
  );
}

function workloadOfNoun(noun: string): AdminCommandWorkload | undefined {
  return TENANT_WORKLOADS.find(
    (w): w is AdminCommandWorkload =>
      w.transport === 'adminCommand' &&
      w.service !== 'teams' &&
      w.noun.toLowerCase() === noun.toLowerCase(),
  );
}

/**
 * PowerShell's parameter binding errors, naming the parameter. Mandatory parameters are not
 * required of Get- cmdlets: the reference marks `Identity` of Get-HostedOutboundSpamFilterPolicy
 * mandatory yet documents the call without it (ADR 049).
 */
function refuseBinding(binding: ParameterBinding, verb: string): void {
  const [unknown] = binding.unknown;
  if (unknown !== undefined) {
    throw new EmulatorError(
      400,
      'ParameterBindingException',
      `A parameter cannot be found that matches parameter name '${unknown}'.`,
    );
  }
  if (binding.otherSet.length > 0) {
    throw new EmulatorError(
      400,
      'ParameterBindingException',
      `Parameter set cannot be resolved using the specified named parameters. One or more parameters issued cannot be used together or an insufficient number of parameters were provided: ${binding.otherSet.join(', ')}.`,
    );
  }
  if (verb !== 'get' && binding.missing.length > 0) {
    throw new EmulatorError(
      400,
      'ParameterBindingException',
      `Cannot process command because of one or more missing mandatory parameters: ${binding.missing.join(' ')}.`,
    );
  }
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

/**
 * A Set- cmdlet's parameters applied to an object. Parameter names are case-insensitive and the
 * reference spells some differently from the property Get- returns (-CustomerLockboxEnabled sets
 * CustomerLockBoxEnabled): an existing property keeps its own spelling.
 */
function withChanges(object: JsonObject, changes: JsonObject): JsonObject {
  const spelling = new Map(Object.keys(object).map((key) => [key.toLowerCase(), key]));
  const updated = { ...object };
  for (const [name, value] of Object.entries(changes)) {
    updated[spelling.get(name.toLowerCase()) ?? name] = value;
  }
  return updated;
}

function exchangeDate(ms: number): string {
  return `/Date(${ms})/`;
}

function skipOf(request: FastifyRequest): number {
  const token = (request.query as Record<string, unknown>)['$skiptoken'];
  if (token === undefined) return 0;
  const offset = typeof token === 'string' ? Number(token) : NaN;
  if (!Number.isInteger(offset) || offset < 0) {
    throw new EmulatorError(400, 'BadRequest', 'The $skiptoken is not valid.');
  }
  return offset;
}

export function registerAdminCommandRoutes(
  app: FastifyInstance,
  world: TenantWorld,
  pageSize = 1000,
): void {
  app.post<{ Params: { tenant: string } }>(
    '/adminapi/beta/:tenant/InvokeCommand',
    (request: FastifyRequest<{ Params: { tenant: string } }>) => {
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
      const name = typeof input.CmdletName === 'string' ? input.CmdletName.trim() : '';
      const contract = cmdletContract('exchange', name);
      const [verb = '', noun = ''] = name.split('-', 2).map((part) => part.toLowerCase());
      const given = (
        input.Parameters && typeof input.Parameters === 'object' ? input.Parameters : {}
      ) as JsonObject;
      const state = world.state(principal.tenantId);
      if (!contract) throw notRecognized(name);
      const binding = bindParameters(contract, given);
      refuseBinding(binding, verb);
      const parameters = binding.accepted as JsonObject;
      // the cmdlet under Microsoft's spelling (its reference page's name), as the audit log names it
      const command = { name: contract.path.replace(/^.*\//, '').replace(/\.md$/, ''), parameters };
      const now = world.now();
      const base = `${origin(request)}/adminapi/beta/${principal.tenantId}`;
      const answer = (value: JsonObject[]) => ({
        '@odata.context': `${base}/$metadata#Collection(Exchange.GenericHashTable)`,
        value,
      });

      if (verb === 'enable' && noun === 'organizationcustomization') {
        const org = state.workloadObjects(workloadFor('Exchange', 'OrganizationConfig')!);
        const current = org.get('singleton') ?? {};
        if (current['IsDehydrated'] === false) {
          throw new EmulatorError(
            400,
            'InvalidOperationException',
            'This operation is not required. Organization is already enabled for customization.',
          );
        }
        const customized = { ...current, IsDehydrated: false, WhenChanged: exchangeDate(now) };
        org.set('singleton', customized);
        state.recordChange(principal, 'Exchange/OrganizationConfig', current, customized, command);
        return answer([]);
      }
      if (verb === 'search' && noun === 'unifiedauditlog') {
        return answer(searchUnifiedAuditLog(world, request, parameters));
      }
      const workload = workloadOfNoun(noun);
      if (!workload) throw notRecognized(name);
      const key = workloadKey(workload);
      const items = state.workloadObjects(workload);
      const identity =
        typeof parameters['Identity'] === 'string' ? parameters['Identity'] : undefined;

      if (verb === 'get') {
        if (identity && !workload.singleton) {
          const found = find(items, identity);
          if (!found) throw notFound(state, identity);
          return answer([found[1]]);
        }
        const all = [...items.values()];
        const skip = skipOf(request);
        const page = answer(all.slice(skip, skip + pageSize));
        if (skip + pageSize >= all.length) return page;
        return {
          ...page,
          '@odata.nextLink': `${base}/InvokeCommand?$skiptoken=${skip + pageSize}`,
        };
      }
      if (verb === 'set') {
        const { Identity: _identity, Confirm: _confirm, ...changes } = parameters;
        if (workload.singleton) {
          const current = items.get('singleton') ?? {};
          const updated = { ...withChanges(current, changes), WhenChanged: exchangeDate(now) };
          items.set('singleton', updated);
          state.recordChange(principal, key, current, updated, command);
          return answer([]);
        }
        if (!identity) throw notFound(state, '');
        const found = find(items, identity);
        if (!found) throw notFound(state, identity);
        const updated = { ...withChanges(found[1], changes), WhenChanged: exchangeDate(now) };
        items.set(found[0], updated);
        state.recordChange(principal, key, found[1], updated, command);
        return answer([]);
      }
      if (verb === 'new') {
        const objectName = typeof parameters['Name'] === 'string' ? parameters['Name'] : identity;
        if (!objectName) {
          throw new EmulatorError(
            400,
            'ParameterBindingException',
            "Cannot bind argument to parameter 'Name' because it is an empty string.",
          );
        }
        if (find(items, objectName)) {
          throw new EmulatorError(
            400,
            'ManagementObjectAlreadyExistsException',
            `|Microsoft.Exchange.Management.Tasks.ManagementObjectAlreadyExistsException|An object with the name '${objectName}' already exists.`,
          );
        }
        const guid = randomUUID();
        const created: JsonObject = {
          ...parameters,
          Identity: objectName,
          Name: objectName,
          Id: objectName,
          Guid: guid,
          ExchangeObjectId: guid,
          WhenCreated: exchangeDate(now),
          WhenChanged: exchangeDate(now),
        };
        delete created['Confirm'];
        items.set(objectName.toLowerCase(), created);
        state.recordChange(principal, key, undefined, created, command);
        return answer([created]);
      }
      if (verb === 'remove') {
        const found = identity ? find(items, identity) : undefined;
        if (!found) throw notFound(state, identity ?? '');
        items.delete(found[0]);
        state.recordChange(principal, key, found[1], undefined, command);
        return answer([]);
      }
      throw notRecognized(name);
    },
  );
}
