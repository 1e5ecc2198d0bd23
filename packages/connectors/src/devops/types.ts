// The Azure DevOps ports the server depends on, in domain terms (no wire shapes). `DevOpsClient`
// implements them against dev.azure.com or the emulator; `InMemoryDevOps` (./testing) fakes them.
import type { RetryOptions } from '../shared';

export interface RequestOptions {
  abortSignal?: AbortSignal;
}

export interface Project {
  id: string;
  name: string;
  description?: string;
  lastUpdateTime?: string;
}

export interface Pipeline {
  id: number;
  name: string;
  /** as the service gives it, backslash-separated, root '\\' (e.g. '\\ABC') */
  folder: string;
  revision: number;
  /** the project id: 5th path segment of the pipeline's self link (spec 1 §3) */
  projectId: string;
  url: string;
}

export type RunState = 'notStarted' | 'inProgress' | 'canceling' | 'completed' | 'unknown';
export type RunResult = 'succeeded' | 'failed' | 'canceled' | 'unknown';

export interface PipelineRun {
  id: number;
  pipelineId: number;
  name: string;
  state: RunState;
  result?: RunResult;
  createdDate: string;
  finishedDate?: string;
}

export interface Identity {
  id: string;
  displayName: string;
  uniqueName: string;
}

/** A run as the Build API records it: who asked for it, for whom, and with which parameters. */
export interface BuildRecord {
  id: number;
  /** the pipeline (build definition) the run belongs to */
  definitionId: number;
  sourceBranch?: string;
  templateParameters: Record<string, string>;
  requestedBy?: Identity;
  requestedFor?: Identity;
}

export interface RunPipelineRequest {
  /** full ref of the pipeline's own repository (default refs/heads/main) */
  refName?: string;
  templateParameters?: Record<string, string>;
  variables?: Record<string, { value: string; isSecret?: boolean }>;
  stagesToSkip?: string[];
}

export interface PipelinesPort {
  listProjects(options?: RequestOptions): Promise<Project[]>;
  listPipelines(project: string, options?: RequestOptions): Promise<Pipeline[]>;
  runPipeline(
    project: string,
    pipelineId: number,
    request?: RunPipelineRequest,
    options?: RequestOptions,
  ): Promise<PipelineRun>;
  getRun(
    project: string,
    pipelineId: number,
    runId: number,
    options?: RequestOptions,
  ): Promise<PipelineRun | undefined>;
  /** the run's log lines, oldest first (Build - Get Build Logs); undefined when the run is unknown */
  getRunLog(
    project: string,
    runId: number,
    options?: RequestOptions,
  ): Promise<string[] | undefined>;
  /** a run as the Build API records it (Build - Get); undefined when there is no such run */
  getBuild(
    project: string,
    buildId: number,
    options?: RequestOptions,
  ): Promise<BuildRecord | undefined>;
  /** the runs of a pipeline, newest first (the service answers up to 10,000) */
  listRuns(project: string, pipelineId: number, options?: RequestOptions): Promise<PipelineRun[]>;
}

export interface CreatePipelineRequest {
  name: string;
  /** backslash folder, e.g. '\\ABC' */
  folder: string;
  /** the YAML file in the repository, e.g. /Client_Yaml_Files/ABC-azure-pipelines.yml */
  yamlPath: string;
  /** repository id (Azure Repos) */
  repositoryId: string;
}

/** Creating YAML pipelines (Pipelines - Create); onboarding uses it. */
export interface PipelineDefinitionsPort {
  createPipeline(
    project: string,
    request: CreatePipelineRequest,
    options?: RequestOptions,
  ): Promise<Pipeline>;
}

/** A repository is addressed by project (name or id) and repository (name or id). */
export interface RepositoryRef {
  project: string;
  repository: string;
}

/** A web hook subscription to pushes of one repository's branch (Service Hooks, `git.push`). */
export interface GitPushHook {
  id: string;
  /** where the service posts the event */
  url: string;
  status: string;
  projectId?: string;
  repositoryId?: string;
  branch?: string;
}

