import {
  MINIMUM_REVIEWERS_POLICY_TYPE,
  type DevOpsApi,
  type PolicyConfiguration,
  type RepositoryRef,
} from '@aegis/connectors/devops';
import type { BranchProtection } from '@aegis/contracts';
import {
  MAIN_BRANCH,
  MAIN_REF,
  NotFoundError,
  REQUIRED_REVIEWER_POLICY,
  reviewerPolicyGaps,
} from '@aegis/domain';

const NO_POLICY = 'main has no required minimum reviewers policy';

/**
 * Main's branch policy (ADR 051): whether the configuration repository's main has the reviewer
 * policy four eyes needs, and setting it up through the Policy Configurations API.
 */
export class BranchProtectionService {
  constructor(
    /** DevOps as whoever checks or sets up: the Aegis service identity, else the caller */
    private readonly devops: DevOpsApi,
    private readonly repo: RepositoryRef,
    private readonly serviceIdentity: boolean,
  ) {}

  private async repositoryId(): Promise<string> {
    const repository = await this.devops.getRepository(this.repo);
    if (!repository) throw new NotFoundError(`Repository ${this.repo.repository} not found`);
    return repository.id;
  }

  /** The reviewer policies that cover main of the repository, best (fewest gaps) first. */
  private async reviewerPoliciesOfMain(
    repositoryId: string,
  ): Promise<{ policy: PolicyConfiguration; gaps: string[] }[]> {
    const policies = await this.devops.listPolicyConfigurations(this.repo.project);
    return policies
      .filter(
        (p) =>
          p.typeId.toLowerCase() === MINIMUM_REVIEWERS_POLICY_TYPE &&
          p.scope.some(
            (s) =>
              (!s.repositoryId || s.repositoryId.toLowerCase() === repositoryId.toLowerCase()) &&
              (s.refName === undefined ||
                (s.matchKind === 'prefix'
                  ? MAIN_REF.startsWith(s.refName)
                  : s.refName === MAIN_REF)),
          ),
      )
      .map((policy) => ({ policy, gaps: reviewerPolicyGaps(policy) }))
      .sort((a, b) => a.gaps.length - b.gaps.length);
  }

  private answer(gaps: string[]): BranchProtection {
    return {
      protected: gaps.length === 0,
      gaps,
      serviceIdentity: this.serviceIdentity,
      repository: this.repo.repository,
      branch: MAIN_BRANCH,
    };
  }

  async check(): Promise<BranchProtection> {
    const [best] = await this.reviewerPoliciesOfMain(await this.repositoryId());
    return this.answer(best ? best.gaps : [NO_POLICY]);
  }

  /**
   * Puts the required policy on main: the closest existing reviewer policy is given the required
   * settings (its scope kept), else one is created for exactly this repository's main.
   */
  async setUp(): Promise<BranchProtection> {
    const repositoryId = await this.repositoryId();
    const [best] = await this.reviewerPoliciesOfMain(repositoryId);
    if (best && best.gaps.length === 0) return this.answer([]);
    const required = {
      typeId: MINIMUM_REVIEWERS_POLICY_TYPE,
      isEnabled: true,
      isBlocking: true,
      settings: {
        ...best?.policy.settings,
        ...REQUIRED_REVIEWER_POLICY,
        minimumApproverCount: Math.max(
          REQUIRED_REVIEWER_POLICY.minimumApproverCount,
          Number(best?.policy.settings['minimumApproverCount']) || 0,
        ),
      },
    };
    if (best) {
      await this.devops.updatePolicyConfiguration(this.repo.project, best.policy.id, {
        ...required,
        scope: best.policy.scope,
      });
    } else {
      await this.devops.createPolicyConfiguration(this.repo.project, {
        ...required,
        scope: [{ repositoryId, refName: MAIN_REF, matchKind: 'exact' }],
      });
      await this.removeDuplicates(repositoryId);
    }
    return this.check();
  }

  /**
   * Azure DevOps has no create-if-absent: set-ups that run at once (two Administrators, two
   * server instances) each create a policy. Afterwards each keeps the oldest complete policy on
   * exactly this repository's main and deletes the other such ones, so however they interleave
   * one remains (the oldest is never deleted: nobody sees an older one). Policies scoped
   * otherwise are someone's own configuration and are left alone.
   */
  private async removeDuplicates(repositoryId: string): Promise<void> {
    const ours = (await this.reviewerPoliciesOfMain(repositoryId))
      .filter(({ policy, gaps }) => gaps.length === 0 && isExactlyMainOf(policy, repositoryId))
      .map(({ policy }) => policy.id)
      .sort((a, b) => a - b);
    for (const id of ours.slice(1)) {
      await this.devops.deletePolicyConfiguration(this.repo.project, id);
    }
  }
}

/** A policy whose one scope is exactly main of the repository (what setUp creates). */
function isExactlyMainOf(policy: PolicyConfiguration, repositoryId: string): boolean {
  const [scope, ...others] = policy.scope;
  return (
    others.length === 0 &&
    scope?.repositoryId?.toLowerCase() === repositoryId.toLowerCase() &&
    scope.refName === MAIN_REF &&
    scope.matchKind !== 'prefix'
  );
}
