import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTablesClient, type AppTables } from '@aegis/connectors/tables';
import { freePort, seedAppTables, startAzurite, type RunningAzurite } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AppTablesService } from '../../src/services/app-tables-service';
import { build, SAMPLE_USER, type TestApp } from '../helper';

const newApp = {
  AppName: 'Everything',
  Architecture: 'x64',
  Channel: '',
  CheckSum: '',
  CheckSum64: '',
  Description: 'Locate files and folders by name instantly.',
  Install: 'msiexec /i Everything-1.4.1.1026.x64.msi /qn',
  Publisher: 'voidtools',
  SoftwareName: 'Everything 1.4.1.1026 (x64)',
  Stream: '',
  InstallFileType: 'msi',
  UninstallFileType: 'msi',
  URI: 'https://www.voidtools.com/Everything-1.4.1.1026.x64.msi',
  DownloadFileType: 'msi',
  Uninstall: '',
  UninstallerLocation: 'C:\\should\\be\\cleared',
  Version: '1.4.1.1026',
  ExitCode: '@(0, 3010, 1605, 1614, 1641)',
  AssignmentScopeAvailable: 'All Users',
  AssignmentScopeRequired: 'All Devices',
  ProjectURL: 'https://www.voidtools.com',
  TableVersion: '',
  IconPath: 'https://aegis-msp.example/icons/everything.png',
  InstallExperience: 'system',
  Status: 'Enabled',
};

