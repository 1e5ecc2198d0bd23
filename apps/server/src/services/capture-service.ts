import { isServiceError, ServiceError, isNotFound, orNotFound } from '@aegis/connectors';
import type { BuildRecord, PullRequest } from '@aegis/connectors/devops';
import { readClientBaseline, type ConfigRepository } from '@aegis/connectors/repository';
import type {
  CaptureAnalysis,
  CaptureBranch,
  CaptureFile,
  CaptureOverview,
  CapturePullRequestCreated,
  CaptureRun,
  CreateCapturePullRequestBody,
  DriftChangeDto,
  ReviewDeviationDto,
} from '@aegis/contracts';
import {
  applyAcceptedDeviations,
  captureRun,
  clientResourcesRoot as clientRoot,
  acceptedDeviationsPath,
  MAIN_REF,
  captureBranchName,
  capturePullRequestDescription,
  capturePullRequestTitle,
  captureReviewSeverity,
  captureBranchSuffix,
  capturersOf,
  ConflictError,
  captureChangeCounts,
  confinePath,
  driftChangeCounts,
  isReviewableChange,
  driftSummary,
  evaluateCompliance,
  isCaptureBranchOf,
  isComparableFile,
  isExcludedPath,
  InputError,
  isPartialCapture,
  isPrerequisitePath,
  jsonContent,
  mayApproveCapture,
  normaliseExcludedPath,
  notCapturedWorkloads,
  NotAllowedError,
  NotFoundError,
  partialApprovalRefusal,
  propertyChanges,
  toResourcePath,
  toReviewDeviations,
  type AcceptedDeviationsConfig,
  type ConfigFile,
} from '@aegis/domain';
import { CaptureBranches, readCaptureManifest, readCaptureMetadata } from '@aegis/insights';
import { LRUCache } from 'lru-cache';

import type { PipelineRuns } from './pipeline-runs';

/** One parsed file of a tree; `content` null when it is not valid JSON. */
interface TreeFile extends ConfigFile {
  path: string;
  objectId?: string;
}

/**
 * Process-wide caches: analyses by both commits and exclusions. Trees are cached once for the
 * whole app by the configuration repository.
 */
export interface CaptureCaches {
  analyses: LRUCache<string, CaptureAnalysis>;
}

export function createCaptureCaches(): CaptureCaches {
  return { analyses: new LRUCache({ max: 32 }) };
}

export interface CaptureUser {
  upn: string;
  displayName?: string;
}

const MAIN = MAIN_REF;

/**
 * Configuration capture and its review (spec 3 §2, §4, §7): capture branches with their pull
 * requests, the review analysis (drift against main from a git diff, compliance against the
 * baseline), the pull request that carries the approval, and the capture pipeline's runs.
 */
export class CaptureService {
  private readonly branches: CaptureBranches;

  constructor(
    private readonly repository: ConfigRepository,
    private readonly runs: PipelineRuns,
    private readonly caches: CaptureCaches,
    /** the project whose pipelines include the capture pipeline (216) */
    private readonly pipelineProject: string,
  ) {
    this.branches = new CaptureBranches(repository, (branch) => this.runDateOf(branch));
  }

  /** When the run that made a branch finished, for branches whose metadata has no capture time. */
  async runDateOf(branch: string): Promise<string | undefined> {
    const runId = Number(captureBranchSuffix(branch));
    if (!Number.isInteger(runId) || runId <= 0) return undefined;
    try {
      const run = await this.runs.getCatalogued(this.pipelineProject, 'capture', runId);
      return run.finishedDate ?? run.createdDate;
    } catch {
      return undefined;
    }
  }

  /** The client's capture branches (spec 3 §3, §7), as the Capture screen lists them. */
  listBranches(client: string): Promise<CaptureBranch[]> {
    return this.branches.listBranches(client);
  }

  async overview(client: string): Promise<CaptureOverview> {
    return this.branches.overview(client);
  }

  /** The overview of several clients (last capture, last merge, pending reviews) from one listing. */
  overviews(clients: readonly string[]): Promise<Map<string, CaptureOverview>> {
    return this.branches.overviews(clients);
  }

