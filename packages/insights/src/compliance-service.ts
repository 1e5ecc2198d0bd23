import { mustExist } from '@aegis/connectors';
import type { VersionSpec } from '@aegis/connectors/devops';
import type {
  AcceptanceRequested,
  AcceptDeviationsBody,
  AcceptDeviationsResult,
  ComplianceReport,
} from '@aegis/contracts';
import {
  acceptanceExpiryProblem,
  acceptDeviations,
  InputError,
  latestAcceptanceExpiry,
  acceptedMessage,
  approveAcceptance,
  needsSecondApprover,
  rejectAcceptance,
  requestAcceptance,
  addMatches,
  applyAcceptedDeviations,
  applyMatches,
  captureManifestPath,
  BASELINE_VIEW_COMPARE_OPTIONS,
  comparePolicy,
  complianceSummary,
  ConflictError,
  dedupeMatches,
  emptyAcceptedDeviations,
  emptyMatchingConfig,
  evaluateCompliance,
  ERROR_CODES,
  findUnmatchedPolicies,
  NotFoundError,
  notCapturedWorkloads,
  removeMatch,
  revokeAcceptedDeviations,
  type AcceptedDeviationsConfig,
  type ComplianceData,
  type ConfirmedMatch,
  type MatchingConfig,
  type UnmatchedSummary,
  toCaptureManifest,
  unmatchedSummary,
  acceptedDeviationsPath,
  BASELINE_ROOT,
  clientResourcesRoot as clientRoot,
  confinePath,
  matchingConfigPath,
  toResourcePath,
} from '@aegis/domain';
import { LRUCache } from 'lru-cache';

import type { ComplianceStore } from './compliance-store';

/**
 * Suggestions sent per unmatched policy: the best five (ranked best first; auto-match takes the first). A tenant
 * of look-alike policies otherwise sends every candidate for every missing policy (ADR 029).
 */
const MAX_SUGGESTIONS = 5;

const COMPARE_OPTIONS = BASELINE_VIEW_COMPARE_OPTIONS;

/**
 * Compliance of a pair of trees, cached by their git tree ids (immutable), and the suggestions of each
 * matching state; only the matches and acceptances, which are small, are applied per request.
 */
export interface ComplianceCaches {
  raw: LRUCache<string, ComplianceData>;
  matched: LRUCache<string, { data: ComplianceData; unmatched: UnmatchedSummary[] }>;
}

export function createComplianceCaches(): ComplianceCaches {
  return { raw: new LRUCache({ max: 16 }), matched: new LRUCache({ max: 16 }) };
}

export interface Logger {
  warn(obj: object, msg: string): void;
}

const MAIN: VersionSpec = { branch: 'main' };

function matchesKey(matches: readonly ConfirmedMatch[]): string {
  return JSON.stringify(
    matches.map((m) => [m.baselineId, m.baselineName, m.clientId, m.clientName, m.baselinePath]),
  );
}

