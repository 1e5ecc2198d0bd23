// Where the fleet's client summaries are kept for every server instance and the rebuild job
// (issue 32 item 5, ADR 062):
// one Table storage row per client, naming the trees it was computed from, so that a reader knows
// whether it still holds for main's tip without reading either tree.
import { gunzipSync, gzipSync } from 'node:zlib';

import type { AppTableEntity, ClientSummary } from '@aegis/domain';

import { isServiceError } from '../shared';

import { odata } from './tables-client';
import type { AppTables } from './types';

/** The table of the stored summaries. */
export const FLEET_SUMMARY_TABLE = 'AegisFleetSummaries';
/** Every row describes a client at main (the one branch the fleet reads). */
const PARTITION = 'main';
/**
 * The version of `summarizeClient`'s output a row holds. Raise it when the computation changes
 * what it answers for the same trees: rows of another version are stale and recomputed.
 */
const FLEET_SUMMARY_FORMAT = 2;
/** Table storage keeps at most 32K characters in a string property. */
const PART_CHARS = 30_000;
/** An entity holds at most 1 MiB (UTF-16: 512K characters); the summary's parts stay well below. */
const MAX_PARTS = 15;

/** Up to this many clients are read by key (one filter); more read every row. */
const ROWS_BY_KEY = 20;

/** A client's summary as stored, with the trees (and the tip) it was computed from. */
export interface StoredSummary {
  client: string;
  baselineTreeId: string;
  clientTreeId: string;
  /** main's tip when it was computed (for the reader; freshness is decided by the tree ids) */
  commitId: string;
  summary: ClientSummary;
}

interface StoreLogger {
  warn(obj: object, msg: string): void;
}

/** Whether the stored row was computed from these trees by this version of the computation. */
export function storedFor(
  stored: StoredSummary | undefined,
  baselineTreeId: string,
  clientTreeId: string,
): stored is StoredSummary {
  return stored?.baselineTreeId === baselineTreeId && stored.clientTreeId === clientTreeId;
}

/** The row of a summary: its keys, then the summary as gzip'd JSON in base64 parts. */
export function summaryEntity(stored: StoredSummary): AppTableEntity | undefined {
  const packed = gzipSync(JSON.stringify(stored.summary)).toString('base64');
  const parts = Math.ceil(packed.length / PART_CHARS);
  if (parts > MAX_PARTS) return undefined;
  const entity: AppTableEntity = {
    PartitionKey: PARTITION,
    RowKey: stored.client,
    Format: FLEET_SUMMARY_FORMAT,
    BaselineTreeId: stored.baselineTreeId,
    ClientTreeId: stored.clientTreeId,
    CommitId: stored.commitId,
    ComputedAt: new Date(stored.summary.computedAt).toISOString(),
    SummaryParts: parts,
  };
  for (let i = 0; i < parts; i++) {
    entity[`Summary${i}`] = packed.slice(i * PART_CHARS, (i + 1) * PART_CHARS);
  }
  return entity;
}

/** A row back as the summary it holds; undefined for a row of another format or unreadable. */
export function storedSummaryOf(row: AppTableEntity): StoredSummary | undefined {
  if (row.Format !== FLEET_SUMMARY_FORMAT) return undefined;
  const parts = Number(row.SummaryParts);
  const { BaselineTreeId, ClientTreeId, CommitId } = row;
  if (typeof BaselineTreeId !== 'string' || typeof ClientTreeId !== 'string') return undefined;
  if (!Number.isInteger(parts) || parts < 1 || parts > MAX_PARTS) return undefined;
  let packed = '';
  for (let i = 0; i < parts; i++) {
    const part = row[`Summary${i}`];
    if (typeof part !== 'string') return undefined;
    packed += part;
  }
  try {
    const summary = JSON.parse(
      gunzipSync(Buffer.from(packed, 'base64')).toString('utf8'),
    ) as ClientSummary;
    return {
      client: row.RowKey,
      baselineTreeId: BaselineTreeId,
      clientTreeId: ClientTreeId,
      commitId: typeof CommitId === 'string' ? CommitId : '',
      summary,
    };
  } catch {
    return undefined;
  }
}

/**
 * The stored summaries, over the AppTables port. A row is a derived figure that names what it was
 * derived from, so a plain upsert is safe: a row written late from older trees is seen as stale by
 * the next reader and recomputed, never used (ADR 062).
 */
export class FleetSummaryStore {
  private ready: Promise<unknown> | undefined;

  constructor(
    private readonly tables: AppTables,
    private readonly log: StoreLogger,
    readonly table = FLEET_SUMMARY_TABLE,
  ) {}

  /**
   * The stored summaries by client (none before the first write): of the clients named when they
   * are few (their rows by key), else every row.
   */
  async read(clients?: readonly string[]): Promise<Map<string, StoredSummary>> {
    const out = new Map<string, StoredSummary>();
    if (clients?.length === 0) return out;
    const filter =
      clients && clients.length <= ROWS_BY_KEY
        ? `PartitionKey eq '${PARTITION}' and (${clients.map((c) => odata`RowKey eq ${c}`).join(' or ')})`
        : undefined;
    let continuationToken: string | undefined;
    try {
      do {
        const page = await this.tables.queryEntities(this.table, {
          maxPageSize: 1_000,
          ...(filter ? { filter } : {}),
          ...(continuationToken ? { continuationToken } : {}),
        });
        for (const row of page.entities) {
          if (row.PartitionKey !== PARTITION) continue;
          const stored = storedSummaryOf(row);
          if (stored) out.set(stored.client, stored);
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

  /** Stores the summaries (a row per client, replaced whole); returns the clients stored. */
  async write(summaries: readonly StoredSummary[]): Promise<Set<string>> {
    const stored = new Set<string>();
    if (summaries.length === 0) return stored;
    const rows: AppTableEntity[] = [];
    for (const s of summaries) {
      const row = summaryEntity(s);
      if (row) rows.push(row);
      else this.log.warn({ client: s.client }, 'fleet: summary too large to store, kept locally');
    }
    await this.created();
    const result = await this.tables.upsertEntities(this.table, rows);
    for (const row of rows) stored.add(row.RowKey);
    for (const failed of result.failed) {
      stored.delete(failed.rowKey);
      this.log.warn({ client: failed.rowKey, reason: failed.message }, 'fleet: summary not stored');
    }
    return stored;
  }

  private async created(): Promise<void> {
    this.ready ??= this.tables.createTable(this.table).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    await this.ready;
  }
}
