import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTablesClient } from '@aegis/connectors/tables';
import type { AuditEvent } from '@aegis/domain';
import { startAzurite, type RunningAzurite } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';
import { SAMPLE_USER } from '../helper';

/**
 * A deploy or off-board names a tenant pipeline, not a client: the client the service resolved
 * is filed with the event, so filtering the trail by client finds who removed its policies
 * (issue 26 §2).
 */
describe('the client of a deploy or off-board in the audit trail', () => {
  let dir: string;
  let azurite: RunningAzurite;
  let env: AppWithDevOps;
  let nwtPipeline: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-audit-client-'));
    azurite = await startAzurite({ location: dir });
    env = await buildWithSeededDevOps({
      pipelineDurationInMs: 60_000,
      ports: { auditTables: createTablesClient({ connectionString: azurite.connectionString }) },
    });
    const list = await env.t.injectAs(SAMPLE_USER, {
      method: 'GET',
      url: '/api/onboarding/tenant-pipelines',
    });
    const { pipelines } = list.json<{ pipelines: { id: number; folder: string }[] }>();
    nwtPipeline = pipelines.find((p) => p.folder === 'Tenants\\NWT')!.id;
  });
  afterAll(async () => {
    await env?.close();
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('files deploy and off-board runs under the client their pipeline names', async () => {
    for (const [url, component] of [
      ['/api/baseline/deploy/runs', 'Transport Rules'],
      ['/api/baseline/offboard/runs', 'Remove Transport Rules'],
    ] as const) {
      const response = await env.t.injectAs(SAMPLE_USER, {
        method: 'POST',
        url,
        payload: { pipelineId: nwtPipeline, components: [component] },
      });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 201 });
    }
    await vi.waitFor(
      async () => {
        const page = await env.t.injectAs(SAMPLE_USER, {
          method: 'GET',
          url: '/api/audit?client=NWT',
        });
        const actions = page
          .json<{ events: AuditEvent[] }>()
          .events.filter((e) => e.result.outcome === 'succeeded')
          .map((e) => e.action)
          .sort();
        expect(actions).toEqual([
          'POST /api/baseline/deploy/runs',
          'POST /api/baseline/offboard/runs',
        ]);
      },
      { timeout: 15_000, interval: 100 },
    );
  });
});
