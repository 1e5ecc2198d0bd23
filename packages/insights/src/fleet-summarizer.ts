// The fleet's client summaries, computed by a summarizer (ADR 044, ADR 075): in the calling thread
// here; the server passes its piscina pool of worker threads (apps/server, fleet-summarizer.ts).
import { configFileOf, type RawFile } from '@aegis/connectors/repository';
import { summarizeClient, type ClientSummary, type ConfigFile } from '@aegis/domain';

/** One client's summary to compute: its folder's files as read, against the baseline of a tree. */
export interface SummaryTask {
  client: string;
  baselineTreeId: string;
  baseline: readonly ConfigFile[];
  files: readonly RawFile[];
  /** the moment the figures are for (acceptances expire) */
  at: number;
}

export interface FleetSummarizer {
  /** Tasks worth having under way at once: a reader waits for one to finish beyond this. */
  readonly capacity: number;
  summarize(task: SummaryTask): Promise<ClientSummary>;
  close(): Promise<void>;
}

/** Summaries in the calling thread, one at a time. */
export const inThreadSummarizer: FleetSummarizer = {
  capacity: 1,
  summarize: (task) =>
    Promise.resolve().then(() =>
      summarizeClient(task.client, task.baseline, task.files.map(configFileOf), task.at),
    ),
  close: () => Promise.resolve(),
};
