import { HttpPipeline, isServiceError, type ParsedServiceError } from '@aegis/connectors';
import { discoveryDomains, tenantIdFromIssuer } from '@aegis/domain';

import type { ClientTenantSession } from '../plugins/client-tenant';

import {
  newRoleAssignmentName,
  type ClientTenantApisFactory,
  type ClientTenantArm,
  type ClientTenantGraph,
  type TenantDiscovery,
} from './client-tenant-onboarding';

/** Graph and ARM both answer `{ error: { code, message } }`. */
function parseMicrosoftError(_status: number, body: string): ParsedServiceError {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: string; message?: string } };
    return { code: parsed.error?.code, message: parsed.error?.message };
  } catch {
    return { message: body.slice(0, 500) };
  }
}

function quoted(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * The onboarding ports over Microsoft Graph and ARM REST (spec 2 §7, reference
 * graph-arm-identity.md §1.3–§1.7, §2.1–§2.2), on the shared HTTP pipeline.
 */
export function clientTenantApis(urls: {
  graphUrl: string;
  armUrl: string;
}): ClientTenantApisFactory {
  return (session: ClientTenantSession) => {
    const graphHttp = new HttpPipeline({
      service: 'graph',
      getToken: () => session.graphToken(),
      parseError: parseMicrosoftError,
      requestIdHeaders: ['request-id', 'client-request-id'],
    });
    const armHttp = new HttpPipeline({
      service: 'arm',
      getToken: () => session.armToken(),
      parseError: parseMicrosoftError,
      requestIdHeaders: ['x-ms-request-id', 'x-ms-correlation-request-id'],
    });
    const graphBase = `${urls.graphUrl}/v1.0`;

    const graph: ClientTenantGraph = {
      async findServicePrincipals(filter) {
        const expression =
          'appId' in filter
            ? `appId eq ${quoted(filter.appId)}`
            : `displayName eq ${quoted(filter.displayName)}`;
        const response = await graphHttp.send<{
          value: { id: string; appId: string; displayName: string }[];
        }>({
          method: 'GET',
          url: `${graphBase}/servicePrincipals`,
          query: { $filter: expression, $select: 'id,appId,displayName' },
          responseType: 'json',
        });
        return response.body.value.map(({ id, appId, displayName }) => ({
          id,
          appId,
          displayName,
        }));
      },
      async listDirectoryRoles() {
        const response = await graphHttp.send<{
          value: { id: string; roleTemplateId: string; displayName: string }[];
        }>({ method: 'GET', url: `${graphBase}/directoryRoles`, responseType: 'json' });
        return response.body.value;
      },
      async activateDirectoryRole(roleTemplateId) {
        const response = await graphHttp.send<{ id: string }>({
          method: 'POST',
          url: `${graphBase}/directoryRoles`,
          body: { roleTemplateId },
          responseType: 'json',
        });
        return { id: response.body.id };
      },
      async addDirectoryRoleMember(roleId, principalId) {
        try {
          await graphHttp.send({
            method: 'POST',
            url: `${graphBase}/directoryRoles/${encodeURIComponent(roleId)}/members/$ref`,
            body: { '@odata.id': `${graphBase}/directoryObjects/${principalId}` },
            responseType: 'none',
          });
        } catch (error) {
          // Already a member: Graph answers 400 "... added object references already exist ...".
          if (isServiceError(error) && /already exist/i.test(error.message)) return;
          throw error;
        }
      },
    };

    const arm: ClientTenantArm = {
      async listSubscriptions() {
        const found: { subscriptionId: string; displayName: string }[] = [];
        let url: string | undefined = `${urls.armUrl}/subscriptions?api-version=2022-12-01`;
        while (url) {
          const response: { body: { value: typeof found; nextLink?: string | null } } =
            await armHttp.send({ method: 'GET', url, responseType: 'json' });
          found.push(
            ...response.body.value.map(({ subscriptionId, displayName }) => ({
              subscriptionId,
              displayName,
            })),
          );
          url = response.body.nextLink ?? undefined;
        }
        return found;
      },
      async assignSubscriptionRole(subscriptionId, roleDefinitionGuid, principalId) {
        const scope = `/subscriptions/${subscriptionId}`;
        try {
          await armHttp.send({
            method: 'PUT',
            url: `${urls.armUrl}${scope}/providers/Microsoft.Authorization/roleAssignments/${newRoleAssignmentName()}`,
            query: { 'api-version': '2022-04-01' },
            body: {
              properties: {
                roleDefinitionId: `${scope}/providers/Microsoft.Authorization/roleDefinitions/${roleDefinitionGuid}`,
                principalId,
                principalType: 'ServicePrincipal',
              },
            },
            responseType: 'json',
          });
        } catch (error) {
          if (isServiceError(error) && error.code === 'RoleAssignmentExists') return;
          throw error;
        }
      },
    };
    return { graph, arm };
  };
}

/**
 * Spec 2 §7: the tenant id of a domain from the first OpenID discovery document that answers,
 * trying the domain, the domain plus `.onmicrosoft.com`, and the `.com` swap.
 */
export function openIdTenantDiscovery(loginUrl: string, fetchImpl = fetch): TenantDiscovery {
  return async (domain) => {
    for (const candidate of discoveryDomains(domain)) {
      try {
        const response = await fetchImpl(
          `${loginUrl}/${encodeURIComponent(candidate)}/v2.0/.well-known/openid-configuration`,
        );
        if (!response.ok) continue;
        const body = (await response.json()) as { issuer?: string };
        const tenantId = tenantIdFromIssuer(body.issuer ?? '');
        if (tenantId) return { tenantId, resolvedFrom: candidate };
      } catch {
        // The next candidate may answer.
      }
    }
    return undefined;
  };
}
