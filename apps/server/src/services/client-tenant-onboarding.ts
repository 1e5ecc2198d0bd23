import { isServiceError } from '@aegis/connectors';
import {
  DEFAULT_SUBSCRIPTION_NAME,
  NotFoundError,
  ONBOARDING_ROLES,
  READER_ROLE,
  subscriptionNotFoundMessage,
  type OnboardingRole,
  type RoleStatus,
} from '@aegis/domain';

import type { ClientTenantSession } from '../plugins/client-tenant';

/** The Graph calls onboarding makes in a client tenant (spec 2 §7), as the Global Administrator. */
export interface ClientTenantGraph {
  findServicePrincipals(
    filter: { appId: string } | { displayName: string },
  ): Promise<{ id: string; appId: string; displayName: string }[]>;
  /** Activated directory roles. */
  listDirectoryRoles(): Promise<{ id: string; roleTemplateId: string; displayName: string }[]>;
  /** POST /directoryRoles {roleTemplateId}: activates a role from its template. */
  activateDirectoryRole(roleTemplateId: string): Promise<{ id: string }>;
  /** POST /directoryRoles/{id}/members/$ref; an existing membership is success. */
  addDirectoryRoleMember(roleId: string, principalId: string): Promise<void>;
}

/** The ARM calls onboarding makes (spec 2 §7). */
export interface ClientTenantArm {
  listSubscriptions(): Promise<{ subscriptionId: string; displayName: string }[]>;
  /** PUT a role assignment with a new GUID; an existing assignment (409 RoleAssignmentExists) is success. */
  assignSubscriptionRole(
    subscriptionId: string,
    roleDefinitionGuid: string,
    principalId: string,
  ): Promise<void>;
}

/** Graph and ARM in a client tenant, as its Global Administrator (tests inject fakes). */
export type ClientTenantApisFactory = (session: ClientTenantSession) => {
  graph: ClientTenantGraph;
  arm: ClientTenantArm;
};

/** Tenant discovery (spec 2 §7): the tenant id of a domain, or undefined. */
export type TenantDiscovery = (
  domain: string,
) => Promise<{ tenantId: string; resolvedFrom: string } | undefined>;

export type EnterpriseAppSearch =
  | { status: 'found'; servicePrincipal: { id: string; appId: string; displayName: string } }
  | { status: 'not-found' }
  | { status: 'unauthorized' }
  | { status: 'error'; httpStatus: number; body: string };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Onboarding in a client tenant (spec 2 §4, §6, §7): finds the enterprise app, assigns its roles
 * (a line per role), and the Global Admin tool's Reader assignment.
 */
export class ClientTenantOnboarding {
  constructor(
    private readonly graph: ClientTenantGraph,
    private readonly arm: ClientTenantArm,
  ) {}

  /** One attempt of the enterprise app search; the browser owns the retry schedule. */
  async searchEnterpriseApp(appId: string): Promise<EnterpriseAppSearch> {
    try {
      const [found] = await this.graph.findServicePrincipals({ appId });
      return found ? { status: 'found', servicePrincipal: found } : { status: 'not-found' };
    } catch (error) {
      if (isServiceError(error)) {
        if (error.statusCode === 401) return { status: 'unauthorized' };
        return {
          status: 'error',
          httpStatus: error.statusCode ?? 502,
          body: JSON.stringify({ error: { code: error.code, message: error.message } }),
        };
      }
      throw error;
    }
  }

  /**
   * Spec 2 §4, §6: the subscription roles on the chosen subscription, then the directory roles
   * (activated from their template when needed); one status per role, failures do not stop the rest.
   */
  async assignRoles(input: { appId: string; subscriptionName: string }): Promise<RoleStatus[]> {
    const [principal] = await this.graph.findServicePrincipals({ appId: input.appId });
    if (!principal) throw new NotFoundError('Enterprise App not found');

    const statuses: RoleStatus[] = [];
    const subscriptionRoles = ONBOARDING_ROLES.filter((r) => r.kind === 'subscription');
    let subscription: { subscriptionId: string } | undefined;
    let subscriptionError: string | undefined;
    try {
      const subscriptions = await this.arm.listSubscriptions();
      subscription = subscriptions.find((s) => s.displayName === input.subscriptionName);
      if (!subscription)
        subscriptionError = subscriptionNotFoundMessage(
          input.subscriptionName,
          subscriptions.map((s) => s.displayName),
        );
    } catch (error) {
      subscriptionError = messageOf(error);
    }
    for (const role of subscriptionRoles) {
      if (!subscription) {
        statuses.push({ role: role.name, ok: false, message: subscriptionError ?? '' });
        continue;
      }
      statuses.push(
        await this.assignSubscriptionRole(role, subscription.subscriptionId, principal.id),
      );
    }

    let active: { id: string; roleTemplateId: string }[] | undefined;
    let activeError: string | undefined;
    try {
      active = await this.graph.listDirectoryRoles();
    } catch (error) {
      activeError = messageOf(error);
    }
    for (const role of ONBOARDING_ROLES.filter((r) => r.kind === 'directory')) {
      if (!active) {
        statuses.push({ role: role.name, ok: false, message: activeError ?? '' });
        continue;
      }
      try {
        const roleId =
          active.find((r) => r.roleTemplateId === role.id)?.id ??
          (await this.graph.activateDirectoryRole(role.id)).id;
        await this.graph.addDirectoryRoleMember(roleId, principal.id);
        statuses.push({ role: role.name, ok: true, message: '' });
      } catch (error) {
        statuses.push({ role: role.name, ok: false, message: messageOf(error) });
      }
    }
    return statuses;
  }

  /** The Global Admin tool (spec 2 §2, §5): Reader for the named enterprise app on 'Options IT'. */
  async assignReaderOnDefaultSubscription(enterpriseAppName: string): Promise<{
    servicePrincipalId: string;
    subscriptionId: string;
    subscriptionName: string;
  }> {
    const [principal] = await this.graph.findServicePrincipals({ displayName: enterpriseAppName });
    if (!principal) throw new NotFoundError(`Enterprise app '${enterpriseAppName}' not found.`);
    const subscriptions = await this.arm.listSubscriptions();
    const subscription = subscriptions.find((s) => s.displayName === DEFAULT_SUBSCRIPTION_NAME);
    if (!subscription)
      throw new NotFoundError(
        subscriptionNotFoundMessage(
          DEFAULT_SUBSCRIPTION_NAME,
          subscriptions.map((s) => s.displayName),
        ),
      );
    await this.arm.assignSubscriptionRole(
      subscription.subscriptionId,
      READER_ROLE.id,
      principal.id,
    );
    return {
      servicePrincipalId: principal.id,
      subscriptionId: subscription.subscriptionId,
      subscriptionName: subscription.displayName,
    };
  }

  private async assignSubscriptionRole(
    role: OnboardingRole,
    subscriptionId: string,
    principalId: string,
  ): Promise<RoleStatus> {
    try {
      await this.arm.assignSubscriptionRole(subscriptionId, role.id, principalId);
      return { role: role.name, ok: true, message: '' };
    } catch (error) {
      return { role: role.name, ok: false, message: messageOf(error) };
    }
  }
}
