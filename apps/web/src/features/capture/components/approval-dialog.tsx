import { approvalCommentHint, canApprove, commentSaysPartial } from '@aegis/domain';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Text,
  Textarea,
} from '@fluentui/react-components';

import { RoleGate } from '../../../components/role-gate';
import { useApprovalDraft } from '../hooks/use-review-progress';

const useStyles = makeStyles({
  summary: { display: 'flex', gap: '16px', flexWrap: 'wrap', marginBottom: '12px' },
  body: { display: 'flex', flexDirection: 'column', gap: '12px' },
});

export interface ApprovalSummary {
  modified: number;
  added: number;
  deleted: number;
  critical: number;
  high: number;
}

/** 'Approve Capture for Merge' (spec 3 §2, §5): 50-character comments and the impact acknowledgement. */
export function ApprovalDialog({
  open,
  summary,
  approver,
  triggeredBy,
  partial,
  onBack,
  onApprove,
  draftKey,
}: {
  open: boolean;
  summary: ApprovalSummary;
  approver: string;
  /** who started the capture: they cannot approve it (four-eyes) */
  triggeredBy: string | undefined;
  /** a workload was not read: the comment must say so (ADR 050) */
  partial: boolean;
  onBack: () => void;
  onApprove: (comments: string) => void;
  /** where the comments and acknowledgement so far are kept (they survive a reload) */
  draftKey: string;
}) {
  const styles = useStyles();
  const [draft, onDraftChange] = useApprovalDraft(draftKey);
  const { comments, acknowledged } = draft;
  const hint = approvalCommentHint(comments);
  const partialUnsaid = partial && !commentSaysPartial(comments);
  const ownCapture =
    triggeredBy !== undefined && triggeredBy.toLowerCase() === approver.toLowerCase();

  return (
    <Dialog open={open} modalType="alert">
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Approve Capture for Merge</DialogTitle>
          <DialogContent className={styles.body} tabIndex={0}>
            <div className={styles.summary} aria-label="Changes to approve">
              <Text>{summary.modified} modified</Text>
              <Text>{summary.added} added</Text>
              <Text>{summary.deleted} deleted</Text>
              <Text weight="semibold">{summary.critical} critical</Text>
              <Text weight="semibold">{summary.high} high</Text>
            </div>
            <MessageBar intent={ownCapture ? 'warning' : 'info'}>
              <MessageBarBody>
                {ownCapture
                  ? 'You started this capture, so another Approver must approve it (four-eyes rule).'
                  : triggeredBy
                    ? `Any Approver other than ${triggeredBy}, who started this capture, can approve it.`
                    : 'Any Approver can approve this capture.'}
              </MessageBarBody>
            </MessageBar>
            {partial && (
              <MessageBar intent="warning">
                <MessageBarBody>
                  This capture is partial: some workloads were not read. Say so in your comments
                  (mention &apos;partial&apos; or &apos;not captured&apos;) to approve it.
                </MessageBarBody>
              </MessageBar>
            )}
            <Field
              label="Comments"
              required
              validationState={hint ? 'none' : 'success'}
              validationMessage={hint ?? 'Comments are long enough.'}
            >
              <Textarea
                rows={5}
                value={comments}
                onChange={(_, data) => onDraftChange({ ...draft, comments: data.value })}
                placeholder="Why these changes are approved, who requested them, what was checked"
              />
            </Field>
            <Checkbox
              checked={acknowledged}
              onChange={(_, data) =>
                onDraftChange({ ...draft, acknowledged: data.checked === true })
              }
              label="I acknowledge these changes may impact users"
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={onBack}>Back to Review</Button>
            <RoleGate needs="Approver">
              <Button
                appearance="primary"
                disabled={!canApprove(comments, acknowledged) || ownCapture || partialUnsaid}
                onClick={() => onApprove(comments.trim())}
              >
                Approve &amp; Continue
              </Button>
            </RoleGate>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
