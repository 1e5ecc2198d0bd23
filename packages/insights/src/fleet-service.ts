// The fleet view (issue 17, ADR 034): every client's figures at main, and their trend over the
// points of git history (merges touching the client's folder, backup tags). Every figure comes
// from the trees at one commit: the folder listings of a commit are cached by commit id and each
// client's summary by the tree ids it was computed from, since git objects never change.
import { ZERO_OBJECT_ID, type GitCommitRef, type GitRef } from '@aegis/connectors/devops';
import type { RawFile, ConfigRepository, FleetTreeIds } from '@aegis/connectors/repository';
import {
  storedFor,
  type ClientDeviations,
  type ClientFigures,
  type DeviationIndex,
  type FleetSummaryStore,
  type StoredDeviations,
  type StoredFigures,
  type StoredSummary,
  type SummaryIdentity,
} from '@aegis/connectors/tables';
import type {
  CaptureOverview,
  Fleet,
  FleetRow,
  FleetTrend,
  FleetTrendPoint,
} from '@aegis/contracts';
import {
  ageInDays,
  backupHealth,
  CLIENTS_FOLDER,
  clientFolder,
  FLEET_MISSING,
  fleetStatus,
  fleetStatusCounts,
  lastCaptureOf,
  makesCapturePartial,
  parseBackupTag,
  selectTrendPoints,
  sortBackupsNewestFirst,
  worstFleetDeviations,
  noConfiguration,
  summaryExpiredBetween,
  type ConfigFile,
  type FleetDeviation,
  type FleetFacts,
  type FleetWorstDeviation,
  type TrendCandidate,
} from '@aegis/domain';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';

import { inThreadSummarizer, type FleetSummarizer } from './fleet-summarizer';

/** The folder listings of one commit: the baseline's tree id and each client folder's. */
type CommitSnapshot = FleetTreeIds;

/**
 * A client's summary as this instance holds it: computed here (with its deviations) or read from
 * the store (its figures only; its deviations are in the fleet's deviation index, ADR 085).
 */
export type FleetSummary = ClientFigures & { deviations?: FleetDeviation[] };

/** App-wide caches of the fleet (the benchmark and tests may pass their own). */
export interface FleetCaches {
  snapshots: LRUCache<string, CommitSnapshot>;
  summaries: LRUCache<string, FleetSummary>;
  /** the fleet's deviation index as last read or written, by baseline tree id */
  deviationIndex: LRUCache<string, DeviationIndex>;
  /** summary keys (and the moment computed for) that the summary store holds, as far as known here */
  stored: LRUCache<string, number>;
  /** in flight or read: concurrent summaries of one baseline read it once */
  baselines: LRUCache<string, Promise<ConfigFile[]>>;
  commits: LRUCache<string, GitCommitRef[]>;
  /** per commit: the client codes of the app deployment pipeline YAML files */
  appDeployment: LRUCache<string, string[]>;
  /**
   * Summaries being made for a commit's clients, while under way: technicians opening the Fleet at
   * once on a cold server join one reading and summarising of /Clients instead of each starting one.
   */
  filling: Map<string, Promise<Settled<FleetSummary>[]>>;
  /**
   * Reads of the deviation index row under way, by the baseline of the page that asked: the pages
   * of a cold round join one read (and one decoding) of the index instead of each making one.
   */
  indexReads: Map<string, Promise<DeviationIndex | undefined>>;
}

export function createFleetCaches(): FleetCaches {
  return {
    snapshots: new LRUCache({ max: 2_000 }),
    summaries: new LRUCache({ max: 10_000 }),
    deviationIndex: new LRUCache({ max: 2 }),
    stored: new LRUCache({ max: 10_000 }),
    baselines: new LRUCache({ max: 4 }),
    commits: new LRUCache({ max: 2_000 }),
    appDeployment: new LRUCache({ max: 64 }),
    filling: new Map(),
    indexReads: new Map(),
  };
}

/** What the fleet needs from the capture history: each client's overview, from one listing. */
export interface CaptureOverviews {
  overviews(clients: readonly string[]): Promise<Map<string, CaptureOverview>>;
}

