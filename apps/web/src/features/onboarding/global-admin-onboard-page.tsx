import type { GlobalAdminReaderResponse } from '@aegis/contracts';
import {
  DEFAULT_SUBSCRIPTION_NAME,
  ENTERPRISE_APP_NAME,
  globalAdminLoginFailure,
} from '@aegis/domain';
import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';

import {
  signInGlobalAdmin,
  useClientTenantConfig,
  useClientTenantSession,
} from '../../lib/client-tenant-auth/client-tenant-auth';
import { GlobalAdminSignInError } from '../../lib/client-tenant-auth/client-tenant-session';
import { usePageTitle } from '../../lib/use-page-title';

import { assignReader } from './api/onboarding-api';

const useStyles = makeStyles({
  page: {
    maxWidth: '640px',
    margin: '48px auto',
    padding: '24px 32px',
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    boxSizing: 'border-box',
    gap: '16px',
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow8,
    borderRadius: tokens.borderRadiusLarge,
  },
});

/**
 * Spec 2 §2, §5: Global Admin Onboarding, open without an Aegis sign-in: the client's Global
 * Administrator signs in and gives an enterprise app Reader on the subscription 'Options IT'.
 */
export function GlobalAdminOnboardPage() {
  const styles = useStyles();
  usePageTitle('Global Admin Onboarding');
  const config = useClientTenantConfig();
  const session = useClientTenantSession();
  const [appName, setAppName] = useState(ENTERPRISE_APP_NAME);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<GlobalAdminReaderResponse>();

  async function login() {
    if (!config.data) return;
    setError(undefined);
    setBusy(true);
    try {
      await signInGlobalAdmin(config.data, 'organizations');
    } catch (e) {
      const { code, details } =
        e instanceof GlobalAdminSignInError ? e : { code: 'unknown_error', details: String(e) };
      setError(globalAdminLoginFailure(code, details));
    } finally {
      setBusy(false);
    }
  }

  async function assign() {
    setError(undefined);
    setResult(undefined);
    if (appName.trim() === '') {
      setError('Please enter the enterprise app name.');
      return;
    }
    setBusy(true);
    try {
      setResult(await assignReader(appName.trim()));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className={styles.page}>
      <Text as="h1" size={700} weight="semibold">
        Global Admin Onboarding
      </Text>
      <Text>
        Sign in as the client&apos;s Global Administrator, then give an enterprise app the Reader
        role on the subscription &apos;{DEFAULT_SUBSCRIPTION_NAME}&apos;.
      </Text>
      {config.isError && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{config.error.message}</MessageBarBody>
        </MessageBar>
      )}
      <div>
        <Button appearance="primary" disabled={busy || !config.data} onClick={() => void login()}>
          Login as Global Admin
        </Button>
      </div>
      {session && (
        <MessageBar intent="success" role="status">
          <MessageBarBody>
            Signed in as {session.displayName ?? session.upn} ({session.upn}), tenant{' '}
            {session.tenantId}.
          </MessageBarBody>
        </MessageBar>
      )}
      <Field label="Enterprise App Name" required>
        <Input value={appName} onChange={(_e, d) => setAppName(d.value)} />
      </Field>
      <div>
        <Button disabled={busy || !session} onClick={() => void assign()}>
          Assign Reader Role on &apos;{DEFAULT_SUBSCRIPTION_NAME}&apos;
        </Button>
      </div>
      {error && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {result && (
        <MessageBar intent="success" role="status">
          <MessageBarBody>
            Reader role assigned to &apos;{appName.trim()}&apos; on the subscription &apos;
            {result.subscriptionName}&apos; ({result.subscriptionId}).
          </MessageBarBody>
        </MessageBar>
      )}
    </main>
  );
}
