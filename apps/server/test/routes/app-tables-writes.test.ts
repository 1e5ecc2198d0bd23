// Issue 9 §3/§4: no write to an app table is lost while being answered as a success, and every
// input is checked before it reaches Table storage.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTablesClient, type AppTables } from '@aegis/connectors/tables';
import { seedAppTables, startAzurite, type RunningAzurite } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AppTablesService } from '../../src/services/app-tables-service';
import { build, discardingTables, SAMPLE_USER, type TestApp } from '../helper';

const app = (name: string) => ({
  AppName: name,
  Architecture: 'x64',
  Channel: '',
  CheckSum: '',
  CheckSum64: '',
  Description: `${name} for the concurrency test`,
  Install: 'setup.exe /S',
  Publisher: 'Aegis',
  SoftwareName: name,
  Stream: '',
  InstallFileType: 'exe',
  UninstallFileType: 'exe',
  URI: 'https://example.test/setup.exe',
  DownloadFileType: 'exe',
  Uninstall: '/S',
  UninstallerLocation: 'C:\\Program Files\\App\\uninstall.exe',
  Version: '1.0',
  ExitCode: '@(0, 3010, 1605, 1614, 1641)',
  AssignmentScopeAvailable: 'All Users',
  AssignmentScopeRequired: 'None',
  ProjectURL: 'https://example.test',
  TableVersion: '',
  IconPath: 'https://example.test/icon.png',
  InstallExperience: 'system',
  Status: 'Enabled',
});

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('app table writes under concurrency (Azurite)', () => {
  let dir: string;
  let azurite: RunningAzurite;
  let t: TestApp;
  let real: AppTables;
  const as = (options: Parameters<TestApp['injectAs']>[1]) => t.injectAs(SAMPLE_USER, options);
  const rowsOf = async (table: string) =>
    (await as({ method: 'GET', url: `/api/app-tables/${table}/rows` })).json().rows as Record<
      string,
      unknown
    >[];
  const createTable = async (clientCode: string) => {
    const created = await as({ method: 'POST', url: '/api/app-tables', payload: { clientCode } });
    expect(created.statusCode).toBe(201);
    return `${clientCode}WorkstationApps`;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-app-table-writes-'));
    azurite = await startAzurite({ location: dir });
    await seedAppTables(azurite.connectionString);
    real = createTablesClient({ connectionString: azurite.connectionString });
    t = await build({ AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString });
  });

  afterAll(async () => {
    await t?.close();
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('50 concurrent adds store 50 rows with 50 distinct RowKeys, each answered as stored', async () => {
    const table = await createTable('CCA');
    const responses = await Promise.all(
      range(50).map((i) =>
        as({
          method: 'POST',
          url: `/api/app-tables/${table}/apps`,
          payload: { app: app(`Concurrent ${i}`) },
        }),
      ),
    );
    const rows = await rowsOf(table);
    expect(rows).toHaveLength(50);
    expect(new Set(rows.map((row) => row.RowKey)).size).toBe(50);
    for (const [i, response] of responses.entries()) {
      expect(response.statusCode).toBe(200);
      const { entity } = response.json() as { entity: { RowKey: string } };
      const stored = rows.find((row) => row.RowKey === entity.RowKey);
      expect(stored?.AppName).toBe(`Concurrent ${i + 1}`);
    }
  });

  it('adds racing from several servers recompute the RowKey and all land', async () => {
    const table = await createTable('CCB');
    // five servers, each with its own in-process queue: keys collide in Table storage itself
    const servers = range(5).map(() => new AppTablesService(real));
    const results = await Promise.all(
      range(40).map((i) => servers[i % 5]!.addNewApp(table, app(`Server app ${i}`))),
    );
    const rows = await real.listEntities(table);
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((row) => row.RowKey)).size).toBe(40);
    expect(results.map((r) => r.entity.RowKey).sort()).toEqual(rows.map((r) => r.RowKey).sort());
  });

  it('50 concurrent property additions are all applied to every row', async () => {
    const table = 'CONWorkstationApps';
    const responses = await Promise.all(
      range(50).map((i) =>
        as({
          method: 'POST',
          url: `/api/app-tables/${table}/properties`,
          payload: { name: `Extra${i}`, value: `value ${i}` },
        }),
      ),
    );
    for (const response of responses) expect(response.statusCode).toBe(200);
    const rows = await rowsOf(table);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      for (const i of range(50)) expect(row[`Extra${i}`]).toBe(`value ${i}`);
    }
  });

  it('property additions and deletions racing from several servers re-read and retry rows', async () => {
    const table = 'NWDWorkstationApps';
    const servers = range(4).map(() => new AppTablesService(real));
    const outcomes = await Promise.all(
      range(20).map((i) => servers[i % 4]!.addProperty(table, `Race${i}`, `v${i}`)),
    );
    expect(outcomes.every((o) => o.failed.length === 0)).toBe(true);
    let rows = await real.listEntities(table);
    for (const row of rows) for (const i of range(20)) expect(row[`Race${i}`]).toBe(`v${i}`);

    await Promise.all(range(20).map((i) => servers[i % 4]!.deleteProperty(table, `Race${i}`)));
    rows = await real.listEntities(table);
    for (const row of rows) {
      expect(Object.keys(row).filter((key) => key.startsWith('Race'))).toEqual([]);
    }
  });

  it('deleting apps that a colleague already deleted succeeds for the rest', async () => {
    const table = await createTable('CCD');
    for (const i of range(3)) {
      await as({
        method: 'POST',
        url: `/api/app-tables/${table}/apps`,
        payload: { app: app(`D${i}`) },
      });
    }
    await real.deleteEntity(table, { partitionKey: 'appinfo-pk1', rowKey: '0002' });
    const response = await as({
      method: 'POST',
      url: `/api/app-tables/${table}/delete`,
      payload: {
        keys: ['0001', '0002', '0003'].map((rowKey) => ({ partitionKey: 'appinfo-pk1', rowKey })),
      },
    });
    expect(response.statusCode).toBe(200);
    expect(await rowsOf(table)).toEqual([]);
  });

  it('deleting rows of which none exists answers 404 naming them and deletes nothing', async () => {
    const table = await createTable('CCE');
    await as({ method: 'POST', url: `/api/app-tables/${table}/apps`, payload: { app: app('E0') } });
    const response = await as({
      method: 'POST',
      url: `/api/app-tables/${table}/delete`,
      payload: {
        keys: ['0098', '0099'].map((rowKey) => ({ partitionKey: 'appinfo-pk1', rowKey })),
      },
    });
    expect(response.statusCode).toBe(404);
    expect((response.json() as { message: string }).message).toBe(
      `${table} has no rows appinfo-pk1/0098, appinfo-pk1/0099; nothing was deleted.`,
    );
    expect(await rowsOf(table)).toHaveLength(1);
  });

  it('a stale etag on update answers 409 and changes nothing', async () => {
    const [first] = await rowsOf('ABCWorkstationApps');
    const url = `/api/app-tables/ABCWorkstationApps/entities/${String(first!.PartitionKey)}/${String(first!.RowKey)}`;
    const ok = await as({
      method: 'PATCH',
      url,
      payload: { properties: { Version: '2.0' }, etag: first!.etag },
    });
    expect(ok.statusCode).toBe(200);
    const stale = await as({
      method: 'PATCH',
      url,
      payload: { properties: { Version: '3.0' }, etag: first!.etag },
    });
    expect(stale.statusCode).toBe(409);
    const after = (await rowsOf('ABCWorkstationApps')).find((r) => r.RowKey === first!.RowKey);
    expect(after?.Version).toBe('2.0');
  });
});

