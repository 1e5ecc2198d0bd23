// One simulated tenant's live state: directory objects (users, groups, service principals),
// activated directory roles and their members, Azure role assignments, and the configuration
// collections Graph serves. Mutated by the emulator's routes and by admin consent.
import { randomUUID } from 'node:crypto';

import {
  policyNameOf,
  TENANT_WORKLOADS,
  type TenantWorkload,
  textOf,
  workloadFor,
  workloadKey,
} from '@aegis/domain';

import type { JsonObject } from '../seed/policies/types';
import { deterministicGuid } from '../seed/tenant-context';

import {
  actorOf,
  auditedChange,
  type AuditedActor,
  type AuditedChange,
  type AuditedOperation,
} from './audit-trail';
import { DIRECTORY_ROLE_TEMPLATES, FIRST_PARTY_APPS } from './catalogue';
import { liveConfigurationOf, type Drift } from './live-config';
import type { SimulatedTenant } from './registry';
import type { TenantPrincipal } from './wire';

export interface DirectoryRoleRecord {
  id: string;
  roleTemplateId: string;
  displayName: string;
  description: string;
  members: Set<string>;
}

export interface RoleAssignmentRecord {
  name: string;
  scope: string;
  roleDefinitionId: string;
  principalId: string;
  principalType: string;
  description: string | null;
  createdOn: string;
  updatedOn: string;
  createdBy: string | null;
  updatedBy: string | null;
}

export interface ResourceGroupRecord {
  name: string;
  location: string;
  tags: JsonObject;
}

/** An application registered in one tenant that others consent to (the Aegis enterprise app). */
export interface MultiTenantApplication {
  readonly appId: string;
  readonly displayName: string;
  readonly ownerTenantId: string;
}

/** What a tenant's state reads of the world it lives in (the TenantWorld). */
export interface TenantSurroundings {
  readonly applications: readonly MultiTenantApplication[];
  now(): number;
  scenarios(tenantId: string): { readonly servicePrincipalFoundOnSearch: number | null };
}

/** An Intune change waiting for a second administrator (Multi Admin Approval). */
export interface PendingApproval {
  id: string;
  operation: string;
  justification: string;
  requestedAt: string;
  apply: () => void;
}

interface Visibility {
  visibleAt: number;
  searches: number;
}

export class TenantState {
  /** users, groups and service principals by object id (`@odata.type` tells them apart) */
  readonly directoryObjects = new Map<string, JsonObject>();
  readonly directoryRoles = new Map<string, DirectoryRoleRecord>();
  /** Azure role assignments by their full id */
  readonly roleAssignments = new Map<string, RoleAssignmentRecord>();
  /**
   * The configuration a capture reads, by workload (`Category/Kind`, domain TENANT_WORKLOADS):
   * object key (Graph `id`, ARM `name`, admin-command `Identity`) → object. Groups live in
   * `directoryObjects`.
   */
  readonly config = new Map<string, Map<string, JsonObject>>();
  /** what drifted since the last capture */
  readonly drift: readonly Drift[];
  /** resource groups by `{subscriptionId}/{lower-case name}` */
  readonly resourceGroups = new Map<string, ResourceGroupRecord>();
  /** Multi Admin Approval requests by id */
  readonly approvals = new Map<string, PendingApproval>();
  /** every change made in the tenant, oldest first; the audit log routes render it */
  readonly auditTrail: AuditedChange[] = [];
  private readonly visibility = new Map<string, Visibility>();

  constructor(
    readonly tenant: SimulatedTenant,
    private readonly world: TenantSurroundings,
  ) {
    this.seedDirectory();
    const live = liveConfigurationOf(tenant);
    this.drift = live.drift;
    for (const workload of TENANT_WORKLOADS) {
      const key = workloadKey(workload);
      const objects = live.objects.get(key) ?? [];
      if (workload.transport === 'graph' && workload.path === '/groups') {
        for (const group of objects) {
          this.directoryObjects.set(textOf(group['id']), { '@odata.type': GROUP_TYPE, ...group });
        }
        continue;
      }
      const items = new Map<string, JsonObject>();
      for (const object of objects) items.set(this.objectKey(workload, object), object);
      this.config.set(key, items);
    }
    this.recordSeededDrift(live.applied);
  }

