// The configuration repository (ADR 014, ADR 052): the one door to git for every part of Aegis —
// the server's features, the capture review and the pipeline tasks. Reads are trees (one listing +
// one zip, parsed trees cached app-wide by git tree object id) and files; writes are an optimistic
// update of one file (oldObjectId, re-read and re-apply on a stale ref), a proposed change (branch,
// one commit, pull request, removing what it made when a step fails), commits, branches and tags.
// Lint refuses the DevOps client's git methods anywhere else.
import {
  BASELINE_ROOT,
  branchRef,
  CLIENT_YAML_FOLDER,
  CLIENTS_FOLDER,
  ConflictError,
  isAegisMainWritePath,
  isClientCode,
  jsonContent,
  lastSegment,
  LAYERS_FOLDER,
  MAIN_BRANCH,
  NotAllowedError,
  NotFoundError,
  parseClientYamlPath,
  type ConfigFile,
} from '@aegis/domain';
import { LRUCache } from 'lru-cache';

import type {
  AnnotatedTag,
  CommitDiff,
  CreatePullRequest,
  DevOpsApi,
  FileChange,
  GitCommitRef,
  GitItem,
  GitRef,
  ListPullRequestsOptions,
  PullRequest,
  Repository,
  RepositoryRef,
  VersionSpec,
} from '../devops';
import { ZERO_OBJECT_ID } from '../devops';
import { isServiceError, retryOnConflict, ServiceError, type ConflictRetryPolicy } from '../shared';

/** A file of the repository as read from an archive: its repository path and its bytes. */
export interface RawFile {
  path: string;
  bytes: Uint8Array;
}

const utf8Decoder = new TextDecoder();

/** A configuration file from its bytes (UTF-8 JSON; content null when not JSON). */
export function configFileOf(file: RawFile): ConfigFile {
  return { path: file.path, content: jsonContent(utf8Decoder.decode(file.bytes)) };
}

/** One parsed file of a tree: `content` null when not valid JSON. */
export interface ParsedFile extends ConfigFile {
  /** repository path, leading slash */
  path: string;
  /** the blob's object id */
  objectId?: string;
  /** the file's text as stored (BOM included) */
  text: string;
  /** UTF-8 size in bytes */
  bytes: number;
}

/** A folder at one git tree object: immutable, so cached by its object id. */
/** The folder holding the baseline's folder: its listing gives the baseline's tree id. */
const BASELINE_PARENT = BASELINE_ROOT.slice(0, BASELINE_ROOT.lastIndexOf('/'));
/** Joins the company baseline's tree id and the layers folder's in a fleet baseline id. */
const LAYERED = '+layers:';

/** The baseline's tree id and each client folder's, at one version. */
export interface FleetTreeIds {
  baselineTreeId: string | undefined;
  /** client code → its folder's tree id */
  clients: Map<string, string>;
}

export interface ParsedTree {
  folder: string;
  treeId: string;
  commitId: string;
  files: ParsedFile[];
}

/** How a tree missing from the cache is read (one zip), handed to the cache's fetch. */
type TreeRead = () => Promise<ParsedTree | undefined>;

/** A file's text and blob id at a commit, or undefined when the commit has no such file. */
interface FileAtCommit {
  file: { text: string; objectId?: string } | undefined;
}
type FileRead = () => Promise<FileAtCommit>;
/** How a folder's listing missing from the cache is read (one request). */
type ListingRead = () => Promise<GitItem[]>;

/** A full commit id: what a read may be cached by (a branch or a short id may move). */
const FULL_COMMIT_ID = /^[0-9a-f]{40}$/i;

/** The full commit id a version names, or undefined when it names something that moves. */
function fullCommitOf(version: VersionSpec): string | undefined {
  return 'commit' in version && FULL_COMMIT_ID.test(version.commit) ? version.commit : undefined;
}

/** What every ConfigRepository of one app shares: where the repository is, the caches, the write queues. */
export interface ConfigRepositoryShared {
  readonly repo: RepositoryRef;
  /**
   * Parsed trees by git tree id. Read through `fetch`, which joins the reads of one tree already
   * under way: 20 people opening the same client at once cost one zip and one parse, not 20.
   */
  readonly trees: LRUCache<string, ParsedTree, TreeRead>;
  /**
   * Files read at a commit, by commit id and path (a commit's files never change), joined like the
   * trees: the capture branches' metadata and manifests, a client's layers and parameters.
   */
  readonly files: LRUCache<string, FileAtCommit, FileRead>;
  /**
   * Folder listings at a commit, by commit id, folder and depth, joined like the files: a report
   * pinned to main's tip lists the baseline and the client's folder once per commit, not per request.
   */
  readonly listings: LRUCache<string, GitItem[], ListingRead>;
  /** per branch + path + user: writes waiting for the push in flight, applied together next */
  readonly writeQueues: Map<string, WriteQueue>;
  /** how long a write keeps re-applying itself while others push to the same branch */
  readonly retry: ConflictRetryPolicy;
}

