// How a customer report's PDF is rendered (issue 29, ADR 072): through a port, so the server can
// render on its worker pool and keep its thread for requests, while a pipeline task, which has
// nothing else to serve, renders in its own thread.
import { createCustomerReportPdf, type CustomerReportInput } from '@aegis/reports';

export interface CustomerReportRenderer {
  render(facts: CustomerReportInput): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Rendering in the calling thread (a task, and the tests' reference). */
export const inThreadRenderer: CustomerReportRenderer = {
  // a definition that cannot be built rejects, as on the pool, rather than throwing at the call
  render: (facts) => Promise.resolve(facts).then(createCustomerReportPdf),
  close: () => Promise.resolve(),
};
