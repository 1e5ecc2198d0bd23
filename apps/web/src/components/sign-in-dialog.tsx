import { Button, Text, tokens } from '@fluentui/react-components';
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';

import { useAuth } from '../lib/auth/auth-context';

import { LOGIN_FAILED } from './sign-in-messages';

// The accounts dialog (Fluent's Dialog, Avatar, MessageBar) loads when Sign In is pressed, so the
// landing page does not carry it.
const SignInAccountsDialog = lazy(async () => ({
  default: (await import('./sign-in-accounts-dialog')).SignInAccountsDialog,
}));

interface SignInContextValue {
  /** Signs in (dialog or popup) and calls `onSignedIn` once the dialog is gone. */
  start: (onSignedIn: () => void) => void;
  /** Starts loading the sign-in code when the user is about to press Sign In. */
  prepare: () => void;
  readonly error: string | null;
}

const SignInContext = createContext<SignInContextValue | undefined>(undefined);

/**
 * Owns the sign-in dialog above the router, so navigating after sign-in never unmounts an
 * open modal (which would leave the page hidden from assistive technology).
 */
export function SignInDialogProvider({ children }: { children: ReactNode }) {
  const { client, load, signIn } = useAuth();
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const afterSignIn = useRef<(() => void) | null>(null);

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
        load().then(
          (loaded) => {
            if (loaded.mode === 'entra') void signInAs();
            else {
              setRequested(true);
              setOpen(true);
            }
          },
          () => setError(LOGIN_FAILED),
        );
      },
      prepare: () => void load().catch(() => undefined),
      error,
    }),
    [load, error, signInAs],
  );

  return (
    <SignInContext.Provider value={value}>
      {children}
      {requested && client && (
        <Suspense fallback={null}>
          <SignInAccountsDialog
            client={client}
            open={open}
            busy={busy}
            error={error}
            onSignIn={(upn) => void signInAs(upn)}
            onOpenChange={setOpen}
          />
        </Suspense>
      )}
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
  const { client } = useAuth();
  if (!context) throw new Error('SignInButton must be used inside SignInDialogProvider');
  return (
    <>
      <Button
        appearance={appearance}
        size={size}
        onPointerEnter={context.prepare}
        onFocus={context.prepare}
        onClick={() => context.start(onSignedIn)}
      >
        Sign In
      </Button>
      {context.error && client?.mode !== 'local' && (
        <Text role="alert" style={{ color: tokens.colorPaletteRedForeground1 }}>
          {context.error}
        </Text>
      )}
    </>
  );
}
