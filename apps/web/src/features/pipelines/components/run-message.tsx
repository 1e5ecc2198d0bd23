import { MessageBar, MessageBarBody } from '@fluentui/react-components';

/** Spec 1 §8 run messages. */
export function RunMessage({ status }: { status: 'success' | 'error' | 'signed-out' | undefined }) {
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
