// The live state of every simulated tenant, shared in-process by the tenant emulator (Graph, ARM,
// Exchange admin API) and the identity provider (consent, per-tenant sign-in): the directory, the
// configuration a capture reads, role assignments, and the scenario switches of each tenant.
import { randomUUID } from 'node:crypto';

import { textOf } from '@aegis/domain';

import { deterministicGuid } from '../seed/tenant-context';

import type { AuditLogUnavailable } from './audit-log-routes';
import type { FailingWorkload } from './failing-workload';
import {
  DEFAULT_SUBSCRIPTION_NAME,
  SIMULATED_TENANTS,
  findSimulatedTenant,
  type SimulatedSubscription,
  type SimulatedTenant,
} from './registry';
import { TenantState, type MultiTenantApplication } from './tenant-state';

/** The product's enterprise app (spec 2 §6), created in a client tenant by admin consent. */
export const AEGIS_ENTERPRISE_APP = {
  appId: deterministicGuid('aegis:enterprise-app'),
  displayName: 'Aegis - Deploy - Monitor - Fix',
  /** the MSP's own tenant, owner of the multi-tenant app registration */
  ownerTenantId: deterministicGuid('aegis:msp-tenant'),
} as const;

/** Per-tenant switches for tests and demos (`/_emulator/tenants/{tenant}/scenarios`). */
export interface TenantScenarios {
  /** admin consent answers `access_denied` (consent declined) */
  consentDenied: boolean;
  /** admin consent answers `access_denied` with AADSTS1003031 (app permissions misconfigured) */
  permissionsMisconfigured: boolean;
  /**
   * admin consent answers `access_denied` saying the service principal name is already present,
   * naming this tenant id (another tenant than the one consenting, or the same one)
   */
  servicePrincipalPresentInTenant: string | null;
  /** after consent, Graph finds the enterprise app only on this search (e.g. 4); null: time only */
  servicePrincipalFoundOnSearch: number | null;
  /** ms between consent and the enterprise app being visible to Graph; null: the world default */
  propagationDelayInMs: number | null;
  /** a role (Azure role or directory role display name) whose assignment fails */
  failingRoleAssignment: string | null;
  /** hides the 'Options IT' subscription */
  noDefaultSubscription: boolean;
  /** answers the next `requests` Graph/ARM/Exchange requests with 429 and Retry-After */
  throttle: { requests: number; retryAfterInSeconds: number } | null;
  /** Intune Multi Admin Approval: app-only Intune writes need `x-msft-approval-justification` */
  multiAdminApproval: boolean;
  /** reads of one workload (`Category/Kind`) or category (`Exchange`) fail with this status */
  failingWorkload: FailingWorkload | null;
  /** an audit log (or every one) answers as without its licence or the app's permission */
  auditLogUnavailable: AuditLogUnavailable | null;
}

export const DEFAULT_SCENARIOS: TenantScenarios = {
  consentDenied: false,
  permissionsMisconfigured: false,
  servicePrincipalPresentInTenant: null,
  servicePrincipalFoundOnSearch: null,
  propagationDelayInMs: null,
  failingRoleAssignment: null,
  noDefaultSubscription: false,
  throttle: null,
  multiAdminApproval: false,
  failingWorkload: null,
  auditLogUnavailable: null,
};

export type AdminConsentResult =
  | { ok: true; tenantId: string; servicePrincipalId: string }
  | { ok: false; error: string; errorDescription: string; tenantId?: string };

export interface TenantWorldOptions {
  tenants?: readonly SimulatedTenant[];
  /** multi-tenant apps a Global Administrator may consent to (default: the Aegis enterprise app) */
  applications?: readonly MultiTenantApplication[];
  /** default ms between consent and the enterprise app being visible to Graph (default 3000) */
  propagationDelayInMs?: number;
  now?: () => number;
}

function aadstsSuffix(now: number): string {
  return ` Trace ID: ${randomUUID()} Correlation ID: ${randomUUID()} Timestamp: ${new Date(now)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z')}`;
}

export class TenantWorld {
  readonly tenants: readonly SimulatedTenant[];
  readonly applications: readonly MultiTenantApplication[];
  readonly defaultPropagationDelayInMs: number;
  readonly now: () => number;
  private readonly states = new Map<string, TenantState>();
  private readonly scenarioMap = new Map<string, TenantScenarios>();

  constructor(options: TenantWorldOptions = {}) {
    this.tenants = options.tenants ?? SIMULATED_TENANTS;
    this.applications = options.applications ?? [AEGIS_ENTERPRISE_APP];
    this.defaultPropagationDelayInMs = options.propagationDelayInMs ?? 3000;
    this.now = options.now ?? Date.now;
  }

  /** The tenant named by id, domain or client code. */
  find(idOrDomain: string): SimulatedTenant | undefined {
    return findSimulatedTenant(idOrDomain, this.tenants);
  }

