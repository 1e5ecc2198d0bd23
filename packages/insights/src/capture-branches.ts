// The capture branches of clients and their overview (spec 3 §3, §7): what the Capture screen
// lists and the customer report's open reviews count (issue 29, ADR 089), read in one place.
import type { PullRequest, VersionSpec } from '@aegis/connectors/devops';
import type { ConfigRepository } from '@aegis/connectors/repository';
import type { CaptureBranch, CaptureOverview, CapturePullRequest } from '@aegis/contracts';
import {
  capturedAtFromDescription,
  captureBranchPrefix,
  captureManifestPath,
  captureMetadataPath,
  clientCaptureOverview,
  isCaptureBranchOf,
  isPartialCapture,
  MAIN_REF,
  MERGED_PULL_REQUEST_LIMIT,
  notCapturedWorkloads,
  parseCaptureManifest,
  type CaptureManifest,
  type CaptureMetadata,
} from '@aegis/domain';
import pLimit from 'p-limit';

const APPROVING_VOTE = 5;

/**
 * What the capture on a branch could not read (ADR 050); undefined for a capture older than
 * manifests. A failing read throws: the approval rule must not pass on a read that failed.
 */
export async function readCaptureManifest(
  repository: ConfigRepository,
  client: string,
  version: VersionSpec,
): Promise<CaptureManifest | undefined> {
  const file = await repository.readText(captureManifestPath(client), version);
  return parseCaptureManifest(file?.text);
}

