import type { CaptureBranch } from '@aegis/contracts';
import { approverName } from '@aegis/domain';

import type { ReviewWorkflowFlow } from '../hooks/use-review-workflow-flow';

import { ApprovalDialog } from './approval-dialog';

/** The Approve step (spec 3 §2, §3): the approval dialog over the review, recording who and when. */
export function ApproveStep({
  flow,
  branch,
  userName,
  onApproved,
}: {
  flow: ReviewWorkflowFlow;
  branch: CaptureBranch;
  userName: string | undefined;
  onApproved: () => void;
}) {
  const { analysis, summary, dispatch, draftKey } = flow;
  const data = analysis.data;
  if (!data || !summary) return null;

  function approve(comments: string): void {
    if (!data) return;
    dispatch({
      type: 'approve',
      approval: {
        approvedBy: approverName(userName),
        approvedAt: new Date().toISOString(),
        comments,
        summary: {
          modified: data.drift.summary.modified,
          added: data.drift.summary.added,
          deleted: data.drift.summary.deleted,
        },
      },
    });
    onApproved();
  }

  return (
    <ApprovalDialog
      open
      summary={{ ...data.drift.summary, critical: summary.critical, high: summary.high }}
      approver={approverName(userName)}
      triggeredBy={branch.metadata?.triggeredBy}
      partial={data.partial}
      onBack={() => dispatch({ type: 'goTo', step: 'review' })}
      onApprove={approve}
      draftKey={draftKey}
    />
  );
}
