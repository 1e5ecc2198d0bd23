// Azure DevOps REST wire models (api-version 7.1), trimmed to the fields Aegis reads
// (reference: shared/reference/azure-devops-rest.md). Mapped to ./types at the edge.

export interface WireList<T> {
  count: number;
  value: T[];
}

export interface WireErrorBody {
  $id?: string;
  innerException?: WireErrorBody | null;
  message?: string;
  typeName?: string;
  typeKey?: string;
  errorCode?: number;
  eventId?: number;
}

interface WireLinks {
  [name: string]: { href: string } | undefined;
}

export interface WireProject {
  id: string;
  name: string;
  description?: string;
  url: string;
  state: string;
  revision: number;
  visibility: string;
  lastUpdateTime?: string;
}

export interface WirePipeline {
  _links: WireLinks;
  url: string;
  id: number;
  revision: number;
  name: string;
  folder: string;
}

export interface WireRun {
  _links: WireLinks;
  pipeline: { id: number; name: string; folder: string; revision: number; url: string };
  state: string;
  result?: string;
  createdDate: string;
  finishedDate?: string;
  url: string;
  id: number;
  name: string;
  templateParameters?: Record<string, unknown>;
}

export interface WireRunPipelineParameters {
  resources?: { repositories?: Record<string, { refName?: string; version?: string }> };
  templateParameters?: Record<string, string>;
  variables?: Record<string, { value: string; isSecret?: boolean }>;
  stagesToSkip?: string[];
}

/** Service Hooks - Subscriptions (hooks 7.1): the fields Aegis reads. */
export interface WireHookSubscription {
  id: string;
  status?: string;
  publisherId?: string;
  eventType?: string;
  consumerId?: string;
  consumerActionId?: string;
  publisherInputs?: Record<string, string>;
  consumerInputs?: Record<string, string>;
}

export interface WireRepository {
  id: string;
  name: string;
  url: string;
  project: WireProject;
  defaultBranch?: string;
  size?: number;
  remoteUrl?: string;
  webUrl?: string;
}

export interface WireItem {
  objectId: string;
  gitObjectType: string;
  commitId: string;
  path: string;
  isFolder?: boolean;
  content?: string;
  url: string;
}

interface WireIdentityRef {
  id: string;
  displayName: string;
  uniqueName: string;
  url?: string;
}

export interface WireRef {
  name: string;
  objectId: string;
  peeledObjectId?: string;
  creator?: WireIdentityRef;
  url: string;
}

export interface WireRefUpdateResult {
  repositoryId: string;
  name: string;
  oldObjectId: string;
  newObjectId: string;
  isLocked: boolean;
  success: boolean;
  updateStatus: string;
  customMessage?: string;
}

export interface WireAnnotatedTag {
  name: string;
  objectId: string;
  taggedObject: { objectId: string; objectType: string };
  taggedBy: { name: string; email: string; date: string };
  message: string;
  url: string;
}

interface WirePushChange {
  changeType: 'add' | 'edit' | 'delete' | 'rename';
  item: { path: string };
  sourceServerItem?: string;
  newContent?: { content: string; contentType: 'rawtext' | 'base64encoded' };
}

export interface WirePush {
  refUpdates: { name: string; oldObjectId: string }[];
  commits: {
    comment: string;
    author?: { name: string; email: string };
    changes: WirePushChange[];
  }[];
}

export interface WirePushResult {
  commits: { commitId: string; treeId: string; comment: string; parents: string[] }[];
  refUpdates: { repositoryId: string; name: string; oldObjectId: string; newObjectId: string }[];
  pushedBy: WireIdentityRef;
  pushId: number;
  date: string;
  url: string;
}

export interface WirePullRequest {
  pullRequestId: number;
  codeReviewId: number;
  status: string;
  createdBy: WireIdentityRef;
  creationDate: string;
  closedDate?: string;
  closedBy?: WireIdentityRef;
  reviewers?: (WireIdentityRef & { vote?: number })[];
  completionOptions?: { deleteSourceBranch?: boolean; mergeCommitMessage?: string };
  title: string;
  description?: string;
  sourceRefName: string;
  targetRefName: string;
  mergeStatus?: string;
  lastMergeCommit?: { commitId: string };
  labels?: { name: string }[];
  repository: WireRepository;
  url: string;
}

export interface WireCommitDiffs {
  allChangesIncluded: boolean;
  changeCounts: Record<string, number>;
  changes: {
    item: {
      objectId: string;
      originalObjectId?: string;
      gitObjectType: string;
      path: string;
      isFolder?: boolean;
    };
    changeType: string;
  }[];
  commonCommit: string;
  baseCommit: string;
  targetCommit: string;
  aheadCount: number;
  behindCount: number;
}

export interface WireCommitRef {
  commitId: string;
  comment?: string;
  author?: { name?: string; email?: string; date?: string };
  committer?: { name?: string; email?: string; date?: string };
}

/** Build - Get (the fields Aegis reads). */
export interface WireBuild {
  id: number;
  definition: { id: number };
  sourceBranch?: string;
  templateParameters?: Record<string, unknown>;
  requestedBy?: WireIdentityRef;
  requestedFor?: WireIdentityRef;
}

/** Policy Configurations - Get / List / Create / Update. */
export interface WirePolicyConfiguration {
  id: number;
  type: { id: string; displayName?: string };
  isEnabled: boolean;
  isBlocking: boolean;
  isDeleted?: boolean;
  settings: Record<string, unknown> & {
    scope?: { repositoryId?: string | null; refName?: string; matchKind?: string }[];
  };
}
