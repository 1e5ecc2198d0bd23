import type { ClientDriftDto, FleetDriftDto } from '@aegis/contracts';
import { TenantWorld } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';

const READER = 'night.shift@aegis-msp.example';
const OPERATOR = 'sam.taylor@aegis-msp.example';
const ADMINISTRATOR = 'alex.morgan@aegis-msp.example';

/**
 * The drift routes (ADR 063) on the stack `npm start` runs: a check started through the API runs
 * the drift check task against the tenant emulator, stores its result in Azurite, and the Fleet's
 * and the client's routes read it back; settings are an Administrator's and checked field by field.
 */
describe('drift routes', () => {
  let env: AppWithDevOps;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({
      pipelineDurationInMs: 0,
      world: new TenantWorld({ propagationDelayInMs: 0 }),
      tables: true,
    });
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  it('answers no clients before any check, then the drift a check started here recorded', async () => {
    const before = await env.t.injectAs(READER, { method: 'GET', url: '/api/drift' });
    expect(before.statusCode).toBe(200);
    expect(before.json<FleetDriftDto>().clients).toEqual([]);
    const never = await env.t.injectAs(READER, { method: 'GET', url: '/api/drift/ABC' });
    expect(never.json<ClientDriftDto>()).toMatchObject({ check: null, defaultSettings: true });

    const started = await env.t.injectAs(OPERATOR, {
      method: 'POST',
      url: '/api/drift/ABC/checks',
    });
    expect(started.statusCode).toBe(202);
    await env.devops.emulator.runner.waitForIdle();

    const fleet = (
      await env.t.injectAs(READER, { method: 'GET', url: '/api/drift' })
    ).json<FleetDriftDto>();
    expect(fleet.clients).toEqual([
      expect.objectContaining({
        client: 'ABC',
        status: 'drifted',
        kind: 'full',
        driftedCount: 4,
        notRead: [],
      }),
    ]);
    const abc = (
      await env.t.injectAs(READER, { method: 'GET', url: '/api/drift/ABC' })
    ).json<ClientDriftDto>();
    expect(abc.check?.objects.map((o) => o.change).sort()).toEqual([
      'added',
      'changed',
      'changed',
      'removed',
    ]);
    // each object says who changed it, or why that is unknown
    for (const object of abc.check?.objects ?? []) {
      expect(object.attribution?.status).toMatch(/^(attributed|unknown)$/);
    }
    expect(abc.check?.driftSince).toBe(abc.check?.checkedAt);
  });

  it('a Reader may not start a check; a bad client code is a 400 naming the field', async () => {
    const reader = await env.t.injectAs(READER, { method: 'POST', url: '/api/drift/ABC/checks' });
    expect(reader.statusCode).toBe(403);
    const bad = await env.t.injectAs(READER, { method: 'GET', url: '/api/drift/abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ field: string }>().field).toBe('params.client');
  });

  it('an Administrator sets a client’s intervals; out of range is a 400 naming the field', async () => {
    const settings = { enabled: true, quickIntervalInMinutes: 30, fullIntervalInMinutes: 720 };
    const operator = await env.t.injectAs(OPERATOR, {
      method: 'PUT',
      url: '/api/drift/CON/settings',
      payload: settings,
    });
    expect(operator.statusCode).toBe(403);
    const saved = await env.t.injectAs(ADMINISTRATOR, {
      method: 'PUT',
      url: '/api/drift/CON/settings',
      payload: settings,
    });
    expect(saved.statusCode).toBe(200);
    const con = (
      await env.t.injectAs(READER, { method: 'GET', url: '/api/drift/CON' })
    ).json<ClientDriftDto>();
    expect(con).toMatchObject({ settings, defaultSettings: false });

    const tooOften = await env.t.injectAs(ADMINISTRATOR, {
      method: 'PUT',
      url: '/api/drift/CON/settings',
      payload: { ...settings, quickIntervalInMinutes: 1 },
    });
    expect(tooOften.statusCode).toBe(400);
    expect(tooOften.json<{ field: string }>().field).toBe('quickIntervalInMinutes');
    const unknown = await env.t.injectAs(ADMINISTRATOR, {
      method: 'PUT',
      url: '/api/drift/CON/settings',
      payload: { ...settings, every: 5 },
    });
    expect(unknown.statusCode).toBe(400);
    // nothing of the refused writes was kept
    const after = (
      await env.t.injectAs(READER, { method: 'GET', url: '/api/drift/CON' })
    ).json<ClientDriftDto>();
    expect(after.settings).toEqual(settings);
  });
});
