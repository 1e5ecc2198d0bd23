// The emulator's non-git state (projects, pipelines, runs, pull requests), kept as one JSON
// file beside the bare repositories so a restart keeps everything.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { GitRepo } from './git';

export interface ProjectRecord {
  id: string;
  name: string;
  description: string;
  revision: number;
  lastUpdateTime: string;
}

export interface RepositoryRecord {
  id: string;
  name: string;
  projectId: string;
}

export interface PipelineRecord {
  id: number;
  name: string;
  /** backslash folder, root = '\\' */
  folder: string;
  projectId: string;
  revision: number;
  repositoryId?: string;
  yamlPath?: string;
}

type RunState = 'notStarted' | 'inProgress' | 'completed';
export type RunResult = 'succeeded' | 'failed' | 'canceled';

export interface IdentityRecord {
  id: string;
  displayName: string;
  uniqueName: string;
}

export interface RunRecord {
  id: number;
  pipelineId: number;
  name: string;
  state: RunState;
  result?: RunResult;
  createdDate: string;
  finishedDate?: string;
  refName: string;
  sourceVersion?: string;
  templateParameters: Record<string, string>;
  variables: Record<string, { value: string; isSecret: boolean }>;
  stagesToSkip: string[];
  requestedBy?: IdentityRecord;
  /** effect output, e.g. the backup tag created */
  log: string[];
}

export interface PullRequestRecord {
  pullRequestId: number;
  repositoryId: string;
  status: 'active' | 'abandoned' | 'completed';
  title: string;
  description: string;
  sourceRefName: string;
  targetRefName: string;
  createdBy: IdentityRecord;
  creationDate: string;
  closedDate?: string;
  isDraft: boolean;
  labels: string[];
  reviewers: {
    id: string;
    isRequired: boolean;
    /** 10 approved, 5 approved with suggestions, 0 none, -5 waiting, -10 rejected */
    vote?: number;
    displayName?: string;
    uniqueName?: string;
  }[];
  /** who completed or abandoned it */
  closedBy?: IdentityRecord;
  completionOptions?: {
    deleteSourceBranch?: boolean;
    mergeCommitMessage?: string;
    bypassPolicy?: boolean;
    bypassReason?: string;
  };
  lastMergeSourceCommit: string;
  lastMergeTargetCommit: string;
  lastMergeCommit?: string;
}

/** A branch policy (Policy Configurations API): its type, where it applies and its settings. */
export interface PolicyConfigurationRecord {
  id: number;
  revision: number;
  projectId: string;
  typeId: string;
  isEnabled: boolean;
  isBlocking: boolean;
  isDeleted: boolean;
  /** as posted: type-specific fields plus `scope` ({ repositoryId, refName, matchKind }[]) */
  settings: Record<string, unknown>;
  createdBy: IdentityRecord;
  createdDate: string;
}

/**
 * A Git permission granted to an identity on a repository (security namespace 'Git
 * Repositories'): here only the two policy bypass bits, see `GIT_PERMISSION`.
 */
interface GitPermissionGrant {
  repositoryId: string;
  identityId: string;
  /** bit mask of `GIT_PERMISSION` values */
  allow: number;
}

/** A web hook subscription (Service Hooks, publisher 'tfs', consumer 'webHooks'). */
export interface HookSubscriptionRecord {
  id: string;
  publisherId: 'tfs';
  eventType: 'git.push';
  resourceVersion: string;
  consumerId: 'webHooks';
  consumerActionId: 'httpRequest';
  publisherInputs: Record<string, string>;
  /** url, basicAuthUsername, basicAuthPassword, httpHeaders */
  consumerInputs: Record<string, string>;
  status: 'enabled';
  createdBy: IdentityRecord;
  createdDate: string;
  modifiedDate: string;
}

