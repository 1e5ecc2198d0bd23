import { withPrefix } from '@aegis/connectors';
import type { VersionSpec } from '@aegis/connectors/devops';
import {
  readClientBaseline,
  type ConfigRepository,
  type ParsedFile,
  type ParsedTree,
  type ProgressReporter,
} from '@aegis/connectors/repository';
import type {
  ComparisonBaselineType,
  ComparisonResult,
  ConfigurationFile,
  Configurations,
  OptionsComparisonResult,
  PolicyFiles,
  StandardComparisonResult,
} from '@aegis/contracts';
import {
  BASELINE_ROOT,
  buildComparisonRows,
  captureManifestPath,
  notCapturedOutcomeOf,
  notCapturedWorkloads,
  toCaptureManifest,
  type CaptureManifest,
  clientResourcesRoot as clientRoot,
  MAIN_BRANCH,
  categoryOf,
  isComparableFile,
  sourcePathOf,
  NO_SECURITY_SETTINGS_MESSAGE,
  NotFoundError,
  policyFileName,
  standardBaselineStages,
  STANDARD_CATEGORY_PROGRESS,
  toResourcePath,
  type ComparisonResults,
  type EffectiveFile,
  type NotCapturedWorkload,
} from '@aegis/domain';
import { LRUCache } from 'lru-cache';

/** Spec 1 §7: files are compared 10 at a time; progress is reported (and flushed) per batch. */
const COMPARISON_BATCH_SIZE = 10;

/** Spec 1 §8. */
export const MESSAGES = {
  fetchConfiguration: 'Error fetching client configuration: ',
  compareFiles: 'Error comparing files: ',
  compareStandard: 'Error comparing to standard baseline: ',
  missingContent: (a: string, b: string) => `Missing content for ${a} or ${b}`,
} as const;

/**
 * Process-wide result cache, keyed by the tree ids compared, so an entry can never be stale (the
 * trees themselves are cached by the ConfigRepository, ADR 006/014); every request still lists the
 * folders with the user's own token first, so the cache never answers someone the service would refuse.
 */
export interface ComparisonCaches {
  results: LRUCache<string, ComparisonResult>;
}

export function createComparisonCaches(): ComparisonCaches {
  return { results: new LRUCache({ max: 24 }) };
}

/** Part of a result's cache key: the same trees with other workloads not read compare differently. */
const notReadKey = (notCaptured: readonly NotCapturedWorkload[]): string =>
  notCaptured.map((w) => `${w.workload}=${w.status}`).join(',');

/** Hands the event loop back so progress already written reaches the browser during the work. */
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Thrown when the standard baseline finds nothing to evaluate (spec 1 §5). */
export class NoSettingsError extends Error {
  override readonly name = 'NoSettingsError';
  readonly statusCode = 422;
  constructor() {
    super(NO_SECURITY_SETTINGS_MESSAGE);
  }
}

function toConfigurationFile(file: ParsedFile | EffectiveFile): ConfigurationFile {
  return {
    path: 'layer' in file ? sourcePathOf(file) : file.path,
    content: file.content,
    ...(file.content === null && file.text !== undefined ? { text: file.text } : {}),
  };
}

/** Configuration Comparison (spec 1 §2, §4, §7): clients, both baselines, configurations for viewing. */
export class ComparisonService {
  constructor(
    private readonly repository: ConfigRepository,
    private readonly caches: ComparisonCaches,
  ) {}

  /**
   * Main's tip, read once for this service (one per request): every read of the request is made
   * at that commit, so they agree and, commits being immutable, come from the repository's caches
   * until main moves.
   */
  private mainTip: Promise<VersionSpec> | undefined;
  private onMain(): Promise<VersionSpec> {
    this.mainTip ??= this.repository.branchTip(MAIN_BRANCH).then((commit) => ({ commit }));
    return this.mainTip;
  }

  /**
   * Refuses a client without a configuration on main before any work streams (issue 9 §5): one
   * one-level listing, so the answer is an ordinary 404 rather than a 200 and an error event.
   */
  async assertClientExists(client: string): Promise<void> {
    const children = await this.repository.listChildren(clientRoot(client), await this.onMain());
    if (children.length === 0) {
      throw new NotFoundError(`No configuration found for client ${client}`);
    }
  }

  /** Folders on main with real progress (spec 1 §4): listings 0–50, downloads 50–100. */
  async readTrees(
    folders: readonly string[],
    onProgress: ProgressReporter = () => {},
  ): Promise<(ParsedTree | undefined)[]> {
    return this.repository.readTrees(folders, await this.onMain(), onProgress);
  }

