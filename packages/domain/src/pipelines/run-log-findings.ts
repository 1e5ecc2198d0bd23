// What a deploy or off-board run's log tells the screen once the run has finished: the rollback
// point the deploy took, and changes that wait for Multi Admin Approval. The Pipelines runs API
// only says 'succeeded' for a step that ended "succeeded with issues", so the log is the one place
// that says work is still waiting. The tasks write these lines with the builders below.

import { readRunLogLine } from './run-log-lines';

const ROLLBACK_PREFIX = 'Rollback point: backup tag ';
const PENDING_APPROVAL_PHRASE = 'wait for Multi Admin Approval';
/** how the capture and backup tasks begin the warning of a run that could not read everything */
const PARTIAL_RUN = /^Partial (capture|backup):/;

/** The log line naming the backup a deploy took before changing the tenant. */
export function rollbackPointLine(tag: string): string {
  return `${ROLLBACK_PREFIX}${tag}`;
}

/** The summary of changes a tenant holds for a second administrator's approval. */
export function pendingApprovalSummary(count: number, runId: number): string {
  return `${count} change(s) ${PENDING_APPROVAL_PHRASE} in the tenant; they apply once a second administrator approves the request for run ${runId}.`;
}

export interface RunLogFindings {
  /** the backup tag the deploy took first */
  readonly rollbackTag?: string;
  /** the warning saying how many changes wait for approval */
  readonly pendingApproval?: string;
  /** the first error the run logged: why a failed run failed (issue 27 item 2) */
  readonly failure?: string;
  /** the warning of a capture or backup that could not read some workloads (ADR 050) */
  readonly partial?: string;
}

/**
 * The rollback point, pending approvals, the first error and a partial read that a finished run's
 * log names.
 */
export function findRunLogFindings(lines: readonly { readonly text: string }[]): RunLogFindings {
  let rollbackTag: string | undefined;
  let pendingApproval: string | undefined;
  let failure: string | undefined;
  let partial: string | undefined;
  for (const { text } of lines) {
    const line = readRunLogLine(text);
    if (line.kind === 'plain' && line.text.startsWith(ROLLBACK_PREFIX)) {
      rollbackTag = line.text.slice(ROLLBACK_PREFIX.length).trim() || rollbackTag;
    } else if (line.kind === 'warning' && line.text.includes(PENDING_APPROVAL_PHRASE)) {
      pendingApproval = line.text;
    } else if (line.kind === 'warning' && PARTIAL_RUN.test(line.text)) {
      partial = line.text;
    } else if (line.kind === 'error' && failure === undefined && line.text.trim()) {
      failure = line.text.trim();
    }
  }
  return {
    ...(rollbackTag ? { rollbackTag } : {}),
    ...(pendingApproval ? { pendingApproval } : {}),
    ...(failure ? { failure } : {}),
    ...(partial ? { partial } : {}),
  };
}