/** A branch or tag moved: what the `git.push` event tells its subscribers. */
export interface RefUpdateEvent {
  project: ProjectRecord;
  repository: RepositoryRecord;
  refName: string;
  oldObjectId: string;
  newObjectId: string;
  pushedBy: IdentityRecord;
  pushId: number;
  date: string;
  commits: { commitId: string; comment: string }[];
}

export interface DevOpsStateData {
  organization: string;
  projects: ProjectRecord[];
  repositories: RepositoryRecord[];
  pipelines: PipelineRecord[];
  runs: RunRecord[];
  pullRequests: PullRequestRecord[];
  nextRunId: number;
  nextPullRequestId: number;
  nextPushId: number;
  policyConfigurations: PolicyConfigurationRecord[];
  nextPolicyConfigurationId: number;
  gitPermissions: GitPermissionGrant[];
  /** who last pushed to a branch, by `{repositoryId} {refName}` (blockLastPusherVote) */
  lastPushers: Record<string, IdentityRecord>;
  hookSubscriptions: HookSubscriptionRecord[];
}

export const STATE_FILE = 'devops-state.json';

export function emptyState(organization: string): DevOpsStateData {
  return {
    organization,
    projects: [],
    repositories: [],
    pipelines: [],
    runs: [],
    pullRequests: [],
    nextRunId: 1000,
    nextPullRequestId: 1,
    nextPushId: 1,
    policyConfigurations: [],
    nextPolicyConfigurationId: 1,
    gitPermissions: [],
    lastPushers: {},
    hookSubscriptions: [],
  };
}

export class DevOpsState {
  /** page size for continuation-token lists when the caller sends no $top (runtime only) */
  defaultPageSize: number | undefined;
  private readonly refListeners: ((update: RefUpdateEvent) => void)[] = [];

  /** Tells the listeners (service hooks) that a ref moved, after the move is stored. */
  refUpdated(update: RefUpdateEvent): void {
    for (const listener of this.refListeners) listener(update);
  }

  onRefUpdated(listener: (update: RefUpdateEvent) => void): void {
    this.refListeners.push(listener);
  }

  private constructor(
    readonly dataDir: string,
    readonly data: DevOpsStateData,
  ) {}

  static load(dataDir: string, organization = 'aegis-msp'): DevOpsState {
    mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, STATE_FILE);
    const data = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as DevOpsStateData)
      : emptyState(organization);
    // state files written before branch policies existed
    data.policyConfigurations ??= [];
    data.nextPolicyConfigurationId ??= 1;
    data.gitPermissions ??= [];
    data.lastPushers ??= {};
    data.hookSubscriptions ??= [];
    const state = new DevOpsState(dataDir, data);
    // Runs that were in flight when the emulator stopped cannot finish any more.
    for (const run of data.runs) {
      if (run.state !== 'completed') {
        run.state = 'completed';
        run.result = 'canceled';
        run.finishedDate = new Date().toISOString();
      }
    }
    return state;
  }

  save(): void {
    const file = path.join(this.dataDir, STATE_FILE);
    writeFileSync(`${file}.tmp`, JSON.stringify(this.data, null, 2));
    renameSync(`${file}.tmp`, file);
  }

  repoDir(repositoryId: string): string {
    return path.join(this.dataDir, 'repos', `${repositoryId}.git`);
  }

  git(repositoryId: string): GitRepo {
    return new GitRepo(this.repoDir(repositoryId));
  }

  findProject(idOrName: string): ProjectRecord | undefined {
    const key = decodeURIComponent(idOrName).toLowerCase();
    return this.data.projects.find((p) => p.id === key || p.name.toLowerCase() === key);
  }

  findRepository(project: ProjectRecord, idOrName: string): RepositoryRecord | undefined {
    const key = decodeURIComponent(idOrName).toLowerCase();
    return this.data.repositories.find(
      (r) => r.projectId === project.id && (r.id === key || r.name.toLowerCase() === key),
    );
  }

  findPipeline(project: ProjectRecord, id: number): PipelineRecord | undefined {
    return this.data.pipelines.find((p) => p.projectId === project.id && p.id === id);
  }
}
