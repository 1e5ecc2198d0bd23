import type { ChangeFilter, SeverityFilter } from '@aegis/domain';

import type { PolicyDetail } from '../components/policy-detail-dialog';

/** Properties and paths left out of the analysis (spec 3 §5 'Update Exclusions & Re-analyze'). */
interface AnalysisExclusions {
  properties: string[];
  paths: string[];
}

/** The dialog over the review: none, the exclusions, or one policy's details. */
type ReviewDialog =
  { open: 'none' } | { open: 'exclusions' } | { open: 'detail'; detail: PolicyDetail };

/**
 * What the review screen shows besides the step (the step, reviewed marks and approval are the
 * domain's `reviewReducer`, kept per branch by `useReviewProgress`).
 */
export interface ReviewViewState {
  exclusions: AnalysisExclusions;
  dialog: ReviewDialog;
  includePrerequisites: boolean;
  changeFilter: ChangeFilter;
  severityFilter: SeverityFilter;
  /** the analysis loading is a re-analysis with new exclusions: its failure has its own text */
  reanalysing: boolean;
}

export type ReviewViewAction =
  | { type: 'openExclusions' }
  | { type: 'applyExclusions'; exclusions: AnalysisExclusions }
  | { type: 'openDetail'; detail: PolicyDetail }
  | { type: 'closeDialog' }
  | { type: 'includePrerequisites'; include: boolean }
  | { type: 'filterChanges'; filter: ChangeFilter }
  | { type: 'filterDeviations'; filter: SeverityFilter }
  /** an analysis arrived */
  | { type: 'analysed' };

export const initialReviewViewState: ReviewViewState = {
  exclusions: { properties: [], paths: [] },
  dialog: { open: 'none' },
  includePrerequisites: false,
  changeFilter: 'all',
  severityFilter: 'all',
  reanalysing: false,
};

/** The review screen's view as a state machine: exclusions, dialogs, filters, re-analysis. */
export function reviewViewReducer(
  state: ReviewViewState,
  action: ReviewViewAction,
): ReviewViewState {
  switch (action.type) {
    case 'openExclusions':
      return { ...state, dialog: { open: 'exclusions' } };
    case 'applyExclusions':
      return {
        ...state,
        exclusions: action.exclusions,
        dialog: { open: 'none' },
        reanalysing: true,
      };
    case 'openDetail':
      return { ...state, dialog: { open: 'detail', detail: action.detail } };
    case 'closeDialog':
      return { ...state, dialog: { open: 'none' } };
    case 'includePrerequisites':
      return { ...state, includePrerequisites: action.include };
    case 'filterChanges':
      return { ...state, changeFilter: action.filter };
    case 'filterDeviations':
      return { ...state, severityFilter: action.filter };
    case 'analysed':
      return state.reanalysing ? { ...state, reanalysing: false } : state;
  }
}

/** Spec 3 §8: a failed load and a failed re-analysis are told apart. */
export function analysisFailureText(state: ReviewViewState): string {
  return state.reanalysing
    ? 'Failed to re-analyze. Please try again.'
    : 'Failed to load comparison data. Please try again.';
}
