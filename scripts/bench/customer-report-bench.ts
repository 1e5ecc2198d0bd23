// Issue 29 performance: one client's customer report (time and PDF size, with a logo), and a
// monthly run's rendering for many clients of 500 policies, memory sampled as it goes. The facts'
// gathering (compliance, trend) is the compliance and fleet benches' work; this measures the PDF.
import {
  sampleCustomerReportInput,
  createCustomerReportPdf,
  SAMPLE_PNG_LOGO,
} from '@aegis/reports';

export interface CustomerReportBench {
  oneReportMs: number;
  oneReportBytes: number;
  clients: number;
  runMs: number;
  perReportMs: number;
  heapMb: number[];
}

/** Deviations of a client of 500 policies at about 80% compliance. */
const DEVIATIONS = 100;
/** Heap after a collection when the process allows one (`--expose-gc`), else as it stands. */
function mb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1024 / 1024);
}

export async function runCustomerReportBench(clients = 40): Promise<CustomerReportBench> {
  // the first render loads pdfmake and its fonts once per process: warm it, as a running server is
  await createCustomerReportPdf(sampleCustomerReportInput({ deviations: 1 }));
  const started = performance.now();
  const one = await createCustomerReportPdf(
    sampleCustomerReportInput({ deviations: DEVIATIONS, logo: SAMPLE_PNG_LOGO }),
  );
  const oneReportMs = performance.now() - started;
  const heapMb: number[] = [];
  const runStarted = performance.now();
  for (let i = 0; i < clients; i++) {
    await createCustomerReportPdf(
      sampleCustomerReportInput({ deviations: DEVIATIONS, logo: SAMPLE_PNG_LOGO }),
    );
    if (i % 10 === 9) heapMb.push(mb());
  }
  const runMs = performance.now() - runStarted;
  return {
    oneReportMs,
    oneReportBytes: one.byteLength,
    clients,
    runMs,
    perReportMs: runMs / clients,
    heapMb,
  };
}

export function printCustomerReportBench(b: CustomerReportBench): void {
  const per = b.perReportMs;
  console.log('\nCustomer report (issue 29)');
  console.log(
    `  one report, ${DEVIATIONS} deviations, with a logo: ${b.oneReportMs.toFixed(0)} ms, ${(b.oneReportBytes / 1024).toFixed(0)} KiB (goals < 5 s, < 2 MB)`,
  );
  console.log(
    `  ${b.clients} reports rendered one after another: ${(b.runMs / 1000).toFixed(1)} s, ${per.toFixed(0)} ms each; heap every 10 reports: ${b.heapMb.join(', ')} MB${'gc' in globalThis ? ' (after a collection)' : ' (uncollected: NODE_OPTIONS=--expose-gc shows what is kept)'}`,
  );
  console.log(
    `  200 clients extrapolated (rendering only, the facts come from cached compliance): ${((per * 200) / 1000 / 60).toFixed(1)} min (goal < 10 min)`,
  );
}
