import { categoryOf, toResourcePath } from '../comparison/paths';
import type { DeviationGroup } from '../comparison/types';
import type { DriftPropertyChange } from '../drift/drift';
import { captureReviewSeverityOf, compareSeverity, type Severity } from '../severity';

import type { Approval } from './review-workflow';

/** Drift change types (spec 3 §9). */
export type DriftChangeType = 'add' | 'edit' | 'delete';

/** One changed file of a capture against main (spec 3 §3 drift data). */
export interface DriftChange {
  changeType: DriftChangeType;
  item: { path: string; objectId?: string };
  propertyChanges?: DriftPropertyChange[];
  propertyChangeCount?: number;
}

export interface DriftSummary {
  unchanged: number;
  modified: number;
  added: number;
  deleted: number;
}

/**
 * 'What's New' counts: modified, added and deleted files, and the captured files that did not
 * change (`capturedFileCount` counts the files of the capture branch).
 */
export function driftSummary(
  changes: readonly Pick<DriftChange, 'changeType'>[],
  capturedFileCount: number,
): DriftSummary {
  const count = (t: DriftChangeType) => changes.filter((c) => c.changeType === t).length;
  const modified = count('edit');
  const added = count('add');
  return {
    unchanged: Math.max(0, capturedFileCount - modified - added),
    modified,
    added,
    deleted: count('delete'),
  };
}

/** changeCounts as the git diff gives them (Add, Edit, Delete). */
export function driftChangeCounts(
  changes: readonly Pick<DriftChange, 'changeType'>[],
): Record<'Add' | 'Edit' | 'Delete', number> {
  const s = driftSummary(changes, 0);
  return { Add: s.added, Edit: s.modified, Delete: s.deleted };
}

/**
 * One file a capture changed, as the counts read it: for an edit, the changed properties left once
 * the exclusions are applied, or undefined when its previous version could not be read.
 */
export interface CapturedFileChange {
  changeType: DriftChangeType;
  changedProperties?: readonly string[];
}

/** Whether a changed file is a change to review: an edit that changed only excluded properties (timestamps) is not. */
export function isReviewableChange(change: CapturedFileChange): boolean {
  return change.changeType !== 'edit' || change.changedProperties?.length !== 0;
}

export interface CaptureChangeCounts {
  /** changed policies to review: added, deleted, and edited beyond the exclusions */
  changes: number;
  /** edited policies whose changed properties reach critical capture-review severity */
  critical: number;
}

/**
 * What a capture changed, counted once for the capture card (the metadata the capture task
 * writes) and the review (issue 27): the same files, the same exclusions, the same severity.
 */
export function captureChangeCounts(changes: readonly CapturedFileChange[]): CaptureChangeCounts {
  const reviewable = changes.filter(isReviewableChange);
  return {
    changes: reviewable.length,
    critical: reviewable.filter(
      (c) => captureReviewSeverityOf(c.changedProperties ?? []) === 'critical',
    ).length,
  };
}

export type ChangeFilter = 'all' | 'modified' | 'added' | 'deleted';
const CHANGE_OF_FILTER: Record<Exclude<ChangeFilter, 'all'>, DriftChangeType> = {
  modified: 'edit',
  added: 'add',
  deleted: 'delete',
};

export function filterDriftChanges<T extends Pick<DriftChange, 'changeType'>>(
  changes: readonly T[],
  filter: ChangeFilter,
): T[] {
  return filter === 'all'
    ? [...changes]
    : changes.filter((c) => c.changeType === CHANGE_OF_FILTER[filter]);
}

/** The parent folder of a changed file, relative to the resources root (e.g. 'ConditionalAccess/Policy'). */
export function parentFolder(path: string): string {
  const p = toResourcePath(path);
  const i = p.lastIndexOf('/');
  return i > 0 ? p.slice(0, i) : 'Other';
}

/** Groups items by a key, keys sorted alphabetically, items in their order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** A deviation of the capture under review, with the capture-review severity (spec 3 §5 alternative scheme). */
export interface ReviewDeviation {
  path: string;
  policyName: string;
  category: string;
  severity: Severity;
  propertyCount: number;
  isMissing: boolean;
  isPrerequisite: boolean;
}

/**
 * The capture-review severity of a deviation group: prerequisite for a prerequisite policy, critical
 * for a baseline policy missing from the capture, else the highest of its differing paths (critical
 * for state, block or grantcontrols; high for conditions, users or applications; medium for session;
 * else low).
 */
export function reviewSeverity(
  group: Pick<DeviationGroup, 'isPrerequisite' | 'isMissing' | 'deviations'>,
): Severity {
  if (group.isPrerequisite) return 'prerequisite';
  if (group.isMissing) return 'critical';
  return captureReviewSeverityOf(group.deviations.map((d) => d.property)) ?? 'low';
}