export interface FleetLogger {
  warn(obj: object, msg: string): void;
}

/** Client summaries computed at once (each reads and compares two trees). */
const SUMMARY_CONCURRENCY = 4;
/**
 * Summaries lacking at one commit read from one zip of /Clients when at least this many lack one
 * and they are at least 1/BULK_SHARE of the clients (else a listing and a zip per client is less).
 */
const BULK_MINIMUM = 4;
const BULK_SHARE = 3;
/** Commits read per client for its trend (newest first). */
const TREND_COMMITS = 100;

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]?.trim() ?? '';
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

export class FleetService {
  constructor(
    private readonly repository: ConfigRepository,
    private readonly captures: CaptureOverviews,
    private readonly caches: FleetCaches,
    private readonly log: FleetLogger,
    private readonly summarizer: FleetSummarizer = inThreadSummarizer,
    private readonly now: () => Date = () => new Date(),
    private readonly store?: FleetSummaryStore,
  ) {}

  /**
   * Recomputes and stores the summaries of these clients at main's tip, after a change to their
   * folders (ADR 062); a client whose summary for the new trees is stored already is left alone.
   */
  async refresh(clients: readonly string[]): Promise<void> {
    const tip = await this.repository.branchTip();
    const snapshot = await this.snapshot(tip);
    const named = clients.filter((c) => snapshot.clients.has(c));
    const summaries = await this.summariesAt(named, tip, snapshot, this.now().getTime());
    const failed = summaries.flatMap((s, i) => (s.ok ? [] : [`${named[i]}: ${reason(s.error)}`]));
    if (failed.length > 0) throw new Error(`Fleet summaries not computed: ${failed.join('; ')}`);
  }

  /**
   * After main moved outside Aegis (a pull request completed in Azure DevOps, told by its service
   * hook, ADR 062): the clients whose folder differs between the two commits are recomputed and
   * stored. A baseline change concerns every client: the rebuild pipeline, which runs on the same
   * push, does it, so it is only reported here.
   */
  async refreshAfterPush(
    oldCommitId: string,
    newCommitId: string,
  ): Promise<{ baselineChanged: boolean; refreshed: string[] }> {
    const [before, after] = await Promise.all([
      oldCommitId === ZERO_OBJECT_ID
        ? { baselineTreeId: undefined, clients: new Map<string, string>() }
        : this.snapshot(oldCommitId),
      this.snapshot(newCommitId),
    ]);
    if (before.baselineTreeId !== after.baselineTreeId) {
      return { baselineChanged: true, refreshed: [] };
    }
    const refreshed = [...after.clients]
      .filter(([client, treeId]) => before.clients.get(client) !== treeId)
      .map(([client]) => client)
      .sort();
    if (refreshed.length > 0) await this.refresh(refreshed);
    return { baselineChanged: false, refreshed };
  }

