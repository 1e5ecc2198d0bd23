import type { VersionSpec } from '@aegis/connectors/devops';
import { readClientBaseline, type ConfigRepository } from '@aegis/connectors/repository';
import type { ConfigFile, EffectiveFile } from '@aegis/domain';

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
/** A client's effective baseline on main (ADR 068), and what it was made from (a cache key). */
export interface StoredClientBaseline {
  sourceKey: string;
  baselineTreeId: string;
  files: EffectiveFile[];
  /** the client's layers, in order */
  layers: { name: string }[];
}

export interface ComplianceStore {
  /** The commit a branch points at, or undefined when the branch does not exist. */
  findBranchTip(branch: string): Promise<string | undefined>;
  readTree(folder: string, version: VersionSpec): Promise<StoredTree | undefined>;
  /**
   * The client's effective baseline (company, its layers, its parameters: ADR 068) at a version,
   * default main.
   */
  readClientBaseline(client: string, version?: VersionSpec): Promise<StoredClientBaseline>;
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

/**
 * The ComplianceStore over the shared ConfigRepository (ADR 014): trees from its app-wide cache by
 * git tree id, JSON files read at a version (404 → undefined), writes through updateJsonFile
 * (oldObjectId, group commit of one user's writes, stale-ref retry).
 */
export class ConfigRepositoryComplianceStore implements ComplianceStore {
  constructor(private readonly repository: ConfigRepository) {}

  findBranchTip(branch: string): Promise<string | undefined> {
    return this.repository.findBranchTip(branch);
  }

  async readTree(folder: string, version: VersionSpec): Promise<StoredTree | undefined> {
    const tree = await this.repository.readTree(folder, version);
    return tree ? { treeId: tree.treeId, files: tree.files } : undefined;
  }

  readClientBaseline(client: string, version?: VersionSpec): Promise<StoredClientBaseline> {
    return readClientBaseline(this.repository, client, version);
  }

  readJson<T>(path: string, version?: VersionSpec): Promise<T | undefined> {
    return this.repository.readJson<T>(path, version);
  }

  async updateJsonFile<T>(
    path: string,
    mutate: (current: T | undefined) => T,
    message: string,
  ): Promise<T> {
    return (await this.repository.updateJsonFile<T>(path, mutate, message)).value;
  }
}
