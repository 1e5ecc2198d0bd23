import type { CaptureBranch } from '@aegis/contracts';
import { formatCaptureDate, mergePlanLines, type Approval, type MergeResult } from '@aegis/domain';
import {
  Button,
  Card,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
} from '@fluentui/react-components';

import { useNotify } from '../../../components/notifier';
import { RoleGate } from '../../../components/role-gate';
import { useCreateCapturePullRequest } from '../api/capture-api';

const useStyles = makeStyles({
  card: { padding: '20px', gap: '12px', maxWidth: '760px' },
  actions: { display: 'flex', gap: '8px' },
});

/**
 * The Submit PR step, 'Ready to Merge' (spec 3 §2): what the pull request will do, who approved
 * and when, and the request that creates it.
 */
export function ReadyToMerge({
  client,
  branch,
  approval,
  onBack,
  onCreated,
}: {
  client: string;
  branch: CaptureBranch;
  approval: Approval;
  onBack: () => void;
  onCreated: (result: MergeResult) => void;
}) {
  const createPullRequest = useCreateCapturePullRequest(client);
  const notify = useNotify();
  const creating = createPullRequest.isPending;
  // a pull request of this capture still waiting in DevOps: a second cannot be opened
  const openPullRequest =
    branch.pullRequest?.status === 'active' ? branch.pullRequest.pullRequestId : undefined;

  async function create(): Promise<void> {
    try {
      const created = await createPullRequest.mutateAsync({
        branch: branch.name,
        comments: approval.comments,
        acknowledged: true,
        summary: approval.summary,
      });
      onCreated({
        pullRequestId: created.pullRequestId,
        prUrl: created.prUrl,
        createdBy: created.createdBy,
        status: created.status,
      });
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : 'Unknown error';
      notify({ intent: 'error', title: `Failed to create pull request: ${message}` });
    }
  }

  const styles = useStyles();
  return (
    <Card className={styles.card}>
      <Text as="h2" size={500} weight="semibold">
        Ready to Merge
      </Text>
      <Text>Creating the pull request will:</Text>
      <ul>
        {mergePlanLines(approval.summary, branch.name).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <Text>
        Approved by <strong>{approval.approvedBy}</strong> at{' '}
        {formatCaptureDate(approval.approvedAt)}
      </Text>
      {openPullRequest !== undefined && (
        <MessageBar intent="warning">
          <MessageBarBody>
            Pull request #{openPullRequest} for this capture is already open and awaiting approval
            in Azure DevOps.
          </MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.actions}>
        <Button onClick={onBack} disabled={creating}>
          Back
        </Button>
        <RoleGate needs="Approver">
          <Button
            appearance="primary"
            onClick={() => void create()}
            disabled={creating || openPullRequest !== undefined}
            icon={
              creating ? <Spinner size="tiny" aria-label="Creating the pull request" /> : undefined
            }
          >
            Create Pull Request
          </Button>
        </RoleGate>
      </div>
    </Card>
  );
}
