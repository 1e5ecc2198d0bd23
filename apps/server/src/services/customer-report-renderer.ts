// Where the server renders a customer report's PDF (issue 29, ADR 072): pdfmake's layout is 1–2.5 s
// of CPU per report, which on the server's thread would stall every other request while a
// technician previews or sends one. So the server renders on a piscina worker pool; the facts are
// gathered on the server's thread (from the insights' services and caches), only rendering moves.
import { inThreadRenderer, type CustomerReportRenderer } from '@aegis/insights';
import type { CustomerReportInput } from '@aegis/reports';
import { Piscina } from 'piscina';

/** A pool with nothing to do stops its workers after this long (each holds pdfmake and its fonts). */
const IDLE_MS = 60_000;
/**
 * The worker's entry, beside this module: in the repository a loader shim that registers tsx, in
 * the production build the bundled worker (scripts/build.ts names it the same).
 */
const WORKER_ENTRY = new URL('./customer-report-worker.mjs', import.meta.url);

/** Rendering on up to `threads` worker threads, started when first needed. */
export function workerRenderer(threads: number): CustomerReportRenderer {
  const pool = new Piscina<CustomerReportInput, Uint8Array>({
    filename: WORKER_ENTRY.href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: IDLE_MS,
    // the entry registers the loader itself, under tsx and under the test runner alike
    execArgv: [],
  });
  return {
    render: (facts) => pool.run(facts),
    close: () => pool.destroy(),
  };
}

/** The renderer for `threads` worker threads; 0 renders in the calling thread. */
export function createCustomerReportRenderer(threads: number): CustomerReportRenderer {
  return threads > 0 ? workerRenderer(threads) : inThreadRenderer;
}
