import { isServiceError } from '@aegis/connectors';
import type { DevOpsApi, RepositoryRef, VersionSpec } from '@aegis/connectors/devops';
import { ConflictError, type ConfigFile } from '@aegis/domain';

import type { ComparisonCaches } from './comparison-service';

/** A folder at one git tree object (immutable, so cached by its id). */
export interface StoredTree {
  treeId: string;
  files: ConfigFile[];
}

/**
 * What the Baseline Compliance report needs from the configuration repository: the shape agreed for the shared
 * ConfigRepository (ARCHITECTURE §3a: readTree, readJson with 404 → undefined, updateJsonFile with oldObjectId and
 * retry). The report depends on this port only, so the shared service replaces the adapter below without touching
 * the report.
 */
export interface ComplianceStore {
  readTree(folder: string, version: VersionSpec): Promise<StoredTree | undefined>;
  readJson<T>(path: string, version?: VersionSpec): Promise<T | undefined>;
  /**
   * Read the file on main, apply `mutate`, push with the tip read as `oldObjectId`; on a stale tip read again,
   * re-apply and retry, so concurrent writers all keep their change. Returns what was written.
   */
  updateJsonFile<T>(
    path: string,
    mutate: (current: T | undefined) => T,
    message: string,
  ): Promise<T>;
}

const MAIN = 'main';
/** Attempts of an optimistic write before giving up with 409 (each attempt re-reads and re-applies). */
export const MAX_WRITE_ATTEMPTS = 8;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return null;
  }
}

const isStaleTip = (error: unknown): boolean =>
  isServiceError(error) && (error.statusCode === 409 || error.code === 'TF401028');

/** A queued change to one file: applied in order with the others of its batch. */
interface PendingWrite {
  mutate: (current: unknown) => unknown;
  message: string;
  resolve: (written: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Writes of one file in this process are batched: while a push is in flight, the changes that arrive wait and
 * then go together in one commit (each applied to the result of the one before), so fifty technicians accepting
 * at once cost a few pushes, not fifty racing ones. Other processes (or a colleague's push in Azure DevOps) are
 * met by the optimistic retry on a stale tip.
 */
const writeQueues = new Map<string, { pending: PendingWrite[]; running: boolean }>();

/**
 * The adapter of {@link ComplianceStore} over the DevOps connector, until the shared ConfigRepository (issue 10 §1)
 * is on main; trees share the comparison's cache keyed by git tree id.
 */
export class DevOpsComplianceStore implements ComplianceStore {
  constructor(
    private readonly devops: DevOpsApi,
    private readonly repo: RepositoryRef,
    private readonly caches: Pick<ComparisonCaches, 'trees'>,
  ) {}

  async readTree(folder: string, version: VersionSpec): Promise<StoredTree | undefined> {
    const listing = await this.devops.listItems(this.repo, folder, { recursion: 'full', version });
    const root = listing[0];
    if (!root) return undefined;
    const key = `${this.repo.project}/${this.repo.repository}:${folder}@${root.objectId}`;
    const cached = this.caches.trees.get(key);
    if (cached) return { treeId: cached.treeId, files: cached.files };
    const snapshot = await this.devops.readFolder(this.repo, folder, { listing, version });
    if (!snapshot) return undefined;
    const tree = {
      treeId: root.objectId,
      commitId: snapshot.commitId,
      files: snapshot.files.map((f) => ({ path: f.path, content: parseJson(f.content) })),
    };
    this.caches.trees.set(key, tree);
    return { treeId: tree.treeId, files: tree.files };
  }

  async readJson<T>(path: string, version: VersionSpec = { branch: MAIN }): Promise<T | undefined> {
    const file = await this.devops.getFile(this.repo, path, { version });
    if (!file) return undefined;
    return parseJson(file.content) as T;
  }

  private async mainTip(): Promise<string> {
    const refs = await this.devops.listRefs(this.repo, `heads/${MAIN}`);
    const ref = refs.find((r) => r.name === `refs/heads/${MAIN}`);
    if (!ref) throw new ConflictError('Could not find main branch');
    return ref.commitId;
  }

  updateJsonFile<T>(
    path: string,
    mutate: (current: T | undefined) => T,
    message: string,
  ): Promise<T> {
    const key = `${this.repo.project}/${this.repo.repository}:${path}`;
    return new Promise<T>((resolve, reject) => {
      let queue = writeQueues.get(key);
      if (!queue) writeQueues.set(key, (queue = { pending: [], running: false }));
      queue.pending.push({
        mutate: mutate as (current: unknown) => unknown,
        message,
        resolve: resolve as (written: unknown) => void,
        reject,
      });
      if (!queue.running) void this.drain(key, path, queue);
    });
  }

  private async drain(
    key: string,
    path: string,
    queue: { pending: PendingWrite[]; running: boolean },
  ): Promise<void> {
    queue.running = true;
    try {
      while (queue.pending.length > 0) {
        const batch = queue.pending.splice(0, queue.pending.length);
        await this.writeBatch(path, batch).catch((error: unknown) => {
          for (const w of batch) w.reject(error);
        });
      }
    } finally {
      queue.running = false;
      if (queue.pending.length === 0) writeQueues.delete(key);
      else void this.drain(key, path, queue);
    }
  }

  /** One commit for a batch of changes: read on main, apply each, push with the tip as oldObjectId; retry if stale. */
  private async writeBatch(path: string, batch: PendingWrite[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const tip = await this.mainTip();
      const file = await this.devops.getFile(this.repo, path, { version: { commit: tip } });
      let state: unknown = file ? parseJson(file.content) : undefined;
      const applied: { write: PendingWrite; result: unknown }[] = [];
      const failed: { write: PendingWrite; error: unknown }[] = [];
      for (const write of batch) {
        try {
          state = write.mutate(state);
          applied.push({ write, result: state });
        } catch (error) {
          failed.push({ write, error });
        }
      }
      if (applied.length === 0) {
        for (const f of failed) f.write.reject(f.error);
        return;
      }
      try {
        await this.devops.push(this.repo, {
          branch: MAIN,
          oldObjectId: tip,
          commits: [
            {
              comment:
                applied.length === 1
                  ? applied[0]!.write.message
                  : `${applied.length} changes to ${path}\n\n${applied.map((a) => a.write.message).join('\n')}`,
              changes: [
                {
                  changeType: file ? 'edit' : 'add',
                  path,
                  content: `${JSON.stringify(state, null, 2)}\n`,
                },
              ],
            },
          ],
        });
      } catch (error) {
        if (!isStaleTip(error)) throw error;
        if (attempt >= MAX_WRITE_ATTEMPTS) {
          throw new ConflictError(
            `${path} kept changing while it was being saved; please try again.`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 50));
        continue;
      }
      for (const a of applied) a.write.resolve(a.result);
      for (const f of failed) f.write.reject(f.error);
      return;
    }
  }
}