  /**
   * The drift the tenant starts with was made by its Global Administrator in the hours before:
   * one change every 47 minutes, the last one 47 minutes ago, so a check finds who and when.
   */
  private recordSeededDrift(applied: ReturnType<typeof liveConfigurationOf>['applied']): void {
    const actor = this.administrator();
    const start = this.world.now() - applied.length * 47 * 60_000;
    applied.forEach((change, index) => {
      const operation: AuditedOperation = !change.before
        ? 'create'
        : !change.after
          ? 'delete'
          : 'update';
      this.record(
        change.workload,
        operation,
        change.before,
        change.after,
        actor,
        start + index * 47 * 60_000,
      );
    });
  }

  /** The tenant's Global Administrator, as the audit logs name an actor. */
  private administrator(): AuditedActor {
    const admin = this.tenant.globalAdministrator;
    return {
      kind: 'user',
      id: admin.oid,
      userPrincipalName: admin.upn,
      displayName: admin.displayName,
    };
  }

  /** One object of a workload, named by its id, key or name (without case), with its key. */
  findObject(workload: TenantWorkload, object: string): [string, JsonObject] | undefined {
    const wanted = object.toLowerCase();
    return [...this.workloadObjects(workload)].find(
      ([key, candidate]) =>
        key === wanted ||
        textOf(candidate['id'] ?? '').toLowerCase() === wanted ||
        policyNameOf(workload, candidate)?.toLowerCase() === wanted,
    );
  }

  /**
   * A change the tenant's Global Administrator makes by hand (the drift switch,
   * `POST /_emulator/tenants/{tenant}/drift`): sets properties of one object of a workload, named
   * by its id, key or name, or removes it; recorded in the audit trail now. Undefined when the
   * workload holds no such object.
   */
  changeByAdministrator(
    workload: TenantWorkload,
    object: string,
    change: { set: JsonObject } | { remove: true },
  ): { before: JsonObject; after?: JsonObject } | undefined {
    const items = this.workloadObjects(workload);
    const found = this.findObject(workload, object);
    if (!found) return undefined;
    const [key, before] = found;
    const after = 'set' in change ? { ...before, ...change.set } : undefined;
    if (after) items.set(key, after);
    else items.delete(key);
    const noun = workload.transport === 'adminCommand' ? workload.noun : undefined;
    const command = noun
      ? {
          name: `${after ? 'Set' : 'Remove'}-${noun}`,
          parameters: {
            ...(workload.transport === 'adminCommand' && workload.singleton
              ? {}
              : { Identity: textOf(before['Identity'] ?? before['Name'] ?? object) }),
            ...('set' in change ? change.set : {}),
          },
        }
      : undefined;
    this.record(
      workloadKey(workload),
      after ? 'update' : 'delete',
      before,
      after,
      this.administrator(),
      this.world.now(),
      command,
    );
    return { before, ...(after ? { after } : {}) };
  }

  /**
   * Records a change made through an API by the request's caller: the audit logs serve it. `before`
   * is absent for a create, `after` for a delete.
   */
  recordChange(
    principal: TenantPrincipal,
    workload: string,
    before: JsonObject | undefined,
    after: JsonObject | undefined,
    command?: AuditedChange['command'],
  ): void {
    const actor = actorOf(principal, (matches) =>
      [...this.directoryObjects.values()].find(matches),
    );
    const operation: AuditedOperation = !before ? 'create' : !after ? 'delete' : 'update';
    this.record(workload, operation, before, after, actor, this.world.now(), command);
  }

  private record(
    workload: string,
    operation: AuditedOperation,
    before: JsonObject | undefined,
    after: JsonObject | undefined,
    actor: AuditedActor,
    time: number,
    command?: AuditedChange['command'],
  ): void {
    const object = after ?? before ?? {};
    const [category = '', kind = ''] = workload.split('/');
    const known = workloadFor(category, kind);
    const id = ['id', 'Guid', 'ExchangeObjectId', 'Identity', 'name']
      .map((key) => object[key])
      .find((value): value is string => typeof value === 'string' && value !== '');
    const name =
      (known ? policyNameOf(known, object) : undefined) ??
      (typeof object['userPrincipalName'] === 'string' ? object['userPrincipalName'] : undefined);
    this.auditTrail.push(
      auditedChange({
        time,
        workload,
        operation,
        target: { id: id ?? name ?? '', name: name ?? id ?? '' },
        actor,
        before: operation === 'delete' ? undefined : before,
        after,
        ...(command ? { command } : {}),
      }),
    );
  }