describe('an operation on many rows where some rows fail', () => {
  let t: TestApp;
  const failing: AppTables = {
    listTables: async () => ['ABCWorkstationApps'],
    listEntities: async () => [
      { PartitionKey: 'appinfo-pk1', RowKey: '0001', AppName: 'A' },
      { PartitionKey: 'appinfo-pk1', RowKey: '0002', AppName: 'B' },
    ],
    queryEntities: async () => ({ entities: [] }),
    createTable: async () => ({ outcome: 'created' }),
    getEntity: async () => undefined,
    createEntity: async () => ({ outcome: 'created', etag: 'W/"1"' }),
    upsertEntity: async () => undefined,
    updateEntity: async () => ({ etag: 'W/"1"' }),
    deleteEntity: async () => undefined,
    upsertEntities: async () => ({ succeeded: 0, failed: [] }),
    createEntities: async () => ({ succeeded: 0, failed: [] }),
    deleteEntities: async () => ({
      succeeded: 1,
      failed: [
        {
          partitionKey: 'appinfo-pk1',
          rowKey: '0002',
          message: 'Server failed to authenticate the request.',
          statusCode: 503,
          code: 'ServerBusy',
        },
      ],
    }),
    addProperty: async () => ({
      succeeded: 0,
      failed: [
        {
          partitionKey: 'appinfo-pk1',
          rowKey: '0001',
          message: 'The update condition specified in the request was not satisfied.',
          statusCode: 412,
          code: 'UpdateConditionNotSatisfied',
        },
      ],
    }),
    deleteProperty: async () => ({ succeeded: 0, failed: [] }),
  };

  beforeAll(async () => {
    t = await build({ AEGIS_TABLES_CONNECTION_STRING: 'UseDevelopmentStorage=true' }, undefined, {
      tables: failing,
      auditTables: discardingTables(),
    });
  });
  afterAll(async () => t?.close());

  it('answers a non-2xx naming the rows that failed, with the service message', async () => {
    const deleted = await t.injectAs(SAMPLE_USER, {
      method: 'POST',
      url: '/api/app-tables/ABCWorkstationApps/delete',
      payload: {
        keys: ['0001', '0002'].map((rowKey) => ({ partitionKey: 'appinfo-pk1', rowKey })),
      },
    });
    expect(deleted.statusCode).toBeGreaterThanOrEqual(400);
    expect(deleted.json()).toMatchObject({
      message: '1 of 2 rows failed (0002): Server failed to authenticate the request.',
      succeeded: 1,
      failed: [{ rowKey: '0002', statusCode: 503 }],
    });

    const added = await t.injectAs(SAMPLE_USER, {
      method: 'POST',
      url: '/api/app-tables/ABCWorkstationApps/properties',
      payload: { name: 'Detection', value: 'registry' },
    });
    expect(added.statusCode).toBe(409);
    expect(added.json()).toMatchObject({
      error: 'ConflictError',
      succeeded: 0,
      failed: [{ rowKey: '0001', statusCode: 412 }],
    });
  });
});

