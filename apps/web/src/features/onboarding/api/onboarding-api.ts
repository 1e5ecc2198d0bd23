import type {
  AppDeployOnboardingNewRunRequest,
  AppDeployOnboardingPipelinesResponse,
  AppDeployOnboardingRunRequest,
  AssignRolesResponse,
  EnterpriseAppSearchResult,
  GlobalAdminReaderResponse,
  ListTablesResponse,
  OnboardingRunResponse,
  TenantIdResponse,
  TenantOnboardingLegacyRunRequest,
  TenantOnboardingRunRequest,
  TenantPipelinesResponse,
} from '@aegis/contracts';

import { api } from '../../../lib/api-client';
import {
  clientTenantApi,
  globalAdminOnlyApi,
} from '../../../lib/client-tenant-auth/client-tenant-auth';

/** Spec 2 §7: the tenant id of a domain (three discovery lookups on the server). */
export function resolveTenantId(domain: string): Promise<TenantIdResponse> {
  return api<TenantIdResponse>(`/api/onboarding/tenant-id?domain=${encodeURIComponent(domain)}`);
}

export function listTenantPipelines(signal?: AbortSignal): Promise<TenantPipelinesResponse> {
  return api<TenantPipelinesResponse>('/api/onboarding/tenant-pipelines', { signal });
}

/** The pipelines the app-deploy flows read as 'already onboarded' (every project's). */
export function listAppDeployOnboardingPipelines(
  signal?: AbortSignal,
): Promise<AppDeployOnboardingPipelinesResponse> {
  return api<AppDeployOnboardingPipelinesResponse>('/api/onboarding/app-deploy/pipelines', {
    signal,
  });
}

export function listAppTables(signal?: AbortSignal): Promise<ListTablesResponse> {
  return api<ListTablesResponse>('/api/app-tables', { signal });
}

/** One attempt of the enterprise app search, as the Global Administrator. */
export function searchEnterpriseApp(): Promise<EnterpriseAppSearchResult> {
  return clientTenantApi<EnterpriseAppSearchResult>('/api/onboarding/enterprise-app');
}

export function assignRoles(
  subscriptionName: string,
  clientCode: string,
): Promise<AssignRolesResponse> {
  return clientTenantApi<AssignRolesResponse>('/api/onboarding/roles', {
    method: 'POST',
    body: { subscriptionName, ...(/^[A-Z]{3}$/.test(clientCode) ? { clientCode } : {}) },
  });
}

export function assignReader(enterpriseAppName: string): Promise<GlobalAdminReaderResponse> {
  return globalAdminOnlyApi<GlobalAdminReaderResponse>('/api/onboarding/global-admin/reader', {
    method: 'POST',
    body: { enterpriseAppName },
  });
}

export function startTenantOnboarding(
  body: TenantOnboardingRunRequest,
): Promise<OnboardingRunResponse> {
  return api<OnboardingRunResponse>('/api/onboarding/tenant/runs', { method: 'POST', body });
}

export function startTenantOnboardingLegacy(
  body: TenantOnboardingLegacyRunRequest,
): Promise<OnboardingRunResponse> {
  return api<OnboardingRunResponse>('/api/onboarding/tenant-legacy/runs', { method: 'POST', body });
}

export function startAppDeployOnboarding(
  body: AppDeployOnboardingRunRequest,
): Promise<OnboardingRunResponse> {
  return api<OnboardingRunResponse>('/api/onboarding/app-deploy/runs', { method: 'POST', body });
}

export function startAppDeployOnboardingNew(
  body: AppDeployOnboardingNewRunRequest,
): Promise<OnboardingRunResponse> {
  return api<OnboardingRunResponse>('/api/onboarding/app-deploy-new/runs', {
    method: 'POST',
    body,
  });
}