interface QueuedWrite {
  mutate: JsonMutation<unknown>;
  message: string;
  resolve: (update: JsonUpdate<unknown>) => void;
  reject: (error: unknown) => void;
}

export interface WriteQueue {
  pending: QueuedWrite[];
}

export const DEFAULT_UPDATE_RETRY: ConflictRetryPolicy = {
  attempts: 60,
  baseDelayInMs: 20,
  maxDelayInMs: 500,
};

/** Parsed trees an app keeps at most: so many, and no more heap than the budget below. */
const TREE_CACHE_ENTRIES = 32;
/**
 * The tree cache's heap budget (ADR 077): 32 trees of a 500-policy client held 800 MB, so the
 * count alone did not bound it; this keeps about six such trees, or every small one.
 */
const TREE_CACHE_BYTES = 128 * 2 ** 20;

/**
 * The heap a parsed tree holds, estimated: each file's text plus its parsed JSON, which measures
 * about as large as the text (a 500-policy tree: 10.4 MB of text, 10.4 MB parsed).
 */
export function parsedTreeBytes(tree: ParsedTree): number {
  return tree.files.reduce((sum, file) => sum + 2 * file.bytes + file.path.length, 1);
}

export function createConfigRepositoryShared(
  repo: RepositoryRef,
  options: {
    treeCacheSize?: number;
    treeCacheBytes?: number;
    retry?: Partial<ConflictRetryPolicy>;
  } = {},
): ConfigRepositoryShared {
  return {
    repo,
    trees: new LRUCache<string, ParsedTree, TreeRead>({
      max: options.treeCacheSize ?? TREE_CACHE_ENTRIES,
      maxSize: options.treeCacheBytes ?? TREE_CACHE_BYTES,
      sizeCalculation: parsedTreeBytes,
      fetchMethod: (_key, _stale, { context }) => context(),
      // a tree evicted while its read is under way is still answered to those who wait for it
      ignoreFetchAbort: true,
    }),
    files: new LRUCache<string, FileAtCommit, FileRead>({
      max: 2_000,
      // the configuration files read one by one are small; a large one must not hold the memory
      maxSize: 32 * 2 ** 20,
      sizeCalculation: (entry) => Math.max(1, entry.file?.text.length ?? 0),
      fetchMethod: (_key, _stale, { context }) => context(),
      ignoreFetchAbort: true,
    }),
    listings: new LRUCache<string, GitItem[], ListingRead>({
      max: 1_000,
      // counted in items (a few hundred bytes each): a 500-policy client's folder is about 600
      maxSize: 100_000,
      sizeCalculation: (items) => items.length + 1,
      fetchMethod: (_key, _stale, { context }) => context(),
      ignoreFetchAbort: true,
    }),
    writeQueues: new Map(),
    retry: { ...DEFAULT_UPDATE_RETRY, ...options.retry },
  };
}

export type ProgressReporter = (percent: number) => void;

export interface JsonUpdate<T> {
  /** the document as written (or as found, when nothing changed) */
  value: T;
  /** the branch's tip afterwards */
  commitId: string;
  /** false when `mutate` asked for no write */
  changed: boolean;
  /** how many pushes were refused as stale before this one went through */
  retries: number;
}

export interface UpdateJsonOptions {
  /** the branch to update (default main) */
  branch?: string;
  /** JSON indentation (default 2) */
  indent?: number;
}

/**
 * How a queued write reads and writes its file: JSON documents, or text kept as it is (YAML whose
 * comments and layout must survive).
 */
interface FileCodec {
  /** part of the write queue's key: writes of different codecs to one file are not batched */
  readonly name: string;
  parse(path: string, text: string): unknown;
  serialize(doc: unknown): string;
}

const jsonCodec = (indent: number): FileCodec => ({
  name: `json:${indent}`,
  parse: (path, text) => parseJsonFile<unknown>(path, text),
  serialize: (doc) => `${JSON.stringify(doc, null, indent)}\n`,
});

const textCodec: FileCodec = {
  name: 'text',
  parse: (_path, text) => text,
  serialize: (doc) => String(doc),
};

