import { MessageBar, MessageBarBody } from '@fluentui/react-components';

/** How starting a run went. */
export type RunOutcome = 'success' | 'error' | 'signed-out';

/** Spec 1 §8 run messages. */
export function RunMessage({ status }: { status: RunOutcome | undefined }) {
  if (!status) return null;
  const text =
    status === 'success'
      ? 'Pipeline started successfully!'
      : status === 'signed-out'
        ? 'User is not logged in'
        : 'Failed to start the pipeline. Please try again.';
  return (
    <MessageBar intent={status === 'success' ? 'success' : 'error'}>
      <MessageBarBody>{text}</MessageBarBody>
    </MessageBar>
  );
}
