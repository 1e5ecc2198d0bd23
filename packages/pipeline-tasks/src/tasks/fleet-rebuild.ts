// Fleet Summary Rebuild (issue 32 item 5, ADR 062): every client's fleet figures at main's tip,
// computed where Table storage lacks them (or holds them for other trees, or an acceptance has
// expired since) and stored, so that no technician's Fleet page pays for a cold start. A pipeline
// job, scheduled nightly and run after the baseline changes, not a page load.
import { FleetSummaryStore, storedFor, type StoredSummary } from '@aegis/connectors/tables';
import {
  BASELINE_ROOT,
  clientFolder,
  summarizeClient,
  summaryExpiredBetween,
  type ConfigFile,
} from '@aegis/domain';
import pLimit from 'p-limit';

import { TaskError } from '../log';

import type { TaskContext } from './context';

/** What the rebuild did. */
export interface FleetRebuildOutcome {
  /** main's tip the summaries are for */
  commitId: string;
  clients: number;
  /** summaries computed and stored (the others held already) */
  computed: number;
  /** clients whose summary could not be computed or stored, with why */
  failed: string[];
}

/** Client folders read and compared at once: each is a zip and a comparison with the baseline. */
const CONCURRENCY = 4;

/** What the rebuild reads and writes: the repository's main and Table storage (no tenant). */
export type FleetRebuildContext = Pick<TaskContext, 'log' | 'now' | 'repository' | 'tables'>;

export async function runFleetRebuild(context: FleetRebuildContext): Promise<FleetRebuildOutcome> {
  const { log, repository } = context;
  if (!context.tables) {
    throw new TaskError(
      'The fleet rebuild stores into Table storage: AEGIS_TABLES_URL is not set for this run',
    );
  }
  const store = new FleetSummaryStore(context.tables, {
    warn: (detail, message) => log.warning(`${message} ${JSON.stringify(detail)}`),
  });
  log.section('Fleet summary rebuild');
  const commitId = await repository.branchTip();
  const version = { commit: commitId };
  const trees = await repository.fleetTreeIds(version);
  const clients = [...trees.clients.keys()].sort();
  const outcome: FleetRebuildOutcome = {
    commitId,
    clients: clients.length,
    computed: 0,
    failed: [],
  };
  const baselineTreeId = trees.baselineTreeId;
  if (!baselineTreeId) {
    log.warning(`${BASELINE_ROOT} does not exist on main: no client has figures to store`);
    return outcome;
  }
  const at = context.now().getTime();
  const stored = await store.read();
  const stale = clients.filter((client) => {
    const row = stored.get(client);
    const clientTreeId = trees.clients.get(client) ?? '';
    return !storedFor(row, baselineTreeId, clientTreeId) || summaryExpiredBetween(row.summary, at);
  });
  log.info(
    `${clients.length} clients at ${commitId.slice(0, 8)}: ${clients.length - stale.length} summaries hold, ${stale.length} to compute`,
  );
  if (stale.length === 0) return outcome;

  const baseline: ConfigFile[] = await repository.readFleetBaseline(baselineTreeId, version);
  const limit = pLimit(CONCURRENCY);
  const computed = await Promise.all(
    stale.map((client) =>
      limit(async (): Promise<StoredSummary | undefined> => {
        try {
          const folder = await repository.readTree(clientFolder(client), version, {
            cache: false,
          });
          const summary = summarizeClient(client, baseline, folder?.files ?? [], at);
          const clientTreeId = trees.clients.get(client) ?? '';
          return { client, baselineTreeId, clientTreeId, commitId, summary };
        } catch (error) {
          outcome.failed.push(
            `${client}: ${error instanceof Error ? error.message : String(error)}`,
          );
          return undefined;
        }
      }),
    ),
  );
  const summaries = computed.filter((s): s is StoredSummary => s !== undefined);
  const { clients: written } = await store.write(summaries, {
    baselineTreeId,
    clients: trees.clients,
  });
  outcome.computed = written.size;
  for (const s of summaries) {
    if (!written.has(s.client)) outcome.failed.push(`${s.client}: not stored`);
  }
  log.info(`${written.size} summaries computed and stored`);
  for (const failure of outcome.failed) log.error(`Fleet summary not computed: ${failure}`);
  if (outcome.failed.length > 0) {
    throw new TaskError(`${outcome.failed.length} of ${stale.length} fleet summaries not stored`);
  }
  return outcome;
}
