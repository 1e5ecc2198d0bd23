import { isClientCode } from '../clients';

/** Spec 2 §5 texts of the client-code check (all flows) and the tenant form. */
export const CLIENT_CODE_FORMAT_ERROR = 'Client code must be exactly 3 uppercase letters.';
export const CLIENT_CODE_VALID = 'Client Code is valid!';
export const TENANT_FORM_INCOMPLETE =
  'Please complete all required fields with valid information before proceeding.';
export const INVALID_TENANT_ID = 'Invalid Tenant ID format. Please try again.';
/** Spec 2 §9: the subscription the provider route (company subscription = yes) uses. */
export const DEFAULT_SUBSCRIPTION_NAME = 'Options IT';
/** Spec 2 §9: the retry offered after a consent failure waits this long. */
export const CONSENT_RETRY_DELAY_IN_MS = 2000;

/** Spec 2 §3: the tenant onboarding form. */
export interface TenantOnboardingForm {
  readonly clientCode: string;
  readonly domain: string;
  /** 'has company subscription': yes uses 'Options IT', no asks for a custom name. */
  readonly hasOptionsCSP: 'yes' | 'no';
  readonly customSubscriptionName: string;
  readonly enrollInPowerSupport: 'yes' | 'no';
  /** A region's azureRegionAPIName, or '' while none is chosen. */
  readonly selectedRegion: string;
}

export const EMPTY_TENANT_FORM: TenantOnboardingForm = {
  clientCode: '',
  domain: '',
  hasOptionsCSP: 'yes',
  customSubscriptionName: '',
  enrollInPowerSupport: 'no',
  selectedRegion: '',
};

/**
 * The message under the client code field: '' while empty. A well-formed code that already has a
 * tenant pipeline is not valid for onboarding: it says so with the app-deploy flows' text (spec 2
 * §5 check 2), rather than 'Client Code is valid!' (issue 27, ADR 055).
 */
export function clientCodeMessage(
  code: string,
  alreadyOnboarded = false,
): { valid: boolean; message: string } {
  if (code === '') return { valid: false, message: '' };
  if (!isClientCode(code)) return { valid: false, message: CLIENT_CODE_FORMAT_ERROR };
  return alreadyOnboarded
    ? { valid: false, message: `${code} has already been onboarded.` }
    : { valid: true, message: CLIENT_CODE_VALID };
}

/**
 * Spec 2 §5: valid only if the code is validated, the domain is non-empty, a region is chosen,
 * and either the subscription choice is yes or a custom subscription name is non-empty.
 */
export function isTenantFormValid(form: TenantOnboardingForm): boolean {
  return (
    isClientCode(form.clientCode) &&
    form.domain.trim() !== '' &&
    form.selectedRegion !== '' &&
    (form.hasOptionsCSP === 'yes' || form.customSubscriptionName.trim() !== '')
  );
}

/** The subscription the roles are assigned on and the pipeline receives. */
export function subscriptionNameOf(form: TenantOnboardingForm): string {
  return form.hasOptionsCSP === 'yes'
    ? DEFAULT_SUBSCRIPTION_NAME
    : form.customSubscriptionName.trim();
}

/** Spec 2 §5: a manual tenant id is 36 characters of hexadecimal digits and hyphens. */
export function isManualTenantId(value: string): boolean {
  return /^[0-9a-fA-F-]{36}$/.test(value.trim());
}

const GUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const GUID = new RegExp(`^${GUID_IN_TEXT.source}$`, 'i');

export function isGuid(value: string): boolean {
  return GUID.test(value);
}

/**
 * The tenant id an error description names: the GUID after "tenant", else the last GUID before
 * Entra's trace and correlation ids.
 */
export function guidInText(text: string): string | undefined {
  const afterTenant = new RegExp(`tenant\\s*'?(${GUID_IN_TEXT.source})`, 'i').exec(text)?.[1];
  if (afterTenant) return afterTenant.toLowerCase();
  const body = text.split(/Trace ID:/i)[0] ?? '';
  const all = body.match(new RegExp(GUID_IN_TEXT.source, 'gi'));
  return all?.[all.length - 1]?.toLowerCase();
}

/**
 * Spec 2 §7: the discovery documents tried for a domain, in order: the domain itself, the domain
 * plus `.onmicrosoft.com`, and the `.com` swap (`contoso.com` → `contoso.onmicrosoft.com`).
 */
export function discoveryDomains(domain: string): string[] {
  const clean = domain.trim().toLowerCase();
  if (!clean) return [];
  const candidates = [clean];
  if (!clean.endsWith('.onmicrosoft.com')) {
    candidates.push(`${clean}.onmicrosoft.com`);
    if (clean.endsWith('.com'))
      candidates.push(`${clean.slice(0, -'.com'.length)}.onmicrosoft.com`);
  }
  return [...new Set(candidates)];
}

