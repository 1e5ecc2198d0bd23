// The configuration repository as the pipeline tasks use it: read a folder at a commit (one listing
// and one zip), push one commit, tag it, create and delete branches. Everything goes through the
// DevOps connector, so the agent and the emulator's runner speak the same REST.
import type { DevOpsApi, FileChange, RepositoryRef } from '@aegis/connectors/devops';

const ZERO = '0000000000000000000000000000000000000000';

export interface RepositoryText {
  path: string;
  content: string;
}

export class TaskRepository {
  constructor(
    readonly devops: DevOpsApi,
    readonly ref: RepositoryRef,
  ) {}

  /** The commit main points at. */
  async mainCommit(): Promise<string> {
    return this.branchCommit('main').then((id) => {
      if (!id) throw new Error('Could not find main branch');
      return id;
    });
  }

  async branchCommit(branch: string): Promise<string | undefined> {
    const name = `refs/heads/${branch}`;
    const refs = await this.devops.listRefs(this.ref, `heads/${branch}`);
    return refs.find((r) => r.name === name)?.objectId;
  }

  /** Text files under a folder at a commit, keyed by path without the leading slash. */
  async readFolder(folder: string, commit: string): Promise<Map<string, string>> {
    const snapshot = await this.devops.readFolder(this.ref, folder, { version: { commit } });
    const files = new Map<string, string>();
    for (const file of snapshot?.files ?? [])
      files.set(file.path.replace(/^\/+/, ''), file.content);
    return files;
  }

  async fileExists(path: string, commit: string): Promise<boolean> {
    const file = await this.devops.getFile(this.ref, path, { version: { commit } });
    return file !== undefined;
  }

  /** One commit on a branch (created off `base` when new); returns the new commit id. */
  async commit(
    branch: string,
    oldObjectId: string,
    comment: string,
    changes: FileChange[],
  ): Promise<string> {
    const result = await this.devops.push(this.ref, {
      branch,
      oldObjectId,
      commits: [{ comment, changes }],
    });
    return result.commitId;
  }

  async createBranch(branch: string, commit: string): Promise<void> {
    await this.updateRef(`refs/heads/${branch}`, ZERO, commit);
  }

  async deleteBranch(branch: string, commit: string): Promise<void> {
    await this.updateRef(`refs/heads/${branch}`, commit, ZERO);
  }

  async tag(name: string, commit: string, message: string): Promise<void> {
    await this.devops.createAnnotatedTag(this.ref, { name, commitId: commit, message });
  }

  private async updateRef(name: string, oldObjectId: string, newObjectId: string): Promise<void> {
    const [result] = await this.devops.updateRefs(this.ref, [{ name, oldObjectId, newObjectId }]);
    if (!result?.success) {
      throw new Error(`Could not update ${name}: ${result?.updateStatus ?? 'no answer'}`);
    }
  }
}
