import { createHash } from 'node:crypto';

import { mustExist, orAbsent, orNotFound, withPrefix } from '@aegis/connectors';
import type { FileChange, GitRef } from '@aegis/connectors/devops';
import {
  ProposeChangeError,
  type ConfigRepository,
  type ParsedFile,
  type ParsedTree,
} from '@aegis/connectors/repository';
import type {
  Backup,
  BackupComparison,
  BackupContent,
  BackupList,
  BackupRestore,
  BackupRun,
  ManualBackup,
  RestorePullRequestList,
  UnfinishedRestore,
} from '@aegis/contracts';
import {
  BACKUP_SIZE_UNAVAILABLE,
  backupRun,
  clientFolder,
  MAIN_REF,
  restoreBranchPrefix,
  shortTagName,
  backupTagPrefix,
  clientPolicyPath,
  compareBackup,
  ConflictError,
  countBackupChanges,
  formatBackupSize,
  InputError,
  isScheduledBackup,
  locatorOf,
  NotFoundError,
  objectRestoreBranchName,
  parseBackupTag,
  restoreBranchName,
  restoreObjectsRun,
  sortBackupsNewestFirst,
  toBackupConfigFiles,
  toResourcePath,
  type BackupTag,
} from '@aegis/domain';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';

import type { PipelineRuns } from './pipeline-runs';
/** Spec 3 §8: a tag that is not a backup of the client, or not there. */
const TAG_NOT_FOUND = 'Backup tag not found';

/** Size reads in flight at once while listing backups. */
const SIZE_READ_CONCURRENCY = 6;

/**
 * Git objects are immutable: the size of a client's folder at a commit never changes, so it is
 * read once per server (bounded). Only consulted after the user's own ref listing succeeded.
 */
const sizeCache = new LRUCache<string, number>({ max: 5_000 });

function byteLength(files: readonly ParsedFile[]): number {
  return files.reduce((sum, f) => sum + f.bytes, 0);
}

/** Finishing half-made restores while listing backups (see BackupsService.settleRestoreBranches). */
export interface RestoreFinishing {
  /** the user who may restore and whose read finishes them; unset: they are only reported */
  readonly finishedBy?: string;
  /** called for each restore finished, to audit it */
  readonly onFinished?: (restore: BackupRestore & { tagName: string }) => Promise<void>;
}

interface ResolvedBackup extends BackupTag {
  /** the commit the tag points at */
  commitId: string;
  /** the annotated tag object */
  objectId: string;
}

/** Tenant backups (spec 3 §2, §7): history, content, comparison, restore and download. */
export class BackupsService {
  constructor(
    private readonly repository: ConfigRepository,
    private readonly pipelineRuns: PipelineRuns,
    /** the project the backup pipeline lives in */
    private readonly project: string,
  ) {}

  /**
   * Backups from the refs filtered by tags/backup/{client}, newest first, with real sizes, and the
   * client's restores left without a pull request (see {@link settleRestoreBranches}).
   */
  async listBackups(client: string, restores: RestoreFinishing = {}): Promise<BackupList> {
    const [backups, restoreBranches] = await Promise.all([
      this.resolveAll(client),
      this.repository.listRefs(`heads/${restoreBranchPrefix(client)}`),
    ]);
    const unfinishedRestores = await this.settleRestoreBranches(
      client,
      backups,
      restoreBranches,
      restores,
    );
    // Scheduled backups often share a commit: one read per distinct commit.
    const commits = [...new Set(backups.map((b) => b.commitId))];
    const limit = pLimit(SIZE_READ_CONCURRENCY);
    const read = await Promise.all(commits.map((c) => limit(() => this.sizeOf(client, c))));
    const byCommit = new Map(commits.map((c, i) => [c, read[i]]));
    const sizes = backups.map((b) => byCommit.get(b.commitId));
    const list: Backup[] = backups.map((b, i) => toBackup(b, sizes[i]));
    const storageUsedInBytes = sizes.reduce<number>((sum, s) => sum + (s ?? 0), 0);
    return {
      client,
      backups: list,
      storageUsedInBytes,
      storageUsed: formatBackupSize(storageUsedInBytes),
      unfinishedRestores,
    };
  }