  /** The fleet table and its summary, every figure read at main's tip. */
  async fleet(): Promise<Fleet> {
    const now = this.now();
    const tip = await this.repository.branchTip();
    const [snapshot, deployOnly] = await Promise.all([
      this.snapshot(tip),
      settle(this.appDeploymentClients(tip)),
    ]);
    if (!deployOnly.ok) this.log.warn({ err: deployOnly.error }, 'fleet: client YAML not listed');
    const clients = [
      ...new Set([...snapshot.clients.keys(), ...(deployOnly.ok ? deployOnly.value : [])]),
    ].sort();
    const [summaries, backupRefs, overviews] = await Promise.all([
      this.summariesAt(clients, tip, snapshot, now.getTime()),
      settle(this.repository.listRefs('tags/backup/')),
      settle(this.captures.overviews(clients)),
    ]);
    if (!backupRefs.ok) this.log.warn({ err: backupRefs.error }, 'fleet: backups not loaded');
    if (!overviews.ok) this.log.warn({ err: overviews.error }, 'fleet: captures not loaded');

    const held = new Map<string, FleetSummary>();
    const rows: FleetRow[] = clients.map((client, i) => {
      const missing: string[] = [];
      const facts: FleetFacts = { missing };
      const summary = summaries[i];
      let acceptedDeviations: number | null = null;
      let notCaptured: FleetRow['notCaptured'] = [];
      if (snapshot.baselineTreeId === undefined) {
        missing.push(FLEET_MISSING.noBaseline);
      } else if (!summary?.ok) {
        const error = summary?.error;
        this.log.warn({ err: error, client }, 'fleet: compliance not computed');
        missing.push(FLEET_MISSING.complianceFailed(reason(error)));
      } else if (!summary.value.hasConfiguration) {
        facts.hasConfiguration = false;
        missing.push(FLEET_MISSING.noConfiguration);
      } else {
        const s = summary.value;
        facts.compliancePercentage = s.compliancePercentage;
        facts.criticalCount = s.criticalCount;
        facts.highCount = s.highCount;
        facts.standardPercentage = s.standardPercentage;
        acceptedDeviations = s.acceptedDeviations ?? null;
        if (s.standardPercentage === undefined) missing.push(FLEET_MISSING.noStandardSettings);
        missing.push(...s.notes);
        notCaptured = s.notCaptured;
        // a workload the tenant has but the capture could not read leaves the figures partial;
        // one no capture can read (no licence, no public API) is a fact of the tenant (ADR 050)
        missing.push(...notCaptured.filter(makesCapturePartial).map(FLEET_MISSING.notCaptured));
      }
      if (summary?.ok && snapshot.clients.has(client)) held.set(client, summary.value);

      let lastBackup: string | null = null;
      if (backupRefs.ok) {
        const newest = newestBackup(backupRefs.value, client);
        lastBackup = newest?.toISOString() ?? null;
        facts.backupHealth = backupHealth(newest, now);
        if (!newest) missing.push(FLEET_MISSING.noBackups);
      } else {
        missing.push(FLEET_MISSING.backupsFailed(reason(backupRefs.error)));
      }

      let pendingReviews: number | null = null;
      let lastCapture: string | null = null;
      if (overviews.ok) {
        const overview = overviews.value.get(client);
        lastCapture = lastCaptureOf(
          overview?.lastCapture,
          summary?.ok ? summary.value.capturedAt : undefined,
        );
        pendingReviews = overview?.pendingReviews ?? 0;
        facts.lastCaptureAt = lastCapture;
        if (!lastCapture) missing.push(FLEET_MISSING.noCapture);
      } else {
        missing.push(FLEET_MISSING.capturesFailed(reason(overviews.error)));
      }

      return {
        client,
        status: fleetStatus(facts, now),
        compliancePercentage: facts.compliancePercentage ?? null,
        criticalCount: facts.criticalCount ?? null,
        highCount: facts.highCount ?? null,
        standardPercentage: facts.standardPercentage ?? null,
        acceptedDeviations,
        lastCapture,
        lastCaptureAgeDays: ageInDays(lastCapture, now) ?? null,
        pendingReviews,
        lastBackup,
        backupHealth: facts.backupHealth ?? null,
        missing,
        notCaptured,
        clientTreeId: snapshot.clients.get(client) ?? null,
      };
    });
    const counts = fleetStatusCounts(rows.map((r) => r.status));
    return {
      generatedAt: now.toISOString(),
      commitId: tip,
      baselineTreeId: snapshot.baselineTreeId ?? null,
      summary: { clients: rows.length, ...counts },
      worstDeviations: [...(await this.worstDeviations(held, tip, snapshot, now.getTime()))],
      rows,
    };
  }

