// Where the fleet's client summaries are computed (ADR 044): parsing a client's files and comparing
// them with the baseline is CPU work of ~0.2 s per client, so a cold fleet of hundreds of clients
// runs it on worker threads while the server's thread reads the archive and answers requests.
import { Worker } from 'node:worker_threads';

import type { RawFile } from '@aegis/connectors/repository';
import { summarizeClient, type ClientSummary, type ConfigFile } from '@aegis/domain';

import { configFileOf } from '../lib/json-content';

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

/** What the server's thread sends a summary worker. */
export type SummaryWorkerRequest =
  | { kind: 'baseline'; treeId: string; files: readonly ConfigFile[] }
  | {
      kind: 'summarize';
      id: number;
      client: string;
      treeId: string;
      files: readonly RawFile[];
      at: number;
    };

/** A summary worker's answer to one task. */
export type SummaryWorkerAnswer =
  { id: number; summary: ClientSummary } | { id: number; error: string };

/** Summaries in the calling thread, one at a time. */
export const inThreadSummarizer: FleetSummarizer = {
  capacity: 1,
  summarize: (task) =>
    Promise.resolve().then(() =>
      summarizeClient(task.client, task.baseline, task.files.map(configFileOf), task.at),
    ),
  close: () => Promise.resolve(),
};

/** Baselines a worker keeps parsed (the tip's, and the one before a baseline change). */
export const BASELINES_PER_WORKER = 2;
/** A pool with nothing to do stops its workers after this long (each holds parsed baselines). */
const IDLE_MS = 60_000;
/** The worker's entry: registers the TypeScript loader in the new thread, then loads the worker. */
const WORKER_ENTRY = new URL('./fleet-summary-worker.mjs', import.meta.url);

interface PoolWorker {
  worker: Worker;
  pending: Map<number, { resolve: (s: ClientSummary) => void; reject: (e: Error) => void }>;
  /** baseline tree ids this worker holds, oldest first */
  baselines: string[];
}

interface PoolLogger {
  warn(obj: object, msg: string): void;
}

/**
 * Summaries on up to `size` worker threads, started when first needed and stopped after a minute
 * idle. A worker that fails or exits rejects its tasks (the fleet then reads those clients alone)
 * and is replaced by the next task.
 */
export class WorkerSummarizer implements FleetSummarizer {
  readonly capacity: number;
  private workers: PoolWorker[] = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly size: number,
    private readonly log: PoolLogger,
  ) {
    // one task running and one queued per worker keeps every worker busy
    this.capacity = size * 2;
  }

  summarize(task: SummaryTask): Promise<ClientSummary> {
    clearTimeout(this.idleTimer);
    const slot = this.pick();
    if (!slot.baselines.includes(task.baselineTreeId)) {
      this.post(slot, { kind: 'baseline', treeId: task.baselineTreeId, files: task.baseline });
      slot.baselines = [...slot.baselines, task.baselineTreeId].slice(-BASELINES_PER_WORKER);
    }
    const id = this.nextId++;
    const answer = new Promise<ClientSummary>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
    });
    this.post(slot, {
      kind: 'summarize',
      id,
      client: task.client,
      treeId: task.baselineTreeId,
      files: task.files,
      at: task.at,
    });
    return answer.finally(() => this.stopWhenIdle());
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  /** The least busy worker; a new one while all are busy and the pool is not full. */
  private pick(): PoolWorker {
    const idlest = this.workers.reduce<PoolWorker | undefined>(
      (best, w) => (!best || w.pending.size < best.pending.size ? w : best),
      undefined,
    );
    if (idlest && (idlest.pending.size === 0 || this.workers.length >= this.size)) return idlest;
    return this.spawn();
  }

  private spawn(): PoolWorker {
    // execArgv [] : the entry registers the loader itself, under tsx and under the test runner alike
    const worker = new Worker(WORKER_ENTRY, { execArgv: [] });
    worker.unref();
    const slot: PoolWorker = { worker, pending: new Map(), baselines: [] };
    const fail = (error: Error) => {
      this.workers = this.workers.filter((w) => w !== slot);
      for (const task of slot.pending.values()) task.reject(error);
      slot.pending.clear();
    };
    worker.on('message', (answer: SummaryWorkerAnswer) => {
      const task = slot.pending.get(answer.id);
      if (!task) return;
      slot.pending.delete(answer.id);
      if ('error' in answer) task.reject(new Error(answer.error));
      else task.resolve(answer.summary);
    });
    worker.on('error', (error) => {
      this.log.warn({ err: error }, 'fleet: a summary worker failed');
      fail(error);
    });
    worker.on('exit', (code) => fail(new Error(`The fleet summary worker stopped (exit ${code})`)));
    this.workers.push(slot);
    return slot;
  }

  private post(slot: PoolWorker, request: SummaryWorkerRequest): void {
    slot.worker.postMessage(request);
  }

  private stopWhenIdle(): void {
    if (this.workers.some((w) => w.pending.size > 0)) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), IDLE_MS);
    this.idleTimer.unref();
  }
}

/** The pool for `workers` threads; 0 computes in the server's thread. */
export function createFleetSummarizer(workers: number, log: PoolLogger): FleetSummarizer {
  return workers > 0 ? new WorkerSummarizer(workers, log) : inThreadSummarizer;
}
