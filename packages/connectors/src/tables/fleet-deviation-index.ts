// The fleet's deviating settings in one index (issue 32 item 5, ADR 085): each client's deviations
// (as numbers into one list of settings) with the summary they come from, and the fleet's worst
// deviations computed from them when they change. The Fleet page reads this index, not a row per
// client, and ranks nothing while every client's entry holds. An index larger than one row goes on
// in rows of its own, named by the head row (ADR 090).
import { randomUUID } from 'node:crypto';

import {
  worstFleetDeviations,
  type AppTableEntity,
  type FleetDeviation,
  type FleetWorstDeviation,
} from '@aegis/domain';

import { packedRows, unpackedRows } from './packed-parts';
import { SharedRows, type RowDecision } from './shared-rows';
import { odata } from './tables-client';
import type { AppTables } from './types';

const PARTITION = 'index';
const KEYS = { partitionKey: PARTITION, rowKey: 'deviations' };
/** Raise when the body's shape changes: an index of another version is rebuilt. */
const INDEX_FORMAT = 2;
/**
 * Rows an index may take, the head row included (about 450K characters each): 1,000 clients
 * deviating on about 810 settings each, a third of them their own, take 6 (ADR 090).
 */
const MAX_ROWS = 40;

/** The trees at main's tip: the baseline's and each client folder's. */
export interface FleetAtTip {
  baselineTreeId: string;
  clients: ReadonlyMap<string, string>;
}

/** A client's deviating settings and the summary (trees, moment computed) they belong to. */
export interface ClientDeviations {
  client: string;
  clientTreeId: string;
  computedAt: number;
  deviations: readonly FleetDeviation[];
}

/** The summary a reader holds for a client: an entry holds for it when it names the same. */
export interface SummaryIdentity {
  clientTreeId: string;
  computedAt: number;
}

interface Entry {
  clientTreeId: string;
  computedAt: number;
  deviations: readonly FleetDeviation[];
}

/** The stored body: settings once, each client's as their numbers. */
interface IndexBody {
  settings: FleetDeviation[];
  clients: Record<string, { tree: string; at: number; d: number[] }>;
  worst: FleetWorstDeviation[];
}

/** The index as read (or as last written): every client's entry and the fleet's worst. */
export class DeviationIndex {
  constructor(
    readonly baselineTreeId: string,
    readonly entries: ReadonlyMap<string, Entry>,
    /** worstFleetDeviations over every entry */
    readonly worst: readonly FleetWorstDeviation[],
  ) {}

  /** The clients whose summary the index has no entry for. */
  lacking(baselineTreeId: string, summaries: ReadonlyMap<string, SummaryIdentity>): string[] {
    if (baselineTreeId !== this.baselineTreeId) return [...summaries.keys()];
    return [...summaries]
      .filter(([client, s]) => {
        const entry = this.entries.get(client);
        return entry?.clientTreeId !== s.clientTreeId || entry.computedAt !== s.computedAt;
      })
      .map(([client]) => client);
  }

  /**
   * The fleet's worst deviations over these clients' summaries, all of which the index holds:
   * the stored ranking when the index holds exactly these clients, else ranked again.
   */
  worstOf(summaries: ReadonlyMap<string, SummaryIdentity>): readonly FleetWorstDeviation[] {
    if (this.entries.size === summaries.size) return this.worst;
    const byClient = new Map<string, readonly FleetDeviation[]>();
    for (const client of summaries.keys()) {
      byClient.set(client, this.entries.get(client)?.deviations ?? []);
    }
    return worstFleetDeviations(byClient);
  }
}

/** The key of a row after the head: its generation (the head that names it) and its place. */
const moreRowKey = (generation: string, n: number) =>
  `${KEYS.rowKey}.${generation}.${String(n).padStart(3, '0')}`;

function indexOf(rows: readonly AppTableEntity[]): DeviationIndex | undefined {
  const [head] = rows;
  if (head?.Format !== INDEX_FORMAT || typeof head.BaselineTreeId !== 'string') return undefined;
  const body = unpackedRows(rows, 'Body') as IndexBody | undefined;
  if (!body) return undefined;
  const entries = new Map<string, Entry>();
  for (const [client, e] of Object.entries(body.clients)) {
    const deviations = e.d.flatMap((i) => body.settings[i] ?? []);
    entries.set(client, { clientTreeId: e.tree, computedAt: e.at, deviations });
  }
  return new DeviationIndex(head.BaselineTreeId, entries, body.worst);
}

function bodyOf(entries: ReadonlyMap<string, Entry>, worst: FleetWorstDeviation[]): IndexBody {
  const settings: FleetDeviation[] = [];
  const numbers = new Map<string, number>();
  // entries read from the index share their settings' objects: known by identity, no key made
  // (a thousand clients' 800,000 deviations, all but a merged client's read from the index)
  const numbersByObject = new Map<FleetDeviation, number>();
  const clients: IndexBody['clients'] = {};
  for (const [client, entry] of entries) {
    const d = entry.deviations.map((setting) => {
      let n = numbersByObject.get(setting);
      if (n !== undefined) return n;
      const { path, policyName, category, property, severity } = setting;
      const key = `${path}\0${policyName}\0${category}\0${property}\0${severity}`;
      n = numbers.get(key);
      if (n === undefined) {
        n = settings.push(setting) - 1;
        numbers.set(key, n);
      }
      numbersByObject.set(setting, n);
      return n;
    });
    clients[client] = { tree: entry.clientTreeId, at: entry.computedAt, d };
  }
  return { settings, clients, worst };
}

/** What a head row names: its generation and how many rows follow it. */
interface Generation {
  id: string;
  more: number;
}