export interface GitPushHookRequest {
  projectId: string;
  repositoryId: string;
  /** branch name without refs/heads/ */
  branch: string;
  url: string;
  /** sent as HTTP basic credentials with every event */
  basicAuthUsername: string;
  basicAuthPassword: string;
}

export interface Repository {
  id: string;
  name: string;
  projectId: string;
  defaultBranch?: string;
  size?: number;
  webUrl?: string;
}

/** A version of the repository; branch and tag names are short (`main`, `backup/ABC/...`). */
export type VersionSpec = { branch: string } | { tag: string } | { commit: string };

export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface GitItem {
  /** repository path with a leading slash */
  path: string;
  objectId: string;
  gitObjectType: GitObjectType;
  commitId: string;
  isFolder: boolean;
}

export interface RepositoryFile {
  path: string;
  objectId?: string;
  content: string;
}

/** A folder's files at one commit, read in two requests (listing + zip), never one per file. */
export interface FolderSnapshot {
  commitId: string;
  /** repository paths (leading slash) → content */
  files: RepositoryFile[];
}

export interface GitRef {
  /** full name, e.g. refs/tags/backup/ABC/20250301_010000 */
  name: string;
  /** the ref's object: the tag object for annotated tags */
  objectId: string;
  /** the commit the ref finally points at (peeled for annotated tags) */
  commitId: string;
  creator?: { displayName: string; uniqueName: string };
}

/** A commit as Get Commits lists it. */
export interface GitCommitRef {
  commitId: string;
  /** the commit message (the service may truncate it) */
  comment: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
}

export interface ListCommitsOptions extends RequestOptions {
  /** only commits touching this path */
  itemPath?: string;
  /** where the history starts (default: the default branch) */
  version?: VersionSpec;
  /** at most this many, newest first (default 100, as on the service) */
  top?: number;
  /**
   * With `itemPath`: how merges are walked (the service's default is simplifiedHistory, which
   * follows a merged branch's own commits); firstParent keeps to the target branch's commits.
   */
  historyMode?: 'simplifiedHistory' | 'firstParent' | 'fullHistory' | 'fullHistorySimplifyMerges';
}

export interface AnnotatedTag {
  name: string;
  objectId: string;
  commitId: string;
  message: string;
  taggedBy: { name: string; email: string; date: string };
}

export type FileChange =
  | { changeType: 'add' | 'edit'; path: string; content: string; encoding?: 'utf8' | 'base64' }
  | { changeType: 'delete'; path: string }
  | { changeType: 'rename'; path: string; sourcePath: string };

export interface PushRequest {
  /** branch to update or create: full (refs/heads/x) or short (x) */
  branch: string;
  /**
   * Current tip of an existing branch (stale → ServiceError 409 TF401028), or the base commit of
   * a new branch, or 40 zeros for the first commit of an empty repository.
   */
  oldObjectId: string;
  commits: {
    comment: string;
    changes: FileChange[];
    /** who made the change (default: the pushing identity), e.g. the technician Aegis acts for */
    author?: { name: string; email: string };
  }[];
}

export interface PushResult {
  pushId: number;
  refName: string;
  oldObjectId: string;
  /** the new tip */
  commitId: string;
  date: string;
}

export interface RefUpdate {
  name: string;
  oldObjectId: string;
  newObjectId: string;
}

export interface RefUpdateResult extends RefUpdate {
  success: boolean;
  updateStatus: string;
}

export type PullRequestStatus = 'active' | 'abandoned' | 'completed';

export interface PullRequest {
  pullRequestId: number;
  status: PullRequestStatus;
  title: string;
  description: string;
  sourceRefName: string;
  targetRefName: string;
  createdBy: { id: string; displayName: string; uniqueName: string };
  creationDate: string;
  closedDate?: string;
  /** who completed or abandoned it */
  closedBy?: { id: string; displayName: string; uniqueName: string };
  /** votes: 10 approved, 5 approved with suggestions, 0 none, -5 waiting, -10 rejected */
  reviewers: { id: string; displayName: string; uniqueName: string; vote: number }[];
  completionOptions?: { deleteSourceBranch?: boolean; mergeCommitMessage?: string };
  mergeStatus?: string;
  lastMergeCommitId?: string;
  labels: string[];
  repositoryId: string;
  /** browser link: {org}/{project}/_git/{repo}/pullrequest/{id} */
  webUrl: string;
}

