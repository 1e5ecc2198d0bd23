// Typed directory calls onboarding needs (spec 2 §6, §7): the organization, the enterprise app's
// service principal by appId or display name, directory role templates, activation of a role from
// its template, and role membership (reference graph-arm-identity.md §1.3-§1.8).
import { isServiceError } from '../shared';

import type { GraphClient } from './graph-client';
import { odataString } from './graph-client';

/** Directory role template ids: immutable and the same in every tenant (Entra built-in roles). */
export const DIRECTORY_ROLE_TEMPLATE_IDS = {
  globalAdministrator: '62e90394-69f5-4237-9190-012177145e10',
  exchangeAdministrator: '29232cdf-9323-42fd-ade2-1d097af3e4de',
  teamsAdministrator: '69091246-20e8-4a56-aa4d-066075b2a7a8',
  authenticationPolicyAdministrator: '0526716b-113d-4c15-b2c8-68e3c22b9f80',
  privilegedAuthenticationAdministrator: '7be44c8a-adaf-4e2a-84d6-ab2649e08a13',
  authenticationAdministrator: 'c4e39bd9-1100-46d3-8c65-fb160da0071f',
  privilegedRoleAdministrator: 'e8611ab8-c189-46e8-94e1-60213ab1f814',
  directoryReaders: '88d8e3e3-8f55-4a1e-953a-9b9898b8876b',
} as const;

export interface VerifiedDomain {
  name: string;
  isDefault: boolean;
  isInitial: boolean;
  type?: string;
  capabilities?: string;
}

export interface Organization {
  id: string;
  displayName: string;
  countryLetterCode?: string | null;
  verifiedDomains: VerifiedDomain[];
}

export interface ServicePrincipal {
  id: string;
  appId: string;
  displayName: string;
  appDisplayName?: string | null;
  appOwnerOrganizationId?: string | null;
  accountEnabled?: boolean;
  servicePrincipalType?: string;
}

export interface DirectoryRoleTemplate {
  id: string;
  displayName: string;
  description: string;
}

export interface DirectoryRole {
  id: string;
  displayName: string;
  description: string;
  roleTemplateId: string;
}

export interface User {
  id: string;
  displayName: string | null;
  userPrincipalName: string;
  mail?: string | null;
  accountEnabled?: boolean;
}

const SERVICE_PRINCIPAL_FIELDS = [
  'id',
  'appId',
  'displayName',
  'appDisplayName',
  'appOwnerOrganizationId',
  'accountEnabled',
  'servicePrincipalType',
] as const;

export class DirectoryClient {
  constructor(readonly graph: GraphClient) {}

  /** The tenant's organization (GET /organization has exactly one). */
  async organization(): Promise<Organization> {
    const [organization] = await this.graph.list<Organization>('/organization');
    if (!organization) throw new Error('Graph returned no organization');
    return organization;
  }

  me(): Promise<User> {
    return this.graph.get<User>('/me');
  }

  /** The service principal of an application in this tenant, or undefined when there is none yet. */
  async findServicePrincipalByAppId(appId: string): Promise<ServicePrincipal | undefined> {
    const found = await this.graph.list<ServicePrincipal>('/servicePrincipals', {
      query: { filter: `appId eq ${odataString(appId)}`, select: SERVICE_PRINCIPAL_FIELDS },
    });
    return found[0];
  }

  findServicePrincipalsByDisplayName(displayName: string): Promise<ServicePrincipal[]> {
    return this.graph.list<ServicePrincipal>('/servicePrincipals', {
      query: {
        filter: `displayName eq ${odataString(displayName)}`,
        select: SERVICE_PRINCIPAL_FIELDS,
      },
    });
  }

  getDirectoryRoleTemplate(templateId: string): Promise<DirectoryRoleTemplate | undefined> {
    return this.graph.find<DirectoryRoleTemplate>(
      `/directoryRoleTemplates/${encodeURIComponent(templateId)}`,
    );
  }

  /** Activated roles only (Graph lists a role here once it has been activated). */
  listDirectoryRoles(): Promise<DirectoryRole[]> {
    return this.graph.list<DirectoryRole>('/directoryRoles');
  }

  /** Activates a role from its template (201 + the role). */
  activateDirectoryRole(roleTemplateId: string): Promise<DirectoryRole> {
    return this.graph.post<DirectoryRole>('/directoryRoles', { roleTemplateId });
  }

  /** The activated role of a template, activating it first when it is not active yet. */
  async ensureDirectoryRole(roleTemplateId: string): Promise<DirectoryRole> {
    const active = (await this.listDirectoryRoles()).find(
      (r) => r.roleTemplateId === roleTemplateId,
    );
    return active ?? this.activateDirectoryRole(roleTemplateId);
  }

  /**
   * Adds a user, group or service principal to an activated role. Graph's 400 "added object
   * references already exist" means it already was a member: answered 'alreadyMember'.
   */
  async addDirectoryRoleMember(
    roleId: string,
    directoryObjectId: string,
  ): Promise<'added' | 'alreadyMember'> {
    try {
      await this.graph.request<void>('POST', `/directoryRoles/${roleId}/members/$ref`, {
        body: { '@odata.id': this.graph.url(`/directoryObjects/${directoryObjectId}`) },
      });
      return 'added';
    } catch (error) {
      if (
        isServiceError(error) &&
        error.statusCode === 400 &&
        /already exist/i.test(error.message)
      ) {
        return 'alreadyMember';
      }
      throw error;
    }
  }
}
