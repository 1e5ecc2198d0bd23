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
import { useEffect, useRef, useState } from 'react';

import type { AuthClient, SampleAccount } from '../lib/auth/auth-client';

import { LOGIN_FAILED } from './sign-in-messages';

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

type Accounts =
  | { isPending: true; isError: false; data?: undefined }
  | { isPending: false; isError: true; data?: undefined }
  | { isPending: false; isError: false; data: SampleAccount[] };

/** The sample accounts, read each time the dialog opens (no query library above the router). */
function useAccounts(client: AuthClient, open: boolean): Accounts {
  const [accounts, setAccounts] = useState<Accounts>({ isPending: true, isError: false });
  useEffect(() => {
    if (!open || client.mode !== 'local') return;
    let cancelled = false;
    client.listAccounts().then(
      (data) => !cancelled && setAccounts({ isPending: false, isError: false, data }),
      () => !cancelled && setAccounts({ isPending: false, isError: true }),
    );
    return () => {
      cancelled = true;
    };
  }, [client, open]);
  return accounts;
}

/** The local identity provider's account list (loaded on demand by SignInDialogProvider). */
export function SignInAccountsDialog({
  client,
  open,
  busy,
  error,
  onSignIn,
  onOpenChange,
}: {
  client: AuthClient;
  open: boolean;
  busy: boolean;
  error: string | null;
  onSignIn: (upn: string) => void;
  onOpenChange: (open: boolean) => void;
}) {
  const styles = useStyles();
  const accounts = useAccounts(client, open);
  // The dialog opens before its accounts arrive, so Fluent focuses Cancel; once they are listed the
  // keyboard starts on the first of them, the choice the dialog is for.
  const firstAccount = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open && accounts.data) firstAccount.current?.focus();
  }, [open, accounts.data]);
  return (
    <Dialog open={open} onOpenChange={(_event, data) => onOpenChange(data.open)}>
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
              {accounts.data?.map((account, index) => (
                <Button
                  key={account.upn}
                  ref={index === 0 ? firstAccount : undefined}
                  className={styles.account}
                  appearance="subtle"
                  disabled={busy}
                  onClick={() => onSignIn(account.upn)}
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
            <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