  /**
   * A folder at a commit, parsed, through the configuration repository: its tree cache (by tree
   * object id) is shared with every other reader of the repository (comparison, compliance, fleet).
   */
  private async readTree(folder: string, commitId: string): Promise<TreeFile[] | undefined> {
    return (await this.repository.readTree(folder, { commit: commitId }))?.files;
  }

  private async acceptedDeviations(
    client: string,
    commitId: string,
  ): Promise<AcceptedDeviationsConfig | undefined> {
    try {
      const parsed = await this.repository.readJson(acceptedDeviationsPath(client), {
        commit: commitId,
      });
      const config = parsed as Partial<AcceptedDeviationsConfig> | null | undefined;
      return Array.isArray(config?.acceptedDeviations)
        ? (config as AcceptedDeviationsConfig)
        : undefined;
    } catch {
      // Spec 3 §7: other failures are logged and ignored.
      return undefined;
    }
  }

  /**
   * Review analysis (spec 3 §2 Capture Analysis, §7 drift and compliance): the git diff of main
   * against the branch names the changed files; only their previous versions are read (one blob
   * request); compliance compares the capture with the baseline at main. Cached by both commits.
   */
  async analyse(
    client: string,
    branch: string,
    excludedProperties: readonly string[],
    excludedPaths: readonly string[],
  ): Promise<CaptureAnalysis> {
    if (!isCaptureBranchOf(branch, client)) {
      throw new NotFoundError(`${branch} is not a capture branch of client ${client}`);
    }
    let diff;
    try {
      diff = await this.repository.diff(
        { branch: 'main' },
        { branch },
        { diffCommonCommit: false },
      );
    } catch (error) {
      if (isNotFound(error) || (isServiceError(error) && error.statusCode === 400)) {
        throw new NotFoundError(`Capture branch ${branch} not found`);
      }
      throw error;
    }
    const key = JSON.stringify([
      client,
      branch,
      diff.baseCommit,
      diff.targetCommit,
      [...excludedProperties].sort(),
      [...excludedPaths].sort(),
    ]);
    const cached = this.caches.analyses.get(key);
    if (cached) return cached;

    const root = clientRoot(client);
    const normalisedExcluded = excludedPaths.map(normaliseExcludedPath);
    const relevant = (path: string) => {
      if (!path.toLowerCase().startsWith(`${root.toLowerCase()}/`)) return false;
      const resource = toResourcePath(path);
      return isComparableFile(resource) && !isExcludedPath(resource, normalisedExcluded);
    };
    const changed = diff.changes.filter((c) => !c.isFolder && relevant(c.path));
    const previousIds = changed
      .filter((c) => c.changeType === 'edit' && c.originalObjectId)
      .map((c) => c.originalObjectId as string);

    const [capture, baseline, previous, accepted, manifest] = await Promise.all([
      this.readTree(root, diff.targetCommit),
      // the client's effective baseline where the capture started (ADR 068)
      readClientBaseline(this.repository, client, { commit: diff.baseCommit }).then((b) => b.files),
      this.repository.getBlobs(previousIds),
      this.acceptedDeviations(client, diff.baseCommit),
      // at the commit analysed, as the capture's tree
      readCaptureManifest(this.repository, client, { commit: diff.targetCommit }),
    ]);
    if (!capture) throw new NotFoundError(`No configuration for client ${client} on ${branch}`);

    const byPath = new Map(capture.map((f) => [f.path.toLowerCase(), f]));
    const changes: DriftChangeDto[] = [];
    for (const c of changed) {
      const path = toResourcePath(c.path);
      const item = { path, objectId: c.objectId };
      if (c.changeType === 'add') changes.push({ changeType: 'add', item });
      else if (c.changeType === 'delete') changes.push({ changeType: 'delete', item });
      else {
        const before = c.originalObjectId ? previous.get(c.originalObjectId) : undefined;
        const after = byPath.get(c.path.toLowerCase());
        const old = before === undefined ? null : jsonContent(before);
        if (old === null || !after || after.content === null) {
          // Spec 3 §7: a per-file failure yields no property changes.
          changes.push({ changeType: 'edit', item, propertyChanges: [], propertyChangeCount: 0 });
          continue;
        }
        const properties = propertyChanges(old, after.content, excludedProperties);
        // only excluded properties changed: nothing to review
        if (
          !isReviewableChange({
            changeType: 'edit',
            changedProperties: properties.map((p) => p.property),
          })
        )
          continue;
        changes.push({
          changeType: 'edit',
          item,
          propertyChanges: properties,
          propertyChangeCount: properties.length,
        });
      }
    }
    changes.sort((a, b) => a.item.path.localeCompare(b.item.path));

    const captured = capture.filter((f) => relevant(f.path));
    const baselineFiles = baseline.filter((f) => {
      const resource = toResourcePath(f.path);
      return isComparableFile(resource) && !isExcludedPath(resource, normalisedExcluded);
    });
    // workloads the capture did not read are neither deviations nor missing (ADR 050)
    let compliance = evaluateCompliance(baselineFiles, captured, {
      excludedProperties,
      excludedPaths,
      ...(manifest ? { manifest } : {}),
    });
    if (accepted) compliance = applyAcceptedDeviations(compliance, accepted);
    const groups = new Map(compliance.deviations.map((g) => [g.path, g]));
    const deviations: ReviewDeviationDto[] = toReviewDeviations(compliance.deviations).map((d) => ({
      ...d,
      deviations: (groups.get(d.path)?.deviations ?? []).map((p) => ({
        property: p.property,
        baselineValue: p.baselineValue,
        clientValue: p.clientValue,
        severity: p.isMissing ? d.severity : captureReviewSeverity(p.property),
      })),
    }));

    const analysis: CaptureAnalysis = {
      client,
      branch,
      drift: {
        summary: driftSummary(changes, captured.length),
        changeCounts: driftChangeCounts(changes),
        changes,
        criticalCount: captureChangeCounts(
          changes.map((c) => ({
            changeType: c.changeType,
            ...(c.propertyChanges
              ? { changedProperties: c.propertyChanges.map((p) => p.property) }
              : {}),
          })),
        ).critical,
      },
      compliance: {
        totalCount: compliance.totalCount,
        prerequisiteTotal: baselineFiles.filter((f) => isPrerequisitePath(toResourcePath(f.path)))
          .length,
        acceptedDeviationsCount: compliance.acceptedDeviationsCount,
        deviations,
      },
      notCaptured: notCapturedWorkloads(manifest),
      partial: isPartialCapture(manifest),
    };
    this.caches.analyses.set(key, analysis);
    return analysis;
  }

