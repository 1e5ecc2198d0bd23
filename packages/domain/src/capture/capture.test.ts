import { describe, expect, it } from 'vitest';

import type { DeviationGroup } from '../comparison/types';
import { captureBranchName } from '../repository-layout';

import {
  captureChangeCounts,
  isReviewableChange,
  allReviewed,
  approvalCommentHint,
  approverName,
  canApprove,
  canGoToStep,
  captureBranchSuffix,
  capturePullRequestDescription,
  capturedAtFromDescription,
  captureScoreClass,
  classifyCaptureBranches,
  clientCaptureOverview,
  driftSummary,
  filterDriftChanges,
  filterReviewDeviations,
  formatCaptureDate,
  groupBy,
  initialReviewState,
  isCaptureBranchOf,
  managementRelativeDate,
  parentFolder,
  parseExclusionLines,
  parseTriggerExclusions,
  reviewComplianceSummary,
  reviewedCount,
  reviewReducer,
  reviewSeverity,
  selectorRelativeDate,
  toReviewDeviations,
  visibleMergedBranches,
  type Approval,
  type CaptureBranchInfo,
  type ReviewState,
} from './index';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = new Date('2025-03-20T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describe('capture branch names', () => {
  it('names a run branch client-{CODE}-capture-{runId} and recognises only the client’s own', () => {
    expect(captureBranchName('ABC', 42)).toBe('client-ABC-capture-42');
    expect(isCaptureBranchOf('refs/heads/client-ABC-capture-42', 'ABC')).toBe(true);
    expect(isCaptureBranchOf('client-ABC-capture-', 'ABC')).toBe(false);
    expect(isCaptureBranchOf('client-ABCD-capture-1', 'ABC')).toBe(false);
    expect(isCaptureBranchOf('client-FAB-capture-1', 'ABC')).toBe(false);
    expect(captureBranchSuffix('refs/heads/client-ABC-capture-20250301_1015')).toBe(
      '20250301_1015',
    );
  });
});

describe('branch classification', () => {
  const b = (name: string, date: string | undefined, merged = false, mergedDate?: string) =>
    ({ name, date, merged, mergedDate }) as CaptureBranchInfo;

  it('pending are the unmerged, newest first; merged by merged date; archived older than 60 days', () => {
    const branches = [
      b('old-pending', ago(61 * DAY)),
      b('new-pending', ago(HOUR)),
      b('mid-pending', ago(3 * DAY)),
      b('merged-early', ago(20 * DAY), true, ago(10 * DAY)),
      b('merged-late', ago(30 * DAY), true, ago(2 * DAY)),
      b('merged-ancient', ago(90 * DAY), true, ago(89 * DAY)),
    ];
    const c = classifyCaptureBranches(branches, NOW);
    expect(c.pending.map((x) => x.name)).toEqual(['new-pending', 'mid-pending', 'old-pending']);
    expect(c.merged.map((x) => x.name)).toEqual(['merged-late', 'merged-early', 'merged-ancient']);
    expect(c.archived.map((x) => x.name)).toEqual(['old-pending', 'merged-ancient']);
  });

  it('archives strictly after 60 days, never a branch without a date', () => {
    const c = classifyCaptureBranches(
      [b('exactly-60', ago(60 * DAY)), b('just-over', ago(60 * DAY + 1)), b('no-date', undefined)],
      NOW,
    );
    expect(c.archived.map((x) => x.name)).toEqual(['just-over']);
    expect(c.pending.map((x) => x.name)).toEqual(['exactly-60', 'just-over', 'no-date']);
  });

  it('shows 3 merged by default with Show N More / Show Less', () => {
    expect(visibleMergedBranches([1, 2, 3], false)).toEqual({ visible: [1, 2, 3] });
    expect(visibleMergedBranches([1, 2, 3, 4, 5], false)).toEqual({
      visible: [1, 2, 3],
      toggleLabel: 'Show 2 More',
    });
    expect(visibleMergedBranches([1, 2, 3, 4, 5], true)).toEqual({
      visible: [1, 2, 3, 4, 5],
      toggleLabel: 'Show Less',
    });
  });

  it('overview: last capture, last merge, pending reviews; nulls when there is none', () => {
    expect(clientCaptureOverview([])).toEqual({
      lastCapture: null,
      lastMerge: null,
      pendingReviews: 0,
    });
    expect(
      clientCaptureOverview([
        b('a', ago(DAY)),
        b('b', ago(5 * DAY), true, ago(4 * DAY)),
        b('c', ago(2 * DAY)),
      ]),
    ).toEqual({ lastCapture: ago(DAY), lastMerge: ago(4 * DAY), pendingReviews: 2 });
  });
});