  /** The live state of a tenant (built on first use). */
  state(tenantId: string): TenantState {
    const tenant = this.find(tenantId);
    if (!tenant) throw new Error(`No simulated tenant ${tenantId}`);
    let state = this.states.get(tenant.tenantId);
    if (!state) {
      state = new TenantState(tenant, this);
      this.states.set(tenant.tenantId, state);
    }
    return state;
  }

  scenarios(tenantId: string): TenantScenarios {
    const tenant = this.find(tenantId);
    if (!tenant) throw new Error(`No simulated tenant ${tenantId}`);
    return this.scenarioMap.get(tenant.tenantId) ?? DEFAULT_SCENARIOS;
  }

  setScenarios(tenantId: string, change: Partial<TenantScenarios>): TenantScenarios {
    const tenant = this.find(tenantId);
    if (!tenant) throw new Error(`No simulated tenant ${tenantId}`);
    const next = { ...this.scenarios(tenant.tenantId), ...change };
    this.scenarioMap.set(tenant.tenantId, next);
    return next;
  }

  resetScenarios(tenantId?: string): void {
    if (tenantId === undefined) this.scenarioMap.clear();
    else {
      const tenant = this.find(tenantId);
      if (tenant) this.scenarioMap.delete(tenant.tenantId);
    }
  }

  /** Forgets all live state and scenarios: every tenant is seeded again on next use. */
  reset(): void {
    this.states.clear();
    this.scenarioMap.clear();
  }

  /** Subscriptions ARM lists for the tenant, honouring the 'no Options IT' switch. */
  subscriptions(tenantId: string): readonly SimulatedSubscription[] {
    const tenant = this.find(tenantId);
    if (!tenant) return [];
    const all = tenant.subscriptions;
    return this.scenarios(tenant.tenantId).noDefaultSubscription
      ? all.filter((s) => s.displayName !== DEFAULT_SUBSCRIPTION_NAME)
      : all;
  }

  /**
   * What the admin consent endpoint does when a Global Administrator accepts (the consent page
   * of the identity provider calls this): checks the tenant's scenarios, then creates the app's
   * service principal, visible to Graph after the propagation delay. `tenant` is the path segment
   * (tenant id, domain, `common` or `organizations`); `signedInTenantId` the tenant of the admin
   * who accepted, which is what `common` resolves to.
   */
  adminConsent(request: {
    tenant: string;
    clientId: string;
    signedInTenantId?: string;
  }): AdminConsentResult {
    const now = this.now();
    const generic = ['common', 'organizations'].includes(request.tenant.toLowerCase());
    const tenant = this.find(
      generic ? (request.signedInTenantId ?? request.tenant) : request.tenant,
    );
    if (!tenant) {
      return {
        ok: false,
        error: 'invalid_tenant',
        errorDescription: `AADSTS90002: Tenant '${request.tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.${aadstsSuffix(now)}`,
      };
    }
    const app = this.applications.find(
      (a) => a.appId.toLowerCase() === request.clientId.toLowerCase(),
    );
    if (!app) {
      return {
        ok: false,
        error: 'unauthorized_client',
        errorDescription: `AADSTS700016: Application with identifier '${request.clientId}' was not found in the directory '${tenant.displayName}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant.${aadstsSuffix(now)}`,
        tenantId: tenant.tenantId,
      };
    }
    const scenarios = this.scenarios(tenant.tenantId);
    if (scenarios.permissionsMisconfigured) {
      return {
        ok: false,
        error: 'access_denied',
        errorDescription: `AADSTS1003031: Misconfigured required resource access in client application '${app.appId}'. The requested permissions are not valid for the resource application.${aadstsSuffix(now)}`,
        tenantId: tenant.tenantId,
      };
    }
    if (scenarios.consentDenied) {
      return {
        ok: false,
        error: 'access_denied',
        errorDescription: `AADSTS65004: User declined to consent to access the app.${aadstsSuffix(now)}`,
        tenantId: tenant.tenantId,
      };
    }
    if (scenarios.servicePrincipalPresentInTenant) {
      return {
        ok: false,
        error: 'access_denied',
        errorDescription: `AADSTS650051: The service principal cannot be created, updated, or restored because the service principal name ${app.appId} is already present for tenant ${scenarios.servicePrincipalPresentInTenant}.${aadstsSuffix(now)}`,
        tenantId: tenant.tenantId,
      };
    }
    const state = this.state(tenant.tenantId);
    const delay = scenarios.propagationDelayInMs ?? this.defaultPropagationDelayInMs;
    const sp = state.consentTo(app, now + delay);
    return { ok: true, tenantId: tenant.tenantId, servicePrincipalId: textOf(sp['id']) };
  }
}