  /**
   * One file at a branch (spec 3 §7), confined to the client's folder (a path that would leave it
   * is a 400 naming `path`); content null when absent.
   */
  async getFile(client: string, branch: string, path: string): Promise<CaptureFile> {
    if (branch !== 'main' && !isCaptureBranchOf(branch, client)) {
      throw new NotFoundError(`${branch} is not a capture branch of client ${client}`);
    }
    const resource = toResourcePath(path);
    const full = confinePath(clientRoot(client), resource);
    const file = await this.repository.readText(full, { branch });
    return { path: resource, branch, content: file ? jsonContent(file.text) : null };
  }

  /**
   * Who ran the capture that made `branch` (ADR 051): the run's requesters as Azure DevOps records
   * them, never a file on the branch. A branch no capture run of this client made cannot be
   * approved (403); when the run cannot be read the approval is refused (503), never let through.
   */
  private async captureRunOf(client: string, branch: string): Promise<BuildRecord> {
    const runId = Number(captureBranchSuffix(branch));
    const notACapture = new NotAllowedError(
      `${branch} was not made by a capture run of client ${client}, so it cannot be approved.`,
    );
    if (!Number.isSafeInteger(runId) || runId <= 0) throw notACapture;
    let build;
    try {
      build = await this.runs.buildOfCatalogued(this.pipelineProject, 'capture', runId);
    } catch (error) {
      if (isServiceError(error) && (error.statusCode === 401 || error.statusCode === 403))
        throw error;
      throw new ServiceError(
        `Who ran capture ${runId} could not be read from Azure DevOps, so it was not approved: ${(error as Error).message}`,
        {
          service: 'devops',
          statusCode: 503,
          ...(isServiceError(error) && error.retryAfterInMs !== undefined
            ? { retryAfterInMs: error.retryAfterInMs }
            : {}),
          cause: error,
        },
      );
    }
    if (!build || build.templateParameters['ClientCode'] !== client) throw notACapture;
    return build;
  }

