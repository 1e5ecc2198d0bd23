import {
  Button,
  Toast,
  ToastBody,
  Toaster,
  ToastTitle,
  ToastTrigger,
  useId,
  useToastController,
  type ToastIntent,
} from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { createContext, useCallback, useContext, type ReactNode } from 'react';

export interface Notice {
  intent: ToastIntent;
  /** The text the spec gives, word for word. */
  title: string;
  /** Details under the title (a server's reason, a list). */
  body?: ReactNode;
  /**
   * How long the notice stays. Without one it stays until dismissed: what the spec calls an
   * 'alert' waits for the technician; what it calls a 'toast' gives its own time (ADR 054).
   */
  timeoutInMs?: number;
}

type Notify = (notice: Notice) => void;

const NotifierContext = createContext<Notify | undefined>(undefined);

/**
 * The portal's one way to tell the technician the outcome of something they did, away from
 * where they did it (ADR 054): one Toaster for the app. Errors are announced assertively;
 * every notice has a Dismiss button, so it can be read and closed with the keyboard.
 */
export function NotifierProvider({ children }: { children: ReactNode }) {
  const toasterId = useId('aegis-notifier');
  const { dispatchToast } = useToastController(toasterId);

  const notify = useCallback<Notify>(
    ({ intent, title, body, timeoutInMs }) => {
      dispatchToast(
        <Toast>
          <ToastTitle
            action={
              <ToastTrigger>
                <Button
                  appearance="transparent"
                  size="small"
                  icon={<DismissRegular />}
                  aria-label="Dismiss"
                />
              </ToastTrigger>
            }
          >
            {title}
          </ToastTitle>
          {body !== undefined && <ToastBody>{body}</ToastBody>}
        </Toast>,
        {
          intent,
          timeout: timeoutInMs ?? -1,
          politeness: intent === 'error' ? 'assertive' : 'polite',
        },
      );
    },
    [dispatchToast],
  );

  return (
    <NotifierContext.Provider value={notify}>
      {children}
      <Toaster toasterId={toasterId} position="top-end" limit={5} />
    </NotifierContext.Provider>
  );
}

/** Tells the technician something through the app's notifier (see {@link NotifierProvider}). */
export function useNotify(): Notify {
  const notify = useContext(NotifierContext);
  if (!notify) throw new Error('useNotify needs a NotifierProvider above it (AppProvider has one)');
  return notify;
}
