import { EMPTY_TENANT_FORM, type TenantOnboardingForm } from '@aegis/domain';

/** Spec 2 §4, §7: what survives the admin consent redirect, in session storage. */
const KEYS = {
  tenantForm: 'aegis.onboarding.tenantForm',
  resolvedTenantId: 'aegis.onboarding.resolvedTenantId',
  tenantId: 'aegis.onboarding.tenantId',
  appDeploy: 'aegis.onboarding.appDeploy',
} as const;

export function saveTenantForm(form: TenantOnboardingForm, resolvedTenantId: string | null): void {
  sessionStorage.setItem(KEYS.tenantForm, JSON.stringify(form));
  if (resolvedTenantId) sessionStorage.setItem(KEYS.resolvedTenantId, resolvedTenantId);
  else sessionStorage.removeItem(KEYS.resolvedTenantId);
}

export function loadTenantForm(): TenantOnboardingForm | undefined {
  const raw = sessionStorage.getItem(KEYS.tenantForm);
  if (!raw) return undefined;
  try {
    return { ...EMPTY_TENANT_FORM, ...(JSON.parse(raw) as Partial<TenantOnboardingForm>) };
  } catch {
    return undefined;
  }
}

export function loadResolvedTenantId(): string | undefined {
  return sessionStorage.getItem(KEYS.resolvedTenantId) ?? undefined;
}

/** The tenant id the flow settled on, the last source of spec 2 §4's order. */
export function saveTenantId(tenantId: string): void {
  sessionStorage.setItem(KEYS.tenantId, tenantId);
}

export function loadTenantId(): string | undefined {
  return sessionStorage.getItem(KEYS.tenantId) ?? undefined;
}

export function clearTenantOnboarding(): void {
  sessionStorage.removeItem(KEYS.tenantForm);
  sessionStorage.removeItem(KEYS.resolvedTenantId);
  sessionStorage.removeItem(KEYS.tenantId);
}

/** New app-deploy onboarding: client code, domain and tenant id across the redirect (spec 2 §4). */
export interface AppDeployStored {
  readonly clientCode: string;
  readonly domain: string;
  readonly tenantId: string;
}

export function saveAppDeploy(values: AppDeployStored): void {
  sessionStorage.setItem(KEYS.appDeploy, JSON.stringify(values));
}

export function loadAppDeploy(): AppDeployStored | undefined {
  const raw = sessionStorage.getItem(KEYS.appDeploy);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as AppDeployStored;
  } catch {
    return undefined;
  }
}

export function clearAppDeploy(): void {
  sessionStorage.removeItem(KEYS.appDeploy);
}
