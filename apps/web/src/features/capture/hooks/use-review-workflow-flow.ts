import type { CaptureBranch } from '@aegis/contracts';
import {
  allReviewed,
  CONTINUE_TO_APPROVAL_ALERT,
  filterReviewDeviations,
  reviewableItems,
  reviewComplianceSummary,
  reviewedCount,
} from '@aegis/domain';
import { useEffect, useMemo, useReducer, useRef } from 'react';

import { useNotify } from '../../../components/notifier';
import { useCaptureAnalysis } from '../api/capture-api';

import {
  analysisFailureText,
  initialReviewViewState,
  reviewViewReducer,
} from './review-workflow-flow';
import { useReviewProgress } from './use-review-progress';

/**
 * The four-step review of one capture as a flow: the step (`useReviewProgress`, kept per branch),
 * the view (`reviewViewReducer`), the analysis those exclusions ask for, and what follows from
 * them. Each step's component takes the flow and owns its own requests.
 */
export function useReviewWorkflowFlow(client: string, branch: CaptureBranch) {
  const { state, dispatch, draftKey } = useReviewProgress(client, branch.name);
  const [view, dispatchView] = useReducer(reviewViewReducer, initialReviewViewState);
  const analysis = useCaptureAnalysis(client, {
    branch: branch.name,
    excludedProperties: view.exclusions.properties,
    excludedPaths: view.exclusions.paths,
  });
  const notify = useNotify();
  const alerted = useRef<unknown>(undefined);

  // Spec 3 §8: a failed load alerts once per failure.
  const failureText = analysisFailureText(view);
  useEffect(() => {
    if (!analysis.isError || alerted.current === analysis.error) return;
    alerted.current = analysis.error;
    notify({ intent: 'error', title: failureText });
  }, [analysis.isError, analysis.error, notify, failureText]);
  useEffect(() => {
    if (analysis.isSuccess) dispatchView({ type: 'analysed' });
  }, [analysis.isSuccess]);

  const data = analysis.data;
  const deviations = useMemo(
    () =>
      data
        ? filterReviewDeviations(data.compliance.deviations, 'all', view.includePrerequisites)
        : [],
    [data, view.includePrerequisites],
  );
  const reviewable = useMemo(
    () => (data ? reviewableItems(data.drift.changes, deviations) : []),
    [data, deviations],
  );
  const summary = data
    ? reviewComplianceSummary(
        data.compliance.totalCount,
        data.compliance.prerequisiteTotal,
        data.compliance.deviations,
        view.includePrerequisites,
      )
    : undefined;
  const everythingReviewed = allReviewed(state.reviewed, reviewable);

  return {
    state,
    dispatch,
    draftKey,
    view,
    dispatchView,
    analysis,
    deviations,
    reviewable,
    summary,
    reviewed: reviewedCount(state.reviewed, reviewable),
    everythingReviewed,
    applyExclusions: (properties: string[], paths: string[]): void => {
      dispatchView({ type: 'applyExclusions', exclusions: { properties, paths } });
      dispatch({ type: 'reanalysed' });
    },
    continueToApproval: (): void => {
      if (!everythingReviewed) {
        notify({ intent: 'warning', title: CONTINUE_TO_APPROVAL_ALERT });
        return;
      }
      dispatch({ type: 'continueToApproval', reviewable });
    },
  };
}

export type ReviewWorkflowFlow = ReturnType<typeof useReviewWorkflowFlow>;