describe('app deploy table routes against Azurite', () => {
  let dir: string;
  let azurite: RunningAzurite;
  let t: TestApp;
  const as = (options: Parameters<TestApp['injectAs']>[1]) => t.injectAs(SAMPLE_USER, options);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-app-tables-'));
    azurite = await startAzurite({ location: dir });
    await seedAppTables(azurite.connectionString);
    t = await build({ AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString });
  });

  afterAll(async () => {
    await t?.close();
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 401 without a token', async () => {
    for (const [method, url] of [
      ['GET', '/api/app-tables'],
      ['POST', '/api/app-tables'],
      ['GET', '/api/app-tables/GENWorkstationApps/rows'],
      ['DELETE', '/api/app-tables/ABCWorkstationApps/properties/Detection'],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        payload: method === 'POST' ? {} : undefined,
      });
      expect([method, url, response.statusCode]).toEqual([method, url, 401]);
    }
  });

  it('lists tables and reads the rows of the general table', async () => {
    const list = await as({ method: 'GET', url: '/api/app-tables' });
    expect(list.statusCode).toBe(200);
    expect(list.json().tables).toEqual(
      expect.arrayContaining(['GENWorkstationApps', 'ABCWorkstationApps']),
    );
    const rows = await as({ method: 'GET', url: '/api/app-tables/GENWorkstationApps/rows' });
    expect(rows.statusCode).toBe(200);
    expect(rows.json().rows.length).toBeGreaterThanOrEqual(30);
    expect(rows.json().rows[0]).toMatchObject({
      PartitionKey: 'appinfo-pk1',
      RowKey: '0001',
      partitionKey: 'appinfo-pk1',
      rowKey: '0001',
    });
  });

  it('answers 404 with the service message for a missing table', async () => {
    const response = await as({ method: 'GET', url: '/api/app-tables/XYZWorkstationApps/rows' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toMatch(/does not exist/);
  });

  it('creates a client table (201) and answers 409 with the service message when it exists', async () => {
    const created = await as({
      method: 'POST',
      url: '/api/app-tables',
      payload: { clientCode: 'QRS' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      status: 201,
      table: 'QRSWorkstationApps',
      message: 'Table QRSWorkstationApps created successfully.',
    });
    const again = await as({
      method: 'POST',
      url: '/api/app-tables',
      payload: { clientCode: 'QRS' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      statusCode: 409,
      message: 'The table specified already exists.',
    });
  });

  it('answers 400 naming the field for a bad client code or table name', async () => {
    const code = await as({
      method: 'POST',
      url: '/api/app-tables',
      payload: { clientCode: 'abcd' },
    });
    expect(code.statusCode).toBe(400);
    expect(code.json()).toMatchObject({ field: 'body.clientCode' });
    expect(code.json().message).toContain('Client code must be exactly 3 uppercase letters.');
    const table = await as({
      method: 'POST',
      url: '/api/app-tables/Bad-Name/properties',
      payload: { name: 'x', value: 'y' },
    });
    expect(table.statusCode).toBe(400);
    expect(table.json().field).toBe('params.table');
  });

  it('copies selected apps from the general table with fresh RowKeys', async () => {
    await as({ method: 'POST', url: '/api/app-tables', payload: { clientCode: 'CPY' } });
    const response = await as({
      method: 'POST',
      url: '/api/app-tables/CPYWorkstationApps/copy',
      payload: { rowKeys: ['0001', '0003'] },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Table updated with selected applications.',
      succeeded: 2,
      failed: [],
    });
    const rows = (
      await as({ method: 'GET', url: '/api/app-tables/CPYWorkstationApps/rows' })
    ).json().rows as { RowKey: string; AppName: string }[];
    expect(rows.map((r) => [r.RowKey, r.AppName])).toEqual([
      ['0001', '7-Zip'],
      ['0002', 'Mozilla Firefox'],
    ]);
  });

  it('adds a new app with the msi rule and the next RowKey', async () => {
    const response = await as({
      method: 'POST',
      url: '/api/app-tables/ABCWorkstationApps/apps',
      payload: { app: newApp },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.message).toBe('New app added.');
    expect(body.entity).toMatchObject({
      PartitionKey: 'appinfo-pk1',
      RowKey: '0007',
      Uninstall: 'autouninstall',
      UninstallerLocation: '',
    });

    // Uninstall stays editable under msi: a value the user wrote is kept, the location is not
    const custom = await as({
      method: 'POST',
      url: '/api/app-tables/ABCWorkstationApps/apps',
      payload: {
        app: { ...newApp, AppName: 'Everything Lite', Uninstall: 'autouninstall /quiet' },
      },
    });
    expect(custom.statusCode).toBe(200);
    expect(custom.json().entity).toMatchObject({
      RowKey: '0008',
      Uninstall: 'autouninstall /quiet',
      UninstallerLocation: '',
    });
  });

  it('two apps added at the same moment both survive, with different RowKeys', async () => {
    // Both requests read the table before either writes, as two technicians clicking together.
    const real = createTablesClient({ connectionString: azurite.connectionString });
    let waiting: (() => void)[] = [];
    const racing: AppTables = {
      ...real,
      listTables: (o) => real.listTables(o),
      listEntities: async (table, o) => {
        const rows = await real.listEntities(table, o);
        if (waiting.length < 1) await new Promise<void>((resolve) => waiting.push(resolve));
        else waiting.forEach((release) => release());
        return rows;
      },
      createEntities: (table, entities, o) => real.createEntities(table, entities, o),
    };
    const service = new AppTablesService(racing);
    const add = (name: string) =>
      service.addNewApp('ABCWorkstationApps', { ...newApp, AppName: name });
    const [first, second] = await Promise.all([add('Concurrent One'), add('Concurrent Two')]);
    waiting = [];
    expect(first.failed).toEqual([]);
    expect(second.failed).toEqual([]);
    expect(first.entity.RowKey).not.toBe(second.entity.RowKey);
    const names = (await real.listEntities('ABCWorkstationApps'))
      .filter((row) => [first.entity.RowKey, second.entity.RowKey].includes(row.RowKey))
      .map((row) => row.AppName)
      .sort();
    expect(names).toEqual(['Concurrent One', 'Concurrent Two']);
  });

  it('rejects a new app with an empty required field, naming it', async () => {
    const response = await as({
      method: 'POST',
      url: '/api/app-tables/ABCWorkstationApps/apps',
      payload: { app: { ...newApp, Publisher: ' ' } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      field: 'app.Publisher',
      message: 'app.Publisher: Please fill in all the required fields.',
    });
  });

  // issue 26: an app name reaches the client's pipeline YAML and the deploy script
  it('refuses an app name that could become code in the pipeline, naming the field', async () => {
    const injection = "Probe'; Start-Process calc; '";
    const added = await as({
      method: 'POST',
      url: '/api/app-tables/ABCWorkstationApps/apps',
      payload: { app: { ...newApp, AppName: injection } },
    });
    expect(added.statusCode).toBe(400);
    expect(added.json().field).toBe('body.app.AppName');

    const rows = (
      await as({ method: 'GET', url: '/api/app-tables/NWDWorkstationApps/rows' })
    ).json().rows as { PartitionKey: string; RowKey: string; AppName: string }[];
    const first = rows[0]!;
    const updated = await as({
      method: 'PATCH',
      url: `/api/app-tables/NWDWorkstationApps/entities/${first.PartitionKey}/${first.RowKey}`,
      payload: { properties: { AppName: injection } },
    });
    expect(updated.statusCode).toBe(400);
    expect(updated.json().field).toBe('body.properties.AppName');

    const property = await as({
      method: 'POST',
      url: '/api/app-tables/NWDWorkstationApps/properties',
      payload: { name: 'AppName', value: injection },
    });
    expect(property.statusCode).toBe(400);
    expect(property.json().field).toBe('body.value');

    const after = (
      await as({ method: 'GET', url: '/api/app-tables/NWDWorkstationApps/rows' })
    ).json().rows as { AppName: string }[];
    expect(after.map((row) => row.AppName)).toEqual(rows.map((row) => row.AppName));

    // an ordinary product name is still accepted
    const renamed = await as({
      method: 'PATCH',
      url: `/api/app-tables/NWDWorkstationApps/entities/${first.PartitionKey}/${first.RowKey}`,
      payload: { properties: { AppName: 'Notepad++ (x64) 8.6' } },
    });
    expect(renamed.statusCode).toBe(200);
  });

  it('adds a property to every row and deletes it from every row', async () => {
    const added = await as({
      method: 'POST',
      url: '/api/app-tables/CONWorkstationApps/properties',
      payload: { name: 'Detection', value: 'registry' },
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({
      message: 'Property Detection added to all entities.',
      failed: [],
    });
    let rows = (await as({ method: 'GET', url: '/api/app-tables/CONWorkstationApps/rows' })).json()
      .rows as Record<string, unknown>[];
    expect(rows.every((row) => row.Detection === 'registry')).toBe(true);

    const deleted = await as({
      method: 'DELETE',
      url: '/api/app-tables/CONWorkstationApps/properties/Detection',
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({
      message: 'Property Detection deleted from all entities.',
      succeeded: rows.length,
      failed: [],
    });
    rows = (await as({ method: 'GET', url: '/api/app-tables/CONWorkstationApps/rows' })).json()
      .rows;
    expect(rows.length).toBe(8);
    expect(rows.some((row) => 'Detection' in row)).toBe(false);
  });

  it('refuses to delete a protected key', async () => {
    for (const name of ['PartitionKey', 'RowKey', 'timestamp', 'etag']) {
      const response = await as({
        method: 'DELETE',
        url: `/api/app-tables/CONWorkstationApps/properties/${name}`,
      });
      expect([name, response.statusCode]).toEqual([name, 400]);
      expect(response.json().field).toBe('params.name');
    }
  });

  it('updates an app and deletes apps', async () => {
    const rows = (
      await as({ method: 'GET', url: '/api/app-tables/NWDWorkstationApps/rows' })
    ).json().rows as { PartitionKey: string; RowKey: string; etag: string }[];
    const first = rows[0]!;
    const updated = await as({
      method: 'PATCH',
      url: `/api/app-tables/NWDWorkstationApps/entities/${first.PartitionKey}/${first.RowKey}`,
      payload: { properties: { Version: '25.01' }, etag: first.etag },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().message).toBe('App updated.');

    const stale = await as({
      method: 'PATCH',
      url: `/api/app-tables/NWDWorkstationApps/entities/${first.PartitionKey}/${first.RowKey}`,
      payload: { properties: { Version: '26.01' }, etag: first.etag },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/condition/i);

    const deleted = await as({
      method: 'POST',
      url: '/api/app-tables/NWDWorkstationApps/delete',
      payload: {
        keys: rows.slice(0, 2).map((r) => ({ partitionKey: r.PartitionKey, rowKey: r.RowKey })),
      },
    });
    expect(deleted.json()).toMatchObject({
      message: 'Selected applications deleted.',
      succeeded: 2,
    });
    const after = (
      await as({ method: 'GET', url: '/api/app-tables/NWDWorkstationApps/rows' })
    ).json().rows;
    expect(after).toHaveLength(rows.length - 2);
  });
});

describe('app deploy table routes when Table storage fails', () => {
  let t: TestApp;
  beforeAll(async () => {
    const port = await freePort();
    t = await build({
      AEGIS_TABLES_CONNECTION_STRING: `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=http://127.0.0.1:${port}/devstoreaccount1;`,
    });
  });
  afterAll(async () => t?.close());

  it('answers 502 with the failure and stays usable', async () => {
    const response = await t.injectAs(SAMPLE_USER, { method: 'GET', url: '/api/app-tables' });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ error: 'ServiceError', statusCode: 502 });
    expect(response.json().message).toMatch(/ECONNREFUSED|connect/i);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });
});
