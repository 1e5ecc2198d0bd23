/** The four steps of the review workflow (spec 3 §2, §4), in order, with their labels. */
export const REVIEW_STEPS = ['review', 'approve', 'merge', 'success'] as const;
export type ReviewStep = (typeof REVIEW_STEPS)[number];

export const REVIEW_STEP_LABELS: Record<ReviewStep, string> = {
  review: 'Review',
  approve: 'Approve',
  merge: 'Submit PR',
  success: 'Complete',
};

/** Spec 3 §9: approval comments need at least 50 characters. */
export const APPROVAL_MIN_COMMENT_LENGTH = 50;
/** Spec 3 §9: the success step returns to the selector after 5 seconds. */
export const REDIRECT_COUNTDOWN_SECONDS = 5;

export const CONTINUE_TO_APPROVAL_ALERT =
  'Please review all policies before proceeding to approval.';

/** Approval data (spec 3 §3). */
export interface Approval {
  approvedBy: string;
  approvedAt: string;
  comments: string;
  summary: { modified: number; added: number; deleted: number };
}

/** Merge result (spec 3 §3): a created pull request has status 'pending'. */
export interface MergeResult {
  pullRequestId: number;
  prUrl: string;
  createdBy: string;
  status: 'pending';
}

export interface ReviewState {
  step: ReviewStep;
  completed: ReadonlySet<ReviewStep>;
  reviewed: ReadonlySet<string>;
  approval?: Approval;
  result?: MergeResult;
}

export type ReviewAction =
  | { type: 'markReviewed'; path: string }
  | { type: 'markAllReviewed'; paths: readonly string[] }
  /** re-analysis with new exclusions, or a reload after accepting deviations: the reviewed set empties */
  | { type: 'reanalysed' }
  | { type: 'continueToApproval'; reviewable: readonly string[] }
  | { type: 'approve'; approval: Approval }
  | { type: 'pullRequestCreated'; result: MergeResult }
  | { type: 'goTo'; step: ReviewStep }
  /** another branch was chosen */
  | { type: 'reset' };

export function initialReviewState(): ReviewState {
  return { step: 'review', completed: new Set(), reviewed: new Set() };
}

/** Every reviewable item is reviewed (and there is at least nothing left to review). */
export function allReviewed(reviewed: ReadonlySet<string>, reviewable: readonly string[]): boolean {
  return reviewable.every((p) => reviewed.has(p));
}

/** The count of reviewable items already reviewed (items no longer reviewable don't count). */
export function reviewedCount(
  reviewed: ReadonlySet<string>,
  reviewable: readonly string[],
): number {
  return reviewable.filter((p) => reviewed.has(p)).length;
}

/**
 * A step of the strip can be clicked back to only if it lies before the current step and the
 * step before it is completed (spec 3 §2); nothing goes back once the pull request exists.
 */
export function canGoToStep(state: ReviewState, target: ReviewStep): boolean {
  const current = REVIEW_STEPS.indexOf(state.step);
  const index = REVIEW_STEPS.indexOf(target);
  if (state.step === 'success' || index >= current) return false;
  const prior = REVIEW_STEPS[index - 1];
  return prior === undefined || state.completed.has(prior);
}

const withStep = (completed: ReadonlySet<ReviewStep>, step: ReviewStep) =>
  new Set([...completed, step]);

/** The review workflow's transitions (spec 3 §4); an action that is not allowed leaves the state as it is. */
export function reviewReducer(state: ReviewState, action: ReviewAction): ReviewState {
  switch (action.type) {
    case 'markReviewed':
      if (state.step !== 'review' || state.reviewed.has(action.path)) return state;
      return { ...state, reviewed: new Set([...state.reviewed, action.path]) };
    case 'markAllReviewed':
      if (state.step !== 'review') return state;
      return { ...state, reviewed: new Set([...state.reviewed, ...action.paths]) };
    case 'reanalysed':
      return { ...state, reviewed: new Set() };
    case 'continueToApproval':
      if (state.step !== 'review' || !allReviewed(state.reviewed, action.reviewable)) return state;
      return { ...state, step: 'approve', completed: withStep(state.completed, 'review') };
    case 'approve':
      if (state.step !== 'approve') return state;
      return {
        ...state,
        step: 'merge',
        approval: action.approval,
        completed: withStep(state.completed, 'approve'),
      };
    case 'pullRequestCreated':
      if (state.step !== 'merge' || !state.approval) return state;
      return {
        ...state,
        step: 'success',
        result: action.result,
        completed: withStep(state.completed, 'merge'),
      };
    case 'goTo':
      return canGoToStep(state, action.step) ? { ...state, step: action.step } : state;
    case 'reset':
      return initialReviewState();
  }
}

/** The hint under the comments box: 'Minimum 50 characters required (N more)', or undefined once met. */
export function approvalCommentHint(comments: string): string | undefined {
  const missing = APPROVAL_MIN_COMMENT_LENGTH - comments.trim().length;
  return missing > 0 ? `Minimum 50 characters required (${missing} more)` : undefined;
}

/** 'Approve & Continue' needs 50 characters of comments and the impact acknowledgement (spec 3 §5). */
export function canApprove(comments: string, acknowledged: boolean): boolean {
  return acknowledged && approvalCommentHint(comments) === undefined;
}

/** Exclusion dialog text (spec 3 §5): one entry per line, trimmed, blank lines dropped. */
export function parseExclusionLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Trigger Capture's exclusion text (spec 3 §5): split on newlines and commas, trimmed, empty entries dropped. */
export function parseTriggerExclusions(text: string): string[] {
  return text
    .split(/[\r\n,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The approver's name: the signed-in account's user name, or 'Unknown' (spec 3 §3). */
export function approverName(userName: string | null | undefined): string {
  return userName?.trim() ? userName.trim() : 'Unknown';
}
