import { captureBranchPrefix, clientFolder, shortBranchName } from '../repository-layout';

/** Spec 3 §9: a capture branch older than 60 days is archived. */
export const CAPTURE_ARCHIVE_AFTER_DAYS = 60;
/** Spec 3 §9: Recently Merged shows 3 by default. */
export const MERGED_SHOWN_BY_DEFAULT = 3;
/** Spec 3 §9: merged pull-request query limit. */
export const MERGED_PULL_REQUEST_LIMIT = 1000;
/** Spec 3 §9: default baseline version of a capture's metadata. */
export const DEFAULT_BASELINE_VERSION = '1.0.0';

const DAY_IN_MS = 86_400_000;

/** Whether a short or full (`refs/heads/…`) branch name is one of the client's capture branches. */
export function isCaptureBranchOf(branch: string, clientCode: string): boolean {
  const short = shortBranchName(branch);
  const prefix = captureBranchPrefix(clientCode);
  return short.startsWith(prefix) && short.length > prefix.length;
}

/** The run id or timestamp that ends a capture branch's name. */
export function captureBranchSuffix(branch: string): string {
  const short = shortBranchName(branch);
  const i = short.indexOf('-capture-');
  return i >= 0 ? short.slice(i + '-capture-'.length) : short;
}

/**
 * What a capture pipeline records next to the captured configuration (spec 3 §3 capture branch
 * metadata), read by the capture selector without downloading the branch.
 */
export interface CaptureMetadata {
  changeCount?: number;
  criticalCount?: number;
  baselineVersion?: string;
  /** ISO time of the capture */
  capturedAt?: string;
  /** the user who started the run (Build.RequestedForEmail): four-eyes, they cannot approve it */
  triggeredBy?: string;
}

/**
 * Where a capture branch keeps its metadata: one small JSON file next to the client's configuration,
 * read with one request per branch (never the whole branch). Not a policy: drift and compliance
 * only look under the resources root.
 */
export function captureMetadataPath(clientCode: string): string {
  return `${clientFolder(clientCode)}/.capture-metadata.json`;
}

/** A capture branch as the selector shows it (spec 3 §3). Dates are ISO strings. */
export interface CaptureBranchInfo {
  name: string;
  /** when the capture was taken; undefined when unknown */
  date?: string;
  merged: boolean;
  mergedDate?: string;
  mergedBy?: string;
  metadata?: CaptureMetadata;
}

export interface ClassifiedBranches<T extends CaptureBranchInfo> {
  /** unmerged, newest first */
  pending: T[];
  /** merged, most recently merged first */
  merged: T[];
  /** older than 60 days, newest first (may overlap the other two) */
  archived: T[];
}

const time = (iso: string | undefined): number => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? -Infinity : t;
};

/** Whether a branch is older than 60 days at `now`; a branch without a date is never archived. */
export function isArchivedBranch(branch: CaptureBranchInfo, now: Date): boolean {
  const t = time(branch.date);
  return t !== -Infinity && now.getTime() - t > CAPTURE_ARCHIVE_AFTER_DAYS * DAY_IN_MS;
}

/**
 * Spec 3 §4 classification: pending = not merged; merged = merged; archived = older than 60 days,
 * which may overlap the others. Pending and archived are newest first, merged by merged date.
 */
export function classifyCaptureBranches<T extends CaptureBranchInfo>(
  branches: readonly T[],
  now: Date,
): ClassifiedBranches<T> {
  const byDate = (a: T, b: T) => time(b.date) - time(a.date);
  return {
    pending: branches.filter((b) => !b.merged).sort(byDate),
    merged: branches
      .filter((b) => b.merged)
      .sort((a, b) => time(b.mergedDate ?? b.date) - time(a.mergedDate ?? a.date)),
    archived: branches.filter((b) => isArchivedBranch(b, now)).sort(byDate),
  };
}

/** Recently Merged: the first 3 unless expanded, and the toggle's label ('Show N More' / 'Show Less'). */
export function visibleMergedBranches<T>(
  merged: readonly T[],
  expanded: boolean,
): { visible: T[]; toggleLabel?: string } {
  if (merged.length <= MERGED_SHOWN_BY_DEFAULT) return { visible: [...merged] };
  if (expanded) return { visible: [...merged], toggleLabel: 'Show Less' };
  return {
    visible: merged.slice(0, MERGED_SHOWN_BY_DEFAULT),
    toggleLabel: `Show ${merged.length - MERGED_SHOWN_BY_DEFAULT} More`,
  };
}

/** The client overview of capture management (spec 3 §3): last capture, last merge, pending reviews. */
export function clientCaptureOverview(branches: readonly CaptureBranchInfo[]): {
  lastCapture: string | null;
  lastMerge: string | null;
  pendingReviews: number;
} {
  let lastCapture = -Infinity;
  let lastMerge = -Infinity;
  for (const b of branches) {
    lastCapture = Math.max(lastCapture, time(b.date));
    if (b.merged) lastMerge = Math.max(lastMerge, time(b.mergedDate));
  }
  const iso = (t: number) => (t === -Infinity ? null : new Date(t).toISOString());
  return {
    lastCapture: iso(lastCapture),
    lastMerge: iso(lastMerge),
    pendingReviews: branches.filter((b) => !b.merged).length,
  };
}
