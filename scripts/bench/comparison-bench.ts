/**
 * Comparison benchmark, end to end through the server: a generated client of 1,000 policy files (the engine
 * benchmark's generator) and its 1,000-file baseline are pushed into a seeded DevOps emulator; the comparison
 * route (NDJSON) is then injected cold (nothing cached) and warm (trees and result cached), for both baselines,
 * counting the HTTP requests the server made to the DevOps service.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { DevOpsClient, type FileChange, type RepositoryRef } from '@aegis/connectors/devops';
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
const CLIENT = 'BEN';
const REPO: RepositoryRef = {
  project: SAMPLE_PROJECTS.tenantManagement,
  repository: CONFIG_REPOSITORY_NAME,
};

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

async function pushTree(
  client: DevOpsClient,
  root: string,
  files: { path: string; content: unknown }[],
): Promise<void> {
  const chunk = 250;
  for (let i = 0; i < files.length; i += chunk) {
    const [main] = await client.listRefs(REPO, 'heads/main');
    const changes: FileChange[] = files.slice(i, i + chunk).map((f) => ({
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

export async function runComparisonBench(): Promise<ComparisonBenchResult> {
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
    const { baseline, client, bytes } = generateTrees(1000);
    const pusher = new DevOpsClient({
      organizationUrl: emulator.url,
      getToken: () => idp.issueToken(USER),
    });
    await pushTree(pusher, '/M365Config/Resources', baseline);
    await pushTree(pusher, `/Clients/${CLIENT}/M365Config/Resources`, client);
    const token = await idp.issueToken(USER);

    const rows: ComparisonBenchRow[] = [];
    const measure = async (run: string, baselineType: 'options' | 'standard') => {
      requests = 0;
      const start = performance.now();
      const response = await app.inject({
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
        requests,
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
    await app.close();
    await emulator.close();
    await idp.close();
    await rm(dataDir, { recursive: true, force: true });
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
