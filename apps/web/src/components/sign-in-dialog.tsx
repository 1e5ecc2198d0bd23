import {
  Avatar,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { useAuth } from '../lib/auth/auth-context';

const useStyles = makeStyles({
  accounts: { display: 'flex', flexDirection: 'column', gap: '6px', marginTop: '12px' },
  account: { justifyContent: 'flex-start', height: 'auto', padding: '8px 12px', gap: '12px' },
  upn: { color: tokens.colorNeutralForeground3, display: 'block' },
});

/**
 * The sign-in button: in Entra mode it opens MSAL's popup; with the local identity provider
 * it opens a dialog listing the sample staff accounts.
 */
export function SignInButton({
  onSignedIn,
  appearance = 'primary',
  size = 'medium',
}: {
  onSignedIn: () => void;
  appearance?: 'primary' | 'secondary';
  size?: 'medium' | 'large';
}) {
  const styles = useStyles();
  const { client, signIn, loading } = useAuth();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const accounts = useQuery({
    queryKey: ['sign-in-accounts'],
    queryFn: () => client?.listAccounts() ?? Promise.resolve([]),
    enabled: open && client?.mode === 'local',
  });

  async function signInAs(upn?: string): Promise<void> {
    setBusy(upn ?? 'entra');
    setError(null);
    try {
      await signIn(upn);
      setOpen(false);
      onSignedIn();
    } catch {
      setError('Login failed. Please try again.');
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <Button
        appearance={appearance}
        size={size}
        disabled={loading || !client}
        onClick={() => (client?.mode === 'entra' ? void signInAs() : setOpen(true))}
      >
        Sign In
      </Button>
      {error && !open && (
        <MessageBar intent="error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      <Dialog open={open} onOpenChange={(_event, data) => setOpen(data.open)}>
        <DialogSurface aria-describedby={undefined}>
          <DialogBody>
            <DialogTitle>Sign in to Aegis</DialogTitle>
            <DialogContent>
              <Text>Choose a staff account of the local identity provider.</Text>
              {accounts.isPending && <Spinner size="small" label="Loading accounts..." />}
              {accounts.isError && (
                <MessageBar intent="error">
                  <MessageBarBody>Login failed. Please try again.</MessageBarBody>
                </MessageBar>
              )}
              {error && (
                <MessageBar intent="error">
                  <MessageBarBody>{error}</MessageBarBody>
                </MessageBar>
              )}
              <div className={styles.accounts}>
                {accounts.data?.map((account) => (
                  <Button
                    key={account.upn}
                    className={styles.account}
                    appearance="subtle"
                    disabled={busy !== null}
                    onClick={() => void signInAs(account.upn)}
                    icon={<Avatar name={account.displayName ?? account.upn} size={32} />}
                  >
                    <span>
                      <Text weight="semibold">{account.displayName ?? account.upn}</Text>
                      <Text size={200} className={styles.upn}>
                        {account.upn}
                      </Text>
                    </span>
                  </Button>
                ))}
              </div>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setOpen(false)}>Cancel</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
