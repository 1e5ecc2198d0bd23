// Issue 29 performance: one client's customer report (time and PDF size, with a logo) and many
// rendered one after another, memory sampled as it goes; then the monthly run as the pipeline task,
// facts, rendering, mail, Blob and Table storage, for 200 generated clients of 500 policies.
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';

import { createBlobsClient } from '@aegis/connectors/blobs';
import { DevOpsClient } from '@aegis/connectors/devops';
import type { MailMessage, MailSender } from '@aegis/connectors/graph';
import { ConfigRepository, createConfigRepositoryShared } from '@aegis/connectors/repository';
import { createTablesClient } from '@aegis/connectors/tables';
import { startAzurite, startAzuriteBlob } from '@aegis/emulators';
import { agentLog, runCustomerReports } from '@aegis/pipeline-tasks';
import {
  sampleCustomerReportInput,
  createCustomerReportPdf,
  SAMPLE_PNG_LOGO,
} from '@aegis/reports';

import { generateTrees } from './engine-bench';
import { clientCode, importFleet } from './fleet-store-bench';
import { BENCH_REPO, cpuMilliseconds, startBenchServer, withPeakHeap } from './server-fixture';

/** Policies of each generated client, as the monthly run. */
const POLICIES = 500;

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

/** What the monthly run as the pipeline task did, and what it cost. */
export interface CustomerReportRunBench {
  clients: number;
  policies: number;
  setupSeconds: number;
  runMs: number;
  /** CPU of this process's threads (task, server, emulators) and the emulator's git meanwhile */
  cpuMs: { own: number; git: number };
  sent: number;
  failed: string[];
  /** heap used before, at its peak during, and after the run (MB) */
  heapMb: { start: number; peak: number; end: number };
  rssMb: { start: number; end: number };
  attachmentKib: number;
  /** each client's run in turn: time, CPU (this process and git) and heap used after it */
  perClient: ClientFigures[];
}

export interface ClientFigures {
  ms: number;
  cpuMs: number;
  heapAfterMb: number;
}

/** A mailbox that accepts every message: the run's cost without Graph's. */
class AcceptingMail implements MailSender {
  readonly sender = 'reports@aegis-msp.example';
  sent = 0;
  bytes = 0;
  send(message: MailMessage): Promise<void> {
    this.sent++;
    this.bytes += message.attachments?.[0]?.content.byteLength ?? 0;
    return Promise.resolve();
  }
}

const heapUsedMb = () => getHeapStatistics().used_heap_size / 2 ** 20;
const rssMb = () => process.memoryUsage().rss / 2 ** 20;

/**
 * The monthly run on one agent (`aegis-task customer-reports`, ADR 089): `clients` generated
 * clients of 500 policies (git fast-import, as the fleet-store bench), each with a schedule due
 * now (saved through the portal's route); every report's facts gathered by the insights' services
 * over the task's own repository reader, rendered in the task's thread, sent to an accepting
 * mailbox, archived in Azurite's Blob service and recorded in its Table service.
 */