function generationOf(row: AppTableEntity | undefined, prefix = ''): Generation | undefined {
  const id = row?.[`${prefix}Generation`];
  const more = Number(row?.[`${prefix}MoreRows`] ?? 0);
  return typeof id === 'string' && Number.isInteger(more) ? { id, more } : undefined;
}

/**
 * The index over SharedRows (ADR 060): every update is a conditional write on the head row as
 * read, so two instances storing different clients at once both land. An index that needs more
 * rows writes them first under a new generation, which the head names once its write lands; the
 * generation it replaced is kept for readers still reading it, the one before is removed.
 */
export class FleetDeviationIndex {
  private readonly rows: SharedRows;

  constructor(
    private readonly tables: AppTables,
    private readonly table: string,
  ) {
    this.rows = new SharedRows(tables, table);
  }

  /** The stored index; undefined before the first write or when of another format. */
  async read(): Promise<DeviationIndex | undefined> {
    // a head read just before a writer removed the generation it names: read once more
    for (let attempt = 0; attempt < 2; attempt++) {
      const rows = await this.rowsFrom(await this.rows.read(KEYS));
      if (rows) return indexOf(rows);
    }
    return undefined;
  }

  /**
   * Puts these clients' deviations into the index for main's tip, drops the clients that tip
   * does not have (or has at other trees), and ranks the fleet's worst again. An index of another
   * baseline is started over. Written only when something changed; an index too large for
   * `MAX_ROWS` rows is answered but not stored (its readers rank from the deviation rows).
   */
  async update(
    fleet: FleetAtTip,
    changes: readonly ClientDeviations[],
  ): Promise<{ index: DeviationIndex; stored: boolean }> {
    // the rows written for a head write that another writer's change then refused
    let unlanded: Generation | undefined;
    const update = this.rows.update(
      KEYS,
      async (row): Promise<RowDecision<{ index: DeviationIndex; stored: boolean }>> => {
        if (unlanded) await this.remove(unlanded);
        unlanded = undefined;
        const rows = await this.rowsFrom(row);
        const current = rows ? indexOf(rows) : undefined;
        const entries = new Map(
          current?.baselineTreeId === fleet.baselineTreeId ? current.entries : [],
        );
        let changed = current?.baselineTreeId !== fleet.baselineTreeId;
        for (const [client, entry] of entries) {
          if (fleet.clients.get(client) === entry.clientTreeId) continue;
          entries.delete(client);
          changed = true;
        }
        for (const c of changes) {
          const entry = entries.get(c.client);
          if (entry?.clientTreeId === c.clientTreeId && entry.computedAt === c.computedAt) continue;
          if (fleet.clients.get(c.client) !== c.clientTreeId) continue;
          const { clientTreeId, computedAt, deviations } = c;
          entries.set(c.client, { clientTreeId, computedAt, deviations });
          changed = true;
        }
        if (!changed && current) return { result: { index: current, stored: true } };
        const worst = worstFleetDeviations(
          new Map([...entries].map(([client, e]) => [client, e.deviations])),
        );
        const index = new DeviationIndex(fleet.baselineTreeId, entries, worst);
        const packed = packedRows('Body', bodyOf(entries, worst), MAX_ROWS);
        if (!packed) return { result: { index, stored: false } };
        const [first = {}, ...more] = packed;
        const generation = { id: randomUUID(), more: more.length };
        if (more.length > 0) {
          unlanded = generation;
          await Promise.all(
            more.map((parts, n) =>
              this.tables.upsertEntity(this.table, {
                PartitionKey: PARTITION,
                RowKey: moreRowKey(generation.id, n),
                ...parts,
              }),
            ),
          );
        }
        const replaced = generationOf(row);
        const beforeReplaced = generationOf(row, 'Previous');
        if (beforeReplaced) await this.remove(beforeReplaced);
        return {
          write: {
            Format: INDEX_FORMAT,
            BaselineTreeId: fleet.baselineTreeId,
            Generation: generation.id,
            MoreRows: generation.more,
            ...(replaced
              ? { PreviousGeneration: replaced.id, PreviousMoreRows: replaced.more }
              : {}),
            ...first,
          },
          result: { index, stored: true },
        };
      },
    );
    try {
      return await update;
    } catch (error) {
      if (unlanded) await this.remove(unlanded).catch(() => undefined);
      throw error;
    }
  }

  /** The head row and the rows of its generation, in order; undefined when some are gone. */
  private async rowsFrom(head: AppTableEntity | undefined): Promise<AppTableEntity[] | undefined> {
    const generation = generationOf(head);
    if (!head || !generation || generation.more === 0) return head ? [head] : [];
    const from = moreRowKey(generation.id, 0);
    const to = moreRowKey(generation.id, generation.more);
    const rows: AppTableEntity[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.tables.queryEntities(this.table, {
        filter: odata`PartitionKey eq ${PARTITION} and RowKey ge ${from} and RowKey lt ${to}`,
        ...(continuationToken ? { continuationToken } : {}),
      });
      rows.push(...page.entities);
      continuationToken = page.continuationToken;
    } while (continuationToken);
    if (rows.length !== generation.more) return undefined;
    rows.sort((x, y) => (x.RowKey < y.RowKey ? -1 : 1));
    return [head, ...rows];
  }

  /** Removes the rows of a generation no head names any more (a reader of it reads again). */
  private async remove(generation: Generation): Promise<void> {
    if (generation.more === 0) return;
    await this.tables.deleteEntities(
      this.table,
      Array.from({ length: generation.more }, (_, n) => ({
        partitionKey: PARTITION,
        rowKey: moreRowKey(generation.id, n),
      })),
    );
  }
}