  /**
   * The client's tree on main and its effective baseline (company, its layers, its parameters: ADR
   * 068); the baseline's `treeId` is what it was made from.
   */
  private async readClientAndBaseline(
    client: string,
    onProgress: ProgressReporter,
  ): Promise<[{ treeId: string; files: EffectiveFile[] }, ParsedTree]> {
    // the trees first, for the progress of real downloads; the effective read then finds them cached
    const [, clientTree] = await this.readTrees([BASELINE_ROOT, clientRoot(client)], onProgress);
    if (!clientTree) throw new NotFoundError(`No configuration found for client ${client}`);
    const baseline = await readClientBaseline(this.repository, client, await this.onMain());
    return [{ treeId: baseline.sourceKey, files: baseline.files }, clientTree];
  }

  /**
   * What the client's capture on main could not read (ADR 050): those workloads' files are stale,
   * so they are neither compared nor evaluated and are reported in `notCaptured` instead.
   */
  private async readManifest(client: string): Promise<CaptureManifest | undefined> {
    return toCaptureManifest(
      await this.repository.readJson<unknown>(captureManifestPath(client), await this.onMain()),
    );
  }

  /** Runs one comparison; `onProgress` gets real percentages (spec 1 §4). */
  async runComparison(
    client: string,
    baselineType: ComparisonBaselineType,
    onProgress: ProgressReporter,
  ): Promise<ComparisonResult> {
    if (baselineType === 'standard') {
      try {
        return await this.runStandard(client, onProgress);
      } catch (error) {
        if (error instanceof NoSettingsError) throw error;
        throw withPrefix(MESSAGES.compareStandard, error);
      }
    }
    try {
      return await this.runOptions(client, onProgress);
    } catch (error) {
      throw withPrefix(MESSAGES.compareFiles, error);
    }
  }

  /** Standard baseline: 30 during the fetch, then the checks' own 35, 40, 55, 70, 85, 95, 100. */
  private async runStandard(
    client: string,
    onProgress: ProgressReporter,
  ): Promise<StandardComparisonResult> {
    onProgress(30);
    const [[tree], manifest] = await Promise.all([
      this.readTrees([clientRoot(client)]),
      this.readManifest(client),
    ]);
    if (!tree) throw new NotFoundError(`No configuration found for client ${client}`);
    const notCaptured = notCapturedWorkloads(manifest);
    const key = `standard:${client}:${tree.treeId}:${notReadKey(notCaptured)}`;
    const cached = this.caches.results.get(key);
    if (cached?.baselineType === 'standard') {
      // A cached result is delivered as it was computed: rule set by rule set.
      for (const percent of [...STANDARD_CATEGORY_PROGRESS, 95]) {
        onProgress(percent);
        await yieldToLoop();
      }
      await yieldToLoop();
      onProgress(100);
      return cached;
    }
    // One stage per rule set evaluated; the event loop is handed back between stages so each
    // percentage is written to the stream on its own instead of in one burst at the end.
    const stages = standardBaselineStages(
      tree.files.filter((f) => !notCapturedOutcomeOf(manifest, f.path)),
    );
    let step = stages.next();
    while (!step.done) {
      onProgress(step.value);
      await yieldToLoop();
      step = stages.next();
    }
    onProgress(100);
    const result = step.value;
    if (result.evaluatedCount === 0) throw new NoSettingsError();
    const dto: StandardComparisonResult = {
      baselineType: 'standard',
      client,
      clientTreeId: tree.treeId,
      results: result.results.map((r) => ({
        id: r.id,
        title: r.title,
        description: r.description,
        category: r.category,
        severity: r.severity,
        rationale: r.rationale,
        controlReference: r.controlReference,
        expected: r.expected,
        current: r.current,
        pass: r.pass,
        evaluated: r.evaluated,
        ...(r.file ? { file: toResourcePath(r.file) } : {}),
      })),
      total: result.total,
      passed: result.passed,
      failed: result.failed,
      percentage: result.percentage,
      evaluatedCount: result.evaluatedCount,
      notCaptured,
    };
    this.caches.results.set(key, dto);
    return dto;
  }

