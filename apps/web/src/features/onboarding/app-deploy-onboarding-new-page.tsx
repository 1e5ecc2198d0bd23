import type { OnboardingRunResponse } from '@aegis/contracts';
import {
  appDeployConsentError,
  globalAdminLoginFailure,
  ONBOARDING_RUN_POLLING,
  type ConsentReturn,
} from '@aegis/domain';
import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useRef, useState } from 'react';
import { useLocation } from 'react-router';

import { PageHeader } from '../../components/page-header';
import { ProjectRunStatus } from '../../components/pipeline-run-status';
import { RoleGate } from '../../components/role-gate';
import {
  adminConsentUrl,
  signInGlobalAdmin,
  useClientTenantConfig,
} from '../../lib/client-tenant-auth/client-tenant-auth';
import { GlobalAdminSignInError } from '../../lib/client-tenant-auth/client-tenant-session';

import { resolveTenantId, startAppDeployOnboardingNew } from './api/onboarding-api';
import { useAppDeployCodeCheck } from './hooks/use-app-deploy-code-check';
import { useConsentReturn } from './hooks/use-consent-return';
import { useEnterpriseAppSearch } from './hooks/use-enterprise-app-search';
import { clearAppDeploy, loadAppDeploy, saveAppDeploy } from './onboarding-storage';

const useStyles = makeStyles({
  form: { display: 'grid', gap: '12px', maxWidth: '560px' },
  card: {
    display: 'grid',
    gap: '6px',
    padding: '16px',
    border: `1px solid ${tokens.colorPaletteGreenBorder2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorPaletteGreenBackground1,
  },
});

/**
 * Spec 2 §2, §4, §5, §8: new app-deploy onboarding: admin consent back to this page, the Global
 * Administrator popup, the enterprise app search, then pipeline 191.
 */
export function AppDeployOnboardingNewPage() {
  const styles = useStyles();
  const location = useLocation();
  const config = useClientTenantConfig();
  const stored = useRef(loadAppDeploy());
  const [clientCode, setClientCode] = useState(stored.current?.clientCode ?? '');
  const [domain, setDomain] = useState(stored.current?.domain ?? '');
  const [tenantId, setTenantId] = useState(stored.current?.tenantId ?? '');
  const [consented, setConsented] = useState(false);
  const [alert, setAlert] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [signedIn, setSignedIn] = useState(false);
  const [run, setRun] = useState<OnboardingRunResponse>();
  const [runError, setRunError] = useState<string>();
  const { state: search, search: startSearch } = useEnterpriseAppSearch();
  const check = useAppDeployCodeCheck(clientCode, 'new');

  // The consent return (spec 2 §4, §8): the tenant, or one of the three error texts, which all
  // clear the stored values.
  useConsentReturn(onConsentReturn);
  function onConsentReturn(ret: ConsentReturn): void {
    if (ret.error) {
      clearAppDeploy();
      setAlert(appDeployConsentError(ret.error, ret.errorDescription ?? ''));
      return;
    }
    if (ret.tenant) setTenantId(ret.tenant);
    setConsented(true);
  }

  const ready = check?.state === 'validated' && clientCode.trim() !== '' && domain.trim() !== '';

  async function goToConsent() {
    setAlert(undefined);
    if (!ready) {
      setAlert(
        check?.state === 'already-onboarded'
          ? `${clientCode} has already been onboarded.`
          : 'Please complete all required fields.',
      );
      return;
    }
    if (!config.data) return;
    setBusy(true);
    let resolved = tenantId;
    try {
      resolved = (await resolveTenantId(domain)).tenantId ?? '';
    } catch {
      // Consent through `common` still works.
    }
    setTenantId(resolved);
    saveAppDeploy({ clientCode, domain, tenantId: resolved });
    window.location.assign(
      adminConsentUrl(config.data, {
        tenant: resolved || 'common',
        redirectUri: `${window.location.origin}${location.pathname}`,
        state: String(Date.now()),
      }),
    );
  }

  async function loginAsGlobalAdmin() {
    if (!config.data) return;
    setAlert(undefined);
    setBusy(true);
    try {
      const session = await signInGlobalAdmin(config.data, tenantId || 'organizations');
      setTenantId(session.tenantId);
      setSignedIn(true);
      setBusy(false);
      await startSearch();
    } catch (error) {
      setBusy(false);
      const { code, details } =
        error instanceof GlobalAdminSignInError
          ? error
          : { code: 'unknown_error', details: (error as Error).message };
      setAlert(globalAdminLoginFailure(code, details));
    }
  }

  async function complete(enterpriseAppId: string) {
    setRunError(undefined);
    setBusy(true);
    try {
      setRun(
        await startAppDeployOnboardingNew({
          clientCode,
          domain,
          clientTenantId: tenantId,
          enterpriseAppId,
        }),
      );
      clearAppDeploy();
    } catch (error) {
      setRunError(`Error triggering build: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div>
      <PageHeader
        title="App Deploy Onboarding (New)"
        subtitle="Admin consent, Global Admin sign-in and the enterprise app, then the onboarding pipeline."
      />
      <div className={styles.form}>
        {alert && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{alert}</MessageBarBody>
          </MessageBar>
        )}
        <Field
          label="Client Code"
          required
          validationState={!check ? 'none' : check.state === 'validated' ? 'success' : 'error'}
          validationMessage={check?.message}
        >
          <Input
            value={clientCode}
            maxLength={3}
            disabled={consented}
            onChange={(_e, d) => setClientCode(d.value)}
          />
        </Field>
        <Field label="Domain" required>
          <Input
            value={domain}
            disabled={consented}
            onChange={(_e, d) => setDomain(d.value.trim())}
          />
        </Field>
        <Field label="Tenant ID" hint="Read-only: found from the domain and the admin consent.">
          <Input value={tenantId} readOnly appearance="filled-darker" />
        </Field>
        <div>
          <Button
            appearance="primary"
            disabled={busy || signedIn || !config.data || (!consented && !ready)}
            onClick={() => void (consented ? loginAsGlobalAdmin() : goToConsent())}
          >
            Login as Global Admin
          </Button>
        </div>
        {consented && !signedIn && (
          <Text>Admin consent granted. Sign in as the client&apos;s Global Administrator.</Text>
        )}
        {search.status === 'searching' && (
          <MessageBar intent="info" role="status">
            <MessageBarBody>
              <Spinner size="extra-tiny" style={{ display: 'inline-flex', marginRight: 8 }} />
              {search.text}
              {search.lastError && <div>{search.lastError}</div>}
            </MessageBarBody>
          </MessageBar>
        )}
        {search.status === 'failed' && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{search.text}</MessageBarBody>
          </MessageBar>
        )}
        {search.status === 'found' && (
          <section className={styles.card} aria-label="Authentication successful">
            <Text weight="semibold">Authentication successful</Text>
            <Text>Tenant ID: {tenantId}</Text>
            <Text>Enterprise App ID: {search.servicePrincipal.appId}</Text>
            <Text>Status: Active</Text>
          </section>
        )}
        {search.status === 'found' && !run && (
          <div>
            <RoleGate needs="Administrator">
              <Button
                appearance="primary"
                disabled={busy}
                onClick={() => void complete(search.servicePrincipal.appId)}
              >
                Complete App Deploy Onboarding
              </Button>
            </RoleGate>
          </div>
        )}
        {runError && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{runError}</MessageBarBody>
          </MessageBar>
        )}
        {run && <ProjectRunStatus started={run} rule={ONBOARDING_RUN_POLLING} />}
      </div>
    </div>
  );
}