  /** The key an object is stored under in its workload. */
  objectKey(workload: TenantWorkload, object: JsonObject): string {
    if ('singleton' in workload && workload.singleton) return 'singleton';
    if (workload.transport === 'graph') {
      if (typeof object['id'] !== 'string') object['id'] = randomUUID();
      return String(object['id']);
    }
    if (workload.transport === 'arm') return textOf(object['name'] ?? '').toLowerCase();
    return textOf(object['Identity'] ?? object['Name'] ?? '').toLowerCase();
  }

  /** The objects of a workload (created empty when the workload had none). */
  workloadObjects(workload: Pick<TenantWorkload, 'category' | 'kind'>): Map<string, JsonObject> {
    const key = workloadKey(workload);
    let items = this.config.get(key);
    if (!items) {
      items = new Map();
      this.config.set(key, items);
    }
    return items;
  }

  guid(seed: string): string {
    return deterministicGuid(`${this.tenant.clientCode}:${seed}`);
  }

  private seedDirectory(): void {
    const t = this.tenant;
    const created = '2023-03-14T09:12:44Z';
    const user = (
      id: string,
      upn: string,
      displayName: string,
      givenName: string | null,
      surname: string | null,
      jobTitle: string | null,
    ): JsonObject => ({
      '@odata.type': '#microsoft.graph.user',
      id,
      businessPhones: [],
      displayName,
      givenName,
      jobTitle,
      mail: upn,
      mobilePhone: null,
      officeLocation: null,
      preferredLanguage: 'en-GB',
      surname,
      userPrincipalName: upn,
      accountEnabled: true,
      userType: 'Member',
      createdDateTime: created,
    });
    const admin = t.globalAdministrator;
    const users = [
      user(admin.oid, admin.upn, admin.displayName, admin.givenName, admin.surname, admin.jobTitle),
      user(
        this.guid('user:breakglass'),
        `breakglass@${t.initialDomain}`,
        'Break Glass Account',
        null,
        null,
        null,
      ),
      user(
        this.guid('user:reception'),
        `reception@${t.customDomain}`,
        'Reception',
        null,
        null,
        'Receptionist',
      ),
    ];
    for (const u of users) this.directoryObjects.set(u['id'] as string, u);
    for (const app of FIRST_PARTY_APPS) {
      const sp = this.servicePrincipal(
        this.guid(`sp:${app.appId}`),
        app,
        FIRST_PARTY_TENANT,
        created,
      );
      this.directoryObjects.set(sp['id'] as string, sp);
    }
    // An onboarded tenant consented to the multi-tenant apps long ago: their service principals
    // are there (the Global Admin tool finds 'Aegis - Deploy - Monitor - Fix' by name).
    if (t.onboarded) {
      for (const app of this.world.applications) {
        const sp = this.servicePrincipal(
          this.guid(`sp:${app.appId}`),
          app,
          app.ownerTenantId,
          created,
        );
        this.directoryObjects.set(sp['id'] as string, sp);
      }
    }
    // Global Administrator is active in every tenant, with the admin as a member.
    const globalAdmin = DIRECTORY_ROLE_TEMPLATES.find(
      (r) => r.displayName === 'Global Administrator',
    );
    if (globalAdmin) {
      const role = this.activateRole(globalAdmin.id);
      role?.members.add(admin.oid);
      role?.members.add(this.guid('user:breakglass'));
    }
  }

  private servicePrincipal(
    id: string,
    app: { appId: string; displayName: string },
    ownerTenantId: string,
    created: string,
  ): JsonObject {
    return {
      '@odata.type': '#microsoft.graph.servicePrincipal',
      id,
      deletedDateTime: null,
      accountEnabled: true,
      appDisplayName: app.displayName,
      appId: app.appId,
      appOwnerOrganizationId: ownerTenantId,
      appRoleAssignmentRequired: false,
      createdDateTime: created,
      displayName: app.displayName,
      servicePrincipalNames: [app.appId],
      servicePrincipalType: 'Application',
      signInAudience: 'AzureADMultipleOrgs',
      tags: ['WindowsAzureActiveDirectoryIntegratedApp'],
      appRoles: [],
      oauth2PermissionScopes: [],
      replyUrls: [],
      keyCredentials: [],
      passwordCredentials: [],
    };
  }