export async function runCustomerReportRunBench(
  clients = Number(process.env.AEGIS_BENCH_REPORT_CLIENTS ?? 200),
): Promise<CustomerReportRunBench> {
  const dir = await mkdtemp(path.join(tmpdir(), 'aegis-bench-customer-reports-'));
  const azurite = await startAzurite({ location: path.join(dir, 'tables') });
  const azuriteBlob = await startAzuriteBlob({ location: path.join(dir, 'blobs') });
  const mail = new AcceptingMail();
  const tables = createTablesClient({ connectionString: azurite.connectionString });
  const blobs = createBlobsClient({ connectionString: azuriteBlob.connectionString });
  const server = await startBenchServer('customer-reports', {
    tables,
    ports: { tables, blobs, mailSender: mail },
  });
  // the task's context, as an agent builds it: its own repository reader and caches
  const taskContext = {
    log: agentLog(() => undefined),
    now: () => new Date(),
    repository: new ConfigRepository(
      new DevOpsClient({ organizationUrl: server.emulator.url, getToken: () => server.token() }),
      createConfigRepositoryShared(BENCH_REPO),
    ),
    tables,
    blobs,
    mail,
  };
  try {
    const setupStart = performance.now();
    const { baseline, client } = generateTrees(POLICIES);
    const codes = Array.from({ length: clients }, (_, i) => clientCode(i));
    await importFleet(server, baseline, client, codes);
    const authorization = `Bearer ${await server.token()}`;
    const setupSeconds = (performance.now() - setupStart) / 1000;

    (globalThis as { gc?: () => void }).gc?.();
    const heapStart = heapUsedMb();
    const rssStart = rssMb();
    const cpuStart = cpuMilliseconds();
    const perClient: ClientFigures[] = [];
    const sent: string[] = [];
    const failed: string[] = [];
    let peak = heapStart;
    const start = performance.now();
    // One schedule added before each run: the run sends that client's report (the earlier ones'
    // periods are sent already), so the heap after each client is kept apart.
    for (const code of codes) {
      const saved = await server.app.inject({
        method: 'PUT',
        url: `/api/customer-reports/${code}/schedule`,
        headers: { authorization },
        payload: {
          customerName: `Customer ${code}`,
          cadence: 'monthly',
          dayOfMonth: 1,
          contacts: [`it@${code.toLowerCase()}.example`],
          technicians: [],
          introduction: '',
          enabled: true,
        },
      });
      if (saved.statusCode !== 200) throw new Error(`schedule ${code}: ${saved.body}`);
      const clientStart = performance.now();
      const clientCpu = cpuMilliseconds();
      const { value: run, peak: clientPeak } = await withPeakHeap(() =>
        // a run with a report not sent fails, naming it
        runCustomerReports(taskContext).catch((error: unknown) => {
          failed.push(`${code}: ${error instanceof Error ? error.message : String(error)}`);
          return undefined;
        }),
      );
      sent.push(...(run?.sent.map((s) => s.client) ?? []));
      const clientCpuEnd = cpuMilliseconds();
      const ms = performance.now() - clientStart;
      (globalThis as { gc?: () => void }).gc?.();
      peak = Math.max(peak, clientPeak);
      perClient.push({
        ms,
        cpuMs: clientCpuEnd.own - clientCpu.own + clientCpuEnd.children - clientCpu.children,
        heapAfterMb: heapUsedMb(),
      });
      // a long run says where it is (stderr, apart from the figures)
      if (perClient.length % 10 === 0) {
        process.stderr.write(
          `  customer-report run: ${perClient.length}/${clients} clients, ${((performance.now() - start) / 1000).toFixed(0)} s, heap ${heapUsedMb().toFixed(0)} MB\n`,
        );
      }
    }
    const runMs = performance.now() - start;
    const cpuEnd = cpuMilliseconds();
    (globalThis as { gc?: () => void }).gc?.();
    return {
      clients,
      policies: POLICIES,
      setupSeconds,
      runMs,
      cpuMs: { own: cpuEnd.own - cpuStart.own, git: cpuEnd.children - cpuStart.children },
      sent: sent.length,
      failed,
      perClient,
      heapMb: { start: heapStart, peak, end: heapUsedMb() },
      rssMb: { start: rssStart, end: rssMb() },
      attachmentKib: mail.sent > 0 ? mail.bytes / mail.sent / 1024 : 0,
    };
  } finally {
    await server.close();
    await azuriteBlob.stop();
    await azurite.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The monthly run's goal (issue 29): 200 clients in under 10 minutes on one agent. */
const RUN_CLIENTS_GOAL = 200;
const RUN_GOAL_MINUTES = 10;

export function printCustomerReportRunBench(b: CustomerReportRunBench): void {
  const perMs = b.runMs / Math.max(1, b.sent + b.failed.length);
  const f = (n: number) => n.toFixed(0);
  console.log(
    `\nCustomer reports, the monthly run as aegis-task customer-reports on one agent (${b.clients} clients of ${b.policies} policies; setup ${f(b.setupSeconds)} s)`,
  );
  console.log(
    `  ${b.sent} sent, ${b.failed.length} failed in ${(b.runMs / 1000).toFixed(1)} s: ${f(perMs)} ms a client (facts, rendering in the task's thread, mail, Blob, Table); PDFs ${f(b.attachmentKib)} KiB each`,
  );
  console.log(
    `  CPU meanwhile: ${f(b.cpuMs.own / 1000)} s in this process (task, server, emulators), ${f(b.cpuMs.git / 1000)} s in the emulator's git; machine load ${loadavg()[0]?.toFixed(1) ?? '?'} on ${availableParallelism()} cores`,
  );
  console.log(
    `  heap used: start ${f(b.heapMb.start)} MB, peak ${f(b.heapMb.peak)} MB, end ${f(b.heapMb.end)} MB${'gc' in globalThis ? ' (start and end after a collection)' : ' (uncollected: NODE_OPTIONS=--expose-gc)'}; RSS ${f(b.rssMb.start)} → ${f(b.rssMb.end)} MB`,
  );
  const heaps = b.perClient.map((c) => c.heapAfterMb);
  // every client's heap up to 20, then every tenth: the growth and where it levels off
  const every = heaps.length > 20 ? 10 : 1;
  const shown = heaps.flatMap((h, i) =>
    (i + 1) % every === 0 || i === 0 ? [`${i + 1}: ${f(h)}`] : [],
  );
  const half = heaps.slice(Math.floor(heaps.length / 2));
  const laterPerClient =
    half.length > 1 ? ((half.at(-1) ?? 0) - (half[0] ?? 0)) / (half.length - 1) : 0;
  console.log(`  heap used after client (MB, after a collection): ${shown.join(', ')}`);
  console.log(
    `  heap kept per client over the second half of the run: ${laterPerClient.toFixed(1)} MB`,
  );
  const cpuPer = b.perClient.reduce((sum, c) => sum + c.cpuMs, 0) / Math.max(1, b.perClient.length);
  console.log(
    `  per client: ${f(perMs)} ms wall, ${f(cpuPer)} ms CPU (this process and git); 200 clients from CPU alone: ${((cpuPer * RUN_CLIENTS_GOAL) / 60_000).toFixed(1)} min on one core`,
  );
  if (b.clients !== RUN_CLIENTS_GOAL) {
    console.log(
      `  ${RUN_CLIENTS_GOAL} clients extrapolated from these ${b.clients}: ${((perMs * RUN_CLIENTS_GOAL) / 60_000).toFixed(1)} min (goal < ${RUN_GOAL_MINUTES} min)`,
    );
  } else {
    console.log(`  goal: < ${RUN_GOAL_MINUTES} min`);
  }
  for (const failure of b.failed.slice(0, 5)) console.log(`  failed: ${failure}`);
}