/** Baseline Compliance (spec 3 §2, §4, §7): the report, accepted deviations and confirmed matches, in git. */
export class ComplianceService {
  constructor(
    private readonly store: ComplianceStore,
    private readonly caches: ComplianceCaches,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Loads a configuration document; 404 gives the default. Inside the report (`warnings` given) any
   * other failure is logged and ignored (spec 3 §7); read on its own, it is answered with its own
   * status, so an unreadable file is never shown as an empty one (issue 9 §2).
   */
  private async load<T>(
    path: string,
    fallback: T,
    warnings: string[] | undefined,
    label: string,
    version: VersionSpec,
  ): Promise<T> {
    try {
      return (await this.store.readJson<T>(path, version)) ?? fallback;
    } catch (error) {
      if (!warnings) throw error;
      this.log.warn({ err: error, path }, `could not load ${label}`);
      warnings.push(`The ${label} could not be loaded and was not applied.`);
      return fallback;
    }
  }

  async getMatchingConfig(
    client: string,
    warnings?: string[],
    version: VersionSpec = MAIN,
  ): Promise<MatchingConfig> {
    const cfg = await this.load<MatchingConfig>(
      matchingConfigPath(client),
      emptyMatchingConfig(client, this.now()),
      warnings,
      'matching configuration',
      version,
    );
    return {
      ...cfg,
      matches: dedupeMatches(Array.isArray(cfg.matches) ? cfg.matches : []).matches,
    };
  }

  async getAcceptedDeviations(
    client: string,
    warnings?: string[],
    version: VersionSpec = MAIN,
  ): Promise<AcceptedDeviationsConfig> {
    const cfg = await this.load<AcceptedDeviationsConfig>(
      acceptedDeviationsPath(client),
      emptyAcceptedDeviations(client, this.now()),
      warnings,
      'accepted-deviations configuration',
      version,
    );
    return {
      ...cfg,
      acceptedDeviations: Array.isArray(cfg.acceptedDeviations) ? cfg.acceptedDeviations : [],
    };
  }

  /**
   * The report: the client (on main or a capture branch) against the company baseline on main, with the saved
   * matches and accepted deviations applied, and the unmatched policies with their suggestions.
   */
  async report(
    client: string,
    branch = 'main',
    pendingMatches: readonly ConfirmedMatch[] = [],
  ): Promise<ComplianceReport> {
    const warnings: string[] = [];
    // Everything is read at the commits the two tips name, so the reads agree with one another
    // and, commits being immutable, come from the repository's caches until a branch moves.
    const [mainTip, branchTip] = await Promise.all([
      this.store.findBranchTip('main'),
      branch === 'main' ? undefined : this.store.findBranchTip(branch),
    ]);
    if (mainTip === undefined) throw new NotFoundError('Could not find main branch');
    const onMain: VersionSpec = { commit: mainTip };
    const onBranch: VersionSpec | undefined =
      branch === 'main' ? onMain : branchTip === undefined ? undefined : { commit: branchTip };
    const [baseline, clientTree, matching, accepted, manifestJson] = await Promise.all([
      this.store.readClientBaseline(client, onMain),
      onBranch ? this.store.readTree(clientRoot(client), onBranch) : undefined,
      this.getMatchingConfig(client, warnings, onMain),
      this.getAcceptedDeviations(client, warnings, onMain),
      // what the capture there could not read: neither deviations nor missing (ADR 050)
      onBranch ? this.store.readJson<unknown>(captureManifestPath(client), onBranch) : undefined,
    ]);
    const manifest = toCaptureManifest(manifestJson);
    if (!clientTree) {
      // on main: nothing captured yet, a state the screen shows (ADR 042); on a branch: a failure
      throw branch === 'main'
        ? new NotFoundError(
            `No configuration found for client ${client}`,
            ERROR_CODES.noClientConfiguration,
          )
        : new NotFoundError(`No configuration found for client ${client} on branch ${branch}`);
    }
    const notRead = notCapturedWorkloads(manifest)
      .map((w) => `${w.workload}=${w.status}`)
      .join(',');
    const pair = `${baseline.sourceKey}:${clientTree.treeId}:${notRead}`;
    let raw = this.caches.raw.get(pair);
    if (!raw) {
      raw = evaluateCompliance(baseline.files, clientTree.files, {
        ...COMPARE_OPTIONS,
        ...(manifest ? { manifest } : {}),
      });
      this.caches.raw.set(pair, raw);
    }
    const applied = dedupeMatches([...matching.matches, ...pendingMatches]).matches;
    const matchedKey = `${pair}:${matchesKey(applied)}`;
    let matched = this.caches.matched.get(matchedKey);
    if (!matched) {
      const data = applyMatches(raw, applied, COMPARE_OPTIONS);
      const unmatched = findUnmatchedPolicies(data).map((u) =>
        unmatchedSummary(u, MAX_SUGGESTIONS),
      );
      matched = { data, unmatched };
      this.caches.matched.set(matchedKey, matched);
    }
    const now = this.now();
    return {
      client,
      branch,
      baselineTreeId: baseline.baselineTreeId,
      clientTreeId: clientTree.treeId,
      generatedAt: now.toISOString(),
      compliance: complianceSummary(applyAcceptedDeviations(matched.data, accepted, now)),
      unmatched: matched.unmatched,
      matching,
      acceptedDeviations: accepted,
      policyLayers: Object.fromEntries(
        baseline.files.flatMap((f) => (f.layer === undefined ? [] : [[f.path, f.layer]])),
      ),
      layers: baseline.layers.map((l) => l.name),
      warnings,
    };
  }

  /**
   * A policy of the client's effective baseline on main (company, its layers, its parameters: ADR
   * 068) by resource path; undefined when the effective baseline has none there.
   */
  private async baselinePolicy(client: string, path: string): Promise<unknown> {
    const resource = toResourcePath(path).toLowerCase();
    const baseline = await this.store.readClientBaseline(client);
    return baseline.files.find((f) => f.path.toLowerCase() === resource)?.content;
  }

  /**
   * One policy document: the baseline's on main, or the client's on main or a capture branch
   * (View Detailed Comparison loads the suggested client policy this way).
   */
  async policyDocument(
    client: string,
    side: 'baseline' | 'client',
    path: string,
    branch = 'main',
  ): Promise<{ path: string; policy: unknown }> {
    const policy = await mustExist(
      side === 'baseline'
        ? this.baselinePolicy(client, confinePath(BASELINE_ROOT, path))
        : this.store.readJson<unknown>(confinePath(clientRoot(client), path), { branch }),
      side === 'baseline' ? `No baseline policy at ${path}` : `No policy of ${client} at ${path}`,
    );
    return { path, policy };
  }

  /**
   * Accept deviations of one policy (spec 3 §2, §7): the deviations are recomputed from main so that the values
   * recorded are the client's real ones, then the entry is written to the client's accepted-deviations file on
   * main with optimistic concurrency.
   */
  async accept(
    client: string,
    body: AcceptDeviationsBody,
    acceptedBy: string,
  ): Promise<AcceptDeviationsResult | AcceptanceRequested> {
    const expiresAt = body.expiresAt ?? latestAcceptanceExpiry(this.now());
    const expiryProblem = acceptanceExpiryProblem(expiresAt, this.now());
    if (expiryProblem) throw new InputError(`body.expiresAt: ${expiryProblem}`, 'body.expiresAt');
    const clientPath = body.clientPath ?? body.path;
    const [baseline, current] = await Promise.all([
      this.baselinePolicy(client, body.path),
      this.store.readJson<unknown>(`${clientRoot(client)}/${clientPath}`, MAIN),
    ]);
    if (baseline === undefined) throw new NotFoundError(`No baseline policy at ${body.path}`);
    const group = comparePolicy(
      { path: body.path, content: baseline },
      current === undefined ? undefined : { path: clientPath, content: current },
      COMPARE_OPTIONS,
    );
    const byProperty = new Map((group?.deviations ?? []).map((d) => [d.property, d]));
    const stale = body.properties.filter((p) => !byProperty.has(p));
    if (stale.length > 0) {
      throw new ConflictError(
        `${body.policyName} no longer deviates in ${stale.join(', ')}; reload the report and try again.`,
      );
    }
    const acceptedValues: Record<string, unknown> = {};
    for (const p of body.properties) acceptedValues[p] = byProperty.get(p)?.clientValue;
    const action = {
      path: body.path,
      policyName: body.policyName,
      category: body.category,
      properties: body.properties,
      reason: body.reason,
      expiresAt,
      acceptedValues,
    };
    if (needsSecondApprover(body.properties, (p) => byProperty.get(p)?.severity)) {
      // A critical deviation is accepted only once a second Approver agrees (ADR 051).
      const requested = await this.store.updateJsonFile<AcceptedDeviationsConfig>(
        acceptedDeviationsPath(client),
        (cfg) =>
          requestAcceptance(
            this.orEmpty(client, cfg),
            {
              ...action,
              requestedBy: acceptedBy,
              ...(clientPath !== body.path ? { clientPath } : {}),
            },
            this.now(),
          ),
        `Ask a second Approver to accept ${body.properties.length} critical deviation(s) for ${body.policyName} (${client})`,
      );
      const pending = requested.pendingAcceptances?.find((r) => r.path === body.path);
      if (!pending) throw new Error('the acceptance request was not written');
      return {
        message: `Accepting a critical deviation needs a second Approver: the acceptance of ${body.policyName} waits for another Approver.`,
        pending,
      };
    }
    const written = await this.store.updateJsonFile<AcceptedDeviationsConfig>(
      acceptedDeviationsPath(client),
      (cfg) =>
        acceptDeviations(
          cfg && Array.isArray(cfg.acceptedDeviations)
            ? cfg
            : emptyAcceptedDeviations(client, this.now()),
          {
            path: body.path,
            policyName: body.policyName,
            category: body.category,
            properties: body.properties,
            acceptedBy,
            reason: body.reason,
            expiresAt,
            acceptedValues,
          },
          this.now(),
        ),
      `Accept ${body.properties.length} deviation(s) for ${body.policyName} (${client})`,
    );
    const entry = written.acceptedDeviations.find((d) => d.path === body.path);
    if (!entry) throw new Error('the accepted entry was not written');
    return {
      message: acceptedMessage(body.properties.length, body.policyName),
      accepted: body.properties.length,
      entry,
    };
  }

  /**
   * A second Approver approves or rejects a critical acceptance someone else asked for (ADR 051).
   * Approving checks that the policy still deviates as asked: values that moved since are a 409.
   */
  async decideAcceptance(
    client: string,
    path: string,
    decision: 'approve' | 'reject',
    approver: string,
  ): Promise<AcceptedDeviationsConfig> {
    if (decision === 'approve') await this.assertStillAsRequested(client, path);
    return this.store.updateJsonFile<AcceptedDeviationsConfig>(
      acceptedDeviationsPath(client),
      (cfg) =>
        decision === 'approve'
          ? approveAcceptance(this.orEmpty(client, cfg), path, approver, this.now())
          : rejectAcceptance(this.orEmpty(client, cfg), path, approver, this.now()),
      `${decision === 'approve' ? 'Approve' : 'Reject'} the critical acceptance of ${path} (${client})`,
    );
  }

  private async assertStillAsRequested(client: string, path: string): Promise<void> {
    const config = await this.getAcceptedDeviations(client);
    const request = config.pendingAcceptances?.find((r) => r.path === path);
    if (!request) throw new NotFoundError(`No acceptance of ${path} is waiting for approval.`);
    const [baseline, current] = await Promise.all([
      this.baselinePolicy(client, path),
      this.store.readJson<unknown>(`${clientRoot(client)}/${request.clientPath ?? path}`, MAIN),
    ]);
    const group =
      baseline === undefined
        ? undefined
        : comparePolicy(
            { path, content: baseline },
            current === undefined
              ? undefined
              : { path: request.clientPath ?? path, content: current },
            COMPARE_OPTIONS,
          );
    const now = new Map((group?.deviations ?? []).map((d) => [d.property, d.clientValue]));
    const moved = request.properties.filter(
      (p) =>
        !now.has(p) || JSON.stringify(now.get(p)) !== JSON.stringify(request.acceptedValues?.[p]),
    );
    if (moved.length > 0) {
      throw new ConflictError(
        `${request.policyName} changed since the acceptance was asked for (${moved.join(', ')}); ask again.`,
      );
    }
  }

  private orEmpty(
    client: string,
    cfg: AcceptedDeviationsConfig | undefined,
  ): AcceptedDeviationsConfig {
    return cfg && Array.isArray(cfg.acceptedDeviations)
      ? cfg
      : emptyAcceptedDeviations(client, this.now());
  }

  /** Revoke the acceptance of one policy path. */
  async revoke(client: string, path: string): Promise<AcceptedDeviationsConfig> {
    return this.store.updateJsonFile<AcceptedDeviationsConfig>(
      acceptedDeviationsPath(client),
      (cfg) =>
        revokeAcceptedDeviations(
          cfg && Array.isArray(cfg.acceptedDeviations)
            ? cfg
            : emptyAcceptedDeviations(client, this.now()),
          path,
          this.now(),
        ),
      `Revoke accepted deviations of ${path} (${client})`,
    );
  }

  private updateMatching(
    client: string,
    mutate: (cfg: MatchingConfig) => MatchingConfig,
    message: string,
  ): Promise<MatchingConfig> {
    return this.store.updateJsonFile<MatchingConfig>(
      matchingConfigPath(client),
      (cfg) =>
        mutate(
          cfg && Array.isArray(cfg.matches)
            ? { ...cfg, matches: dedupeMatches(cfg.matches).matches }
            : emptyMatchingConfig(client, this.now()),
        ),
      message,
    );
  }

  /** Save confirmed matches (merged with those already saved, de-duplicated before the save). */
  addMatches(client: string, matches: readonly ConfirmedMatch[]): Promise<MatchingConfig> {
    return this.updateMatching(
      client,
      (cfg) => addMatches(cfg, matches, this.now()),
      `Confirm ${matches.length} policy match(es) (${client})`,
    );
  }

  /** Delete the match of a baseline name. */
  removeMatch(client: string, baselineName: string): Promise<MatchingConfig> {
    return this.updateMatching(
      client,
      (cfg) => removeMatch(cfg, baselineName, this.now()),
      `Remove the policy match of ${baselineName} (${client})`,
    );
  }

  /** Clear every match. */
  clearMatches(client: string): Promise<MatchingConfig> {
    return this.updateMatching(
      client,
      (cfg) => ({ ...cfg, timestamp: this.now().toISOString(), matches: [] }),
      `Clear the policy matches (${client})`,
    );
  }
}
