// Where the fleet's client summaries are computed (ADR 044, ADR 075): parsing a client's files and
// comparing them with the baseline is CPU work, so a cold fleet of hundreds of clients runs it on a
// piscina pool of worker threads while the server's thread reads the archive and answers requests.
import type { RawFile } from '@aegis/connectors/repository';
import type { ClientSummary, ConfigFile } from '@aegis/domain';
import { inThreadSummarizer, type FleetSummarizer, type SummaryTask } from '@aegis/insights';
import { LRUCache } from 'lru-cache';
import { Piscina } from 'piscina';

/**
 * What a summary worker gets for one client. The baseline (megabytes of JSON for a large one) is
 * in shared memory, written once per tree: a task carries a reference, not a copy, and each worker
 * parses a tree's baseline once (ADR 075 has the figures).
 */
export interface SummaryWorkerTask {
  client: string;
  treeId: string;
  /** the baseline's files as UTF-8 JSON */
  baseline: SharedArrayBuffer;
  files: readonly RawFile[];
  at: number;
}

/** Baselines kept (the tip's, and the one before a baseline change): shared here, parsed in a worker. */
export const BASELINES_PER_WORKER = 2;
/** A worker with nothing to do stops after this long (it holds parsed baselines). */
const IDLE_MS = 60_000;
/** The worker's entry: registers the TypeScript loader in the new thread, then loads the worker. */
const WORKER_ENTRY = new URL('./fleet-summary-worker.mjs', import.meta.url);

interface PoolLogger {
  warn(obj: object, msg: string): void;
}

/**
 * Summaries on a piscina pool of up to `size` threads, started when first needed and stopped when
 * idle. A worker that fails rejects its task (the fleet then reads that client alone) and piscina
 * replaces it; after `close`, the next task starts a new pool.
 */
export class WorkerSummarizer implements FleetSummarizer {
  readonly capacity: number;
  private pool: Piscina<SummaryWorkerTask, ClientSummary> | undefined;
  private readonly sharedBaselines = new LRUCache<string, SharedArrayBuffer>({
    max: BASELINES_PER_WORKER,
  });

  constructor(
    private readonly size: number,
    private readonly log: PoolLogger,
  ) {
    // one task running and one queued per worker keeps every worker busy
    this.capacity = size * 2;
  }

  summarize(task: SummaryTask): Promise<ClientSummary> {
    this.pool ??= this.start();
    return this.pool.run({
      client: task.client,
      treeId: task.baselineTreeId,
      baseline: this.shared(task.baselineTreeId, task.baseline),
      files: task.files,
      at: task.at,
    });
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }

  private start(): Piscina<SummaryWorkerTask, ClientSummary> {
    const pool = new Piscina<SummaryWorkerTask, ClientSummary>({
      filename: WORKER_ENTRY.href,
      minThreads: 0,
      maxThreads: this.size,
      idleTimeout: IDLE_MS,
      // the entry registers the loader itself, under tsx and under the test runner alike
      execArgv: [],
    });
    pool.on('error', (error: unknown) =>
      this.log.warn({ err: error }, 'fleet: a summary worker failed'),
    );
    return pool;
  }

  /** The baseline of a tree in shared memory, written on its first task. */
  private shared(treeId: string, baseline: readonly ConfigFile[]): SharedArrayBuffer {
    let shared = this.sharedBaselines.get(treeId);
    if (!shared) {
      const bytes = Buffer.from(JSON.stringify(baseline), 'utf8');
      shared = new SharedArrayBuffer(bytes.length);
      new Uint8Array(shared).set(bytes);
      this.sharedBaselines.set(treeId, shared);
    }
    return shared;
  }
}

/** The pool for `workers` threads; 0 computes in the server's thread. */
export function createFleetSummarizer(workers: number, log: PoolLogger): FleetSummarizer {
  return workers > 0 ? new WorkerSummarizer(workers, log) : inThreadSummarizer;
}