describe('relative dates', () => {
  it('selector: minutes under 60 minutes, hours under 24 hours, days under 7 days, else a date', () => {
    expect(selectorRelativeDate(undefined, NOW)).toBe('Unknown');
    expect(selectorRelativeDate('not a date', NOW)).toBe('Unknown');
    expect(selectorRelativeDate(ago(0), NOW)).toBe('0 minutes ago');
    expect(selectorRelativeDate(ago(MINUTE), NOW)).toBe('1 minute ago');
    expect(selectorRelativeDate(ago(59 * MINUTE + 59_000), NOW)).toBe('59 minutes ago');
    expect(selectorRelativeDate(ago(HOUR), NOW)).toBe('1 hour ago');
    expect(selectorRelativeDate(ago(DAY - 1), NOW)).toBe('23 hours ago');
    expect(selectorRelativeDate(ago(DAY), NOW)).toBe('1 day ago');
    expect(selectorRelativeDate(ago(7 * DAY - 1), NOW)).toBe('6 days ago');
    expect(selectorRelativeDate(ago(7 * DAY), NOW, 'UTC')).toBe('13/03/2025, 12:00');
  });

  it('management: Never, Just now, singular and plural units, then 12 Jan 2025 10:30', () => {
    expect(managementRelativeDate(null, NOW)).toBe('Never');
    expect(managementRelativeDate(ago(59_999), NOW)).toBe('Just now');
    expect(managementRelativeDate(ago(MINUTE), NOW)).toBe('1 minute ago');
    expect(managementRelativeDate(ago(2 * MINUTE), NOW)).toBe('2 minutes ago');
    expect(managementRelativeDate(ago(HOUR), NOW)).toBe('1 hour ago');
    expect(managementRelativeDate(ago(23 * HOUR), NOW)).toBe('23 hours ago');
    expect(managementRelativeDate(ago(DAY), NOW)).toBe('1 day ago');
    expect(managementRelativeDate(ago(6 * DAY), NOW)).toBe('6 days ago');
    expect(managementRelativeDate('2025-01-12T10:30:00Z', NOW, 'UTC')).toBe('12 Jan 2025 10:30');
    expect(formatCaptureDate('2025-01-02T00:05:00Z', 'UTC')).toBe('2 Jan 2025 00:05');
  });
});

describe('review workflow steps', () => {
  const approval: Approval = {
    approvedBy: 'alex',
    approvedAt: '2025-03-20T12:00:00.000Z',
    comments: 'x'.repeat(50),
    summary: { modified: 1, added: 0, deleted: 0 },
  };
  const result = { pullRequestId: 7, prUrl: 'u', createdBy: 'alex', status: 'pending' as const };
  const run = (state: ReviewState, ...actions: Parameters<typeof reviewReducer>[1][]) =>
    actions.reduce(reviewReducer, state);

  it('continues to approval only when every reviewable item is reviewed', () => {
    const reviewable = ['a', 'b'];
    let s = run(initialReviewState(), { type: 'markReviewed', path: 'a' });
    expect(reviewReducer(s, { type: 'continueToApproval', reviewable }).step).toBe('review');
    s = run(s, { type: 'markReviewed', path: 'b' }, { type: 'continueToApproval', reviewable });
    expect(s.step).toBe('approve');
    expect([...s.completed]).toEqual(['review']);
  });

  it('counts only reviewed items that are still reviewable; nothing to review is all reviewed', () => {
    const reviewed = new Set(['a', 'gone']);
    expect(reviewedCount(reviewed, ['a', 'b'])).toBe(1);
    expect(allReviewed(reviewed, ['a', 'b'])).toBe(false);
    expect(allReviewed(new Set(), [])).toBe(true);
  });

  it('re-analysis empties the reviewed set; a reset returns to a fresh review', () => {
    let s = run(initialReviewState(), { type: 'markAllReviewed', paths: ['a', 'b'] });
    expect(s.reviewed.size).toBe(2);
    s = reviewReducer(s, { type: 'reanalysed' });
    expect(s.reviewed.size).toBe(0);
    s = run(s, { type: 'continueToApproval', reviewable: [] }, { type: 'approve', approval });
    expect(reviewReducer(s, { type: 'reset' })).toEqual(initialReviewState());
  });

  it('goes back from approve to review and from merge to approve, never forward or from success', () => {
    let s = run(initialReviewState(), { type: 'continueToApproval', reviewable: [] });
    expect(canGoToStep(s, 'review')).toBe(true);
    expect(canGoToStep(s, 'merge')).toBe(false);
    s = reviewReducer(s, { type: 'approve', approval });
    expect(s.step).toBe('merge');
    expect(canGoToStep(s, 'approve')).toBe(true);
    expect(canGoToStep(s, 'review')).toBe(true);
    expect(reviewReducer(s, { type: 'goTo', step: 'approve' }).step).toBe('approve');
    // back to approve keeps the approval; forward jumps are refused
    const back = reviewReducer(s, { type: 'goTo', step: 'approve' });
    expect(reviewReducer(back, { type: 'goTo', step: 'merge' }).step).toBe('approve');
    s = reviewReducer(s, { type: 'pullRequestCreated', result });
    expect(s.step).toBe('success');
    expect(canGoToStep(s, 'merge')).toBe(false);
    expect(reviewReducer(s, { type: 'goTo', step: 'review' }).step).toBe('success');
  });

  it('refuses a step whose prior step is not completed', () => {
    const s: ReviewState = { ...initialReviewState(), step: 'merge', completed: new Set() };
    expect(canGoToStep(s, 'approve')).toBe(false);
    expect(canGoToStep(s, 'review')).toBe(true);
  });

  it('does not approve outside the approve step nor create a pull request without approval', () => {
    const s = initialReviewState();
    expect(reviewReducer(s, { type: 'approve', approval })).toBe(s);
    const merge: ReviewState = { ...s, step: 'merge' };
    expect(reviewReducer(merge, { type: 'pullRequestCreated', result })).toBe(merge);
  });
});

