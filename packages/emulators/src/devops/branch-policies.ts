// Branch policies as Azure DevOps enforces them: a branch with an enabled, blocking policy takes
// changes only through pull requests (a push or ref update is refused with TF402455 unless the
// pusher may bypass policies), and a pull request into it completes only when its policies pass.
import { MINIMUM_REVIEWERS_POLICY_TYPE } from '@aegis/connectors/devops';

import { DevOpsError } from './routes/common';
import type {
  DevOpsState,
  IdentityRecord,
  PolicyConfigurationRecord,
  PullRequestRecord,
} from './state';

/** The policy bypass bits of the 'Git Repositories' security namespace. */
export const GIT_PERMISSION = {
  /** 'Bypass policies when pushing' */
  PolicyExempt: 128,
  /** 'Edit policies' */
  EditPolicies: 2048,
  /** 'Bypass policies when completing pull requests' */
  PullRequestBypassPolicy: 32768,
} as const;

/** The policy types the emulator knows (`GET _apis/policy/types`). */
export const POLICY_TYPES = [
  {
    id: MINIMUM_REVIEWERS_POLICY_TYPE,
    displayName: 'Minimum number of reviewers',
    description:
      'This policy will ensure that a minimum number of reviewers have approved a pull request before completion.',
  },
] as const;

interface PolicyScope {
  repositoryId?: string | null;
  refName?: string;
  matchKind?: string;
}

function scopesOf(policy: PolicyConfigurationRecord): PolicyScope[] {
  const scope = policy.settings['scope'];
  return Array.isArray(scope) ? (scope as PolicyScope[]) : [];
}

/** Whether a scope entry covers a branch of a repository (exact ref or ref prefix; null repo = all). */
function scopeCovers(scope: PolicyScope, repositoryId: string, refName: string): boolean {
  if (scope.repositoryId && scope.repositoryId.toLowerCase() !== repositoryId.toLowerCase())
    return false;
  if (!scope.refName) return true;
  return (scope.matchKind ?? 'exact').toLowerCase() === 'prefix'
    ? refName.startsWith(scope.refName)
    : refName === scope.refName;
}

/** The enabled, blocking policies that apply to a branch of a repository. */
export function blockingPoliciesOf(
  state: DevOpsState,
  repositoryId: string,
  refName: string,
): PolicyConfigurationRecord[] {
  const repo = state.data.repositories.find((r) => r.id === repositoryId);
  return state.data.policyConfigurations.filter(
    (p) =>
      !p.isDeleted &&
      p.isEnabled &&
      p.isBlocking &&
      (!repo || p.projectId === repo.projectId) &&
      scopesOf(p).some((s) => scopeCovers(s, repositoryId, refName)),
  );
}

export function hasGitPermission(
  state: DevOpsState,
  repositoryId: string,
  identityId: string,
  permission: number,
): boolean {
  return state.data.gitPermissions.some(
    (g) =>
      g.repositoryId === repositoryId &&
      g.identityId.toLowerCase() === identityId.toLowerCase() &&
      (g.allow & permission) === permission,
  );
}

function needsPermission(permission: string, who: IdentityRecord, scope: string): DevOpsError {
  return new DevOpsError(
    403,
    'GitNeedsPermissionException',
    `TF401027: You need the Git '${permission}' permission to perform this action. Details: identity '${who.displayName}', scope '${scope}'.`,
  );
}

/**
 * Refuses to create, change or delete a policy unless the caller may edit the policies of every
 * repository it covers (a scope without a repository covers every repository of the project).
 */
export function assertMayEditPolicies(
  state: DevOpsState,
  projectId: string,
  scopes: readonly { repositoryId?: string | null }[],
  who: IdentityRecord,
): void {
  const repositories = state.data.repositories.filter((r) => r.projectId === projectId);
  const covered = scopes.some((s) => !s.repositoryId)
    ? repositories.map((r) => r.id)
    : scopes.map((s) => String(s.repositoryId));
  for (const repositoryId of covered) {
    if (!hasGitPermission(state, repositoryId, who.id, GIT_PERMISSION.EditPolicies))
      throw needsPermission('EditPolicies', who, 'repository');
  }
}

/**
 * Refuses a direct update of a branch that has blocking policies (a push, or a ref update that
 * moves or deletes it), unless the identity may bypass policies when pushing.
 */
