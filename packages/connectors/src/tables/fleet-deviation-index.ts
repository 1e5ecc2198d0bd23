// The fleet's deviating settings in one row (issue 32 item 5, ADR 085): each client's deviations
// (as numbers into one list of settings) with the summary they come from, and the fleet's worst
// deviations computed from them when they change. The Fleet page reads this one row, not a row
// per client, and ranks nothing while every client's entry holds.
import {
  worstFleetDeviations,
  type AppTableEntity,
  type FleetDeviation,
  type FleetWorstDeviation,
} from '@aegis/domain';

import { packedParts, unpackedParts } from './packed-parts';
import { SharedRows, type RowDecision } from './shared-rows';
import type { AppTables } from './types';

const KEYS = { partitionKey: 'index', rowKey: 'deviations' };
/** Raise when the body's shape changes: an index of another version is rebuilt. */
const INDEX_FORMAT = 1;

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

function indexOf(row: AppTableEntity | undefined): DeviationIndex | undefined {
  if (row?.Format !== INDEX_FORMAT || typeof row.BaselineTreeId !== 'string') return undefined;
  const body = unpackedParts(row, 'Body') as IndexBody | undefined;
  if (!body) return undefined;
  const entries = new Map<string, Entry>();
  for (const [client, e] of Object.entries(body.clients)) {
    const deviations = e.d.flatMap((i) => body.settings[i] ?? []);
    entries.set(client, { clientTreeId: e.tree, computedAt: e.at, deviations });
  }
  return new DeviationIndex(row.BaselineTreeId, entries, body.worst);
}

function bodyOf(entries: ReadonlyMap<string, Entry>, worst: FleetWorstDeviation[]): IndexBody {
  const settings: FleetDeviation[] = [];
  const numbers = new Map<string, number>();
  const clients: IndexBody['clients'] = {};
  for (const [client, entry] of entries) {
    const d = entry.deviations.map((setting) => {
      const key = JSON.stringify(setting);
      let n = numbers.get(key);
      if (n === undefined) {
        n = settings.push(setting) - 1;
        numbers.set(key, n);
      }
      return n;
    });
    clients[client] = { tree: entry.clientTreeId, at: entry.computedAt, d };
  }
  return { settings, clients, worst };
}

/**
 * The index row over SharedRows (ADR 060): every update is a conditional write on the row as
 * read, so two instances storing different clients at once both land.
 */
export class FleetDeviationIndex {
  private readonly rows: SharedRows;

  constructor(tables: AppTables, table: string) {
    this.rows = new SharedRows(tables, table);
  }

  /** The stored index; undefined before the first write or when of another format. */
  async read(): Promise<DeviationIndex | undefined> {
    return indexOf(await this.rows.read(KEYS));
  }

  /**
   * Puts these clients' deviations into the index for main's tip, drops the clients that tip
   * does not have (or has at other trees), and ranks the fleet's worst again. An index of another
   * baseline is started over. Written only when something changed; an index too large for one
   * row is answered but not stored (its readers rank from the deviation rows).
   */
  async update(
    fleet: FleetAtTip,
    changes: readonly ClientDeviations[],
  ): Promise<{ index: DeviationIndex; stored: boolean }> {
    return this.rows.update(
      KEYS,
      (row): RowDecision<{ index: DeviationIndex; stored: boolean }> => {
        const current = indexOf(row);
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
          entries.set(c.client, c);
          changed = true;
        }
        if (!changed && current) return { result: { index: current, stored: true } };
        const worst = worstFleetDeviations(
          new Map([...entries].map(([client, e]) => [client, e.deviations])),
        );
        const index = new DeviationIndex(fleet.baselineTreeId, entries, worst);
        const parts = packedParts('Body', bodyOf(entries, worst));
        if (!parts) return { result: { index, stored: false } };
        return {
          write: { Format: INDEX_FORMAT, BaselineTreeId: fleet.baselineTreeId, ...parts },
          result: { index, stored: true },
        };
      },
    );
  }
}
