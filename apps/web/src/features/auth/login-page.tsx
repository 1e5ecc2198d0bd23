import { Card, makeStyles, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';

import logo from '../../assets/aegis-logo.svg';
import { SignInButton } from '../../components/sign-in-dialog';
import { paths } from '../../config/paths';
import { useBrowserSession } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'grid',
    placeItems: 'center',
    backgroundColor: tokens.colorNeutralBackground2,
  },
  card: {
    width: '380px',
    padding: '32px',
    display: 'flex',
    flexDirection: 'column',
    gap: '16px',
    alignItems: 'center',
  },
});

/** Only same-origin paths are followed after sign-in (no open redirect). */
export function safeReturnTo(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return paths.projects.getHref();
  return value;
}

/** The sign-in target for redirects; after sign-in the user lands on the page they asked for (ADR 004). */
export function LoginPage() {
  const styles = useStyles();
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useBrowserSession();
  // Only a user who arrives signed in is sent on at once; a fresh sign-in navigates itself.
  const [arrivedSignedIn] = useState(session.isLoggedIn);
  const returnTo = safeReturnTo(params.get('returnTo'));

  if (arrivedSignedIn) return <Navigate to={returnTo} replace />;
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <img src={logo} alt="" width={48} height={48} />
        <Text as="h1" size={600} weight="semibold">
          Sign in to Aegis
        </Text>
        <Text align="center">Sign in with your work account to continue.</Text>
        <SignInButton size="large" onSignedIn={() => void navigate(returnTo, { replace: true })} />
      </Card>
    </div>
  );
}