  /**
   * The trend of each client (all clients on main when none are named): its merges and backups as
   * points (ADR 034), the figures at each point from the trees at that commit.
   */
  async trends(clients: readonly string[] | undefined, points: number): Promise<FleetTrend[]> {
    const tip = await this.repository.branchTip();
    const names = clients ?? [...(await this.snapshot(tip)).clients.keys()].sort();
    const tags = await this.repository.listRefs('tags/backup/');
    const limit = pLimit(SUMMARY_CONCURRENCY);
    return Promise.all(
      names.map(async (client) => {
        const commits = await limit(() => this.commitsOf(client, tip));
        const candidates: TrendCandidate[] = [
          ...commits.map((c) => ({
            commitId: c.commitId,
            date: c.committer.date || c.author.date,
            source: 'merge' as const,
            label: firstLine(c.comment),
          })),
          ...backupsOf(tags, client).map((b) => ({
            commitId: b.commitId,
            date: b.date.toISOString(),
            source: 'backup' as const,
            label: b.tagName,
          })),
        ];
        const selected = selectTrendPoints(candidates, points);
        const values = await Promise.all(selected.map((p) => limit(() => this.pointOf(client, p))));
        return { client, points: values };
      }),
    );
  }

  /**
   * A client's figures as they stood at each moment (the customer report's trend, issue 29): from
   * the newest merge touching its folder before the moment; null before its first one.
   */
  async figuresAt(client: string, moments: readonly Date[]): Promise<(FleetTrendPoint | null)[]> {
    const tip = await this.repository.branchTip();
    const commits = await this.commitsOf(client, tip);
    const limit = pLimit(SUMMARY_CONCURRENCY);
    return Promise.all(
      moments.map((moment) => {
        const commit = commits.find(
          (c) => Date.parse(c.committer.date || c.author.date) < moment.getTime(),
        );
        if (!commit) return Promise.resolve(null);
        return limit(() =>
          this.pointOf(client, {
            commitId: commit.commitId,
            date: commit.committer.date || commit.author.date,
            source: 'merge',
            label: firstLine(commit.comment),
          }),
        );
      }),
    );
  }

  private async pointOf(client: string, point: TrendCandidate): Promise<FleetTrendPoint> {
    const snapshot = await this.snapshot(point.commitId);
    const empty = {
      compliancePercentage: null,
      criticalCount: null,
      highCount: null,
      standardPercentage: null,
    };
    const base = {
      date: point.date,
      commitId: point.commitId,
      source: point.source,
      label: point.label,
    };
    if (!snapshot.baselineTreeId || !snapshot.clients.has(client)) return { ...base, ...empty };
    const s = await this.summaryAt(client, point.commitId, snapshot, Date.parse(point.date));
    if (!s.hasConfiguration) return { ...base, ...empty };
    return {
      ...base,
      compliancePercentage: s.compliancePercentage ?? null,
      criticalCount: s.criticalCount ?? null,
      highCount: s.highCount ?? null,
      standardPercentage: s.standardPercentage ?? null,
    };
  }

  /**
   * The clients' summaries at a commit (main's tip): from this instance's cache, else from the
   * store when it holds them for the same trees, else computed (many at once from one zip) and
   * then stored, so that every instance finds them (ADR 062).
   */
  private async summariesAt(
    clients: readonly string[],
    commitId: string,
    snapshot: CommitSnapshot,
    at: number,
  ): Promise<Settled<FleetSummary>[]> {
    const key = `${commitId}:${clients.join(',')}`;
    let filling = this.caches.filling.get(key);
    if (!filling) {
      filling = this.fillSummaries(clients, commitId, snapshot, at).finally(() =>
        this.caches.filling.delete(key),
      );
      this.caches.filling.set(key, filling);
    }
    const summaries = await filling;
    // a summary made for the request this one joined holds unless an acceptance expired since
    return Promise.all(
      summaries.map(async (summary, i) => {
        const client = clients[i];
        if (!summary.ok || client === undefined || !summaryExpiredBetween(summary.value, at)) {
          return summary;
        }
        return settle(this.summaryAt(client, commitId, snapshot, at));
      }),
    );
  }

  /** Every client's summary at the commit: cached here, stored, or made (and then stored). */
  private async fillSummaries(
    clients: readonly string[],
    commitId: string,
    snapshot: CommitSnapshot,
    at: number,
  ): Promise<Settled<FleetSummary>[]> {
    await this.readStored(clients, snapshot, at);
    await this.summarizeInBulk(clients, commitId, snapshot, at);
    const limit = pLimit(SUMMARY_CONCURRENCY);
    const summaries = await Promise.all(
      clients.map((c) => limit(() => settle(this.summaryAt(c, commitId, snapshot, at)))),
    );
    await this.storeComputed(clients, commitId, snapshot, summaries);
    return summaries;
  }

