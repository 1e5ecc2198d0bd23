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
import { useCallback, useRef, useState, type ReactElement } from 'react';

const useStyles = makeStyles({
  // prompts of the spec carry line breaks ('Remove this match?\n\nBaseline: …')
  message: { whiteSpace: 'pre-line' },
});

export interface ConfirmOptions {
  title: string;
  message: string;
  /** The label of the button that goes ahead (default 'OK'). */
  confirmLabel?: string;
}

interface Pending extends ConfirmOptions {
  resolve: (confirmed: boolean) => void;
}

/**
 * A confirmation prompt as an accessible Fluent alert dialog instead of the browser's `confirm()`,
 * which blocks the page, cannot be styled and is skipped by some browsers after repeated prompts.
 * `confirm` resolves true when the user goes ahead, false on Cancel or Escape; render `dialog`.
 */
export function useConfirm(): {
  confirm: (options: ConfirmOptions) => Promise<boolean>;
  dialog: ReactElement | null;
} {
  const styles = useStyles();
  const [pending, setPending] = useState<Pending | undefined>();
  const pendingRef = useRef<Pending | undefined>(undefined);

  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        // a second prompt while one is open answers the first one with Cancel
        pendingRef.current?.resolve(false);
        const next = { ...options, resolve };
        pendingRef.current = next;
        setPending(next);
      }),
    [],
  );

  const answer = (confirmed: boolean) => {
    pendingRef.current?.resolve(confirmed);
    pendingRef.current = undefined;
    setPending(undefined);
  };

  const dialog = pending ? (
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
          <DialogContent className={styles.message}>{pending.message}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={() => answer(false)}>
              Cancel
            </Button>
            <Button appearance="primary" onClick={() => answer(true)}>
              {pending.confirmLabel ?? 'OK'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  ) : null;

  return { confirm, dialog };
}
