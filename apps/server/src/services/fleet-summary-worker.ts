// A fleet summary worker (ADR 044, ADR 075): piscina runs this module on each of its threads. It
// keeps the baselines it has read, parsed, and answers each task with the client's summary,
// computed as the server's thread would.
import { configFileOf } from '@aegis/connectors/repository';
import { summarizeClient, type ConfigFile } from '@aegis/domain';
import { LRUCache } from 'lru-cache';

import { BASELINES_PER_WORKER, type SummaryWorkerTask } from './fleet-summarizer';

/** Parsed baselines by tree id: a baseline is parsed once per worker, not once per task. */
const baselines = new LRUCache<string, readonly ConfigFile[]>({ max: BASELINES_PER_WORKER });

export default function summarize(task: SummaryWorkerTask) {
  let baseline = baselines.get(task.treeId);
  if (!baseline) {
    baseline = JSON.parse(Buffer.from(task.baseline).toString('utf8')) as ConfigFile[];
    baselines.set(task.treeId, baseline);
  }
  return summarizeClient(task.client, baseline, task.files.map(configFileOf), task.at);
}
