/**
 * Comparison benchmark, end to end through the server: a generated client of 1,000 policy files (the engine
 * benchmark's generator) and its 1,000-file baseline are pushed into a seeded DevOps emulator; the comparison
 * route (NDJSON) is then injected cold (nothing cached) and warm (trees and result cached), for both baselines,
 * counting the HTTP requests the server made to the DevOps service.
 */
import { generateTrees } from './engine-bench';
import { pushTree, startBenchServer } from './server-fixture';

const CLIENT = 'BEN';

export interface ComparisonBenchRow {
  run: string;
  ms: number;
  requests: number;
  percentEvents: number;
  responseMegabytes: number;
}

export interface ComparisonBenchResult {
  files: number;
  megabytes: number;
  rows: ComparisonBenchRow[];
}

export async function runComparisonBench(): Promise<ComparisonBenchResult> {
  const server = await startBenchServer('comparison');
  try {
    const { baseline, client, bytes } = generateTrees(1000);
    await pushTree(server.pusher, '/M365Config/Resources', baseline);
    await pushTree(server.pusher, `/Clients/${CLIENT}/M365Config/Resources`, client);
    const token = await server.token();

    const rows: ComparisonBenchRow[] = [];
    const measure = async (run: string, baselineType: 'options' | 'standard') => {
      server.takeRequests();
      const start = performance.now();
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/comparison/runs',
        headers: { authorization: `Bearer ${token}` },
        payload: { client: CLIENT, baselineType },
      });
      const ms = performance.now() - start;
      const lines = response.body.split('\n').filter(Boolean);
      const last = JSON.parse(lines.at(-1) ?? '{}') as { type?: string; message?: string };
      if (last.type !== 'result') throw new Error(`${run}: ${last.message ?? 'no result'}`);
      rows.push({
        run,
        ms,
        requests: server.takeRequests().all,
        percentEvents: lines.length - 1,
        responseMegabytes: response.body.length / 1024 / 1024,
      });
    };
    await measure('options baseline, cold', 'options');
    await measure('options baseline, warm', 'options');
    await measure('standard baseline, tree warm', 'standard');
    await measure('standard baseline, warm', 'standard');
    return { files: client.length, megabytes: bytes / 1024 / 1024, rows };
  } finally {
    await server.close();
  }
}

export function printComparisonBench(r: ComparisonBenchResult): void {
  console.log(
    `\ncomparison through the server: a ${r.files}-file client against a 1,000-file baseline (${r.megabytes.toFixed(1)} MB of JSON per tree)`,
  );
  console.log(
    `${'run'.padEnd(32)}${'ms'.padStart(10)}${'DevOps requests'.padStart(18)}${'events'.padStart(9)}${'response MB'.padStart(14)}`,
  );
  for (const row of r.rows)
    console.log(
      `${row.run.padEnd(32)}${row.ms.toFixed(0).padStart(10)}${String(row.requests).padStart(18)}${String(row.percentEvents).padStart(9)}${row.responseMegabytes.toFixed(1).padStart(14)}`,
    );
}