describe('approval and exclusions', () => {
  it('needs 50 characters of comments and the acknowledgement', () => {
    expect(approvalCommentHint('')).toBe('Minimum 50 characters required (50 more)');
    expect(approvalCommentHint('x'.repeat(49))).toBe('Minimum 50 characters required (1 more)');
    expect(approvalCommentHint(`  ${'x'.repeat(49)}   `)).toBe(
      'Minimum 50 characters required (1 more)',
    );
    expect(approvalCommentHint('x'.repeat(50))).toBeUndefined();
    expect(canApprove('x'.repeat(50), false)).toBe(false);
    expect(canApprove('x'.repeat(49), true)).toBe(false);
    expect(canApprove('x'.repeat(50), true)).toBe(true);
  });

  it('approver is the user name, or Unknown', () => {
    expect(approverName('alex@x')).toBe('alex@x');
    expect(approverName('  ')).toBe('Unknown');
    expect(approverName(undefined)).toBe('Unknown');
  });

  it('dialog text: one entry per line; trigger text: lines and commas', () => {
    expect(parseExclusionLines(' id \n\n createdDateTime,version \r\n')).toEqual([
      'id',
      'createdDateTime,version',
    ]);
    expect(parseTriggerExclusions(' id, createdDateTime\n\nlastModifiedDateTime,,')).toEqual([
      'id',
      'createdDateTime',
      'lastModifiedDateTime',
    ]);
    expect(parseTriggerExclusions('')).toEqual([]);
  });
});

