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
import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';

import { useAuth } from '../lib/auth/auth-context';

const useStyles = makeStyles({
  accounts: { display: 'flex', flexDirection: 'column', gap: '6px', marginTop: '12px' },
  account: { justifyContent: 'flex-start', height: 'auto', padding: '8px 12px', gap: '12px' },
  upn: { color: tokens.colorNeutralForeground3 },
  accountText: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    textAlign: 'left',
  },
});

const LOGIN_FAILED = 'Login failed. Please try again.';

interface SignInContextValue {
  /** Signs in (dialog or popup) and calls `onSignedIn` once the dialog is gone. */
  start(onSignedIn: () => void): void;
  readonly error: string | null;
}

const SignInContext = createContext<SignInContextValue | undefined>(undefined);

/**
 * Owns the sign-in dialog above the router, so navigating after sign-in never unmounts an
 * open modal (which would leave the page hidden from assistive technology).
 */
export function SignInDialogProvider({ children }: { children: ReactNode }) {
  const styles = useStyles();
  const { client, signIn } = useAuth();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const afterSignIn = useRef<(() => void) | null>(null);
  const accounts = useQuery({
    queryKey: ['sign-in-accounts'],
    queryFn: () => client?.listAccounts() ?? Promise.resolve([]),
    enabled: open && client?.mode === 'local',
  });

  const signInAs = useCallback(
    async (upn?: string) => {
      setBusy(true);
      setError(null);
      try {
        await signIn(upn);
        setOpen(false);
        afterSignIn.current?.();
      } catch {
        setError(LOGIN_FAILED);
      } finally {
        setBusy(false);
      }
    },
    [signIn],
  );

  const value = useMemo<SignInContextValue>(
    () => ({
      start: (onSignedIn) => {
        afterSignIn.current = onSignedIn;
        setError(null);
        if (client?.mode === 'entra') void signInAs();
        else setOpen(true);
      },
      error,
    }),
    [client, error, signInAs],
  );

  return (
    <SignInContext.Provider value={value}>
      {children}
      <Dialog open={open} onOpenChange={(_event, data) => setOpen(data.open)}>
        <DialogSurface aria-describedby={undefined}>
          <DialogBody>
            <DialogTitle>Sign in to Aegis</DialogTitle>
            <DialogContent>
              <Text>Choose a staff account of the local identity provider.</Text>
              {accounts.isPending && <Spinner size="small" label="Loading accounts..." />}
              {(accounts.isError || error) && (
                <MessageBar intent="error">
                  <MessageBarBody>{LOGIN_FAILED}</MessageBarBody>
                </MessageBar>
              )}
              <div className={styles.accounts}>
                {accounts.data?.map((account) => (
                  <Button
                    key={account.upn}
                    className={styles.account}
                    appearance="subtle"
                    disabled={busy}
                    onClick={() => void signInAs(account.upn)}
                    icon={<Avatar name={account.displayName ?? account.upn} size={32} />}
                  >
                    <span className={styles.accountText}>
                      <Text weight="semibold">{account.displayName ?? account.upn}</Text>
                      <Text size={200} className={styles.upn}>
                        {account.upn}
                      </Text>
                      {account.roles && (
                        <Text size={200} className={styles.upn}>
                          {account.roles.length > 0
                            ? `Role: ${account.roles.join(', ')}`
                            : 'No Aegis role'}
                        </Text>
                      )}
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
    </SignInContext.Provider>
  );
}

/** The Sign In button: Entra's popup, or the local identity provider's account dialog. */
export function SignInButton({
  onSignedIn,
  appearance = 'primary',
  size = 'medium',
}: {
  onSignedIn: () => void;
  appearance?: 'primary' | 'secondary';
  size?: 'medium' | 'large';
}) {
  const context = useContext(SignInContext);
  const { client, loading } = useAuth();
  if (!context) throw new Error('SignInButton must be used inside SignInDialogProvider');
  return (
    <>
      <Button
        appearance={appearance}
        size={size}
        disabled={loading || !client}
        onClick={() => context.start(onSignedIn)}
      >
        Sign In
      </Button>
      {context.error && client?.mode === 'entra' && (
        <MessageBar intent="error">
          <MessageBarBody>{context.error}</MessageBarBody>
        </MessageBar>
      )}
    </>
  );
}