  /**
   * Creates (or finds) the app's service principal; Graph sees it from `visibleAt` on. With the
   * slow-propagation switch on, consenting again restarts its search count, so a journey that
   * consents twice in one emulator (a retry, another journey) meets the same lag both times.
   */
  consentTo(app: MultiTenantApplication, visibleAt: number): JsonObject {
    const existing = [...this.directoryObjects.values()].find(
      (o) => o['@odata.type'] === '#microsoft.graph.servicePrincipal' && o['appId'] === app.appId,
    );
    if (existing) {
      if (this.world.scenarios(this.tenant.tenantId).servicePrincipalFoundOnSearch !== null)
        this.visibility.set(existing['id'] as string, { visibleAt, searches: 0 });
      return existing;
    }
    const sp = this.servicePrincipal(
      randomUUID(),
      app,
      app.ownerTenantId,
      new Date(this.world.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
    );
    this.directoryObjects.set(sp['id'] as string, sp);
    this.visibility.set(sp['id'] as string, { visibleAt, searches: 0 });
    return sp;
  }

  /**
   * Whether Graph returns this object now: a freshly consented service principal appears after
   * the propagation delay, or (slow-propagation switch) only on the n-th search.
   * `counting` marks a search (list with $filter), which advances the n-th-search counter.
   */
  isVisible(id: string, counting = false): boolean {
    const v = this.visibility.get(id);
    if (!v) return true;
    if (counting) v.searches += 1;
    const foundOn = this.world.scenarios(this.tenant.tenantId).servicePrincipalFoundOnSearch;
    const visible = foundOn !== null ? v.searches >= foundOn : this.world.now() >= v.visibleAt;
    if (visible && foundOn === null) this.visibility.delete(id);
    return visible;
  }

  /** Activates a directory role from its template (POST /directoryRoles); undefined if unknown. */
  activateRole(roleTemplateId: string): DirectoryRoleRecord | undefined {
    const template = DIRECTORY_ROLE_TEMPLATES.find((r) => r.id === roleTemplateId);
    if (!template) return undefined;
    const role: DirectoryRoleRecord = {
      id: this.guid(`directoryRole:${template.id}`),
      roleTemplateId: template.id,
      displayName: template.displayName,
      description: template.description,
      members: new Set(),
    };
    this.directoryRoles.set(role.id, role);
    return role;
  }

  roleByIdOrTemplate(key: string): DirectoryRoleRecord | undefined {
    const match = /^roleTemplateId=(.+)$/i.exec(key);
    const templateId = match?.[1]?.replace(/^'|'$/g, '');
    return [...this.directoryRoles.values()].find((r) =>
      templateId ? r.roleTemplateId === templateId : r.id === key,
    );
  }

  requestApproval(operation: string, justification: string, apply: () => void): PendingApproval {
    const approval: PendingApproval = {
      id: randomUUID(),
      operation,
      justification,
      requestedAt: new Date(this.world.now()).toISOString(),
      apply,
    };
    this.approvals.set(approval.id, approval);
    return approval;
  }

  /** A second administrator approves: the change is applied. False when there is no such request. */
  approve(id: string): boolean {
    const approval = this.approvals.get(id);
    if (!approval) return false;
    this.approvals.delete(id);
    approval.apply();
    return true;
  }

  objectOfType(id: string, odataType: string): JsonObject | undefined {
    const object = this.directoryObjects.get(id);
    return object && object['@odata.type'] === odataType ? object : undefined;
  }

  objectsOfType(odataType: string): JsonObject[] {
    return [...this.directoryObjects.values()].filter((o) => o['@odata.type'] === odataType);
  }
}

const GROUP_TYPE = '#microsoft.graph.group';

/** Microsoft's own tenant, owner of the first-party apps. */
const FIRST_PARTY_TENANT = 'f8cdef31-a31e-4b4a-93e4-5f571e91255a';