export function toReviewDeviations(groups: readonly DeviationGroup[]): ReviewDeviation[] {
  return groups
    .map((g) => ({
      path: g.path,
      policyName: g.policyName,
      category: g.category || categoryOf(g.path),
      severity: reviewSeverity(g),
      propertyCount: g.deviationCount,
      isMissing: g.isMissing,
      isPrerequisite: g.isPrerequisite,
    }))
    .sort((a, b) => compareSeverity(a.severity, b.severity) || a.path.localeCompare(b.path));
}

export interface ReviewComplianceSummary {
  total: number;
  compliant: number;
  critical: number;
  high: number;
  medium: number;
  low: number;
  prerequisite: number;
  /** compliant over the policies counted, rounded; 100 when none are counted */
  percentage: number;
}

/**
 * The 'Baseline Compliance' card of Capture Analysis: with the Prerequisites filter off,
 * prerequisite policies are left out of every count.
 */
export function reviewComplianceSummary(
  totalPolicies: number,
  prerequisitePolicies: number,
  deviations: readonly Pick<ReviewDeviation, 'severity' | 'isPrerequisite'>[],
  includePrerequisites: boolean,
): ReviewComplianceSummary {
  const counted = includePrerequisites ? deviations : deviations.filter((d) => !d.isPrerequisite);
  const n = (s: Severity) => counted.filter((d) => d.severity === s).length;
  const total = includePrerequisites ? totalPolicies : totalPolicies - prerequisitePolicies;
  const compliant = Math.max(0, total - counted.length);
  return {
    total,
    compliant,
    critical: n('critical'),
    high: n('high'),
    medium: n('medium'),
    low: n('low'),
    prerequisite: n('prerequisite'),
    percentage: total <= 0 ? 100 : Math.round((compliant / total) * 100),
  };
}

export type SeverityFilter = 'all' | 'critical' | 'high' | 'medium';

export function filterReviewDeviations<
  T extends Pick<ReviewDeviation, 'severity' | 'isPrerequisite'>,
>(deviations: readonly T[], filter: SeverityFilter, includePrerequisites: boolean): T[] {
  return deviations.filter(
    (d) =>
      (includePrerequisites || !d.isPrerequisite) && (filter === 'all' || d.severity === filter),
  );
}

/** Score colours in the capture review (spec 3 §9): 90 or more excellent, 75 to 89 good, below 75 fair. */
export function captureScoreClass(score: number): 'excellent' | 'good' | 'fair' {
  if (score >= 90) return 'excellent';
  if (score >= 75) return 'good';
  return 'fair';
}

/** The pull request's title names the client and the capture. */
export function capturePullRequestTitle(clientCode: string, branch: string): string {
  return `Configuration capture ${branch.replace(/^refs\/heads\//, '')} for client ${clientCode}`;
}

/** The pull request's description carries the approval: approver, time, comments and the summary. */
export function capturePullRequestDescription(
  clientCode: string,
  branch: string,
  approval: Approval,
  capturedAt?: string,
): string {
  const { modified, added, deleted } = approval.summary;
  return [
    `Approved capture review of ${branch.replace(/^refs\/heads\//, '')} for client ${clientCode}.`,
    ...(capturedAt ? [`Captured at: ${capturedAt}`] : []),
    '',
    `Approved by: ${approval.approvedBy}`,
    `Approved at: ${approval.approvedAt}`,
    '',
    'Comments:',
    approval.comments.trim(),
    '',
    `Summary: ${modified} modified, ${added} added, ${deleted} deleted.`,
    '',
    'The capture branch is deleted when this pull request completes.',
  ].join('\n');
}

/**
 * The capture time a capture pull request's description records (near the top, so list answers,
 * which cut descriptions at 400 characters, still carry it); undefined when absent.
 */
export function capturedAtFromDescription(description: string): string | undefined {
  const value = /^Captured at: (\S+)$/m.exec(description)?.[1];
  return value && !Number.isNaN(Date.parse(value)) ? value : undefined;
}

/** What 'Ready to Merge' says will happen (spec 3 §2). */
export function mergePlanLines(summary: Approval['summary'], branch: string): string[] {
  return [
    `Merge ${summary.modified} modified ${summary.modified === 1 ? 'policy' : 'policies'}`,
    `Add ${summary.added} new ${summary.added === 1 ? 'policy' : 'policies'}`,
    `Remove ${summary.deleted} ${summary.deleted === 1 ? 'policy' : 'policies'}`,
    'Create an audit trail entry with the approval in the pull request description',
    `Delete the capture branch ${branch} after the merge`,
  ];
}
