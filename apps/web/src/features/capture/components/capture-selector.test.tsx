import type { CaptureBranch } from '@aegis/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '../../../testing/render-app';

import { CaptureSelector } from './capture-selector';

const NOW = new Date('2026-11-27T09:00:00Z');
const PR = 'http://devops.example/aegis-msp/_git/M365Config/pullrequest/12';

const BRANCHES: CaptureBranch[] = [
  // merged 90 days ago: Recently Merged and Archived both list it
  {
    name: 'client-ABC-capture-5',
    date: '2026-08-20T09:00:00Z',
    merged: true,
    mergedDate: '2026-08-29T09:00:00Z',
    mergedBy: 'Priya Shah',
    exists: false,
    pullRequest: {
      pullRequestId: 12,
      status: 'completed',
      prUrl: PR,
      createdBy: 'Priya Shah',
      approvedBy: ['Sam Taylor'],
    },
    partial: false,
    notCaptured: [],
  },
  // never merged and old: still to review
  {
    name: 'client-ABC-capture-4',
    date: '2026-08-01T09:00:00Z',
    merged: false,
    exists: true,
    partial: false,
    notCaptured: [],
  },
];

describe('CaptureSelector', () => {
  it('offers an archived merged capture its history, as Recently Merged does, not a review', async () => {
    renderWithProviders(
      <CaptureSelector
        branches={BRANCHES}
        loading={false}
        selected={undefined}
        onSelect={() => {}}
        onRefresh={() => {}}
        now={NOW}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Archived (2)' }));
    const merged = screen.getAllByRole('group', { name: 'Merged client-ABC-capture-5' });
    // once under Recently Merged, once under Archived: both open the pull request's history
    expect(merged).toHaveLength(2);
    for (const card of merged) {
      expect(within(card).getByRole('link', { name: 'View History' })).toHaveAttribute('href', PR);
      expect(within(card).queryByRole('button', { name: /Review/ })).toBeNull();
    }
    // an archived capture never merged is still there to review (Pending Review lists it too)
    const unmerged = screen.getAllByRole('group', { name: 'Capture client-ABC-capture-4' });
    expect(unmerged).toHaveLength(2);
    for (const card of unmerged) {
      expect(
        within(card).getByRole('button', { name: 'Review client-ABC-capture-4' }),
      ).toBeEnabled();
    }
  });
});
