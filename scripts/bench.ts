/** `npm run bench`: runs each registered benchmark in turn and prints its figures. */
import { printAuditBench, runAuditBench } from './bench/audit-bench';
import { printBundleBench, runBundleBench } from './bench/bundle-bench';
import { printCaptureBench, runCaptureBench } from './bench/capture-bench';
import { printComparisonBench, runComparisonBench } from './bench/comparison-bench';
import { printComplianceBench, runComplianceBench } from './bench/compliance-bench';
import {
  printCustomerReportBench,
  printCustomerReportRunBench,
  runCustomerReportBench,
  runCustomerReportRunBench,
} from './bench/customer-report-bench';
import { printDriftBench, runDriftBench } from './bench/drift-bench';
import { printEngineBench, runEngineBench } from './bench/engine-bench';
import { printFleetBench, runFleetBench } from './bench/fleet-bench';
import { printFleetIndexBench, runFleetIndexBench } from './bench/fleet-index-bench';
import { printFleetPoolBench, runFleetPoolBench } from './bench/fleet-pool-bench';
import { printFleetStoreBench, runFleetStoreBench } from './bench/fleet-store-bench';
import { printLoadBench, runLoadBench } from './bench/load-bench';
import { printPipelineTasksBench, runPipelineTasksBench } from './bench/pipeline-tasks-bench';

interface Benchmark {
  name: string;
  run: () => void | Promise<void>;
}

const benchmarks: Benchmark[] = [
  { name: 'engine', run: () => printEngineBench(runEngineBench()) },
  { name: 'comparison', run: async () => printComparisonBench(await runComparisonBench()) },
  { name: 'compliance', run: async () => printComplianceBench(await runComplianceBench()) },
  {
    name: 'pipeline-tasks',
    run: async () => printPipelineTasksBench(await runPipelineTasksBench()),
  },
  { name: 'capture', run: async () => printCaptureBench(await runCaptureBench()) },
  { name: 'audit', run: async () => printAuditBench(await runAuditBench()) },
  { name: 'drift', run: async () => printDriftBench(await runDriftBench()) },
  { name: 'fleet', run: async () => printFleetBench(await runFleetBench()) },
  // the summary pool alone (ADR 075); also `npm run bench fleet-pool`
  { name: 'fleet-pool', run: async () => printFleetPoolBench(await runFleetPoolBench()) },
  // 1,000 clients from stored summaries (ADR 062); also `npm run bench fleet-store` alone
  { name: 'fleet', run: async () => printFleetStoreBench(await runFleetStoreBench()) },
  { name: 'fleet-store', run: async () => printFleetStoreBench(await runFleetStoreBench()) },
  // the deviation index of 1,000 generated clients (ADR 090); also `npm run bench fleet-index`
  { name: 'fleet', run: async () => printFleetIndexBench(await runFleetIndexBench()) },
  { name: 'fleet-index', run: async () => printFleetIndexBench(await runFleetIndexBench()) },
  {
    name: 'customer-report',
    run: async () => {
      printCustomerReportBench(await runCustomerReportBench());
      printCustomerReportRunBench(await runCustomerReportRunBench());
    },
  },
  // the monthly run alone (AEGIS_BENCH_REPORT_CLIENTS, default 200)
  {
    name: 'customer-report-run',
    run: async () => printCustomerReportRunBench(await runCustomerReportRunBench()),
  },
  { name: 'bundle', run: async () => printBundleBench(await runBundleBench()) },
  { name: 'load', run: async () => printLoadBench(await runLoadBench()) },
];

const only = process.argv.slice(2);
for (const b of benchmarks) {
  if (only.length > 0 && !only.includes(b.name)) continue;
  await b.run();
}