export function assertMayUpdateBranch(
  state: DevOpsState,
  repositoryId: string,
  refName: string,
  who: IdentityRecord,
): void {
  if (!refName.startsWith('refs/heads/')) return;
  if (blockingPoliciesOf(state, repositoryId, refName).length === 0) return;
  if (hasGitPermission(state, repositoryId, who.id, GIT_PERMISSION.PolicyExempt)) return;
  throw new DevOpsError(
    403,
    'GitRefUpdateRejectedByPolicyException',
    'TF402455: Pushes to this branch are not permitted; you must use a pull request to update this branch.',
    'Microsoft.TeamFoundation.Git.Server.GitRefUpdateRejectedByPolicyException, Microsoft.TeamFoundation.Git.Server',
  );
}

function lastPusherKey(repositoryId: string, refName: string): string {
  return `${repositoryId} ${refName}`;
}

/**
 * Records who pushed to a branch and, for the pull requests it is the source of, resets the votes
 * when a policy of their target says so (resetOnSourcePush).
 */
export function recordPush(
  state: DevOpsState,
  repositoryId: string,
  refName: string,
  who: IdentityRecord,
): void {
  state.data.lastPushers[lastPusherKey(repositoryId, refName)] = who;
  for (const pr of state.data.pullRequests) {
    if (pr.repositoryId !== repositoryId || pr.status !== 'active' || pr.sourceRefName !== refName)
      continue;
    const resets = blockingPoliciesOf(state, repositoryId, pr.targetRefName).some(
      (p) => p.typeId === MINIMUM_REVIEWERS_POLICY_TYPE && p.settings['resetOnSourcePush'] === true,
    );
    if (resets) for (const reviewer of pr.reviewers) reviewer.vote = 0;
  }
}

/** Who last pushed to a branch, when the emulator saw it. */
function lastPusherOf(
  state: DevOpsState,
  repositoryId: string,
  refName: string,
): IdentityRecord | undefined {
  return state.data.lastPushers[lastPusherKey(repositoryId, refName)];
}

const APPROVED = 5;

/** Why the 'Minimum number of reviewers' policies of a pull request's target are not met. */
function unmetPolicies(state: DevOpsState, pr: PullRequestRecord): string[] {
  const pusher = lastPusherOf(state, pr.repositoryId, pr.sourceRefName);
  const problems: string[] = [];
  for (const policy of blockingPoliciesOf(state, pr.repositoryId, pr.targetRefName)) {
    if (policy.typeId !== MINIMUM_REVIEWERS_POLICY_TYPE) continue;
    const required = Math.max(1, Number(policy.settings['minimumApproverCount'] ?? 1));
    const counted = pr.reviewers.filter((r) => {
      if ((r.vote ?? 0) < APPROVED) return false;
      const id = r.id.toLowerCase();
      if (policy.settings['creatorVoteCounts'] !== true && id === pr.createdBy.id.toLowerCase())
        return false;
      if (policy.settings['blockLastPusherVote'] === true && id === pusher?.id.toLowerCase())
        return false;
      return true;
    });
    if (counted.length < required) {
      problems.push(
        `At least ${required} reviewer${required === 1 ? '' : 's'} must approve` +
          (policy.settings['creatorVoteCounts'] !== true
            ? " (the creator's vote does not count)"
            : '') +
          (policy.settings['blockLastPusherVote'] === true
            ? " (the last pusher's vote does not count)"
            : '') +
          '.',
      );
    }
  }
  return problems;
}

/**
 * Refuses to complete a pull request whose target's policies are not met, unless the caller asked
 * to bypass them (completionOptions.bypassPolicy) and may ('Bypass policies when completing pull
 * requests'). The message is the one the service answers when no override is given.
 */
export function assertMayComplete(
  state: DevOpsState,
  pr: PullRequestRecord,
  who: IdentityRecord,
): void {
  const problems = unmetPolicies(state, pr);
  if (problems.length === 0) return;
  if (
    pr.completionOptions?.bypassPolicy === true &&
    hasGitPermission(state, pr.repositoryId, who.id, GIT_PERMISSION.PullRequestBypassPolicy)
  )
    return;
  throw new DevOpsError(
    403,
    'PullRequestPolicyNotMetException',
    `This pull request requires an explicit override to bypass policies that aren't currently passing. ${problems.join(' ')}`,
  );
}