  /** The key of a client's summary at a commit: the trees it is computed from. */
  private summaryKey(client: string, snapshot: CommitSnapshot): string | undefined {
    const clientTreeId = snapshot.clients.get(client);
    const baselineTreeId = snapshot.baselineTreeId;
    return clientTreeId && baselineTreeId
      ? `${client}:${baselineTreeId}:${clientTreeId}`
      : undefined;
  }

  /**
   * Puts the stored summaries that still hold into this instance's cache, when any client lacks
   * one here: a summary holds when computed from the same trees and no acceptance expired since.
   */
  private async readStored(
    clients: readonly string[],
    snapshot: CommitSnapshot,
    at: number,
  ): Promise<void> {
    const baselineTreeId = snapshot.baselineTreeId;
    if (!this.store || !baselineTreeId) return;
    const lacking = clients.filter((client) => {
      const key = this.summaryKey(client, snapshot);
      const cached = key ? this.caches.summaries.get(key) : undefined;
      return key !== undefined && (!cached || summaryExpiredBetween(cached, at));
    });
    if (lacking.length === 0) return;
    let stored: Map<string, StoredFigures>;
    try {
      stored = await this.store.read(lacking);
    } catch (error) {
      this.log.warn({ err: error }, 'fleet: stored summaries not read, computing them');
      return;
    }
    for (const client of lacking) {
      const row = stored.get(client);
      const clientTreeId = snapshot.clients.get(client) ?? '';
      if (!storedFor(row, baselineTreeId, clientTreeId) || summaryExpiredBetween(row.summary, at)) {
        continue;
      }
      const key = `${client}:${baselineTreeId}:${clientTreeId}`;
      this.caches.summaries.set(key, row.summary);
      this.caches.stored.set(key, row.summary.computedAt);
    }
  }

  /** Stores the summaries the store does not hold yet (as far as this instance knows). */
  private async storeComputed(
    clients: readonly string[],
    commitId: string,
    snapshot: CommitSnapshot,
    summaries: readonly Settled<FleetSummary>[],
  ): Promise<void> {
    const baselineTreeId = snapshot.baselineTreeId;
    if (!this.store || !baselineTreeId) return;
    const unstored: StoredSummary[] = [];
    for (const [i, client] of clients.entries()) {
      const settled = summaries[i];
      const key = this.summaryKey(client, snapshot);
      if (!settled?.ok || !key) continue;
      const { deviations, ...figures } = settled.value;
      // a summary without its deviations was read from the store
      if (!deviations || this.caches.stored.get(key) === figures.computedAt) continue;
      const clientTreeId = snapshot.clients.get(client) ?? '';
      const summary = { ...figures, deviations };
      unstored.push({ client, baselineTreeId, clientTreeId, commitId, summary });
    }
    try {
      const written = await this.store.write(unstored, {
        baselineTreeId,
        clients: snapshot.clients,
      });
      for (const s of unstored) {
        if (!written.clients.has(s.client)) continue;
        const key = `${s.client}:${s.baselineTreeId}:${s.clientTreeId}`;
        this.caches.stored.set(key, s.summary.computedAt);
      }
      // the index as written, conditionally on the row's etag: what a read would return now, so
      // the page does not read it again (a later writer's change shows when an entry lacks)
      if (written.index) this.caches.deviationIndex.set(baselineTreeId, written.index);
    } catch (error) {
      this.log.warn({ err: error }, 'fleet: summaries not stored');
    }
  }

