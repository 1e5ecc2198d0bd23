import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
} from '@fluentui/react-components';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';

const useStyles = makeStyles({
  // prompts of the spec carry line breaks ('Remove this match?\n\nBaseline: …')
  body: { whiteSpace: 'pre-line' },
});

export interface ConfirmOptions {
  title: string;
  /** What the technician is asked to confirm: the spec's text, or richer content (a list, a note). */
  body: ReactNode;
  /** The label of the button that goes ahead (default 'OK'). */
  confirmLabel?: string;
  /** Going ahead cannot be undone: focus starts on Cancel, the safe action (WAI-ARIA APG). */
  destructive?: boolean;
}

type Confirm = (options: ConfirmOptions) => Promise<boolean>;

interface Pending extends ConfirmOptions {
  resolve: (confirmed: boolean) => void;
  /** the control that had focus when the prompt opened; focus goes back to it on close */
  opener: HTMLElement | undefined;
}

const ConfirmContext = createContext<Confirm | undefined>(undefined);

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The portal's one confirmation prompt (ADR 054): an accessible Fluent alert dialog instead of the
 * browser's `confirm()`, which blocks the page, cannot be styled and is skipped by some browsers
 * after repeated prompts. Focus starts on the first control of the body, or on Cancel (always on
 * Cancel when the action is destructive), and returns to the control that opened the prompt, which
 * also gives a dialog the prompt was opened from its modal focus trap (and accessibility) back.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const styles = useStyles();
  const [pending, setPending] = useState<Pending | undefined>();
  const pendingRef = useRef<Pending | undefined>(undefined);
  const returnFocusTo = useRef<HTMLElement | undefined>(undefined);
  const bodyRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  const confirm = useCallback<Confirm>(
    (options) =>
      new Promise<boolean>((resolve) => {
        const previous = pendingRef.current;
        // a second prompt while one is open answers the first one with Cancel
        previous?.resolve(false);
        const active = document.activeElement;
        const opener =
          previous?.opener ??
          (active instanceof HTMLElement && active !== document.body ? active : undefined);
        const next = { ...options, resolve, opener };
        pendingRef.current = next;
        setPending(next);
      }),
    [],
  );

  const answer = (confirmed: boolean) => {
    const current = pendingRef.current;
    if (!current) return;
    current.resolve(confirmed);
    returnFocusTo.current = current.opener;
    pendingRef.current = undefined;
    setPending(undefined);
  };

  // Runs after the Dialog's own first-focus effect (a parent's effects follow its children's).
  useEffect(() => {
    if (!pending) return;
    const firstControl = pending.destructive
      ? undefined
      : bodyRef.current?.querySelector<HTMLElement>(FOCUSABLE);
    (firstControl ?? cancelRef.current)?.focus();
  }, [pending]);

  useEffect(() => {
    if (pending || !returnFocusTo.current) return;
    const opener = returnFocusTo.current;
    returnFocusTo.current = undefined;
    if (opener.isConnected) opener.focus();
  }, [pending]);

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {pending && (
        <Dialog
          open
          modalType="alert"
          onOpenChange={(_, data) => {
            if (!data.open) answer(false);
          }}
        >
          <DialogSurface>
            <DialogBody>
              <DialogTitle>{pending.title}</DialogTitle>
              <DialogContent className={styles.body} ref={bodyRef}>
                {pending.body}
              </DialogContent>
              <DialogActions>
                <Button appearance="secondary" ref={cancelRef} onClick={() => answer(false)}>
                  Cancel
                </Button>
                <Button appearance="primary" onClick={() => answer(true)}>
                  {pending.confirmLabel ?? 'OK'}
                </Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      )}
    </ConfirmContext.Provider>
  );
}

/**
 * Asks the technician to confirm (see {@link ConfirmProvider}): resolves true when they go ahead,
 * false on Cancel or Escape.
 */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm)
    throw new Error('useConfirm needs a ConfirmProvider above it (AppProvider has one)');
  return confirm;
}