export interface CreatePullRequest {
  sourceRefName: string;
  targetRefName: string;
  title: string;
  description?: string;
  labels?: string[];
  reviewers?: { id: string; isRequired?: boolean }[];
  isDraft?: boolean;
  /** e.g. delete the source branch when the pull request completes */
  completionOptions?: { deleteSourceBranch?: boolean; mergeCommitMessage?: string };
}

export interface ListPullRequestsOptions extends RequestOptions {
  status?: PullRequestStatus | 'all';
  targetRefName?: string;
  sourceRefName?: string;
  top?: number;
  skip?: number;
}

export interface CommitDiffChange {
  path: string;
  changeType: 'add' | 'edit' | 'delete' | 'rename';
  objectId: string;
  originalObjectId?: string;
  isFolder: boolean;
}

export interface CommitDiff {
  baseCommit: string;
  targetCommit: string;
  commonCommit: string;
  aheadCount: number;
  behindCount: number;
  /** Add / Edit / Delete … (as the service counts them) */
  changeCounts: Record<string, number>;
  changes: CommitDiffChange[];
}

export interface ItemsOptions extends RequestOptions {
  version?: VersionSpec;
  recursion?: 'none' | 'oneLevel' | 'full';
}

export interface ReadFolderOptions extends ItemsOptions {
  /**
   * The folder's listing at full recursion, already read (its first item is the folder itself): the
   * snapshot then costs one request, the zip. Lets a caller key a cache on the folder's object id first.
   */
  listing?: readonly GitItem[];
}

export interface GitPort {
  listRepositories(project: string, options?: RequestOptions): Promise<Repository[]>;
  getRepository(repo: RepositoryRef, options?: RequestOptions): Promise<Repository | undefined>;
  /** items under a path ([] when the path does not exist) */
  listItems(repo: RepositoryRef, scopePath: string, options?: ItemsOptions): Promise<GitItem[]>;
  /** every file of a folder with its content (one listing + one zip), undefined if missing */
  readFolder(
    repo: RepositoryRef,
    folderPath: string,
    options?: ReadFolderOptions,
  ): Promise<FolderSnapshot | undefined>;
  /** a folder (or file) as a zip archive, undefined if missing */
  getZip(
    repo: RepositoryRef,
    path: string,
    options?: ItemsOptions,
  ): Promise<Uint8Array | undefined>;
  /**
   * A folder as a zip read while it downloads: `onEntry` gets each file (name as stored in the
   * archive) in archive order; entries `wanted` refuses are skipped unread. False when missing.
   */
  forEachZipEntry(
    repo: RepositoryRef,
    path: string,
    onEntry: (name: string, bytes: Uint8Array) => void | Promise<void>,
    options?: ItemsOptions & { wanted?: (name: string) => boolean },
  ): Promise<boolean>;
  /** one file's text (UTF-8), undefined if missing */
  getFile(
    repo: RepositoryRef,
    path: string,
    options?: ItemsOptions,
  ): Promise<RepositoryFile | undefined>;
  /** many blobs' text (UTF-8) by object id in one request (a zip); throws if one is missing */
  getBlobs(
    repo: RepositoryRef,
    objectIds: readonly string[],
    options?: RequestOptions,
  ): Promise<Map<string, string>>;
  /** refs by prefix filter without 'refs/' (e.g. 'tags/backup/ABC'), all pages */
  listRefs(repo: RepositoryRef, filter?: string, options?: RequestOptions): Promise<GitRef[]>;
  updateRefs(
    repo: RepositoryRef,
    updates: RefUpdate[],
    options?: RequestOptions,
  ): Promise<RefUpdateResult[]>;
  createAnnotatedTag(
    repo: RepositoryRef,
    tag: { name: string; commitId: string; message: string },
    options?: RequestOptions,
  ): Promise<AnnotatedTag>;
  getAnnotatedTag(
    repo: RepositoryRef,
    objectId: string,
    options?: RequestOptions,
  ): Promise<AnnotatedTag | undefined>;
  push(repo: RepositoryRef, push: PushRequest, options?: RequestOptions): Promise<PushResult>;
  createPullRequest(
    repo: RepositoryRef,
    request: CreatePullRequest,
    options?: RequestOptions,
  ): Promise<PullRequest>;
  listPullRequests(repo: RepositoryRef, options?: ListPullRequestsOptions): Promise<PullRequest[]>;
  getPullRequest(
    repo: RepositoryRef,
    pullRequestId: number,
    options?: RequestOptions,
  ): Promise<PullRequest | undefined>;
  /** the history of a version, newest first, optionally only the commits touching a path */
  listCommits(repo: RepositoryRef, options?: ListCommitsOptions): Promise<GitCommitRef[]>;
  /** changes from base (or the common commit) to target, all pages */
  getCommitDiff(
    repo: RepositoryRef,
    base: VersionSpec,
    target: VersionSpec,
    options?: RequestOptions & { diffCommonCommit?: boolean },
  ): Promise<CommitDiff>;
}