/**
 * The mutation of an update: given the current document (undefined when the file does not exist),
 * return the document to write, or undefined to write nothing. It may run more than once (after a
 * stale ref), so it must be a pure function of its input. `base.commitId` is the branch tip the
 * document was read at and the push will be made on (oldObjectId): whatever else the mutation
 * reads at that commit cannot change before the write lands, so a check across files made there
 * holds (a rule over several files, e.g. one build per schedule slot).
 */
export type JsonMutation<T> = (
  current: T | undefined,
  base: { readonly commitId: string },
) => T | undefined | Promise<T | undefined>;

export interface ProposedChange {
  /** the branch to create (short name) */
  branch: string;
  /** the commit the branch starts from (default: the tip of `target`) */
  baseCommitId?: string;
  /** the one commit's message and changes */
  commit: { comment: string; changes: FileChange[] };
  pullRequest: {
    title: string;
    description?: string;
    labels?: string[];
    reviewers?: { id: string; isRequired?: boolean }[];
    /** target branch (default main) */
    target?: string;
  };
}

export interface ProposeResult {
  branch: string;
  pullRequest: PullRequest;
  /** the branch's tip */
  commitId: string;
  /** true when an existing branch without a pull request was reused (a retry finishing earlier work) */
  reusedBranch: boolean;
}

/** Thrown by proposeChange when opening the pull request fails; the branch it pushed is gone again. */
export class ProposeChangeError extends ServiceError {
  constructor(
    message: string,
    readonly step: 'push' | 'pullRequest',
    cause: unknown,
  ) {
    super(message, {
      service: 'devops',
      ...(isServiceError(cause) && cause.statusCode !== undefined
        ? { statusCode: cause.statusCode }
        : {}),
      ...(isServiceError(cause) && cause.code !== undefined ? { code: cause.code } : {}),
      ...(isServiceError(cause) && cause.requestId !== undefined
        ? { requestId: cause.requestId }
        : {}),
      cause,
    });
  }
}

const utf8 = new TextEncoder();

function parseFile(path: string, text: string, objectId?: string): ParsedFile {
  return {
    path,
    content: jsonContent(text),
    text,
    bytes: utf8.encode(text).byteLength,
    ...(objectId ? { objectId } : {}),
  };
}

function isStale(error: unknown): boolean {
  return isServiceError(error) && error.statusCode === 409;
}

const MAIN: VersionSpec = { branch: MAIN_BRANCH };

export interface MainWriter {
  /** Azure DevOps as the Aegis service identity */
  readonly devops: DevOpsApi;
  /** the technician the write is made for: the commit's author */
  readonly actor: () => { name: string; email: string };
}

/**
 * The configuration repository as the signed-in user sees it. One per request (the user's own
 * DevOps token), sharing caches and write queues app-wide through `shared`.
 */
export class ConfigRepository {
  constructor(
    private readonly devops: DevOpsApi,
    private readonly shared: ConfigRepositoryShared,
    /**
     * Who this repository acts for (the user's object id): only one user's writes are ever
     * combined into one push, which is made with that user's own token.
     */
    private readonly principal: () => string = () => '',
    /**
     * Aegis's own writes to main (ADR 051): pushed by the Aegis service identity, the only one
     * main's branch policy lets through, for the paths of `isAegisMainWritePath` only, with the
     * technician as the commit's author. Without it main is written with the user's token.
     */
    private readonly mainWriter?: MainWriter,
  ) {}

  get repo(): RepositoryRef {
    return this.shared.repo;
  }

  // ---- reads ----------------------------------------------------------------------------

  /** The commit a branch points at; NotFoundError 'Could not find {branch} branch' when missing. */
  async branchTip(branch: string = MAIN_BRANCH): Promise<string> {
    const tip = await this.findBranchTip(branch);
    if (tip === undefined) throw new NotFoundError(`Could not find ${branch} branch`);
    return tip;
  }

  /** The commit a branch points at, or undefined when the branch does not exist. */
  async findBranchTip(branch: string): Promise<string | undefined> {
    return (await this.findRef(branchRef(branch)))?.commitId;
  }

  /** The repository itself (its id, default branch, URLs), undefined when it does not exist. */
  describe(): Promise<Repository | undefined> {
    return this.devops.getRepository(this.repo);
  }

