/**
 * Baseline Compliance benchmark through the server (issue 13): a 1,000-policy baseline and a client whose copy has
 * 200 policies renamed (so 200+ baseline policies are missing and 200 client-only policies are the candidates),
 * pushed into a seeded DevOps emulator. The report route (compliance, matches, accepted deviations and the ranked
 * suggestions) is injected cold and warm, beside the engine's plain diff of the same trees in process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { DevOpsClient, type FileChange, type RepositoryRef } from '@aegis/connectors/devops';
import type { ComplianceReport } from '@aegis/contracts';
import { evaluateCompliance, type ConfigFile } from '@aegis/domain';
import {
  buildDevOpsServer,
  CONFIG_REPOSITORY_NAME,
  jwksTokenVerifier,
  listenDevOpsEmulator,
  SAMPLE_PROJECTS,
  seedDevOps,
  startIdentityProvider,
} from '@aegis/emulators';
import { buildApp, loadConfig } from '@aegis/server';

import { generateTrees } from './engine-bench';

const USER = 'alex.morgan@aegis-msp.example';
const AUDIENCE = 'api://aegis-bench';
const CLIENT = 'CMP';
const REPO: RepositoryRef = {
  project: SAMPLE_PROJECTS.tenantManagement,
  repository: CONFIG_REPOSITORY_NAME,
};

export interface ComplianceBenchResult {
  policies: number;
  unmatched: number;
  candidates: number;
  suggestions: number;
  plainDiffMs: number;
  rows: { run: string; ms: number; requests: number; responseMegabytes: number }[];
}

async function pushTree(client: DevOpsClient, root: string, files: ConfigFile[]): Promise<void> {
  for (let i = 0; i < files.length; i += 250) {
    const [main] = await client.listRefs(REPO, 'heads/main');
    const changes: FileChange[] = files.slice(i, i + 250).map((f) => ({
      changeType: 'add',
      path: `${root}/${f.path}`,
      content: JSON.stringify(f.content, null, 2),
    }));
    await client.push(REPO, {
      branch: 'main',
      oldObjectId: main?.commitId ?? '',
      commits: [{ comment: `bench: ${root} ${i}`, changes }],
    });
  }
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
  const dataDir = await mkdtemp(path.join(tmpdir(), 'aegis-bench-'));
  const idp = await startIdentityProvider({ port: 0, audience: AUDIENCE, allowedOrigins: [] });
  await seedDevOps(dataDir);
  const emulator = await listenDevOpsEmulator(
    buildDevOpsServer({ dataDir, verifyToken: jwksTokenVerifier(idp) }),
    { port: 0 },
  );
  let requests = 0;
  const countingFetch: typeof fetch = (input, init) => {
    requests += 1;
    return fetch(input, init);
  };
  const app = await buildApp({
    config: loadConfig({
      AEGIS_LOG_LEVEL: 'silent',
      AEGIS_AUTH_MODE: 'local',
      AEGIS_AUTH_JWKS_URL: idp.jwksUrl,
      AEGIS_AUTH_ISSUER: idp.issuer,
      AEGIS_AUTH_AUDIENCE: AUDIENCE,
      AEGIS_LOCAL_IDP_URL: idp.url,
      AEGIS_DEVOPS_ORG_URL: emulator.url,
      AEGIS_DEVOPS_PROJECT: SAMPLE_PROJECTS.tenantManagement,
    }),
    createDevOps: (getToken) =>
      new DevOpsClient({ organizationUrl: emulator.url, getToken, fetch: countingFetch }),
  });
  try {
    await app.ready();
    const { baseline, client: original } = generateTrees(1000);
    const client = renameSome(original, 200);
    const pusher = new DevOpsClient({
      organizationUrl: emulator.url,
      getToken: () => idp.issueToken(USER),
    });
    await pushTree(pusher, '/M365Config/Resources', baseline);
    await pushTree(pusher, `/Clients/${CLIENT}/M365Config/Resources`, client);
    const token = await idp.issueToken(USER);

    const plainStart = performance.now();
    const plain = evaluateCompliance(baseline, client);
    const plainDiffMs = performance.now() - plainStart;

    const rows: ComplianceBenchResult['rows'] = [];
    let last: ComplianceReport | undefined;
    const measure = async (run: string) => {
      requests = 0;
      const start = performance.now();
      const response = await app.inject({
        method: 'GET',
        url: `/api/compliance/${CLIENT}`,
        headers: { authorization: `Bearer ${token}` },
      });
      const ms = performance.now() - start;
      if (response.statusCode !== 200)
        throw new Error(`${run}: ${response.statusCode} ${response.body}`);
      last = response.json();
      rows.push({ run, ms, requests, responseMegabytes: response.body.length / 1024 / 1024 });
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
    await app.close();
    await emulator.close();
    await idp.close();
    await rm(dataDir, { recursive: true, force: true });
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