/** Everything Aegis needs from Azure DevOps. */
/** Where a branch policy applies: a repository (every one when absent) and a ref or ref prefix. */
export interface PolicyScope {
  repositoryId?: string | null;
  refName?: string;
  matchKind?: 'exact' | 'prefix';
}

/** A branch policy of a project (Policy Configurations API). */
export interface PolicyConfiguration {
  id: number;
  typeId: string;
  isEnabled: boolean;
  isBlocking: boolean;
  /** type-specific settings, e.g. minimumApproverCount, creatorVoteCounts; `scope` apart */
  settings: Record<string, unknown>;
  scope: PolicyScope[];
}

export interface NewPolicyConfiguration {
  typeId: string;
  isEnabled: boolean;
  isBlocking: boolean;
  settings: Record<string, unknown>;
  scope: PolicyScope[];
}

export interface PoliciesPort {
  listPolicyConfigurations(
    project: string,
    options?: RequestOptions,
  ): Promise<PolicyConfiguration[]>;
  createPolicyConfiguration(
    project: string,
    policy: NewPolicyConfiguration,
    options?: RequestOptions,
  ): Promise<PolicyConfiguration>;
  updatePolicyConfiguration(
    project: string,
    id: number,
    policy: NewPolicyConfiguration,
    options?: RequestOptions,
  ): Promise<PolicyConfiguration>;
  /** Deletes a branch policy; succeeds when it is already gone. */
  deletePolicyConfiguration(project: string, id: number, options?: RequestOptions): Promise<void>;
}

/** Service Hooks: Aegis subscribes to pushes of the configuration repository's main (ADR 062). */
export interface ServiceHooksPort {
  listGitPushHooks(options?: RequestOptions): Promise<GitPushHook[]>;
  createGitPushHook(request: GitPushHookRequest, options?: RequestOptions): Promise<GitPushHook>;
  replaceGitPushHook(
    id: string,
    request: GitPushHookRequest,
    options?: RequestOptions,
  ): Promise<GitPushHook>;
}

export interface DevOpsApi extends PipelinesPort, GitPort, PoliciesPort, ServiceHooksPort {}

export interface DevOpsClientOptions {
  /** https://dev.azure.com/{organization}, or the emulator's organization URL */
  organizationUrl: string;
  /** a bearer token for Azure DevOps (scope 499b84ac-1321-427f-aa17-267ca6975798/.default) */
  getToken: () => Promise<string>;
  retry?: RetryOptions;
  fetch?: typeof fetch;
  /** how long one call may take before it is aborted and reported as a timeout (default 30 s) */
  timeoutInMs?: number;
}
