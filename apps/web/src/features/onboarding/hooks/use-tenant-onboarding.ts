import type { OnboardingRunResponse } from '@aegis/contracts';
import {
  classifyConsentReturn,
  CONSENT_RETRY_DELAY_IN_MS,
  EMPTY_TENANT_FORM,
  globalAdminLoginFailure,
  guidInText,
  isEnterpriseAppCreationFailure,
  isManualTenantId,
  isTenantFormValid,
  pickTenantId,
  subscriptionNameOf,
  TENANT_FORM_INCOMPLETE,
  type ConsentReturn,
  type RoleStatus,
  type TenantIdSource,
  type TenantOnboardingForm,
} from '@aegis/domain';
import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';

import {
  adminConsentUrl,
  goToAdminConsent,
  signInGlobalAdmin,
  type ClientTenantConfig,
} from '../../../lib/client-tenant-auth/client-tenant-auth';
import {
  clearClientTenantSession,
  currentClientTenantSession,
  GlobalAdminSignInError,
} from '../../../lib/client-tenant-auth/client-tenant-session';
import { assignRoles, resolveTenantId, startTenantOnboarding } from '../api/onboarding-api';
import {
  clearTenantOnboarding,
  loadResolvedTenantId,
  loadTenantForm,
  loadTenantId,
  saveTenantForm,
  saveTenantId,
} from '../onboarding-storage';

import { useConsentReturn } from './use-consent-return';
import { useEnterpriseAppSearch } from './use-enterprise-app-search';

export type OnboardingStep =
  | { kind: 'form' }
  | { kind: 'redirecting' }
  | { kind: 'consent-error'; error: string; description: string; retryOffered: boolean }
  | { kind: 'contact-support' }
  | { kind: 'ask-tenant-id'; suggestion?: { tenantId: string; source: TenantIdSource } }
  | { kind: 'recovery'; errorTenantId?: string }
  | { kind: 'sign-in'; tenantId: string }
  | { kind: 'roles'; tenantId: string; upn: string };

export interface RoleAssignmentState {
  readonly assigning: boolean;
  readonly statuses: readonly RoleStatus[] | undefined;
  readonly allRolesAssigned: boolean;
  readonly error: string | undefined;
}

export type RecoveryChoice = 1 | 2 | 3 | 4 | 5;

const NO_ROLES: RoleAssignmentState = {
  assigning: false,
  statuses: undefined,
  allRolesAssigned: false,
  error: undefined,
};

/**
 * Spec 2 §4: the tenant id sources, in order: the tenant parameter; the id resolved from the domain
 * before the redirect; a GUID in the error description; discovery (the discovery documents of the
 * domain, or the signed-in Global Administrator's tenant); the stored id. Discovery is asked only
 * when the sources before it found nothing.
 */
async function suggestTenantId(
  ret: ConsentReturn,
  resolved: string | undefined,
  domain: string,
): Promise<{ tenantId: string; source: TenantIdSource } | undefined> {
  const before = {
    'tenant parameter': ret.tenant,
    'domain resolution': resolved,
    'error description': guidInText(ret.errorDescription ?? ''),
  };
  const early = pickTenantId(before);
  if (early) return early;
  let discovered: string | undefined;
  if (domain) {
    try {
      discovered = (await resolveTenantId(domain)).tenantId ?? undefined;
    } catch {
      // Discovery is one source among several; the stored id or the user's answer follows.
    }
  }
  return pickTenantId({
    ...before,
    discovery: discovered ?? currentClientTenantSession()?.tenantId,
    stored: loadTenantId(),
  });
}

/**
 * Spec 2 §4 tenant onboarding: form → consent redirect → return handling with its cases →
 * Global Administrator popup → role assignment → onboarding pipeline.
 */