  /**
   * A restore whose pull request could not be created and whose branch could not be removed
   * either (a double fault) leaves a restore/{client}/… branch without a pull request. Each such
   * branch is finished here when `finishedBy` is given (a user who may restore): its pull request
   * is opened as a retry of the restore would, provided the branch holds exactly the folder of
   * the backup its name is made from. What is still without a pull request afterwards is
   * answered, so the screen never takes such a restore for done. Opening a pull request twice is
   * refused by Azure DevOps, so a restore in flight meanwhile still ends with one pull request.
   */
  private async settleRestoreBranches(
    client: string,
    backups: readonly ResolvedBackup[],
    branches: readonly GitRef[],
    { finishedBy, onFinished }: RestoreFinishing,
  ): Promise<UnfinishedRestore[]> {
    const unfinished: UnfinishedRestore[] = [];
    for (const ref of branches) {
      if (await this.repository.pullRequestFor(ref.name)) continue;
      const branch = ref.name.replace(/^refs\/heads\//, '');
      const backup = backups.find((b) => restoreBranchName(client, b.tagName) === branch);
      const left = { branch, tagName: backup?.tagName ?? null };
      if (!backup || finishedBy === undefined) {
        unfinished.push(left);
        continue;
      }
      try {
        const finished = await this.finishRestore(client, backup, ref, finishedBy);
        if (finished) await onFinished?.({ ...finished, tagName: backup.tagName });
        else unfinished.push(left);
      } catch {
        // still without a pull request: reported as unfinished, tried again on the next read
        unfinished.push(left);
      }
    }
    return unfinished;
  }

  /** Opens the pull request of a half-made restore; undefined when the branch is not that restore. */
  private async finishRestore(
    client: string,
    backup: ResolvedBackup,
    ref: GitRef,
    finishedBy: string,
  ): Promise<BackupRestore | undefined> {
    const mainTip = await this.repository.branchTip();
    const [backupFiles, branchFiles, currentFiles] = await Promise.all([
      this.readClientFolder(client, backup.commitId),
      this.readClientFolder(client, ref.commitId),
      this.readClientFolder(client, mainTip),
    ]);
    if (!sameFiles(backupFiles, branchFiles)) return undefined;
    const branch = restoreBranchName(client, backup.tagName);
    const title = `Restore ${client} configuration from backup ${backup.tagName}`;
    const proposed = await this.repository.proposeChange({
      branch,
      commit: { comment: title, changes: [] },
      pullRequest: {
        title,
        description: restoreDescription(client, backup, restoreChanges(backupFiles, currentFiles), {
          finishedBy,
        }),
        reviewers: [],
        labels: ['restore', 'backup', client],
      },
    });
    const pr = proposed.pullRequest;
    return { pullRequestId: pr.pullRequestId, branch, prUrl: pr.webUrl };
  }

  /** Runs the backup pipeline 212 with ClientCode and ManualRun true (spec 3 §7). */
  async startManualBackup(client: string): Promise<ManualBackup> {
    const run = await this.pipelineRuns.start(this.project, backupRun({ clientCode: client }));
    return { runId: run.id, state: run.state, project: this.project, pipelineId: run.pipelineId };
  }

  /** Whether a backup pipeline run is still queued or running (a run not found is not). */
  async isBackupRunActive(runId: number): Promise<boolean> {
    const run = await orAbsent(this.pipelineRuns.getCatalogued(this.project, 'backup', runId));
    return run !== undefined && run.state !== 'completed';
  }

  /** A manual backup's run: its state and result (404 when the backup pipeline has no such run). */
  async getBackupRun(runId: number): Promise<BackupRun> {
    const run = await orNotFound(
      this.pipelineRuns.getCatalogued(this.project, 'backup', runId),
      `Backup run ${runId} not found`,
    );
    return {
      runId: run.id,
      state: run.state,
      result: run.result,
      project: this.project,
      pipelineId: run.pipelineId,
    };
  }

  /** The configuration JSON of a backup: each file of Clients/{client} at the tag, parsed. */
  async getContent(client: string, tag: string): Promise<BackupContent> {
    const backup = await this.resolve(client, tag);
    const files = await this.readClientFolder(client, backup.commitId);
    const annotated = await this.repository.getAnnotatedTag(backup.objectId).catch(() => undefined);
    const content: Record<string, unknown> = {};
    const prefix = `${clientFolder(client)}/`;
    for (const f of files) {
      const key = f.path.startsWith(prefix) ? f.path.slice(prefix.length) : f.path;
      content[key] = f.content === null ? f.text : f.content;
    }
    const bytes = byteLength(files);
    sizeCache.set(this.sizeKey(client, backup.commitId), bytes);
    return {
      ...toBackup(
        { ...backup, isScheduled: isScheduledBackup(backup.tagName, annotated?.message) },
        bytes,
      ),
      content,
    };
  }

  /**
   * Clients/{client}@{tag} against Clients/{client} on main through the comparison engine; progress
   * in percent from the reads (0–40) and the engine (40–100).
   */
  async compare(
    client: string,
    tag: string,
    onProgress: (percent: number) => void = () => {},
  ): Promise<BackupComparison> {
    const backup = await this.resolve(client, tag);
    onProgress(5);
    const mainTip = await this.mainTip();
    const backupFiles = await this.readClientFolder(client, backup.commitId);
    onProgress(20);
    const currentFiles = await this.readClientFolder(client, mainTip);
    onProgress(40);
    const results = compareBackup(
      toBackupConfigFiles(client, backupFiles.map(asTextFile)),
      toBackupConfigFiles(client, currentFiles.map(asTextFile)),
      (p) => onProgress(40 + Math.floor((p * 60) / 100)),
    );
    return { tagName: backup.tagName, counts: countBackupChanges(results), results };
  }

  /**
   * Restore (spec 3 §4, §7, ADR 007/014): a branch restore/{client}/{sanitised tag} from main whose
   * one commit puts the client's folder back as the tag has it, then a pull request to main, both
   * through ConfigRepository.proposeChange: a restore either completes or leaves nothing, and a
   * retry after a half-finished restore (branch without pull request) finishes it. A branch that
   * already has a pull request is never overwritten.
   *
   * With `policies` (resource paths, issue 30 §4) only those files are put back, on a branch of
   * their own: the pull request's diff holds exactly the chosen policies that differ from main (a
   * policy the backup lacks is removed, as the whole restore would).
   */
  async restore(
    client: string,
    tag: string,
    requestedBy: string,
    policies?: readonly string[],
  ): Promise<BackupRestore> {
    const backup = await this.resolve(client, tag);
    const chosen = policies && [
      ...new Set(policies.map((p) => clientPolicyPath(client, p, 'policies'))),
    ];
    const branch = chosen
      ? objectRestoreBranchName(client, backup.tagName, selectionId(chosen))
      : restoreBranchName(client, backup.tagName);
    const conflict = () =>
      new ConflictError(
        `A restore branch ${branch} already exists for backup ${backup.tagName}. Nothing was overwritten: complete or abandon its pull request and delete the branch, then try again.`,
      );
    const existing = await this.repository.findRef(`refs/heads/${branch}`);
    if (existing && (await this.repository.pullRequestFor(existing.name))) throw conflict();

    const mainTip = await this.repository.branchTip();
    const [backupFiles, currentFiles] = await Promise.all([
      this.readClientFolder(client, backup.commitId),
      this.readClientFolder(client, mainTip),
    ]);
    let changes = restoreChanges(backupFiles, currentFiles);
    if (chosen) {
      const known = new Set([...backupFiles, ...currentFiles].map((f) => f.path));
      const unknown = chosen.find((path) => !known.has(path));
      if (unknown) {
        throw new NotFoundError(
          `Policy ${toResourcePath(unknown)} is neither in backup ${backup.tagName} nor in the configuration of ${client} on main`,
        );
      }
      const wanted = new Set(chosen);
      changes = changes.filter((c) => wanted.has(c.path));
    }
    if (changes.length === 0 && !existing) {
      throw new ConflictError(
        chosen
          ? `The chosen policies of ${client} on main already match backup ${backup.tagName}: there is nothing to restore.`
          : `The configuration of ${client} on main already matches backup ${backup.tagName}: there is nothing to restore.`,
      );
    }
    const title = chosen
      ? `Restore ${chosen.length === 1 ? '1 policy' : `${chosen.length} policies`} of ${client} from backup ${backup.tagName}`
      : `Restore ${client} configuration from backup ${backup.tagName}`;
    try {
      const proposed = await this.repository.proposeChange({
        branch,
        baseCommitId: mainTip,
        commit: { comment: title, changes },
        pullRequest: {
          title,
          description: restoreDescription(client, backup, changes, { requestedBy }),
          reviewers: [],
          labels: ['restore', 'backup', client],
        },
      });
      const pr = proposed.pullRequest;
      return { pullRequestId: pr.pullRequestId, branch, prUrl: pr.webUrl };
    } catch (error) {
      if (error instanceof ProposeChangeError) throw withPrefix('Failed to create PR: ', error);
      if (error instanceof ConflictError) throw conflict();
      throw error;
    }
  }

  /**
   * Chosen policies put straight back into the tenant (issue 30 §4): a run of the deploy pipeline
   * with RestoreFrom and Policies, which backs the tenant up first and then restores the policies
   * object by object. Each policy must be in the backup or in the client's folder on main (a
   * policy the backup lacks is removed from the tenant).
   */
  async startTenantRestore(
    client: string,
    tag: string,
    policies: readonly string[],
  ): Promise<ManualBackup> {
    const backup = await this.resolve(client, tag);
    const chosen = [...new Set(policies.map((p) => clientPolicyPath(client, p, 'policies')))];
    const [backupFiles, currentFiles] = await Promise.all([
      this.readClientFolder(client, backup.commitId),
      this.readClientFolder(client, await this.repository.branchTip()),
    ]);
    const known = new Set([...backupFiles, ...currentFiles].map((f) => f.path));
    const unknown = chosen.find((path) => !known.has(path));
    if (unknown) {
      throw new NotFoundError(
        `Policy ${toResourcePath(unknown)} is neither in backup ${backup.tagName} nor in the configuration of ${client} on main`,
      );
    }
    const run = await this.pipelineRuns.start(
      this.project,
      restoreObjectsRun({
        clientCode: client,
        backupTag: backup.tagName,
        policies: chosen.map((path) => toResourcePath(path)),
      }),
    );
    return { runId: run.id, state: run.state, project: this.project, pipelineId: run.pipelineId };
  }

  /** A tenant restore's run: its state and result (404 when the deploy pipeline has no such run). */
  async getTenantRestoreRun(runId: number): Promise<BackupRun> {
    const pipelineId = await this.pipelineRuns.resolve(
      this.project,
      locatorOf('deployBaseline'),
      'deployBaseline',
    );
    const run = await orNotFound(
      this.pipelineRuns.get(this.project, pipelineId, runId),
      `Restore run ${runId} not found`,
    );
    return {
      runId: run.id,
      state: run.state,
      result: run.result,
      project: this.project,
      pipelineId: run.pipelineId,
    };
  }

  /** Open and past restore pull requests of a client, newest first. */
  async listRestorePullRequests(client: string): Promise<RestorePullRequestList> {
    const prs = await this.repository.listPullRequests({
      status: 'all',
      targetRefName: MAIN_REF,
      top: 1000,
    });
    return {
      pullRequests: prs
        .filter((pr) => pr.sourceRefName.startsWith(`refs/heads/${restoreBranchPrefix(client)}`))
        .sort((a, b) => b.pullRequestId - a.pullRequestId)
        .map((pr) => ({
          pullRequestId: pr.pullRequestId,
          title: pr.title,
          status: pr.status,
          sourceRefName: pr.sourceRefName,
          targetRefName: pr.targetRefName,
          labels: pr.labels,
          prUrl: pr.webUrl,
        })),
    };
  }

  /** The backup as a zip of Clients/{client} at the tag. */
  async download(client: string, tag: string): Promise<{ fileName: string; bytes: Uint8Array }> {
    const backup = await this.resolve(client, tag);
    const bytes = await mustExist(
      this.repository.getZip(clientFolder(client), { commit: backup.commitId }),
      TAG_NOT_FOUND,
    );
    const stamp = backup.tagName
      .slice(backupTagPrefix(client).length)
      .replace(/[^A-Za-z0-9_]/g, '-');
    return { fileName: `${client}_backup_${stamp}.zip`, bytes };
  }

  // ---- helpers ----------------------------------------------------------------------------

  private async resolveAll(client: string): Promise<ResolvedBackup[]> {
    const refs = await this.repository.listRefs(`tags/${backupTagPrefix(client)}`);
    const backups = refs.flatMap((ref) => {
      const parsed = parseBackupTag(ref.name, client);
      return parsed ? [{ ...parsed, commitId: ref.commitId, objectId: ref.objectId }] : [];
    });
    return sortBackupsNewestFirst(backups);
  }

  /** A backup tag of this client that exists, or 'Backup tag not found'. */
  private async resolve(client: string, tag: string): Promise<ResolvedBackup> {
    const tagName = shortTagName(tag);
    if (!tagName.startsWith(backupTagPrefix(client))) {
      throw new InputError(
        `tag must be a backup tag of ${client} (${backupTagPrefix(client)}...)`,
        'tag',
      );
    }
    const parsed = parseBackupTag(tagName, client);
    if (!parsed) throw new NotFoundError(TAG_NOT_FOUND);
    const ref = await mustExist(this.repository.findRef(`refs/tags/${tagName}`), TAG_NOT_FOUND);
    return { ...parsed, commitId: ref.commitId, objectId: ref.objectId };
  }

  private async mainTip(): Promise<string> {
    return this.repository.branchTip();
  }

  /** Clients/{client} at a commit, as parsed files. `cache: false` for bulk reads (sizes). */
  private async readClientFolder(
    client: string,
    commitId: string,
    options: { cache?: boolean } = {},
  ): Promise<ParsedFile[]> {
    const tree: ParsedTree | undefined = await this.repository.readTree(
      clientFolder(client),
      { commit: commitId },
      options,
    );
    return tree?.files ?? [];
  }

  private sizeKey(client: string, commitId: string): string {
    const { project, repository } = this.repository.repo;
    return `${project}/${repository}/${commitId}/${client}`;
  }

  /** The client's folder size at a commit from a real read; undefined (N/A) when it fails. */
  private async sizeOf(client: string, commitId: string): Promise<number | undefined> {
    const key = this.sizeKey(client, commitId);
    const cached = sizeCache.get(key);
    if (cached !== undefined) return cached;
    try {
      const bytes = byteLength(await this.readClientFolder(client, commitId, { cache: false }));
      sizeCache.set(key, bytes);
      return bytes;
    } catch {
      return undefined;
    }
  }
}

/** The same choice of policies, in any order, names the same restore branch. */
function selectionId(paths: readonly string[]): string {
  return createHash('sha256')
    .update([...paths].sort().join('\n'))
    .digest('hex')
    .slice(0, 12);
}

/** The same files with the same content, whatever their order. */
function sameFiles(a: readonly ParsedFile[], b: readonly ParsedFile[]): boolean {
  if (a.length !== b.length) return false;
  const texts = new Map(a.map((f) => [f.path, f.text]));
  return b.every((f) => texts.get(f.path) === f.text);
}

function toBackup(backup: BackupTag, sizeInBytes: number | undefined): Backup {
  return {
    tagName: backup.tagName,
    date: backup.date.toISOString(),
    isScheduled: backup.isScheduled,
    size: sizeInBytes === undefined ? BACKUP_SIZE_UNAVAILABLE : formatBackupSize(sizeInBytes),
    sizeInBytes: sizeInBytes ?? null,
  };
}

/** The changes that make the current folder equal to the backup's. */
function restoreChanges(
  backupFiles: readonly ParsedFile[],
  currentFiles: readonly ParsedFile[],
): FileChange[] {
  const current = new Map(currentFiles.map((f) => [f.path, f]));
  const inBackup = new Set(backupFiles.map((f) => f.path));
  const changes: FileChange[] = [];
  for (const f of backupFiles) {
    const now = current.get(f.path);
    if (!now) changes.push({ changeType: 'add', path: f.path, content: f.text });
    else if (now.text !== f.text)
      changes.push({ changeType: 'edit', path: f.path, content: f.text });
  }
  for (const f of currentFiles) {
    if (!inBackup.has(f.path)) changes.push({ changeType: 'delete', path: f.path });
  }
  return changes;
}

function restoreDescription(
  client: string,
  backup: ResolvedBackup,
  changes: readonly FileChange[],
  by: { requestedBy: string } | { finishedBy: string },
): string {
  const count = (type: FileChange['changeType']) =>
    changes.filter((c) => c.changeType === type).length;
  return [
    `Restores the configuration of ${client} (Clients/${client}) to backup ${backup.tagName}, taken ${backup.date.toISOString()} (${backup.isScheduled ? 'Scheduled' : 'Manual'}, commit ${backup.commitId.slice(0, 8)}).`,
    '',
    `Files: ${count('edit')} modified, ${count('add')} added back, ${count('delete')} removed.`,
    '',
    'requestedBy' in by
      ? `Requested through Aegis by ${by.requestedBy}. Review the changes before completing this pull request.`
      : `The restore's branch was left without a pull request (creating it failed); Aegis opened it when ${by.finishedBy} read the backups. Review the changes before completing this pull request.`,
  ].join('\n');
}

function asTextFile(file: ParsedFile): { path: string; content: string } {
  return { path: file.path, content: file.text };
}