  /**
   * The fleet's worst deviations over the summaries held at main's tip (ADR 085): from the stored
   * deviation index while it holds an entry for each of them, with no ranking done here; else the
   * index is completed with the deviations of the summaries it lacks (those computed here, else
   * their deviation rows, else computed again) and stored for every instance.
   */
  private async worstDeviations(
    held: ReadonlyMap<string, FleetSummary>,
    commitId: string,
    snapshot: CommitSnapshot,
    at: number,
  ): Promise<readonly FleetWorstDeviation[]> {
    const baselineTreeId = snapshot.baselineTreeId;
    if (!this.store || !baselineTreeId) {
      // nothing was read from a store: every summary was computed here, with its deviations
      return worstFleetDeviations(new Map([...held].map(([c, s]) => [c, s.deviations ?? []])));
    }
    const identities = new Map<string, SummaryIdentity>(
      [...held].map(([client, s]) => [
        client,
        { clientTreeId: snapshot.clients.get(client) ?? '', computedAt: s.computedAt },
      ]),
    );
    let index = this.caches.deviationIndex.get(baselineTreeId);
    if (!index || index.lacking(baselineTreeId, identities).length > 0) {
      index = await this.readIndex(this.store, baselineTreeId);
    }
    const lacking = index?.lacking(baselineTreeId, identities) ?? [...identities.keys()];
    if (index && lacking.length === 0) {
      this.caches.deviationIndex.set(baselineTreeId, index);
      return index.worstOf(identities);
    }
    const changes = await this.deviationsOf(lacking, held, commitId, snapshot, at);
    try {
      const updated = await this.store.deviationIndex.update(
        { baselineTreeId, clients: snapshot.clients },
        changes,
      );
      if (updated.index.lacking(baselineTreeId, identities).length === 0) {
        if (updated.stored) this.caches.deviationIndex.set(baselineTreeId, updated.index);
        return updated.index.worstOf(identities);
      }
    } catch (error) {
      this.log.warn({ err: error }, 'fleet: deviation index not updated');
    }
    // ranked here from the index's entries that hold and the deviations just gathered
    const gathered = new Map(changes.map((c) => [c.client, c.deviations]));
    const byClient = new Map<string, readonly FleetDeviation[]>();
    for (const client of identities.keys()) {
      const deviations = gathered.get(client) ?? index?.entries.get(client)?.deviations;
      if (deviations) byClient.set(client, deviations);
    }
    return worstFleetDeviations(byClient);
  }

  /**
   * The stored deviation index, joined with a read under way: every entry is still checked
   * against the page's own summaries (`lacking`), so a read begun before a change is never taken
   * for one after it.
   */
  private readIndex(
    store: FleetSummaryStore,
    baselineTreeId: string,
  ): Promise<DeviationIndex | undefined> {
    let reading = this.caches.indexReads.get(baselineTreeId);
    if (!reading) {
      reading = store.deviationIndex
        .read()
        .catch((error: unknown) => {
          this.log.warn({ err: error }, 'fleet: deviation index not read');
          return undefined;
        })
        .finally(() => this.caches.indexReads.delete(baselineTreeId));
      this.caches.indexReads.set(baselineTreeId, reading);
    }
    return reading;
  }