  /** A ref by its full name, or undefined. */
  async findRef(fullName: string): Promise<GitRef | undefined> {
    const refs = await this.devops.listRefs(this.repo, fullName.replace(/^refs\//, ''));
    return refs.find((r) => r.name === fullName);
  }

  /** Refs by prefix filter without 'refs/' (e.g. 'tags/backup/ABC/'), every page. */
  listRefs(filter: string): Promise<GitRef[]> {
    return this.devops.listRefs(this.repo, filter);
  }

  /**
   * The history of a version (default main), newest first; only commits touching `path` when given,
   * walked along first parents when `firstParent` (a merged pull request is its merge commit).
   */
  listCommits(
    options: { path?: string; version?: VersionSpec; top?: number; firstParent?: boolean } = {},
  ): Promise<GitCommitRef[]> {
    return this.devops.listCommits(this.repo, {
      version: options.version ?? MAIN,
      ...(options.path ? { itemPath: options.path } : {}),
      ...(options.top !== undefined ? { top: options.top } : {}),
      ...(options.firstParent ? { historyMode: 'firstParent' as const } : {}),
    });
  }

  getAnnotatedTag(objectId: string): Promise<AnnotatedTag | undefined> {
    return this.devops.getAnnotatedTag(this.repo, objectId);
  }

  listPullRequests(options: ListPullRequestsOptions): Promise<PullRequest[]> {
    return this.devops.listPullRequests(this.repo, options);
  }

  /** The direct children of a folder ([] when it does not exist). */
  listChildren(folder: string, version: VersionSpec = MAIN): Promise<GitItem[]> {
    return this.listItems(folder, 'oneLevel', version).then((items) =>
      items.filter((item) => item.path !== folder),
    );
  }

  /**
   * A folder's items at a version. At a full commit id the listing is cached app-wide (joined when
   * already under way), as files are: callers name a commit they have just read with the user's
   * own token. At a branch it is always asked for.
   */
  private async listItems(
    folder: string,
    recursion: 'oneLevel' | 'full',
    version: VersionSpec,
  ): Promise<GitItem[]> {
    const read: ListingRead = () =>
      this.devops.listItems(this.repo, folder, { recursion, version });
    const commit = fullCommitOf(version);
    if (commit === undefined) return read();
    const key = `${this.repo.project}/${this.repo.repository}:${folder}@${commit}:${recursion}`;
    return (await this.shared.listings.fetch(key, { context: read })) ?? [];
  }

  /**
   * The tree ids the fleet's figures depend on at a version (ADR 062): the baseline's (the company
   * baseline's folder, joined with /Layers' when there are layers, ADR 068) and each client folder's
   * under /Clients. Three listings; a summary named by these ids still holds.
   */
  async fleetTreeIds(version: VersionSpec = MAIN): Promise<FleetTreeIds> {
    const [clientItems, configItems, rootItems] = await Promise.all([
      this.listChildren(CLIENTS_FOLDER, version),
      this.listChildren(BASELINE_PARENT, version),
      this.listChildren('/', version),
    ]);
    const clients = new Map<string, string>();
    for (const item of clientItems) {
      const code = lastSegment(item.path);
      if (item.isFolder && isClientCode(code)) clients.set(code, item.objectId);
    }
    const baseline = configItems.find((i) => i.isFolder && i.path === BASELINE_ROOT);
    const layers = rootItems.find((i) => i.isFolder && i.path === LAYERS_FOLDER);
    // the layers are part of every client's baseline (ADR 068): a change to one is a baseline change
    const baselineTreeId =
      baseline && layers ? `${baseline.objectId}${LAYERED}${layers.objectId}` : baseline?.objectId;
    return { baselineTreeId, clients };
  }

  /**
   * The files every client summary compares with, at a version (ADR 068): the company baseline's
   * and, when `fleetTreeIds` found layers, every layer's; `summarizeClient` picks each client's.
   */
  async readFleetBaseline(baselineTreeId: string, version: VersionSpec): Promise<ParsedFile[]> {
    const [company, layers] = await Promise.all([
      this.readTree(BASELINE_ROOT, version),
      baselineTreeId.includes(LAYERED) ? this.readTree(LAYERS_FOLDER, version) : undefined,
    ]);
    return [...(company?.files ?? []), ...(layers?.files ?? [])];
  }

  /**
   * The clients onboarded for app deployment: those with a pipeline YAML
   * (Client_Yaml_Files/{CODE}-azure-pipelines.yml). A client whose configuration was never
   * captured has one but no folder under /Clients.
   */
  async listAppDeploymentClientCodes(version: VersionSpec = MAIN): Promise<string[]> {
    const items = await this.listChildren(CLIENT_YAML_FOLDER, version);
    const codes = items.flatMap((item) => {
      const code = item.isFolder ? undefined : parseClientYamlPath(item.path);
      return code && isClientCode(code) ? [code] : [];
    });
    return [...new Set(codes)].sort();
  }

  /** A folder's full listing at a version: one request ([] when the folder does not exist). */
  listTree(folder: string, version: VersionSpec = MAIN): Promise<GitItem[]> {
    return this.listItems(folder, 'full', version);
  }

  /**
   * The files of a listed folder: from the cache by tree object id, else one zip request pinned to
   * the listing's commit, which concurrent readers of the same tree join. `cache: false` reads
   * without filling the cache (bulk reads such as sizes).
   */
  async loadTree(
    folder: string,
    listing: readonly GitItem[],
    options: { cache?: boolean } = {},
  ): Promise<ParsedTree | undefined> {
    const root = listing[0];
    if (!root) return undefined;
    const key = `${this.repo.project}/${this.repo.repository}:${folder}@${root.objectId}`;
    const read: TreeRead = async () => {
      const snapshot = await this.devops.readFolder(this.repo, folder, { listing: [...listing] });
      if (!snapshot) return undefined;
      return {
        folder,
        treeId: root.objectId,
        commitId: snapshot.commitId,
        files: snapshot.files.map((f) => parseFile(f.path, f.content, f.objectId)),
      };
    };
    if (options.cache === false) return this.shared.trees.get(key) ?? read();
    return this.shared.trees.fetch(key, { context: read });
  }

  /**
   * A folder at a branch, tag or commit: one listing, plus one zip when its tree is not cached.
   * Undefined when the folder does not exist at that version. The listing is always made with the
   * user's own token, so the cache never answers someone the service would refuse.
   */
  async readTree(
    folder: string,
    version: VersionSpec = MAIN,
    options: { cache?: boolean } = {},
  ): Promise<ParsedTree | undefined> {
    return this.loadTree(folder, await this.listTree(folder, version), options);
  }

  /**
   * Several folders at one version with real progress (spec 1 §4): 0–50 as the listings arrive,
   * 50–100 as the downloads do.
   */
  async readTrees(
    folders: readonly string[],
    version: VersionSpec = MAIN,
    onProgress: ProgressReporter = () => {},
  ): Promise<(ParsedTree | undefined)[]> {
    const n = folders.length;
    let listed = 0;
    let loaded = 0;
    const listings = await Promise.all(
      folders.map(async (folder) => {
        const listing = await this.listTree(folder, version);
        onProgress(Math.floor((++listed / n) * 50));
        return listing;
      }),
    );
    return Promise.all(
      folders.map(async (folder, i) => {
        const tree = await this.loadTree(folder, listings[i] ?? []);
        onProgress(50 + Math.floor((++loaded / n) * 50));
        return tree;
      }),
    );
  }

  /**
   * Every file of a folder at a version, as bytes (parse with `configFileOf`), from one zip read as
   * it downloads (ADR 036): for reads of many folders at once (the fleet's client folders), holding
   * one file at a time, not the archive; the bytes let the reader parse them on another thread
   * (ADR 044). `wanted` (a repository path) skips files unread. False when the folder is missing.
   */
  forEachFile(
    folder: string,
    version: VersionSpec,
    onFile: (file: RawFile) => void | Promise<void>,
    wanted: (path: string) => boolean = () => true,
  ): Promise<boolean> {
    const prefix = `${folder.replace(/^\/+/, '')}/`;
    // entry naming inside the archive is not documented: relative, folder-prefixed or full paths
    const pathOf = (name: string) => {
      const relative = name.replace(/^\/+/, '');
      return `${folder}/${relative.startsWith(prefix) ? relative.slice(prefix.length) : relative}`;
    };
    return this.devops.forEachZipEntry(
      this.repo,
      folder,
      (name, bytes) => onFile({ path: pathOf(name), bytes }),
      { version, wanted: (name) => wanted(pathOf(name)) },
    );
  }

  /** A folder (or file) as a zip archive at a version, undefined when missing. */
  getZip(path: string, version: VersionSpec = MAIN): Promise<Uint8Array | undefined> {
    return this.devops.getZip(this.repo, path, { version });
  }

  /**
   * A file's text and blob id at a version; undefined when it does not exist (404). At a full
   * commit id it is cached app-wide (joined when already under way): callers name a commit they
   * have just read with the user's own token (a branch tip, a ref), as the trees' listings are.
   */
  async readText(
    path: string,
    version: VersionSpec = MAIN,
  ): Promise<{ text: string; objectId?: string } | undefined> {
    const read: FileRead = async () => {
      const file = await this.devops.getFile(this.repo, path, { version });
      return {
        file: file
          ? { text: file.content, ...(file.objectId ? { objectId: file.objectId } : {}) }
          : undefined,
      };
    };
    const commit = fullCommitOf(version);
    if (commit === undefined) return (await read()).file;
    const key = `${this.repo.project}/${this.repo.repository}:${path}@${commit}`;
    return (await this.shared.files.fetch(key, { context: read }))?.file;
  }

  /**
   * A JSON file at a version, parsed. A missing file (404) is "absent": undefined, not an error.
   * Text that is not JSON is an error naming the path.
   */
  async readJson<T = unknown>(path: string, version: VersionSpec = MAIN): Promise<T | undefined> {
    const file = await this.readText(path, version);
    if (!file) return undefined;
    return parseJsonFile<T>(path, file.text);
  }

  /** Whether a file exists at a version. */
  async fileExists(path: string, version: VersionSpec = MAIN): Promise<boolean> {
    return (await this.readText(path, version)) !== undefined;
  }

  /**
   * The texts of a folder's files at a version, keyed by repository path without the leading
   * slash; empty when the folder does not exist. Through the tree cache, like {@link readTree}.
   */
  async readFolderTexts(folder: string, version: VersionSpec = MAIN): Promise<Map<string, string>> {
    const tree = await this.readTree(folder, version);
    return new Map((tree?.files ?? []).map((file) => [file.path.replace(/^\/+/, ''), file.text]));
  }

  /** Many blobs' text by object id in one request; throws when one is missing. */
  getBlobs(objectIds: readonly string[]): Promise<Map<string, string>> {
    return this.devops.getBlobs(this.repo, objectIds);
  }

  /** The changes from `base` to `target` (from their common commit when `diffCommonCommit`). */
  diff(
    base: VersionSpec,
    target: VersionSpec,
    options: { diffCommonCommit?: boolean } = {},
  ): Promise<CommitDiff> {
    return this.devops.getCommitDiff(this.repo, base, target, options);
  }

  // ---- writes ---------------------------------------------------------------------------

  /**
   * One commit on a branch whose tip must still be `oldObjectId` (a new branch when
   * `oldObjectId` is the commit it starts from); returns the new commit id. A stale tip is the
   * service's 409, not retried: callers that can re-apply use {@link updateJsonFile}.
   */
  async commit(
    branch: string,
    oldObjectId: string,
    comment: string,
    changes: FileChange[],
  ): Promise<string> {
    const result = await this.devops.push(this.repo, {
      branch: branchRef(branch),
      oldObjectId,
      commits: [{ comment, changes }],
    });
    return result.commitId;
  }

  /** Creates a branch at a commit; fails when it exists. */
  createBranch(branch: string, commitId: string): Promise<void> {
    return this.updateRef(branchRef(branch), ZERO_OBJECT_ID, commitId);
  }

  /** Deletes a branch, provided it still points at `commitId`. */
  deleteBranch(branch: string, commitId: string): Promise<void> {
    return this.updateRef(branchRef(branch), commitId, ZERO_OBJECT_ID);
  }

  /** An annotated tag on a commit (`name` without 'refs/tags/'). */
  tag(name: string, commitId: string, message: string): Promise<AnnotatedTag> {
    return this.devops.createAnnotatedTag(this.repo, { name, commitId, message });
  }

  /** A pull request from an existing branch; see {@link proposeChange} to make the branch too. */
  openPullRequest(request: CreatePullRequest): Promise<PullRequest> {
    return this.devops.createPullRequest(this.repo, request);
  }

  private async updateRef(name: string, oldObjectId: string, newObjectId: string): Promise<void> {
    const [result] = await this.devops.updateRefs(this.repo, [{ name, oldObjectId, newObjectId }]);
    if (!result?.success) {
      throw new ServiceError(`Could not update ${name}: ${result?.updateStatus ?? 'no answer'}`, {
        service: 'devops',
        code: 'RefUpdateFailed',
      });
    }
  }

  /**
   * Read, apply, push with oldObjectId. When the branch moved meanwhile (409 stale ref) the file
   * is re-read and `mutate` re-applied on the new content, with a jittered back-off, so concurrent
   * writers lose nothing. Calls of one user to one file that arrive while a write of it is in
   * flight are applied together in the next commit (one read, one push for all of them); each
   * caller still gets its own outcome (a mutation that throws fails only its caller).
   */
  updateJsonFile<T>(
    path: string,
    mutate: JsonMutation<T>,
    message: string,
    options: UpdateJsonOptions = {},
  ): Promise<JsonUpdate<T>> {
    return this.enqueueWrite(
      path,
      mutate,
      message,
      options.branch ?? MAIN_BRANCH,
      jsonCodec(options.indent ?? 2),
    );
  }

  /**
   * {@link updateJsonFile} for a text file kept as it is (a pipeline's YAML, whose comments and
   * layout must survive): `mutate` gets the current text (undefined when the file does not exist)
   * and returns the text to write, or undefined to write nothing.
   */
  updateTextFile(
    path: string,
    mutate: JsonMutation<string>,
    message: string,
    options: { branch?: string } = {},
  ): Promise<JsonUpdate<string>> {
    return this.enqueueWrite(path, mutate, message, options.branch ?? MAIN_BRANCH, textCodec);
  }

  private enqueueWrite<T>(
    path: string,
    mutate: JsonMutation<T>,
    message: string,
    branch: string,
    codec: FileCodec,
  ): Promise<JsonUpdate<T>> {
    const key = [
      this.repo.project,
      this.repo.repository,
      branch,
      path,
      codec.name,
      this.principal(),
    ].join('\n');
    return new Promise<JsonUpdate<T>>((resolve, reject) => {
      const queue = this.shared.writeQueues.get(key);
      const write: QueuedWrite = {
        mutate: mutate as JsonMutation<unknown>,
        message,
        resolve: resolve as (update: JsonUpdate<unknown>) => void,
        reject,
      };
      if (queue) {
        queue.pending.push(write);
        return;
      }
      const fresh: WriteQueue = { pending: [write] };
      this.shared.writeQueues.set(key, fresh);
      void this.drain(key, fresh, path, branch, codec);
    });
  }

  private async drain(
    key: string,
    queue: WriteQueue,
    path: string,
    branch: string,
    codec: FileCodec,
  ): Promise<void> {
    try {
      while (queue.pending.length > 0) {
        const batch = queue.pending.splice(0);
        await this.writeBatch(batch, path, branch, codec);
      }
    } finally {
      this.shared.writeQueues.delete(key);
    }
  }

  /** One read and one push for a batch of writes; re-read and re-applied on a stale ref. */
  private async writeBatch(
    batch: QueuedWrite[],
    path: string,
    branch: string,
    codec: FileCodec,
  ): Promise<void> {
    const outcome = await retryOnConflict(async (attempt) => {
      let tip: string;
      let file: { text: string } | undefined;
      let current: unknown;
      try {
        tip = await this.branchTip(branch);
        file = await this.readText(path, { commit: tip });
        current = file ? codec.parse(path, file.text) : undefined;
      } catch (error) {
        for (const w of batch) w.reject(error);
        return 'settled';
      }
      let doc = current;
      const outcomes: { write: QueuedWrite; changed: boolean; error?: unknown }[] = [];
      for (const write of batch) {
        try {
          const next = await write.mutate(doc, { commitId: tip });
          if (next !== undefined) doc = next;
          outcomes.push({ write, changed: next !== undefined });
        } catch (error) {
          outcomes.push({ write, changed: false, error });
        }
      }
      const settle = (commitId: string, written: boolean) => {
        for (const o of outcomes) {
          if (o.error !== undefined) o.write.reject(o.error);
          else
            o.write.resolve({
              value: doc,
              commitId,
              changed: written && o.changed,
              retries: attempt,
            });
        }
      };
      const text = doc === undefined ? undefined : codec.serialize(doc);
      if (text === undefined || (file && file.text === text)) {
        settle(tip, false);
        return 'settled';
      }
      const messages = outcomes.filter((o) => o.changed).map((o) => o.write.message);
      const comment = messages.length <= 1 ? (messages[0] ?? 'Update') : messages.join('\n');
      try {
        const push = await this.pusherFor(branch, path).push(this.repo, {
          branch: branchRef(branch),
          oldObjectId: tip,
          commits: [
            {
              ...this.authorship(branch, comment),
              changes: [{ changeType: file ? 'edit' : 'add', path, content: text }],
            },
          ],
        });
        settle(push.commitId, true);
      } catch (error) {
        if (isStale(error)) return 'conflict';
        for (const w of batch) w.reject(error);
      }
      return 'settled';
    }, this.shared.retry);
    if (outcome === 'conflict') {
      const failure = new ConflictError(
        `${path} kept changing while it was being saved (${this.shared.retry.attempts} attempts); nothing was written. Please try again.`,
      );
      for (const w of batch) w.reject(failure);
    }
  }

  /**
   * Who pushes a write: on main, the Aegis service identity for the files Aegis itself keeps there
   * (and nothing else); elsewhere the user.
   */
  private pusherFor(branch: string, path: string): DevOpsApi {
    if (branch !== MAIN_BRANCH || !this.mainWriter) return this.devops;
    if (!isAegisMainWritePath(path)) {
      throw new NotAllowedError(
        `Aegis does not write ${path} on ${MAIN_BRANCH} itself; changes to it need a pull request.`,
      );
    }
    return this.mainWriter.devops;
  }

  /** A write on main made for a technician names them as author and in the message. */
  private authorship(
    branch: string,
    comment: string,
  ): { comment: string; author?: { name: string; email: string } } {
    if (branch !== MAIN_BRANCH || !this.mainWriter) return { comment };
    const actor = this.mainWriter.actor();
    return {
      comment: `${comment}\n\nOn behalf of: ${actor.name} <${actor.email}>`,
      author: actor,
    };
  }

  /**
   * Proposes a change for review: a new branch from `baseCommitId` (or the target's tip) carrying
   * one commit, then a pull request to the target. When a step fails what this call made is
   * removed, so nothing is left half-made. A branch of that name that already exists without a
   * pull request (an earlier attempt that could not clean up) is reused: the pull request is
   * opened from it. A branch that already has a pull request is a ConflictError.
   */
  async proposeChange(change: ProposedChange): Promise<ProposeResult> {
    const target = change.pullRequest.target ?? MAIN_BRANCH;
    const refName = branchRef(change.branch);

    let commitId: string;
    let reusedBranch = false;
    const existing = await this.findRef(refName);
    if (existing) {
      await this.assertNoPullRequest(change.branch, refName);
      commitId = existing.commitId;
      reusedBranch = true;
    } else {
      if (change.commit.changes.length === 0) {
        throw new ConflictError(`There are no changes to propose on ${change.branch}.`);
      }
      const base = change.baseCommitId ?? (await this.branchTip(target));
      try {
        const push = await this.devops.push(this.repo, {
          branch: refName,
          oldObjectId: base,
          commits: [change.commit],
        });
        commitId = push.commitId;
      } catch (error) {
        if (isStale(error)) {
          // Someone created the branch meanwhile: that is theirs, not ours to finish.
          throw new ConflictError(
            `The branch ${change.branch} was created by someone else meanwhile. Nothing was overwritten.`,
          );
        }
        throw error;
      }
    }

    try {
      const pullRequest = await this.devops.createPullRequest(this.repo, {
        sourceRefName: refName,
        targetRefName: branchRef(target),
        title: change.pullRequest.title,
        ...(change.pullRequest.description !== undefined
          ? { description: change.pullRequest.description }
          : {}),
        reviewers: change.pullRequest.reviewers ?? [],
        labels: change.pullRequest.labels ?? [],
      });
      return { branch: change.branch, pullRequest, commitId, reusedBranch };
    } catch (error) {
      // A pull request may exist although its creation answered an error (a lost response):
      // then the change is complete and is reported so.
      const made = await this.pullRequestFor(refName).catch(() => undefined);
      if (made) return { branch: change.branch, pullRequest: made, commitId, reusedBranch };
      if (!reusedBranch) {
        await this.devops
          .updateRefs(this.repo, [
            { name: refName, oldObjectId: commitId, newObjectId: ZERO_OBJECT_ID },
          ])
          .catch(() => undefined);
      }
      const message = error instanceof Error ? error.message : String(error);
      throw new ProposeChangeError(message, 'pullRequest', error);
    }
  }

  /** The pull request (any status) whose source is the branch, if one exists. */
  async pullRequestFor(refName: string): Promise<PullRequest | undefined> {
    const prs = await this.devops.listPullRequests(this.repo, {
      status: 'all',
      sourceRefName: refName,
    });
    return prs.find((pr) => pr.sourceRefName === refName);
  }

  private async assertNoPullRequest(branch: string, refName: string): Promise<void> {
    const pr = await this.pullRequestFor(refName);
    if (pr) {
      throw new ConflictError(
        `The branch ${branch} already exists with pull request #${pr.pullRequestId} (${pr.status}). Nothing was overwritten.`,
      );
    }
  }
}

/** A JSON file's text parsed; a ServiceError naming the path when it is not JSON. */
export function parseJsonFile<T>(path: string, text: string): T {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as T;
  } catch (error) {
    throw new ServiceError(`${path} is not valid JSON: ${(error as Error).message}`, {
      service: 'devops',
      code: 'InvalidJson',
      cause: error,
    });
  }
}
