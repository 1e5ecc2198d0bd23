/**
 * Baseline Compliance benchmark through the server (issue 13): a 1,000-policy baseline and a client whose copy has
 * 200 policies renamed (so 200+ baseline policies are missing and 200 client-only policies are the candidates),
 * pushed into a seeded DevOps emulator. The report route (compliance, matches, accepted deviations and the ranked
 * suggestions) is injected cold and warm, beside the engine's plain diff of the same trees in process.
 */
import type { ComplianceReport } from '@aegis/contracts';
import { evaluateCompliance, type ConfigFile } from '@aegis/domain';

import { generateTrees } from './engine-bench';
import { pushTree, startBenchServer } from './server-fixture';

const CLIENT = 'CMP';

export interface ComplianceBenchResult {
  policies: number;
  unmatched: number;
  candidates: number;
  suggestions: number;
  plainDiffMs: number;
  rows: { run: string; ms: number; requests: number; responseMegabytes: number }[];
}

/** The client's copy with 200 policies renamed (new file name, display name suffixed). */
function renameSome(client: ConfigFile[], count: number): ConfigFile[] {
  return client.map((f, i) => {
    if (
      i % Math.floor(client.length / count) !== 0 ||
      i / Math.floor(client.length / count) >= count
    )
      return f;
    const content = { ...(f.content as Record<string, unknown>) };
    for (const key of ['displayName', 'DisplayName', 'Name', 'name'])
      if (typeof content[key] === 'string') content[key] = `${String(content[key])} (client copy)`;
    return { path: f.path.replace(/\.json$/, '-client-copy.json'), content };
  });
}

export async function runComplianceBench(): Promise<ComplianceBenchResult> {
  const server = await startBenchServer('compliance');
  try {
    const { baseline, client: original } = generateTrees(1000);
    const client = renameSome(original, 200);
    await pushTree(server.pusher, '/M365Config/Resources', baseline);
    await pushTree(server.pusher, `/Clients/${CLIENT}/M365Config/Resources`, client);

    const plainStart = performance.now();
    const plain = evaluateCompliance(baseline, client);
    const plainDiffMs = performance.now() - plainStart;

    const rows: ComplianceBenchResult['rows'] = [];
    let last: ComplianceReport | undefined;
    const measure = async (run: string) => {
      server.takeRequests();
      const { body, ms, bytes } = await server.get<ComplianceReport>(`/api/compliance/${CLIENT}`);
      last = body;
      rows.push({
        run,
        ms,
        requests: server.takeRequests().all,
        responseMegabytes: bytes / 1024 / 1024,
      });
    };
    await measure('report, cold');
    await measure('report, warm');
    await measure('report, warm again');
    return {
      policies: baseline.length,
      unmatched: plain.deviations.filter((g) => g.changeType === 'missing').length,
      candidates: plain.clientOnlyPolicies.length,
      suggestions: last?.unmatched.reduce((n, u) => n + u.suggestions.length, 0) ?? 0,
      plainDiffMs,
      rows,
    };
  } finally {
    await server.close();
  }
}

export function printComplianceBench(r: ComplianceBenchResult): void {
  console.log(
    `\nbaseline compliance through the server: ${r.policies} baseline policies, ${r.unmatched} missing from the client, ${r.candidates} client-only candidates, ${r.suggestions} suggestions`,
  );
  console.log(`engine's plain diff in process: ${r.plainDiffMs.toFixed(0)} ms`);
  console.log(
    `${'run'.padEnd(24)}${'ms'.padStart(10)}${'× plain diff'.padStart(14)}${'DevOps requests'.padStart(18)}${'response MB'.padStart(14)}`,
  );
  for (const row of r.rows)
    console.log(
      `${row.run.padEnd(24)}${row.ms.toFixed(0).padStart(10)}${(row.ms / r.plainDiffMs).toFixed(1).padStart(14)}${String(row.requests).padStart(18)}${row.responseMegabytes.toFixed(1).padStart(14)}`,
    );
}
