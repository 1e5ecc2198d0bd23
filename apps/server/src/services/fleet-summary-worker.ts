// A fleet summary worker (ADR 044): keeps the baselines it was sent, parsed, and answers each task
// with the client's summary, computed as the server's thread would.
import { parentPort } from 'node:worker_threads';

import { summarizeClient, type ConfigFile } from '@aegis/domain';

import { configFileOf } from '../lib/json-content';

import {
  BASELINES_PER_WORKER,
  type SummaryWorkerAnswer,
  type SummaryWorkerRequest,
} from './fleet-summarizer';

const port = parentPort;
if (!port) throw new Error('fleet-summary-worker runs as a worker thread');

const baselines = new Map<string, readonly ConfigFile[]>();

port.on('message', (request: SummaryWorkerRequest) => {
  if (request.kind === 'baseline') {
    baselines.set(request.treeId, request.files);
    for (const treeId of baselines.keys()) {
      if (baselines.size <= BASELINES_PER_WORKER) break;
      baselines.delete(treeId);
    }
    return;
  }
  let answer: SummaryWorkerAnswer;
  try {
    const baseline = baselines.get(request.treeId);
    if (!baseline) throw new Error(`Baseline ${request.treeId} was not sent to this worker`);
    const files = request.files.map(configFileOf);
    answer = {
      id: request.id,
      summary: summarizeClient(request.client, baseline, files, request.at),
    };
  } catch (error) {
    answer = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
