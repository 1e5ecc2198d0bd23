// Where a customer report's PDF is rendered (issue 29, ADR 072): pdfmake's layout is 1–2.5 s of
// CPU per report, which on the server's thread would stall every other request while a technician
// previews or sends one. So the server renders on a piscina worker pool; the facts are gathered on
// the server's thread (they come from its services and caches), only the rendering moves.
import { createCustomerReportPdf, type CustomerReportInput } from '@aegis/reports';
import { Piscina } from 'piscina';

export interface CustomerReportRenderer {
  render(facts: CustomerReportInput): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Rendering in the calling thread (a job with nothing else to serve, and the tests' reference). */
export const inThreadRenderer: CustomerReportRenderer = {
  // a definition that cannot be built rejects, as on the pool, rather than throwing at the call
  render: (facts) => Promise.resolve(facts).then(createCustomerReportPdf),
  close: () => Promise.resolve(),
};

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
