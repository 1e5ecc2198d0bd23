/**
 * Capture review benchmark, end to end through the server: a 1,000-policy baseline and client are
 * pushed to main of a seeded DevOps emulator, then a capture branch that changes 20 policies, adds
 * 3 and deletes 2. The review analysis (drift against main + compliance against the baseline) is
 * injected cold (nothing cached), warm (same request again), and re-analysed with a new exclusion
 * (trees cached, result not), counting the HTTP requests the server made to DevOps.
 */
import type { FileChange } from '@aegis/connectors/devops';
import type { CaptureAnalysis } from '@aegis/contracts';

import { generateTrees } from './engine-bench';
import { startBenchServer, type BenchServer } from './server-fixture';

const CLIENT = 'BEN';
const BRANCH = `client-${CLIENT}-capture-9001`;

export interface CaptureBenchRow {
  run: string;
  ms: number;
  requests: number;
  changes: number;
  deviations: number;
}

export interface CaptureBenchResult {
  policies: number;
  rows: CaptureBenchRow[];
}

async function push(
  client: BenchServer['pusher'],
  branch: string,
  base: string,
  changes: FileChange[],
) {
  return client.commit(branch, base, `bench: ${branch}`, changes);
}

export async function runCaptureBench(): Promise<CaptureBenchResult> {
  const server = await startBenchServer('capture');
  const { pusher } = server;
  try {
    const { baseline, client } = generateTrees(1000);
    const tip = async () => (await pusher.findBranchTip('main')) ?? '';
    const add = (root: string, files: { path: string; content: unknown }[]): FileChange[] =>
      files.map((f) => ({
        changeType: 'add',
        path: `${root}/${f.path}`,
        content: JSON.stringify(f.content, null, 2),
      }));
    const clientRoot = `/Clients/${CLIENT}/M365Config/Resources`;
    await push(pusher, 'main', await tip(), add('/M365Config/Resources', baseline));
    await push(pusher, 'main', await tip(), add(clientRoot, client));

    // the capture: 20 policies changed, 3 added, 2 deleted, and its metadata
    const edits: FileChange[] = client.slice(0, 20).map((f, i) => ({
      changeType: 'edit',
      path: `${clientRoot}/${f.path}`,
      content: JSON.stringify({ ...(f.content as object), state: `changed-${i}` }, null, 2),
    }));
    const adds = add(
      clientRoot,
      [0, 1, 2].map((i) => ({
        path: `ConditionalAccess/Policy/new-${i}.json`,
        content: { displayName: `new ${i}`, state: 'enabled' },
      })),
    );
    const deletes: FileChange[] = client
      .slice(20, 22)
      .map((f) => ({ changeType: 'delete', path: `${clientRoot}/${f.path}` }));
    await push(pusher, BRANCH, await tip(), [
      ...edits,
      ...adds,
      ...deletes,
      {
        changeType: 'add',
        path: `/Clients/${CLIENT}/.capture-metadata.json`,
        content: JSON.stringify({ changeCount: 25, baselineVersion: '1.0.0' }),
      },
    ]);

    const token = await server.token();
    const rows: CaptureBenchRow[] = [];
    const measure = async (run: string, excludedProperties: string[]) => {
      server.takeRequests();
      const start = performance.now();
      const response = await server.app.inject({
        method: 'POST',
        url: `/api/capture/clients/${CLIENT}/analysis`,
        headers: { authorization: `Bearer ${token}` },
        payload: { branch: BRANCH, excludedProperties },
      });
      const ms = performance.now() - start;
      if (response.statusCode !== 200) throw new Error(`${run}: ${response.body}`);
      const body = response.json<CaptureAnalysis>();
      rows.push({
        run,
        ms,
        requests: server.takeRequests().all,
        changes: body.drift.changes.length,
        deviations: body.compliance.deviations.length,
      });
    };
    await measure('cold', []);
    await measure('warm', []);
    await measure('new exclusion, trees warm', ['displayName']);
    return { policies: client.length, rows };
  } finally {
    await server.close();
  }
}

export function printCaptureBench(r: CaptureBenchResult): void {
  console.log(
    `\ncapture review analysis through the server: a capture branch of ${r.policies} client policies (20 changed, 3 added, 2 deleted) against main and a 1,000-policy baseline`,
  );
  console.log(
    `${'run'.padEnd(30)}${'ms'.padStart(10)}${'DevOps requests'.padStart(18)}${'changes'.padStart(10)}${'deviations'.padStart(12)}`,
  );
  for (const row of r.rows)
    console.log(
      `${row.run.padEnd(30)}${row.ms.toFixed(0).padStart(10)}${String(row.requests).padStart(18)}${String(row.changes).padStart(10)}${String(row.deviations).padStart(12)}`,
    );
}