export function useTenantOnboarding(config: ClientTenantConfig | undefined) {
  const location = useLocation();
  const [form, setForm] = useState<TenantOnboardingForm>(
    () => loadTenantForm() ?? EMPTY_TENANT_FORM,
  );
  // A reload after consent (the return's parameters are gone from the address) resumes at the
  // Global Administrator's sign-in for the tenant consent was granted in (issue 27).
  const [step, setStep] = useState<OnboardingStep>(() => {
    const consented = loadTenantId();
    return consented && loadTenantForm()
      ? { kind: 'sign-in', tenantId: consented }
      : { kind: 'form' };
  });
  const [alert, setAlert] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [roles, setRoles] = useState<RoleAssignmentState>(NO_ROLES);
  const [run, setRun] = useState<OnboardingRunResponse>();
  const [runMessage, setRunMessage] = useState<{ intent: 'success' | 'error'; text: string }>();
  const { state: appSearch, search: searchEnterpriseApp } = useEnterpriseAppSearch();

  const redirectToConsent = useCallback(
    (tenant: string) => {
      if (!config) return;
      setStep({ kind: 'redirecting' });
      goToAdminConsent(
        adminConsentUrl(config, {
          tenant,
          redirectUri: `${window.location.origin}${location.pathname}`,
          state: String(Date.now()),
        }),
      );
    },
    [config, location.pathname],
  );

  // The admin consent return: decide what comes next (spec 2 §4).
  useConsentReturn(onConsentReturn);
  function onConsentReturn(ret: ConsentReturn): void {
    const resolved = loadResolvedTenantId();
    const decided = classifyConsentReturn(ret, resolved);
    if (decided.kind === 'proceed') {
      saveTenantId(decided.tenantId);
      setStep({ kind: 'sign-in', tenantId: decided.tenantId });
    } else if (decided.kind === 'ask-tenant-id') {
      setStep({ kind: 'ask-tenant-id' });
      void suggestTenantId(ret, resolved, loadTenantForm()?.domain ?? '').then((suggestion) => {
        if (suggestion)
          setStep((current) =>
            current.kind === 'ask-tenant-id' && !current.suggestion
              ? { kind: 'ask-tenant-id', suggestion }
              : current,
          );
      });
    } else if (decided.kind === 'service-principal-present') {
      setStep({
        kind: 'recovery',
        ...(decided.errorTenantId ? { errorTenantId: decided.errorTenantId } : {}),
      });
    } else {
      setStep({
        kind: 'consent-error',
        error: decided.error,
        description: decided.description,
        retryOffered: false,
      });
    }
  }

  // Spec 2 §4, §9: the retry is offered 2 s after a consent failure.
  const retryPending = step.kind === 'consent-error' && !step.retryOffered;
  useEffect(() => {
    if (!retryPending) return;
    const timer = window.setTimeout(
      () =>
        setStep((current) =>
          current.kind === 'consent-error' ? { ...current, retryOffered: true } : current,
        ),
      CONSENT_RETRY_DELAY_IN_MS,
    );
    return () => window.clearTimeout(timer);
  }, [retryPending]);

  /** Validate, keep the form across the redirect, pre-resolve the tenant, go to consent. */
  async function grantAdminConsent(): Promise<void> {
    setAlert(undefined);
    if (!isTenantFormValid(form)) {
      setAlert(TENANT_FORM_INCOMPLETE);
      return;
    }
    setBusy(true);
    let resolved: string | null = null;
    try {
      resolved = (await resolveTenantId(form.domain)).tenantId;
    } catch {
      // Discovery is a convenience: consent through `common` still works.
    }
    saveTenantForm(form, resolved);
    setBusy(false);
    redirectToConsent(resolved ?? 'common');
  }

  function retryConsent(): void {
    redirectToConsent(loadResolvedTenantId() ?? 'common');
  }

  function declineRetry(creationFailure: boolean): void {
    setStep(creationFailure ? { kind: 'contact-support' } : { kind: 'form' });
  }

  /** Spec 2 §5: a manual tenant id is 36 hex characters and hyphens, else it asks again. */
  function submitManualTenantId(value: string): boolean {
    if (!isManualTenantId(value)) {
      setAlert('Invalid Tenant ID format. Please try again.');
      return false;
    }
    setAlert(undefined);
    const tenantId = value.trim().toLowerCase();
    saveTenantId(tenantId);
    setStep({ kind: 'sign-in', tenantId });
    return true;
  }

  async function recover(choice: RecoveryChoice): Promise<void> {
    const resolved = loadResolvedTenantId();
    if (choice === 1) redirectToConsent('common');
    else if (choice === 2) redirectToConsent(resolved ?? form.domain);
    else if (choice === 3) {
      // The alternative flow: the Global Administrator signs in first; their tenant is the one.
      await signIn('organizations');
    } else if (choice === 4) setStep({ kind: 'ask-tenant-id' });
    else startOver();
  }

  /** Leaves an onboarding in progress: the form is empty and nothing of it is kept. */
  function startOver(): void {
    clearTenantOnboarding();
    setForm(EMPTY_TENANT_FORM);
    setAlert(undefined);
    setStep({ kind: 'form' });
  }

  async function assign(tenantId: string, upn: string): Promise<void> {
    setStep({ kind: 'roles', tenantId, upn });
    setRoles({ ...NO_ROLES, assigning: true });
    // Consent creates the enterprise app, but Graph shows it only after propagation: wait for it
    // with the app-deploy flow's search (spec 2 §4) instead of failing 'Enterprise App not found'.
    const found = await searchEnterpriseApp();
    if (found.status !== 'found') {
      setRoles({ ...NO_ROLES, error: found.status === 'failed' ? found.text : undefined });
      return;
    }
    try {
      const result = await assignRoles(subscriptionNameOf(form), form.clientCode);
      setRoles({
        assigning: false,
        statuses: result.statuses,
        allRolesAssigned: result.allRolesAssigned,
        error: undefined,
      });
    } catch (error) {
      setRoles({
        ...NO_ROLES,
        error: `Error assigning roles: ${(error as Error).message}`,
      });
    }
  }

  /** The Global Administrator's popup, then the roles (spec 2 §4). */
  async function signIn(tenant: string): Promise<void> {
    if (!config) return;
    setAlert(undefined);
    setBusy(true);
    try {
      const session = await signInGlobalAdmin(config, tenant);
      if (tenant !== 'organizations' && session.tenantId.toLowerCase() !== tenant.toLowerCase()) {
        clearClientTenantSession();
        throw new GlobalAdminSignInError(
          'wrong_tenant',
          `The account ${session.upn} belongs to tenant ${session.tenantId}, not ${tenant}.`,
        );
      }
      saveTenantId(session.tenantId);
      setBusy(false);
      await assign(session.tenantId, session.upn);
    } catch (error) {
      setBusy(false);
      const { code, details } =
        error instanceof GlobalAdminSignInError
          ? error
          : { code: 'unknown_error', details: (error as Error).message };
      setAlert(globalAdminLoginFailure(code, details));
    }
  }

  async function complete(tenantId: string): Promise<void> {
    setRunMessage(undefined);
    setBusy(true);
    try {
      const started = await startTenantOnboarding({
        clientCode: form.clientCode,
        domain: form.domain,
        subscriptionName: subscriptionNameOf(form),
        tenantId,
        enrollInPowerSupport: form.enrollInPowerSupport === 'yes',
        region: form.selectedRegion,
      });
      setRun(started);
      setRunMessage({ intent: 'success', text: 'Pipeline triggered successfully!' });
      clearTenantOnboarding();
    } catch (error) {
      setRunMessage({
        intent: 'error',
        text: `Failed to trigger the onboarding pipeline. Error: ${(error as Error).message}`,
      });
    } finally {
      setBusy(false);
    }
  }

  /** A change of the form; the 'complete all required fields' alert goes once they are. */
  function changeForm(next: TenantOnboardingForm): void {
    setForm(next);
    if (isTenantFormValid(next))
      setAlert((shown) => (shown === TENANT_FORM_INCOMPLETE ? undefined : shown));
  }

  return {
    form,
    setForm: changeForm,
    startOver,
    step,
    alert,
    busy,
    roles,
    appSearch,
    run,
    runMessage,
    grantAdminConsent,
    retryConsent,
    declineRetry,
    submitManualTenantId,
    recover,
    signIn,
    assign,
    complete,
    isCreationFailure: (description: string) =>
      isEnterpriseAppCreationFailure({ errorDescription: description }),
  };
}