  /**
   * Company (options) baseline: loading 0–50 (listings, then downloads), the comparison routine
   * 50–100, batch by batch of 10 files, with the event loop handed back between batches so the
   * progress is streamed while the work runs.
   */
  private async runOptions(
    client: string,
    onProgress: ProgressReporter,
  ): Promise<OptionsComparisonResult> {
    const [[baseline, clientTree], manifest] = await Promise.all([
      this.readClientAndBaseline(client, (p) => onProgress(Math.floor(p / 2))),
      this.readManifest(client),
    ]);
    const notCaptured = notCapturedWorkloads(manifest);
    const key = `options:${client}:${baseline.treeId}:${clientTree.treeId}:${notReadKey(notCaptured)}`;
    const cached = this.caches.results.get(key);
    if (cached?.baselineType === 'options') {
      onProgress(100);
      return cached;
    }
    const clientByResourcePath = new Map<string, ParsedFile>();
    for (const file of clientTree.files) clientByResourcePath.set(toResourcePath(file.path), file);
    const files = baseline.files.filter((f) => {
      const path = toResourcePath(f.path);
      return isComparableFile(path) && !notCapturedOutcomeOf(manifest, path);
    });

    const rows: ComparisonResults = {};
    const policyPaths: Record<string, Record<string, string>> = {};
    const policyLayers: Record<string, Record<string, string>> = {};
    const warnings: string[] = [];
    for (let start = 0; start < files.length; start += COMPARISON_BATCH_SIZE) {
      for (const file of files.slice(start, start + COMPARISON_BATCH_SIZE)) {
        const path = toResourcePath(file.path);
        const counterpart = clientByResourcePath.get(path);
        const single = buildComparisonRows([file], counterpart ? [counterpart] : []);
        const category = categoryOf(path);
        const fileRows = Object.values(single[category] ?? {})[0] ?? [];
        if (file.content === null || counterpart?.content === null) {
          const message = MESSAGES.missingContent(
            sourcePathOf(file),
            counterpart?.path ?? `${clientRoot(client)}/${path}`,
          );
          warnings.push(message);
          for (const row of fileRows) row.Description = message;
        }
        const policies = (rows[category] ??= {});
        const paths = (policyPaths[category] ??= {});
        let name = policyFileName(path);
        if (policies[name]) name = path.slice(category.length + 1).replace(/\.json$/i, '');
        policies[name] = fileRows;
        paths[name] = path;
        if (file.layer) (policyLayers[category] ??= {})[name] = file.layer;
      }
      const done = Math.min(files.length, start + COMPARISON_BATCH_SIZE);
      onProgress(50 + Math.floor((done / files.length) * 50));
      await yieldToLoop();
    }
    onProgress(100);
    const result: OptionsComparisonResult = {
      baselineType: 'options',
      client,
      baselineTreeId: baseline.treeId,
      clientTreeId: clientTree.treeId,
      rows,
      policyPaths,
      policyLayers,
      warnings,
      notCaptured,
    };
    this.caches.results.set(key, result);
    return result;
  }

  /** Both configurations for viewing as formatted JSON: listing 0–50, downloads 50–100. */
  async loadConfigurations(client: string, onProgress: ProgressReporter): Promise<Configurations> {
    try {
      const [baseline, clientTree] = await this.readClientAndBaseline(client, onProgress);
      const comparable = (f: { path: string }) => isComparableFile(toResourcePath(f.path));
      return {
        client,
        baseline: {
          treeId: baseline.treeId,
          files: baseline.files.filter(comparable).map(toConfigurationFile),
        },
        clientConfiguration: {
          treeId: clientTree.treeId,
          files: clientTree.files.filter(comparable).map(toConfigurationFile),
        },
      };
    } catch (error) {
      throw withPrefix(MESSAGES.fetchConfiguration, error);
    }
  }

  /** One policy of both trees, by resource path, for the configuration info modal. */
  async getPolicy(client: string, resourcePath: string): Promise<PolicyFiles> {
    const path = toResourcePath(resourcePath);
    try {
      const [baseline, [clientTree]] = await Promise.all([
        this.onMain().then((version) => readClientBaseline(this.repository, client, version)),
        this.readTrees([clientRoot(client)]),
      ]);
      const find = (tree: { files: readonly (ParsedFile | EffectiveFile)[] } | undefined) => {
        const file = tree?.files.find((f) => toResourcePath(f.path) === path);
        return file ? toConfigurationFile(file) : null;
      };
      const result: PolicyFiles = {
        path,
        category: categoryOf(path),
        baseline: find(baseline),
        clientConfiguration: find(clientTree),
      };
      if (!result.baseline && !result.clientConfiguration) {
        throw new NotFoundError(`No policy at ${path} for client ${client}`);
      }
      return result;
    } catch (error) {
      throw withPrefix(MESSAGES.fetchConfiguration, error);
    }
  }
}
