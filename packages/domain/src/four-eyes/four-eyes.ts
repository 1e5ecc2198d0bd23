// Four eyes (ADR 051): what Azure DevOps must enforce on the configuration repository's main, the
// few files Aegis itself writes there, and who may approve a capture.
import {
  ACCEPTED_DEVIATIONS_FILE_NAME,
  MATCHING_CONFIG_FILE_NAME,
  clientCodeOfPath,
  parseClientYamlPath,
} from '../repository-layout';

/**
 * The settings of the 'Minimum number of reviewers' branch policy main must have: one approval
 * from someone who neither created the pull request nor pushed last, reset by a new push. Any
 * enabled blocking policy also refuses direct pushes to the branch (TF402455).
 */
export const REQUIRED_REVIEWER_POLICY = {
  minimumApproverCount: 1,
  creatorVoteCounts: false,
  resetOnSourcePush: true,
  blockLastPusherVote: true,
} as const;

export interface ReviewerPolicySettings {
  isEnabled: boolean;
  isBlocking: boolean;
  settings: Record<string, unknown>;
}

/**
 * What a reviewer policy lacks against {@link REQUIRED_REVIEWER_POLICY}, in words (empty when it
 * holds). A stricter policy (more approvers) holds.
 */
export function reviewerPolicyGaps(policy: ReviewerPolicySettings): string[] {
  const gaps: string[] = [];
  const s = policy.settings;
  if (!policy.isEnabled) gaps.push('the policy is disabled');
  if (!policy.isBlocking) gaps.push('the policy is optional, not required');
  const count = Number(s['minimumApproverCount']);
  if (!Number.isInteger(count) || count < REQUIRED_REVIEWER_POLICY.minimumApproverCount)
    gaps.push('no minimum number of approvers');
  if (s['creatorVoteCounts'] !== false) gaps.push("the creator's own vote counts");
  if (s['resetOnSourcePush'] !== true) gaps.push('votes are not reset when the source changes');
  if (s['blockLastPusherVote'] !== true) gaps.push('the last pusher may approve');
  return gaps;
}

/**
 * The files Aegis writes on main itself, through its service identity (ADR 051): a client's
 * accepted deviations and confirmed matches, and a client's app-deployment pipeline YAML (apps,
 * schedules). Nothing else may take that path.
 */
export function isAegisMainWritePath(path: string): boolean {
  const normal = path.replace(/\\/g, '/');
  if (normal.split('/').some((s) => s === '..' || s === '.')) return false;
  if (parseClientYamlPath(normal) !== undefined) return true;
  const code = clientCodeOfPath(normal);
  if (!code) return false;
  const rest = normal.replace(/^\/?Clients\/[^/]+\//, '');
  return rest === ACCEPTED_DEVIATIONS_FILE_NAME || rest === MATCHING_CONFIG_FILE_NAME;
}

/** Who requested a capture run, as Azure DevOps records it. */
export interface RunRequesters {
  requestedBy?: { uniqueName: string };
  requestedFor?: { uniqueName: string };
}

/** The capturer's accounts: the run's requester and the one it ran for (lower case, no blanks). */
export function capturersOf(run: RunRequesters): string[] {
  return [run.requestedBy?.uniqueName, run.requestedFor?.uniqueName]
    .map((u) => (u ?? '').trim().toLowerCase())
    .filter((u, i, all) => u !== '' && all.indexOf(u) === i);
}

/**
 * Whether `approver` may approve a capture made by `run`: never the run's requester nor the one it
 * ran for, and never a run whose requester is unknown (it fails closed).
 */
export function mayApproveCapture(approver: string, run: RunRequesters): boolean {
  const capturers = capturersOf(run);
  const who = approver.trim().toLowerCase();
  return who !== '' && capturers.length > 0 && !capturers.includes(who);
}