describe('review analysis', () => {
  it("counts What's New from the diff and the captured files", () => {
    const changes = [
      { changeType: 'edit' as const },
      { changeType: 'edit' as const },
      { changeType: 'add' as const },
      { changeType: 'delete' as const },
    ];
    expect(driftSummary(changes, 10)).toEqual({ unchanged: 7, modified: 2, added: 1, deleted: 1 });
    expect(driftSummary([], 0)).toEqual({ unchanged: 0, modified: 0, added: 0, deleted: 0 });
    expect(filterDriftChanges(changes, 'added')).toHaveLength(1);
    expect(filterDriftChanges(changes, 'all')).toHaveLength(4);
  });

  it('groups by parent folder under the resources root', () => {
    expect(parentFolder('/Clients/ABC/M365Config/Resources/ConditionalAccess/Policy/x.json')).toBe(
      'ConditionalAccess/Policy',
    );
    expect(parentFolder('x.json')).toBe('Other');
    expect(groupBy(['b1', 'a1', 'b2'], (s) => s[0] ?? '')).toEqual([
      ['a', ['a1']],
      ['b', ['b1', 'b2']],
    ]);
  });

  const group = (over: Partial<DeviationGroup>, properties: string[]): DeviationGroup =>
    ({
      path: 'ConditionalAccess/Policy/p.json',
      policyName: 'p',
      category: 'ConditionalAccess',
      isMissing: false,
      isPrerequisite: false,
      deviationCount: properties.length,
      deviations: properties.map((property) => ({ property })),
      ...over,
    }) as DeviationGroup;

  it('capture-review severity: the highest of the paths; missing critical; prerequisite apart', () => {
    expect(reviewSeverity(group({}, ['displayName']))).toBe('low');
    expect(reviewSeverity(group({}, ['sessionControls.signInFrequency.value']))).toBe('medium');
    expect(reviewSeverity(group({}, ['conditions.platforms', 'sessionControls.x']))).toBe('high');
    expect(reviewSeverity(group({}, ['Users.include', 'State']))).toBe('critical');
    expect(reviewSeverity(group({}, ['grantControls.builtInControls[0]']))).toBe('critical');
    expect(reviewSeverity(group({}, ['BlockLegacyAuth']))).toBe('critical');
    expect(reviewSeverity(group({}, []))).toBe('low');
    expect(reviewSeverity(group({ isMissing: true }, ['x']))).toBe('critical');
    expect(reviewSeverity(group({ isPrerequisite: true, isMissing: true }, ['x']))).toBe(
      'prerequisite',
    );
  });

  it('the Prerequisites filter leaves prerequisite policies out of every count when off', () => {
    const deviations = toReviewDeviations([
      group({ path: 'A/a.json' }, ['state']),
      group({ path: 'A/b.json' }, ['conditions.users']),
      group({ path: 'Groups/g.json', isPrerequisite: true, isMissing: true }, ['g']),
    ]);
    expect(deviations.map((d) => d.severity)).toEqual(['critical', 'high', 'prerequisite']);
    expect(reviewComplianceSummary(10, 1, deviations, false)).toEqual({
      total: 9,
      compliant: 7,
      critical: 1,
      high: 1,
      medium: 0,
      low: 0,
      prerequisite: 0,
      percentage: 78,
    });
    expect(reviewComplianceSummary(10, 1, deviations, true)).toMatchObject({
      total: 10,
      compliant: 7,
      prerequisite: 1,
      percentage: 70,
    });
    expect(reviewComplianceSummary(0, 0, [], false).percentage).toBe(100);
    expect(filterReviewDeviations(deviations, 'all', false)).toHaveLength(2);
    expect(filterReviewDeviations(deviations, 'high', true).map((d) => d.path)).toEqual([
      'A/b.json',
    ]);
  });

  it('score classes: 90 excellent, 75–89 good, below 75 fair', () => {
    expect(captureScoreClass(90)).toBe('excellent');
    expect(captureScoreClass(89)).toBe('good');
    expect(captureScoreClass(75)).toBe('good');
    expect(captureScoreClass(74)).toBe('fair');
  });

  it('the pull request description carries the approval', () => {
    const text = capturePullRequestDescription('ABC', 'refs/heads/client-ABC-capture-9', {
      approvedBy: 'alex@x',
      approvedAt: '2025-03-20T12:00:00.000Z',
      comments: '  Reviewed every change with the client; the MFA change was requested.  ',
      summary: { modified: 2, added: 1, deleted: 0 },
    });
    expect(text).toContain('client-ABC-capture-9 for client ABC');
    expect(text).toContain('Approved by: alex@x');
    expect(text).toContain('Approved at: 2025-03-20T12:00:00.000Z');
    expect(text).toContain('Reviewed every change with the client; the MFA change was requested.');
    expect(text).toContain('Summary: 2 modified, 1 added, 0 deleted.');
    expect(capturedAtFromDescription(text)).toBeUndefined();
    const withDate = capturePullRequestDescription(
      'ABC',
      'client-ABC-capture-9',
      {
        approvedBy: 'a',
        approvedAt: 'b',
        comments: 'c',
        summary: { modified: 0, added: 0, deleted: 0 },
      },
      '2025-03-19T08:00:00.000Z',
    );
    expect(capturedAtFromDescription(withDate.slice(0, 400))).toBe('2025-03-19T08:00:00.000Z');
    expect(capturedAtFromDescription('Captured at: yesterday')).toBeUndefined();
  });
});

describe('captureChangeCounts (the capture card and the review count the same thing)', () => {
  it('counts added, deleted and edited policies; not an edit of excluded properties only', () => {
    expect(
      captureChangeCounts([
        { changeType: 'add' },
        { changeType: 'delete' },
        { changeType: 'edit', changedProperties: ['displayName'] },
        { changeType: 'edit', changedProperties: [] },
        // the previous version could not be read: a change, of unknown properties
        { changeType: 'edit' },
      ]),
    ).toEqual({ changes: 4, critical: 0 });
  });

  it('counts an edited policy as critical when a changed property is (state, grant controls)', () => {
    expect(
      captureChangeCounts([
        { changeType: 'edit', changedProperties: ['state', 'displayName'] },
        { changeType: 'edit', changedProperties: ['grantControls.builtInControls[0]'] },
        { changeType: 'edit', changedProperties: ['conditions.users.includeUsers[0]'] },
        { changeType: 'add' },
      ]),
    ).toEqual({ changes: 4, critical: 2 });
    expect(isReviewableChange({ changeType: 'edit', changedProperties: [] })).toBe(false);
  });
});
