import { ArmClient } from '@aegis/connectors/arm';
import { TenantDiscovery as DiscoveryClient } from '@aegis/connectors/discovery';
import { DirectoryClient, GraphClient } from '@aegis/connectors/graph';

import type {
  ClientTenantApisFactory,
  ClientTenantArm,
  ClientTenantGraph,
  TenantDiscovery,
} from './client-tenant-onboarding';

/**
 * The onboarding ports over the Graph and ARM connectors (spec 2 §7), with the client tenant's
 * on-behalf-of tokens (ADR 020).
 */
export function clientTenantApis(urls: {
  graphUrl: string;
  armUrl: string;
}): ClientTenantApisFactory {
  return (session) => {
    const directory = new DirectoryClient(
      new GraphClient({ baseUrl: urls.graphUrl, getToken: () => session.graphToken() }),
    );
    const armClient = new ArmClient({ baseUrl: urls.armUrl, getToken: () => session.armToken() });

    const graph: ClientTenantGraph = {
      async findServicePrincipals(filter) {
        const found =
          'appId' in filter
            ? [await directory.findServicePrincipalByAppId(filter.appId)].filter((sp) => sp)
            : await directory.findServicePrincipalsByDisplayName(filter.displayName);
        return found.flatMap((sp) =>
          sp ? [{ id: sp.id, appId: sp.appId, displayName: sp.displayName }] : [],
        );
      },
      listDirectoryRoles: () => directory.listDirectoryRoles(),
      activateDirectoryRole: async (roleTemplateId) => ({
        id: (await directory.activateDirectoryRole(roleTemplateId)).id,
      }),
      async addDirectoryRoleMember(roleId, principalId) {
        await directory.addDirectoryRoleMember(roleId, principalId);
      },
    };

    const arm: ClientTenantArm = {
      async listSubscriptions() {
        return (await armClient.listSubscriptions()).map(({ subscriptionId, displayName }) => ({
          subscriptionId,
          displayName,
        }));
      },
      async assignSubscriptionRole(subscriptionId, roleDefinitionGuid, principalId) {
        // An assignment that already exists is success (RoleAssignmentExists → alreadyExists).
        await armClient.createRoleAssignment({
          scope: `/subscriptions/${subscriptionId}`,
          roleDefinitionGuid,
          principalId,
          principalType: 'ServicePrincipal',
        });
      },
    };
    return { graph, arm };
  };
}

/** Spec 2 §7: the tenant id of a domain through the discovery connector's three lookups. */
export function openIdTenantDiscovery(loginUrl: string): TenantDiscovery {
  const discovery = new DiscoveryClient({ loginUrl });
  return async (domain) => {
    const found = await discovery.discover(domain);
    return found ? { tenantId: found.tenantId, resolvedFrom: found.domain } : undefined;
  };
}
