// Where the fleet's client summaries are kept for every server instance and the rebuild job
// (issue 32 item 5, ADR 062):
// one Table storage row per client, naming the trees it was computed from, so that a reader knows
// whether it still holds for main's tip without reading either tree. A client's deviating settings
// are kept in a row of their own and across the fleet in one index row (ADR 085): the Fleet page
// reads neither unless the index lacks a client.
import type { AppTableEntity, ClientSummary, FleetDeviation } from '@aegis/domain';

import { isServiceError } from '../shared';

import { FleetDeviationIndex, type DeviationIndex, type FleetAtTip } from './fleet-deviation-index';
import { packedParts, unpackedParts } from './packed-parts';
import { odata } from './tables-client';
import type { AppTables } from './types';

/** The table of the stored summaries. */
export const FLEET_SUMMARY_TABLE = 'AegisFleetSummaries';
/** Every row describes a client at main (the one branch the fleet reads). */
const PARTITION = 'main';
/** A client's deviating settings, one row per client beside its summary's (ADR 085). */
const DEVIATIONS_PARTITION = 'deviations';
/**
 * The version of `summarizeClient`'s output a row holds. Raise it when the computation changes
 * what it answers for the same trees: rows of another version are stale and recomputed.
 * 3: the deviations moved to rows of their own (ADR 085).
 */
const FLEET_SUMMARY_FORMAT = 3;

/** Up to this many clients are read by key (one filter); more read every row. */
const ROWS_BY_KEY = 20;

/** A client's figures without its deviating settings: what the Fleet page's rows need. */
export type ClientFigures = Omit<ClientSummary, 'deviations'>;

/** A client's summary as stored, with the trees (and the tip) it was computed from. */
export interface StoredSummary<S extends ClientFigures = ClientSummary> {
  client: string;
  baselineTreeId: string;
  clientTreeId: string;
  /** main's tip when it was computed (for the reader; freshness is decided by the tree ids) */
  commitId: string;
  summary: S;
}

/** What is read back from a summary's row: its figures, not its deviations. */
export type StoredFigures = StoredSummary<ClientFigures>;

/** A client's deviating settings as stored, naming the summary they belong to. */
export interface StoredDeviations {
  client: string;
  baselineTreeId: string;
  clientTreeId: string;
  computedAt: number;
  deviations: FleetDeviation[];
}

/** What `FleetSummaryStore.write` stored. */
interface WrittenSummaries {
  /** the clients whose rows were stored */
  clients: Set<string>;
  /** the fleet's deviation index as this write left it in its row; none when it was not stored */
  index: DeviationIndex | undefined;
}

interface StoreLogger {
  warn(obj: object, msg: string): void;
}

/** Whether the stored row was computed from these trees by this version of the computation. */
export function storedFor<S extends { baselineTreeId: string; clientTreeId: string }>(
  stored: S | undefined,
  baselineTreeId: string,
  clientTreeId: string,
): stored is S {
  return stored?.baselineTreeId === baselineTreeId && stored.clientTreeId === clientTreeId;
}

/** The keys and trees of a client's rows. */
function rowHead(partition: string, s: Omit<StoredSummary, 'summary'>): AppTableEntity {
  return {
    PartitionKey: partition,
    RowKey: s.client,
    Format: FLEET_SUMMARY_FORMAT,
    BaselineTreeId: s.baselineTreeId,
    ClientTreeId: s.clientTreeId,
    CommitId: s.commitId,
  };
}

/**
 * The row of a summary: its keys, then the summary without its deviations as gzip'd JSON in
 * base64 parts (the deviations are `deviationsEntity`'s).
 */
export function summaryEntity(stored: StoredSummary): AppTableEntity | undefined {
  const { deviations: _deviations, ...figures } = stored.summary;
  const parts = packedParts('Summary', figures);
  if (!parts) return undefined;
  return {
    ...rowHead(PARTITION, stored),
    ComputedAt: new Date(stored.summary.computedAt).toISOString(),
    ...parts,
  };
}

/** The row of a client's deviating settings, naming the summary (trees, moment) they belong to. */
export function deviationsEntity(stored: StoredSummary): AppTableEntity | undefined {
  const parts = packedParts('Deviations', stored.summary.deviations);
  if (!parts) return undefined;
  return {
    ...rowHead(DEVIATIONS_PARTITION, stored),
    SummaryComputedAt: stored.summary.computedAt,
    ...parts,
  };
}

/** A row's keys and trees, when it is of this format. */
function headOf(row: AppTableEntity): Omit<StoredSummary, 'summary'> | undefined {
  if (row.Format !== FLEET_SUMMARY_FORMAT) return undefined;
  const { BaselineTreeId, ClientTreeId, CommitId } = row;
  if (typeof BaselineTreeId !== 'string' || typeof ClientTreeId !== 'string') return undefined;
  return {
    client: row.RowKey,
    baselineTreeId: BaselineTreeId,
    clientTreeId: ClientTreeId,
    commitId: typeof CommitId === 'string' ? CommitId : '',
  };
}