/** The capture's metadata file on a branch; undefined when it is absent or unreadable. */
export async function readCaptureMetadata(
  repository: ConfigRepository,
  client: string,
  version: VersionSpec,
): Promise<CaptureMetadata | undefined> {
  try {
    const parsed = await repository.readJson(captureMetadataPath(client), version);
    return parsed && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The capture branches of clients, from the configuration repository. `runDateOf` says when the
 * run that made a branch finished, for branches whose metadata has no capture time (the server
 * reads it from the capture pipeline; undefined leaves the date out).
 */
export class CaptureBranches {
  constructor(
    private readonly repository: ConfigRepository,
    private readonly runDateOf: (branch: string) => Promise<string | undefined>,
  ) {}

  /**
   * The client's capture branches (spec 3 §3, §7): the branches that exist, plus the merged ones
   * known from completed pull requests into main (top 1000), whose source branch is deleted on
   * completion. Each carries the live state of its latest pull request.
   */
  async listBranches(client: string): Promise<CaptureBranch[]> {
    return (await this.listBranchesOf([client])).get(client) ?? [];
  }

  /**
   * The capture branches of several clients from one listing: the refs (the client's prefix for
   * one client, every capture branch for more) and the two pull-request lists are read once.
   */
  async listBranchesOf(clients: readonly string[]): Promise<Map<string, CaptureBranch[]>> {
    const only = clients.length === 1 ? clients[0] : undefined;
    const [refs, all] = await Promise.all([
      this.repository.listRefs(
        `heads/${only !== undefined ? captureBranchPrefix(only) : 'client-'}`,
      ),
      this.repository.listPullRequests({
        status: 'all',
        targetRefName: MAIN_REF,
        top: MERGED_PULL_REQUEST_LIMIT,
      }),
    ]);
    // a list shorter than the limit holds every pull request to main, so every merged one too;
    // only a longer history asks for the merged ones on their own (ADR 088)
    const completed =
      all.length < MERGED_PULL_REQUEST_LIMIT
        ? all.filter((pr) => pr.status === 'completed')
        : await this.repository.listPullRequests({
            status: 'completed',
            targetRefName: MAIN_REF,
            top: MERGED_PULL_REQUEST_LIMIT,
          });
    const limit = pLimit(8);
    const result = new Map<string, CaptureBranch[]>();
    await Promise.all(
      clients.map(async (client) => {
        result.set(client, await this.branchesOf(client, refs, completed, all, limit));
      }),
    );
    return result;
  }

  private async branchesOf(
    client: string,
    refs: readonly { name: string; commitId: string }[],
    completed: readonly PullRequest[],
    all: readonly PullRequest[],
    limit: ReturnType<typeof pLimit>,
  ): Promise<CaptureBranch[]> {
    const short = (ref: string) => ref.replace(/^refs\/heads\//, '');
    const ours = (pr: PullRequest) => isCaptureBranchOf(pr.sourceRefName, client);
    const mergedBy = new Map<string, PullRequest>();
    for (const pr of completed.filter(ours)) {
      const name = short(pr.sourceRefName);
      const seen = mergedBy.get(name);
      if (!seen || (pr.closedDate ?? '') > (seen.closedDate ?? '')) mergedBy.set(name, pr);
    }
    const latest = new Map<string, PullRequest>();
    for (const pr of all.filter(ours)) {
      const name = short(pr.sourceRefName);
      const seen = latest.get(name);
      if (!seen || pr.pullRequestId > seen.pullRequestId) latest.set(name, pr);
    }

    const tips = new Map(
      refs
        .map((r) => [short(r.name), r.commitId] as const)
        .filter(([name]) => isCaptureBranchOf(name, client)),
    );
    const existing = [...tips.keys()];
    const branches = await Promise.all(
      existing.map((name) =>
        limit(async () => {
          // read at the tip the listing gave: cached by commit id, so a list shown again costs
          // no reads until the branch moves
          const tip: VersionSpec = { commit: tips.get(name) ?? '' };
          const [metadata, manifest] = await Promise.all([
            readCaptureMetadata(this.repository, client, tip),
            // the list stays usable when one manifest cannot be read; approval reads it again
            readCaptureManifest(this.repository, client, tip).catch(() => undefined),
          ]);
          const date = metadata?.capturedAt ?? (await this.runDateOf(name));
          return this.toBranch(
            name,
            true,
            date,
            metadata,
            mergedBy.get(name),
            latest.get(name),
            manifest,
          );
        }),
      ),
    );
    for (const [name, pr] of mergedBy) {
      if (existing.includes(name)) continue;
      const date = capturedAtFromDescription(pr.description) ?? pr.creationDate;
      branches.push(this.toBranch(name, false, date, undefined, pr, latest.get(name)));
    }
    return branches;
  }

  private toBranch(
    name: string,
    exists: boolean,
    date: string | undefined,
    metadata: CaptureMetadata | undefined,
    merged: PullRequest | undefined,
    latest: PullRequest | undefined,
    manifest?: CaptureManifest,
  ): CaptureBranch {
    return {
      name,
      exists,
      partial: isPartialCapture(manifest),
      notCaptured: notCapturedWorkloads(manifest),
      merged: merged !== undefined,
      ...(date ? { date } : {}),
      ...(merged?.closedDate ? { mergedDate: merged.closedDate } : {}),
      ...(merged?.closedBy ? { mergedBy: merged.closedBy.displayName } : {}),
      ...(metadata ? { metadata: pickMetadata(metadata) } : {}),
      ...(latest ? { pullRequest: toCapturePullRequest(latest) } : {}),
    };
  }

  /** The client's overview (last capture, last merge, pending reviews). */
  async overview(client: string): Promise<CaptureOverview> {
    return clientCaptureOverview(await this.listBranches(client));
  }

  /** The overview of several clients (last capture, last merge, pending reviews) from one listing. */
  async overviews(clients: readonly string[]): Promise<Map<string, CaptureOverview>> {
    const branches = await this.listBranchesOf(clients);
    return new Map(clients.map((c) => [c, clientCaptureOverview(branches.get(c) ?? [])]));
  }
}

function pickMetadata(m: CaptureMetadata): CaptureMetadata {
  const out: CaptureMetadata = {};
  if (Number.isInteger(m.changeCount) && (m.changeCount ?? -1) >= 0)
    out.changeCount = m.changeCount;
  if (Number.isInteger(m.criticalCount) && (m.criticalCount ?? -1) >= 0)
    out.criticalCount = m.criticalCount;
  if (typeof m.baselineVersion === 'string') out.baselineVersion = m.baselineVersion;
  if (typeof m.capturedAt === 'string') out.capturedAt = m.capturedAt;
  if (typeof m.triggeredBy === 'string') out.triggeredBy = m.triggeredBy;
  return out;
}

function toCapturePullRequest(pr: PullRequest): CapturePullRequest {
  return {
    pullRequestId: pr.pullRequestId,
    status: pr.status,
    prUrl: pr.webUrl,
    createdBy: pr.createdBy.displayName,
    ...(pr.closedBy ? { closedBy: pr.closedBy.displayName } : {}),
    approvedBy: pr.reviewers.filter((r) => r.vote >= APPROVING_VOTE).map((r) => r.displayName),
  };
}
