// ADR 054: the one client list, from the seeded DevOps emulator (configuration folders, app-deploy
// YAMLs, Tenants pipelines, backup tags) and an app tables port the test controls.
import type { AppTables } from '@aegis/connectors/tables';
import type { KnownClientList } from '@aegis/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';
import { discardingTables, SAMPLE_USER, type TestApp } from '../helper';

let tableNames: () => Promise<string[]> = async () => [];
const tables = new Proxy(discardingTables(), {
  get: (target, name, receiver) =>
    name === 'listTables' ? () => tableNames() : Reflect.get(target, name, receiver),
}) as AppTables;

describe('GET /api/clients', () => {
  let env: AppWithDevOps;
  let t: TestApp;
  const get = (url: string) => t.injectAs(SAMPLE_USER, { method: 'GET', url });
  const list = async (url = '/api/clients') => {
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    return response.json() as KnownClientList;
  };

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ ports: { tables } });
    t = env.t;
  });
  afterAll(() => env?.close());
  afterEach(() => {
    env.devops.emulator.faults.clear();
    tableNames = async () => [];
  });

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/clients' });
    expect(response.statusCode).toBe(401);
  });

  it('refuses an unknown filter, naming the field', async () => {
    const response = await get('/api/clients?only=everyone');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: expect.stringMatching(/only/) });
  });

  it('lists every code seen with what Aegis knows of it, and which codes are clients', async () => {
    tableNames = async () => ['GENWorkstationApps', 'ABCWorkstationApps', 'WGBWorkstationApps'];
    const { clients, unavailable } = await list();
    expect(unavailable).toEqual([]);
    const byCode = new Map(clients.map((c) => [c.code, c]));
    expect([...byCode.keys()]).toEqual(['ABC', 'CON', 'FAB', 'NWT', 'WGB', 'WWI']);
    expect(byCode.get('ABC')).toMatchObject({
      name: 'Client ABC',
      isClient: true,
      onboarded: true,
      configuration: true,
      appDeployment: { yaml: true, table: true },
      lacks: [],
    });
    expect(byCode.get('ABC')?.backups).toBeGreaterThan(0);
    expect(byCode.get('ABC')?.pipelines).toContainEqual(
      expect.objectContaining({ folder: 'Tenants\\ABC' }),
    );
    // app deployment only: not a client, and the screens say what it lacks
    expect(byCode.get('WGB')).toMatchObject({
      isClient: false,
      onboarded: false,
      configuration: false,
      appDeployment: { yaml: true, table: true },
    });
    expect(byCode.get('WGB')?.lacks).toEqual(expect.arrayContaining(['tenant', 'configuration']));
    // captured but without a Tenants pipeline: its configuration came from its tenant
    expect(byCode.get('WWI')).toMatchObject({ isClient: true, onboarded: false });
    expect(byCode.get('WWI')?.lacks).not.toContain('tenant');

    const only = await list('/api/clients?only=clients');
    expect(only.clients.map((c) => c.code)).toEqual(['ABC', 'CON', 'FAB', 'NWT', 'WWI']);
  });

  it('says which source could not be read and claims no lack from it', async () => {
    tableNames = async () => {
      throw new Error('Table storage is unavailable');
    };
    const { clients, unavailable } = await list();
    expect(unavailable).toEqual([{ source: 'tables', message: 'Table storage is unavailable' }]);
    const abc = clients.find((c) => c.code === 'ABC');
    expect(abc?.appDeployment).toEqual({ yaml: true, table: null });
    expect(abc?.lacks).toEqual([]);
  });

  it('fails with the status that says what failed when the repository cannot be read', async () => {
    env.devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      message: 'TF400898: An internal error occurred.',
    });
    const response = await get('/api/clients');
    expect(response.statusCode).toBe(502);
  });
});
