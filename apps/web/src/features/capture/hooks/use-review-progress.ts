import {
  initialReviewState,
  REVIEW_STEPS,
  reviewReducer,
  type Approval,
  type ReviewAction,
  type ReviewState,
  type ReviewStep,
} from '@aegis/domain';
import { useCallback, useEffect, useReducer, useState } from 'react';

/** The approval dialog's words before 'Approve & Continue'. */
export interface ApprovalDraft {
  comments: string;
  acknowledged: boolean;
}

const EMPTY_DRAFT: ApprovalDraft = { comments: '', acknowledged: false };

interface SavedReview {
  step: ReviewStep;
  completed: ReviewStep[];
  reviewed: string[];
  approval?: Approval;
}

const keyOf = (client: string, branch: string) => `aegis.review.${client}.${branch}`;
const draftKeyOf = (reviewKey: string) => `${reviewKey}.draft`;

const isStep = (value: unknown): value is ReviewStep => REVIEW_STEPS.some((step) => step === value);

/** What was saved for the branch, or nothing when absent or not of the shape this code wrote. */
function restore(client: string, branch: string): SavedReview | undefined {
  try {
    const saved = JSON.parse(sessionStorage.getItem(keyOf(client, branch)) ?? 'null') as unknown;
    if (typeof saved !== 'object' || saved === null) return undefined;
    const { step, completed, reviewed, approval } = saved as Partial<SavedReview>;
    if (!isStep(step) || step === 'success') return undefined;
    if (!Array.isArray(completed) || !completed.every(isStep)) return undefined;
    if (!Array.isArray(reviewed) || !reviewed.every((p) => typeof p === 'string')) return undefined;
    return {
      step,
      completed,
      reviewed,
      ...(approval ? { approval } : {}),
    };
  } catch {
    return undefined;
  }
}

function restoreDraft(key: string): ApprovalDraft {
  try {
    const draft = JSON.parse(
      sessionStorage.getItem(key) ?? 'null',
    ) as Partial<ApprovalDraft> | null;
    return typeof draft?.comments === 'string' && typeof draft.acknowledged === 'boolean'
      ? { comments: draft.comments, acknowledged: draft.acknowledged }
      : EMPTY_DRAFT;
  } catch {
    return EMPTY_DRAFT;
  }
}

/**
 * The approval dialog's comments and acknowledgement, saved as they are typed under the review's
 * key: kept in the dialog, so typing re-renders the dialog only, not the whole review.
 */
export function useApprovalDraft(draftKey: string) {
  const [draft, setDraft] = useState(() => restoreDraft(draftKey));
  useEffect(() => {
    sessionStorage.setItem(draftKey, JSON.stringify(draft));
  }, [draftKey, draft]);
  return [draft, setDraft] as const;
}

/**
 * A capture review's progress for one branch (issue 27): the reviewed marks, the step, the
 * approval and its draft survive a reload or Back in this tab, and are dropped once the pull
 * request is created. Session storage: the progress is this reviewer's, in this tab.
 */
export function useReviewProgress(client: string, branch: string) {
  const [saved] = useState(() => restore(client, branch));
  const [state, dispatch] = useReducer(reviewReducer, saved, (initial): ReviewState =>
    initial
      ? {
          step: initial.step,
          completed: new Set(initial.completed),
          reviewed: new Set(initial.reviewed),
          ...(initial.approval ? { approval: initial.approval } : {}),
        }
      : initialReviewState(),
  );
  const key = keyOf(client, branch);

  useEffect(() => {
    if (state.step === 'success') {
      sessionStorage.removeItem(key);
      sessionStorage.removeItem(draftKeyOf(key));
      return;
    }
    const next: SavedReview = {
      step: state.step,
      completed: [...state.completed],
      reviewed: [...state.reviewed],
      ...(state.approval ? { approval: state.approval } : {}),
    };
    sessionStorage.setItem(key, JSON.stringify(next));
  }, [key, state]);

  const update = useCallback((action: ReviewAction) => dispatch(action), []);
  return { state, dispatch: update, draftKey: draftKeyOf(key) };
}