  /**
   * The deviations of these clients' summaries: those computed here, else the stored deviation
   * rows of the same summaries, else the summary computed again from the trees.
   */
  private async deviationsOf(
    clients: readonly string[],
    held: ReadonlyMap<string, FleetSummary>,
    commitId: string,
    snapshot: CommitSnapshot,
    at: number,
  ): Promise<ClientDeviations[]> {
    const baselineTreeId = snapshot.baselineTreeId ?? '';
    const found: ClientDeviations[] = [];
    const unread: string[] = [];
    for (const client of clients) {
      const summary = held.get(client);
      const clientTreeId = snapshot.clients.get(client) ?? '';
      if (summary?.deviations) {
        const { computedAt, deviations } = summary;
        found.push({ client, clientTreeId, computedAt, deviations });
      } else if (summary) {
        unread.push(client);
      }
    }
    if (unread.length === 0 || !this.store) return found;
    const rows = await this.store.readDeviations(unread).catch((error: unknown) => {
      this.log.warn({ err: error }, 'fleet: stored deviations not read');
      return new Map<string, StoredDeviations>();
    });
    const limit = pLimit(SUMMARY_CONCURRENCY);
    await Promise.all(
      unread.map(async (client) => {
        const computedAt = held.get(client)?.computedAt;
        const clientTreeId = snapshot.clients.get(client) ?? '';
        const row = rows.get(client);
        if (storedFor(row, baselineTreeId, clientTreeId) && row.computedAt === computedAt) {
          found.push(row);
          return;
        }
        // its deviation row is missing or of another summary: the summary is computed again
        const key = this.summaryKey(client, snapshot);
        if (key) this.caches.summaries.delete(key);
        const summary = await limit(() => this.summaryAt(client, commitId, snapshot, at)).catch(
          (error: unknown) => {
            this.log.warn({ err: error, client }, 'fleet: deviations not computed');
            return undefined;
          },
        );
        if (summary?.deviations) {
          const { computedAt: recomputedAt, deviations } = summary;
          found.push({ client, clientTreeId, computedAt: recomputedAt, deviations });
        }
      }),
    );
    return found;
  }

  /**
   * Commits on main's first-parent history (up to the tip) that changed the client's folder, newest
   * first: a merged pull request is its merge commit, never the commits of its branch. Cached per tip.
   */
  private async commitsOf(client: string, tip: string): Promise<GitCommitRef[]> {
    const key = `${tip}:${client}`;
    const cached = this.caches.commits.get(key);
    if (cached) return cached;
    const commits = await this.repository.listCommits({
      path: clientFolder(client),
      version: { commit: tip },
      top: TREND_COMMITS,
      firstParent: true,
    });
    this.caches.commits.set(key, commits);
    return commits;
  }

  /**
   * Clients with an app deployment pipeline YAML (Client_Yaml_Files/{CODE}-azure-pipelines.yml) at
   * a commit: a client onboarded for app deployment whose configuration was never captured has no
   * folder under /Clients, and the fleet must still list it, as missing data. Once per commit.
   */
  private async appDeploymentClients(commitId: string): Promise<string[]> {
    const cached = this.caches.appDeployment.get(commitId);
    if (cached) return cached;
    const codes = await this.repository.listAppDeploymentClientCodes({ commit: commitId });
    this.caches.appDeployment.set(commitId, codes);
    return codes;
  }

  /** The baseline's and each client folder's tree id at a commit: two listings, once per commit. */
  private async snapshot(commitId: string): Promise<CommitSnapshot> {
    const cached = this.caches.snapshots.get(commitId);
    if (cached) return cached;
    const snapshot = await this.repository.fleetTreeIds({ commit: commitId });
    this.caches.snapshots.set(commitId, snapshot);
    return snapshot;
  }

  /**
   * A client's figures at a commit, for a moment in time (acceptances expire): from the cache when
   * computed from the same trees and no acceptance expired in between, else from the trees.
   */
  private async summaryAt(
    client: string,
    commitId: string,
    snapshot: CommitSnapshot,
    at: number,
  ): Promise<FleetSummary> {
    const clientTreeId = snapshot.clients.get(client);
    const baselineTreeId = snapshot.baselineTreeId;
    if (!clientTreeId || !baselineTreeId) {
      return noConfiguration(at);
    }
    const key = `${client}:${baselineTreeId}:${clientTreeId}`;
    const cached = this.caches.summaries.get(key);
    if (cached && !summaryExpiredBetween(cached, at)) return cached;

    const files: RawFile[] = [];
    const [baseline] = await Promise.all([
      this.baselineFiles(baselineTreeId, commitId),
      this.repository.forEachFile(clientFolder(client), { commit: commitId }, (file) => {
        files.push(file);
      }),
    ]);
    const task = { client, baselineTreeId, baseline, files, at };
    const summary = await this.summarizer.summarize(task).catch((error: unknown) => {
      // a worker that failed (or cannot start) costs this client its thread, not its figures
      this.log.warn({ err: error, client }, 'fleet: summary worker failed, summarised here');
      return inThreadSummarizer.summarize(task);
    });
    this.caches.summaries.set(key, summary);
    return summary;
  }