  /**
   * The pull request from the capture branch to main (spec 3 §7), carrying the approval in its
   * description and deleting the source branch on completion. The approver is the signed-in user;
   * whoever ran the capture (the run's requester, ADR 051) cannot approve it; an open pull request
   * is not opened twice. Azure DevOps' branch policy is the merge gate: the pull request completes
   * only with an approval from someone other than its creator and the last pusher.
   */
  async createPullRequest(
    client: string,
    body: CreateCapturePullRequestBody,
    user: CaptureUser,
    now = new Date(),
  ): Promise<CapturePullRequestCreated> {
    const { branch } = body;
    if (!isCaptureBranchOf(branch, client)) {
      throw new NotFoundError(`${branch} is not a capture branch of client ${client}`);
    }
    const source = `refs/heads/${branch}`;
    const [refs, active, metadata, manifest] = await Promise.all([
      this.repository.listRefs(`heads/${branch}`),
      this.repository.listPullRequests({
        status: 'active',
        sourceRefName: source,
        targetRefName: MAIN,
      }),
      readCaptureMetadata(this.repository, client, { branch }),
      readCaptureManifest(this.repository, client, { branch }),
    ]);
    if (!refs.some((r) => r.name === source)) {
      throw new NotFoundError(`Capture branch ${branch} not found`);
    }
    const open = active[0];
    if (open) {
      throw new ConflictError(
        `Pull request #${open.pullRequestId} for ${branch} is already open and awaiting approval in Azure DevOps.`,
      );
    }
    const approvedBy = user.upn.trim() || 'Unknown';
    const run = await this.captureRunOf(client, branch);
    if (!mayApproveCapture(approvedBy, run)) {
      throw new NotAllowedError(
        capturersOf(run).length === 0
          ? `Who ran this capture is not recorded by Azure DevOps, so it cannot be approved.`
          : `You started this capture, so another Approver must approve it (four-eyes rule).`,
      );
    }
    const partial = partialApprovalRefusal(manifest, body.comments);
    if (partial) throw new InputError(partial, 'comments');
    const approval = {
      approvedBy,
      approvedAt: now.toISOString(),
      comments: body.comments.trim(),
      summary: body.summary,
    };
    let pr: PullRequest;
    try {
      pr = await this.repository.openPullRequest({
        sourceRefName: source,
        targetRefName: MAIN,
        title: capturePullRequestTitle(client, branch),
        description: capturePullRequestDescription(
          client,
          branch,
          approval,
          metadata?.capturedAt ?? (await this.runDateOf(branch)),
        ),
        labels: ['capture-review'],
        completionOptions: { deleteSourceBranch: true },
      });
    } catch (error) {
      if (isServiceError(error) && error.statusCode === 409) {
        throw new ConflictError(
          `A pull request for ${branch} is already open and awaiting approval in Azure DevOps.`,
        );
      }
      throw error;
    }
    return {
      pullRequestId: pr.pullRequestId,
      prUrl: pr.webUrl,
      createdBy: pr.createdBy.displayName || user.displayName || approvedBy,
      status: 'pending',
      approval,
    };
  }

  /** Starts the capture pipeline (216) with ClientCode and the JSON-encoded exclusions (spec 3 §7). */
  async startCapture(
    client: string,
    options: { excludedProperties: string[]; excludedPaths: string[]; baselineVersion: string },
  ): Promise<CaptureRun> {
    const run = await this.runs.start(
      this.pipelineProject,
      captureRun({ clientCode: client, ...options }),
    );
    return {
      runId: run.id,
      state: run.state,
      result: run.result,
      branch: captureBranchName(client, run.id),
      project: this.pipelineProject,
      pipelineId: run.pipelineId,
    };
  }

  async getRun(client: string, runId: number): Promise<CaptureRun> {
    const run = await orNotFound(
      this.runs.getCatalogued(this.pipelineProject, 'capture', runId),
      `Capture run ${runId} not found`,
    );
    return {
      runId: run.id,
      state: run.state,
      result: run.result,
      branch: captureBranchName(client, run.id),
      project: this.pipelineProject,
      pipelineId: run.pipelineId,
    };
  }
}
