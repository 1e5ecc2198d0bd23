import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';

/**
 * A deploy or off-board whose changes wait for Multi Admin Approval in the tenant: the run itself
 * reads 'succeeded', so the screen says what is still waiting (issue 11 §8).
 */
export function PendingApprovalNote({ summary }: { summary: string | undefined }) {
  if (!summary) return null;
  return (
    <MessageBar intent="warning" layout="multiline" role="status">
      <MessageBarBody>
        <MessageBarTitle>Waiting for Multi Admin Approval</MessageBarTitle>
        {summary}
      </MessageBarBody>
    </MessageBar>
  );
}