/** A row back as the figures it holds; undefined for a row of another format or unreadable. */
export function storedSummaryOf(row: AppTableEntity): StoredFigures | undefined {
  const head = headOf(row);
  const summary = head && (unpackedParts(row, 'Summary') as ClientFigures | undefined);
  return summary ? { ...head, summary } : undefined;
}

/** A deviations row back; undefined for a row of another format or unreadable. */
export function storedDeviationsOf(row: AppTableEntity): StoredDeviations | undefined {
  const head = headOf(row);
  const deviations = head && (unpackedParts(row, 'Deviations') as FleetDeviation[] | undefined);
  const computedAt = row.SummaryComputedAt;
  if (!head || !Array.isArray(deviations) || typeof computedAt !== 'number') return undefined;
  const { baselineTreeId, clientTreeId, client } = head;
  return { client, baselineTreeId, clientTreeId, computedAt, deviations };
}

/**
 * The stored summaries, over the AppTables port. A row is a derived figure that names what it was
 * derived from, so a plain upsert is safe: a row written late from older trees is seen as stale by
 * the next reader and recomputed, never used (ADR 062). The index of the fleet's deviations is
 * shared state built from many rows, so it is written conditionally (ADR 085).
 */
export class FleetSummaryStore {
  private ready: Promise<unknown> | undefined;
  /** every client's deviating settings and the fleet's worst, in one row */
  readonly deviationIndex: FleetDeviationIndex;

  constructor(
    private readonly tables: AppTables,
    private readonly log: StoreLogger,
    readonly table = FLEET_SUMMARY_TABLE,
  ) {
    this.deviationIndex = new FleetDeviationIndex(tables, table);
  }

  /**
   * The stored figures by client (none before the first write): of the clients named when they
   * are few (their rows by key), else every row. Their deviations are not read.
   */
  async read(clients?: readonly string[]): Promise<Map<string, StoredFigures>> {
    return this.rowsOf(PARTITION, storedSummaryOf, clients);
  }

  /** The stored deviations by client, read as `read` reads figures. */
  async readDeviations(clients?: readonly string[]): Promise<Map<string, StoredDeviations>> {
    return this.rowsOf(DEVIATIONS_PARTITION, storedDeviationsOf, clients);
  }

  /**
   * Stores the summaries (two rows per client, replaced whole), then puts their deviations into
   * the fleet's index for main's tip; returns the clients stored and the index as this write left
   * it in the row (none when it was not stored), so the writer's next page need not read it again.
   */
  async write(summaries: readonly StoredSummary[], fleet: FleetAtTip): Promise<WrittenSummaries> {
    const stored = new Set<string>();
    if (summaries.length === 0) return { clients: stored, index: undefined };
    const rows: AppTableEntity[] = [];
    for (const s of summaries) {
      const row = summaryEntity(s);
      const deviations = deviationsEntity(s);
      if (row && deviations) rows.push(row, deviations);
      else this.log.warn({ client: s.client }, 'fleet: summary too large to store, kept locally');
    }
    await this.created();
    const result = await this.tables.upsertEntities(this.table, rows);
    for (const row of rows) stored.add(row.RowKey);
    for (const failed of result.failed) {
      stored.delete(failed.rowKey);
      this.log.warn({ client: failed.rowKey, reason: failed.message }, 'fleet: summary not stored');
    }
    let index: DeviationIndex | undefined;
    try {
      const updated = await this.deviationIndex.update(
        fleet,
        summaries
          .filter((s) => stored.has(s.client))
          .map((s) => ({
            client: s.client,
            clientTreeId: s.clientTreeId,
            computedAt: s.summary.computedAt,
            deviations: s.summary.deviations,
          })),
      );
      if (updated.stored) index = updated.index;
    } catch (error) {
      // the rows hold: the next Fleet page finds the index lacking them and completes it
      this.log.warn({ err: error }, 'fleet: deviation index not updated');
    }
    return { clients: stored, index };
  }

  private async rowsOf<T extends { client: string }>(
    partition: string,
    parse: (row: AppTableEntity) => T | undefined,
    clients?: readonly string[],
  ): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    if (clients?.length === 0) return out;
    const filter =
      clients && clients.length <= ROWS_BY_KEY
        ? `PartitionKey eq '${partition}' and (${clients.map((c) => odata`RowKey eq ${c}`).join(' or ')})`
        : `PartitionKey eq '${partition}'`;
    let continuationToken: string | undefined;
    try {
      do {
        const page = await this.tables.queryEntities(this.table, {
          maxPageSize: 1_000,
          filter,
          ...(continuationToken ? { continuationToken } : {}),
        });
        for (const row of page.entities) {
          if (row.PartitionKey !== partition) continue;
          const parsed = parse(row);
          if (parsed) out.set(parsed.client, parsed);
        }
        continuationToken = page.continuationToken;
      } while (continuationToken);
    } catch (error) {
      // no table yet: nothing was stored
      if (isServiceError(error) && error.statusCode === 404) return out;
      throw error;
    }
    return out;
  }

  private async created(): Promise<void> {
    this.ready ??= this.tables.createTable(this.table).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    await this.ready;
  }
}
