import { formatCaptureDate, mergePlanLines, type Approval } from '@aegis/domain';
import {
  Button,
  Card,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
} from '@fluentui/react-components';

import { RoleGate } from '../../../components/role-gate';

const useStyles = makeStyles({
  card: { padding: '20px', gap: '12px', maxWidth: '760px' },
  actions: { display: 'flex', gap: '8px' },
});

/** 'Ready to Merge' (spec 3 §2): what the pull request will do, who approved and when. */
export function ReadyToMerge({
  branch,
  approval,
  openPullRequest,
  creating,
  onBack,
  onCreate,
}: {
  branch: string;
  approval: Approval;
  /** a pull request of this capture still waiting in DevOps: a second cannot be opened */
  openPullRequest: number | undefined;
  creating: boolean;
  onBack: () => void;
  onCreate: () => void;
}) {
  const styles = useStyles();
  return (
    <Card className={styles.card}>
      <Text as="h2" size={500} weight="semibold">
        Ready to Merge
      </Text>
      <Text>Creating the pull request will:</Text>
      <ul>
        {mergePlanLines(approval.summary, branch).map((line) => (
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
            onClick={onCreate}
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