  /**
   * The summaries a commit lacks, when many clients lack one (a cold server, a baseline change):
   * the client folders from one zip of /Clients read as it downloads, each client summarised as
   * soon as its files are in (ADR 036), instead of a listing and a zip per client. Clients it could
   * not summarise (the read failed, an archive out of folder order) are left to `summaryAt`.
   */
  private async summarizeInBulk(
    clients: readonly string[],
    commitId: string,
    snapshot: CommitSnapshot,
    at: number,
  ): Promise<void> {
    const baselineTreeId = snapshot.baselineTreeId;
    if (!baselineTreeId) return;
    const keyOf = (client: string) =>
      `${client}:${baselineTreeId}:${snapshot.clients.get(client) ?? ''}`;
    const folders = clients.filter((client) => snapshot.clients.has(client));
    const lacking = new Set(
      folders.filter((client) => {
        const cached = this.caches.summaries.get(keyOf(client));
        return !cached || summaryExpiredBetween(cached, at);
      }),
    );
    if (lacking.size < BULK_MINIMUM || lacking.size * BULK_SHARE < folders.length) return;
    const clientOf = (path: string) => path.slice(CLIENTS_FOLDER.length + 1).split('/', 1)[0] ?? '';
    try {
      const baseline = await this.baselineFiles(baselineTreeId, commitId);
      const seen = new Set<string>();
      const outOfOrder = new Set<string>();
      const underWay = new Set<Promise<void>>();
      let current: { client: string; files: RawFile[] } | undefined;
      // hands the client read so far to the summarizer; waits while it has enough to do
      const finish = async () => {
        if (!current) return;
        const { client, files } = current;
        current = undefined;
        const task = this.summarizer
          .summarize({ client, baselineTreeId, baseline, files, at })
          .then(
            (summary) => {
              if (!outOfOrder.has(client)) this.caches.summaries.set(keyOf(client), summary);
            },
            (error: unknown) =>
              this.log.warn({ err: error, client }, 'fleet: client not summarised from the zip'),
          )
          .finally(() => underWay.delete(task));
        underWay.add(task);
        while (underWay.size >= this.summarizer.capacity) await Promise.race(underWay);
      };
      await this.repository.forEachFile(
        CLIENTS_FOLDER,
        { commit: commitId },
        async (file) => {
          const client = clientOf(file.path);
          if (current?.client !== client) {
            await finish();
            if (seen.has(client)) {
              // the archive is not in folder order: this client's summary is incomplete
              outOfOrder.add(client);
              lacking.delete(client);
              this.caches.summaries.delete(keyOf(client));
              return;
            }
            seen.add(client);
            current = { client, files: [] };
          }
          current.files.push(file);
        },
        (path) => lacking.has(clientOf(path)),
      );
      await finish();
      await Promise.all(underWay);
    } catch (error) {
      this.log.warn({ err: error }, 'fleet: client folders not read in one zip, read one by one');
    }
  }

  /** The company baseline's files and, when the repository has layers, every layer's (ADR 068). */
  private baselineFiles(treeId: string, commitId: string): Promise<ConfigFile[]> {
    const cached = this.caches.baselines.get(treeId);
    if (cached) return cached;
    const files = this.repository.readFleetBaseline(treeId, { commit: commitId });
    this.caches.baselines.set(treeId, files);
    files.catch(() => {
      if (this.caches.baselines.get(treeId) === files) this.caches.baselines.delete(treeId);
    });
    return files;
  }
}

function backupsOf(
  refs: readonly GitRef[],
  client: string,
): { tagName: string; date: Date; commitId: string }[] {
  return sortBackupsNewestFirst(
    refs.flatMap((ref) => {
      const parsed = parseBackupTag(ref.name, client);
      return parsed ? [{ ...parsed, commitId: ref.commitId }] : [];
    }),
  );
}

function newestBackup(refs: readonly GitRef[], client: string): Date | undefined {
  return backupsOf(refs, client)[0]?.date;
}