/** The tenant id of a discovery document: the first path segment of its issuer, when a GUID. */
export function tenantIdFromIssuer(issuer: string): string | undefined {
  const segment = /^[a-z][a-z\d+.-]*:\/\/[^/]+\/([^/?#]+)/i.exec(issuer)?.[1] ?? '';
  return isGuid(segment) ? segment.toLowerCase() : undefined;
}

/** Where a tenant id can come from on the consent return, in the order spec 2 §4 tries them. */
export const TENANT_ID_SOURCES = [
  'tenant parameter',
  'domain resolution',
  'error description',
  'discovery',
  'stored',
] as const;
export type TenantIdSource = (typeof TENANT_ID_SOURCES)[number];

export type TenantIdCandidates = Partial<Record<TenantIdSource, string | undefined>>;

/** The first usable tenant id among the candidates, in spec order, with where it came from. */
export function pickTenantId(
  candidates: TenantIdCandidates,
): { tenantId: string; source: TenantIdSource } | undefined {
  for (const source of TENANT_ID_SOURCES) {
    const value = candidates[source]?.trim();
    if (value && isGuid(value)) return { tenantId: value.toLowerCase(), source };
  }
  return undefined;
}

/** The query parameters the admin consent redirect comes back with. */
export interface ConsentReturn {
  readonly tenant?: string;
  readonly adminConsent?: string;
  readonly error?: string;
  readonly errorDescription?: string;
}

/** The consent return from the address's query parameters (a URLSearchParams). */
export function readConsentReturn(params: {
  get(name: string): string | null;
}): ConsentReturn | undefined {
  const value = (key: string) => params.get(key) ?? undefined;
  const result: ConsentReturn = {
    tenant: value('tenant'),
    adminConsent: value('admin_consent'),
    error: value('error'),
    errorDescription: value('error_description'),
  };
  return result.tenant || result.adminConsent || result.error ? result : undefined;
}

/** Spec 2 §4: the consent return's query parameters, removed from the address afterwards. */
export const CONSENT_RETURN_PARAMETERS = [
  'tenant',
  'admin_consent',
  'error',
  'error_description',
  'state',
  'scope',
] as const;

/** Spec 2 §4: access_denied saying the service principal name is already present. */
export function isServicePrincipalAlreadyPresent(ret: ConsentReturn): boolean {
  return (
    ret.error === 'access_denied' &&
    /service principal name .*already present/i.test(ret.errorDescription ?? '')
  );
}

/** Spec 2 §8: consent failed because the enterprise app could not be created. */
export function isEnterpriseAppCreationFailure(ret: ConsentReturn): boolean {
  return /AADSTS650051|service principal cannot be created/i.test(ret.errorDescription ?? '');
}

export type ConsentReturnCase =
  | { kind: 'proceed'; tenantId: string }
  | { kind: 'ask-tenant-id' }
  | { kind: 'service-principal-present'; errorTenantId: string | undefined }
  | { kind: 'retry'; error: string; description: string };

/**
 * Spec 2 §4, on return: a known tenant proceeds; consent without a tenant asks for it; an
 * error without consent offers a retry; an already-present service principal goes to recovery.
 * `resolvedTenantId` is the id resolved from the domain before the redirect.
 */
export function classifyConsentReturn(
  ret: ConsentReturn,
  resolvedTenantId: string | undefined,
): ConsentReturnCase {
  if (ret.error) {
    if (isServicePrincipalAlreadyPresent(ret)) {
      const errorTenantId = guidInText(ret.errorDescription ?? '');
      if (errorTenantId && resolvedTenantId && errorTenantId === resolvedTenantId.toLowerCase())
        return { kind: 'proceed', tenantId: errorTenantId };
      return { kind: 'service-principal-present', errorTenantId };
    }
    if (ret.adminConsent !== 'True')
      return { kind: 'retry', error: ret.error, description: ret.errorDescription ?? '' };
  }
  if (ret.tenant && isGuid(ret.tenant))
    return { kind: 'proceed', tenantId: ret.tenant.toLowerCase() };
  if (ret.adminConsent === 'True') return { kind: 'ask-tenant-id' };
  return { kind: 'retry', error: ret.error ?? 'unknown', description: ret.errorDescription ?? '' };
}

/** Spec 2 §4: the five recovery choices when the app already exists in another tenant. */
export const SERVICE_PRINCIPAL_RECOVERY_CHOICES = [
  { choice: 1, label: 'Force consent' },
  { choice: 2, label: 'Tenant-specific consent' },
  { choice: 3, label: 'Alternative flow' },
  { choice: 4, label: 'Enter the tenant ID manually' },
  { choice: 5, label: 'Cancel' },
] as const;