describe('app table input validation', () => {
  let t: TestApp;
  let calls: string[];
  const recording = (): AppTables => {
    const record =
      (name: string) =>
      async (...args: unknown[]) => {
        calls.push(`${name} ${JSON.stringify(args[0])}`);
        return name === 'listEntities' || name === 'listTables'
          ? []
          : name === 'createTable'
            ? { outcome: 'created' }
            : { succeeded: 0, failed: [] };
      };
    return new Proxy({} as AppTables, { get: (_target, name) => record(String(name)) });
  };

  beforeAll(async () => {
    calls = [];
    t = await build({ AEGIS_TABLES_CONNECTION_STRING: 'UseDevelopmentStorage=true' }, undefined, {
      tables: recording(),
      auditTables: discardingTables(),
    });
  });
  afterAll(async () => t?.close());

  /** What the server answered and which Table storage calls it made on the way. */
  const refusal = async (options: Parameters<TestApp['injectAs']>[1]) => {
    calls = [];
    const response = await t.injectAs(SAMPLE_USER, options);
    return { status: response.statusCode, field: response.json().field as string, calls };
  };
  const refused = (field: string) => ({ status: 400, field, calls: [] });

  it('accepts only GENWorkstationApps and {CODE}WorkstationApps as tables and copy sources', async () => {
    expect(await refusal({ method: 'GET', url: '/api/app-tables/Tables/rows' })).toEqual(
      refused('params.table'),
    );
    expect(await refusal({ method: 'GET', url: '/api/app-tables/AuditLog/rows' })).toEqual(
      refused('params.table'),
    );
    expect(
      await refusal({
        method: 'POST',
        url: '/api/app-tables/ABCWorkstationApps/copy',
        payload: { source: 'SecretsTable', rowKeys: ['0001'] },
      }),
    ).toEqual(refused('body.source'));
  });

  it('lists only app tables', async () => {
    const listing = await build(
      { AEGIS_TABLES_CONNECTION_STRING: 'UseDevelopmentStorage=true' },
      undefined,
      {
        tables: {
          ...recording(),
          listTables: async () => ['ABCWorkstationApps', 'AuditLog', 'GENWorkstationApps'],
        },
        auditTables: discardingTables(),
      },
    );
    const response = await listing.injectAs(SAMPLE_USER, { method: 'GET', url: '/api/app-tables' });
    await listing.close();
    expect(response.json().tables).toEqual(['ABCWorkstationApps', 'GENWorkstationApps']);
  });

  it('refuses PATCH property names that "add property" refuses, and an empty PATCH', async () => {
    const url = '/api/app-tables/ABCWorkstationApps/entities/appinfo-pk1/0001';
    expect(
      await refusal({ method: 'PATCH', url, payload: { properties: { 'has space': 'x' } } }),
    ).toEqual(refused('body.properties.has space'));
    expect(
      await refusal({ method: 'PATCH', url, payload: { properties: { '1abc': 'x' } } }),
    ).toEqual(refused('body.properties.1abc'));
    expect(
      await refusal({ method: 'PATCH', url, payload: { properties: { RowKey: '9999' } } }),
    ).toEqual(refused('body.properties.RowKey'));
    expect(await refusal({ method: 'PATCH', url, payload: { properties: {} } })).toEqual(
      refused('body.properties'),
    );
  });

  it('refuses values above Table storage limits, naming the property', async () => {
    const url = '/api/app-tables/ABCWorkstationApps/entities/appinfo-pk1/0001';
    const big = 'x'.repeat(32 * 1024 + 1);
    expect(
      await refusal({ method: 'PATCH', url, payload: { properties: { Description: big } } }),
    ).toEqual(refused('body.properties.Description'));
    const nearLimit = 'y'.repeat(32 * 1024);
    const many = Object.fromEntries(range(17).map((i) => [`Part${i}`, nearLimit]));
    expect(await refusal({ method: 'PATCH', url, payload: { properties: many } })).toEqual(
      refused('body.properties'),
    );
    expect(
      await refusal({
        method: 'POST',
        url: '/api/app-tables/ABCWorkstationApps/apps',
        payload: { app: { ...app('Big'), Install: big } },
      }),
    ).toEqual(refused('body.app.Install'));
    expect(
      await refusal({
        method: 'POST',
        url: '/api/app-tables/ABCWorkstationApps/properties',
        payload: { name: 'Notes', value: big },
      }),
    ).toEqual(refused('body.value'));
  });

  it("refuses PartitionKey and RowKey values with Table storage's forbidden characters", async () => {
    for (const [rowKey, field] of [
      ['00%2301', 'params.rowKey'],
      ['00%3F1', 'params.rowKey'],
      ['00%5C1', 'params.rowKey'],
      ['00%01x', 'params.rowKey'],
    ] as const) {
      expect(
        await refusal({
          method: 'PATCH',
          url: `/api/app-tables/ABCWorkstationApps/entities/appinfo-pk1/${rowKey}`,
          payload: { properties: { Version: '1' } },
        }),
      ).toEqual(refused(field));
    }
    expect(
      await refusal({
        method: 'POST',
        url: '/api/app-tables/ABCWorkstationApps/delete',
        payload: { keys: [{ partitionKey: 'a/b', rowKey: '0001' }] },
      }),
    ).toEqual(refused('body.keys.0.partitionKey'));
    expect(
      await refusal({
        method: 'POST',
        url: '/api/app-tables/ABCWorkstationApps/delete',
        payload: { keys: [{ partitionKey: 'appinfo-pk1', rowKey: 'a\tb' }] },
      }),
    ).toEqual(refused('body.keys.0.rowKey'));
  });
});
