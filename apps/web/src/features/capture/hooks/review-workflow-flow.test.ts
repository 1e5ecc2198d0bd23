import type { DriftChangeDto } from '@aegis/contracts';
import { describe, expect, it } from 'vitest';

import {
  analysisFailureText,
  initialReviewViewState,
  reviewViewReducer,
  type ReviewViewAction,
  type ReviewViewState,
} from './review-workflow-flow';

const run = (...actions: ReviewViewAction[]): ReviewViewState =>
  actions.reduce(reviewViewReducer, initialReviewViewState);

const change = {
  changeType: 'edit',
  item: { path: '/Intune/Compliance/Windows.json' },
} as DriftChangeDto;

describe('reviewViewReducer', () => {
  it('applies new exclusions as a re-analysis, closing the dialog, until an analysis arrives', () => {
    const applied = run(
      { type: 'openExclusions' },
      { type: 'applyExclusions', exclusions: { properties: ['id'], paths: ['/Teams'] } },
    );
    expect(applied.dialog).toEqual({ open: 'none' });
    expect(applied.exclusions).toEqual({ properties: ['id'], paths: ['/Teams'] });
    expect(applied.reanalysing).toBe(true);
    expect(analysisFailureText(applied)).toBe('Failed to re-analyze. Please try again.');

    const analysed = reviewViewReducer(applied, { type: 'analysed' });
    expect(analysed.reanalysing).toBe(false);
    expect(analysed.exclusions).toEqual(applied.exclusions);
    expect(analysisFailureText(analysed)).toBe('Failed to load comparison data. Please try again.');
  });

  it('keeps the exclusions when their dialog is cancelled', () => {
    const applied = run({
      type: 'applyExclusions',
      exclusions: { properties: ['id'], paths: [] },
    });
    const cancelled = run(
      { type: 'applyExclusions', exclusions: { properties: ['id'], paths: [] } },
      { type: 'analysed' },
      { type: 'openExclusions' },
      { type: 'closeDialog' },
    );
    expect(cancelled.exclusions).toEqual(applied.exclusions);
    expect(cancelled.dialog).toEqual({ open: 'none' });
    expect(cancelled.reanalysing).toBe(false);
  });

  it('opens one dialog at a time: a policy detail replaces the exclusions', () => {
    const detail = run(
      { type: 'openExclusions' },
      { type: 'openDetail', detail: { mode: 'drift', change } },
    );
    expect(detail.dialog).toEqual({ open: 'detail', detail: { mode: 'drift', change } });
    expect(reviewViewReducer(detail, { type: 'closeDialog' }).dialog).toEqual({ open: 'none' });
  });

  it('keeps the filters and the prerequisites switch apart from the dialogs', () => {
    const filtered = run(
      { type: 'filterChanges', filter: 'deleted' },
      { type: 'filterDeviations', filter: 'critical' },
      { type: 'includePrerequisites', include: true },
      { type: 'openDetail', detail: { mode: 'drift', change } },
      { type: 'closeDialog' },
    );
    expect(filtered).toMatchObject({
      changeFilter: 'deleted',
      severityFilter: 'critical',
      includePrerequisites: true,
    });
  });

  it('leaves the state as it is when an analysis arrives and none was re-asked', () => {
    expect(reviewViewReducer(initialReviewViewState, { type: 'analysed' })).toBe(
      initialReviewViewState,
    );
  });
});
