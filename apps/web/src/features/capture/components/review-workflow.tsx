import type { CaptureBranch } from '@aegis/contracts';
import {
  Button,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowSyncRegular } from '@fluentui/react-icons';

import { NotCapturedNotice } from '../../../components/not-captured-notice';
import { useReviewWorkflowFlow } from '../hooks/use-review-workflow-flow';

import { ApproveStep } from './approve-step';
import { ExclusionsDialog } from './exclusions-dialog';
import { PolicyDetailDialog } from './policy-detail-dialog';
import { ReadyToMerge } from './ready-to-merge';
import { ReviewStep } from './review-step';
import { StepStrip } from './step-strip';
import { SuccessStep } from './success-step';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '16px', minWidth: 0 },
  head: { display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: '8px' },
  branch: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
});

export interface ReviewWorkflowProps {
  client: string;
  branch: CaptureBranch;
  /** the signed-in user's user name */
  userName: string | undefined;
  onReviewComplete: () => void;
  onMerged: (pullRequestId: number) => void;
}

/**
 * The four-step review of one capture (spec 3 §2, §4): Review (Capture Analysis, changed policies,
 * baseline deviations), Approve (dialog), Submit PR (Ready to Merge), Complete. The flow lives in
 * `useReviewWorkflowFlow`; each step is its own component.
 */
export function ReviewWorkflow({
  client,
  branch,
  userName,
  onReviewComplete,
  onMerged,
}: ReviewWorkflowProps) {
  const styles = useStyles();
  const flow = useReviewWorkflowFlow(client, branch);
  const { state, dispatch, view, dispatchView, analysis } = flow;
  const data = analysis.data;

  return (
    <section className={styles.root} aria-label={`Review of ${branch.name}`}>
      <div className={styles.head}>
        <div>
          <Text as="h2" size={500} weight="semibold" block>
            Capture Review
          </Text>
          <Text className={styles.branch}>{branch.name}</Text>
        </div>
        {state.step === 'review' && (
          <Button
            icon={<ArrowSyncRegular />}
            onClick={() => dispatchView({ type: 'openExclusions' })}
            disabled={!data}
          >
            Update Exclusions &amp; Re-analyze
          </Button>
        )}
      </div>
      <StepStrip state={state} onGoTo={(step) => dispatch({ type: 'goTo', step })} />

      {analysis.isPending && <Spinner label="Analysing capture..." />}
      {analysis.isError && (
        <MessageBar intent="error">
          <MessageBarBody>
            <MessageBarTitle>Failed to load comparison data.</MessageBarTitle>
            {analysis.error.message}
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void analysis.refetch()}>Try Again</Button>
          </MessageBarActions>
        </MessageBar>
      )}

      {data && <NotCapturedNotice workloads={data.notCaptured} partial={data.partial} />}

      {(state.step === 'review' || state.step === 'approve') && <ReviewStep flow={flow} />}
      {state.step === 'approve' && (
        <ApproveStep
          flow={flow}
          branch={branch}
          userName={userName}
          onApproved={onReviewComplete}
        />
      )}
      {state.step === 'merge' && state.approval && (
        <ReadyToMerge
          client={client}
          branch={branch}
          approval={state.approval}
          onBack={() => dispatch({ type: 'goTo', step: 'approve' })}
          onCreated={(result) => dispatch({ type: 'pullRequestCreated', result })}
        />
      )}
      {state.step === 'success' && state.result && (
        <SuccessStep
          branch={branch.name}
          result={state.result}
          onDone={() => onMerged(state.result?.pullRequestId ?? 0)}
        />
      )}

      {view.dialog.open === 'exclusions' && (
        <ExclusionsDialog
          open
          properties={view.exclusions.properties}
          excludedPaths={view.exclusions.paths}
          onCancel={() => dispatchView({ type: 'closeDialog' })}
          onApply={flow.applyExclusions}
        />
      )}
      <PolicyDetailDialog
        detail={view.dialog.open === 'detail' ? view.dialog.detail : undefined}
        onClose={() => dispatchView({ type: 'closeDialog' })}
      />
    </section>
  );
}
