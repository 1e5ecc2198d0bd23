import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { isServiceError } from '@aegis/connectors';
import { TablesClient } from '@aegis/connectors/tables';
import type { AppTableEntity } from '@aegis/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startAzurite, type RunningAzurite } from './azurite';
import { generalAppRows, seedAppTables } from './seed/app-tables';

describe('Azurite and the tables connector', () => {
  let dir: string;
  let azurite: RunningAzurite;
  let client: TablesClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-azurite-'));
    azurite = await startAzurite({ location: dir });
    client = new TablesClient({ connectionString: azurite.connectionString });
  });

  afterAll(async () => {
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('seeds the general table with at least 30 real apps and the sample clients', async () => {
    const seeded = await seedAppTables(azurite.connectionString);
    expect(seeded.tables).toContain('GENWorkstationApps');
    const tables = await client.listTables();
    expect(tables).toEqual(
      expect.arrayContaining(['GENWorkstationApps', 'ABCWorkstationApps', 'CONWorkstationApps']),
    );
    const rows = await client.listEntities('GENWorkstationApps');
    expect(rows.length).toBeGreaterThanOrEqual(30);
    const names = rows.map((row) => row.AppName);
    for (const app of ['7-Zip', 'Google Chrome', 'Mozilla Firefox', 'Visual Studio Code']) {
      expect(names).toContain(app);
    }
    expect(rows[0]).toMatchObject({ PartitionKey: 'appinfo-pk1', RowKey: '0001' });
    expect(rows[0]?.etag).toBeTruthy();
    // seeding again leaves existing tables alone
    expect((await seedAppTables(azurite.connectionString)).tables).toEqual([]);
  });

  it('reports 409 with the service message when the table exists', async () => {
    expect(await client.createTable('ZZZWorkstationApps')).toEqual({ outcome: 'created' });
    const again = await client.createTable('ZZZWorkstationApps');
    expect(again).toMatchObject({ outcome: 'conflict', code: 'TableAlreadyExists' });
    expect(again.outcome === 'conflict' && again.message).toMatch(/already exists/i);
  });

  it('adds and deletes a property on every row, in batches over 100 rows', async () => {
    await client.createTable('BigTable');
    const rows: AppTableEntity[] = Array.from({ length: 130 }, (_, i) => ({
      ...generalAppRows()[i % 30]!,
      RowKey: String(i + 1).padStart(4, '0'),
    }));
    expect(await client.upsertEntities('BigTable', rows)).toEqual({ succeeded: 130, failed: [] });
    expect(await client.addProperty('BigTable', 'Detection', 'registry')).toEqual({
      succeeded: 130,
      failed: [],
    });
    expect((await client.listEntities('BigTable')).every((r) => r.Detection === 'registry')).toBe(
      true,
    );
    expect(await client.deleteProperty('BigTable', 'Detection')).toEqual({
      succeeded: 130,
      failed: [],
    });
    const after = await client.listEntities('BigTable');
    expect(after).toHaveLength(130);
    expect(after.some((r) => 'Detection' in r)).toBe(false);
    expect(after[5]?.AppName).toBe(rows[5]?.AppName);
  });

  it('updates and deletes entities', async () => {
    const [first] = await client.listEntities('ABCWorkstationApps');
    await client.updateEntity('ABCWorkstationApps', { ...first!, Version: '99.0' });
    const updated = await client.listEntities('ABCWorkstationApps');
    expect(updated[0]?.Version).toBe('99.0');
    expect(
      await client.deleteEntities(
        'ABCWorkstationApps',
        updated.slice(0, 2).map((r) => ({ partitionKey: r.PartitionKey, rowKey: r.RowKey })),
      ),
    ).toEqual({ succeeded: 2, failed: [] });
    expect(await client.listEntities('ABCWorkstationApps')).toHaveLength(updated.length - 2);
    await client.deleteEntity('ABCWorkstationApps', {
      partitionKey: 'appinfo-pk1',
      rowKey: '9999',
    });
  });

  it('fails with a ServiceError keeping the service message on a missing table', async () => {
    const error: unknown = await client
      .listEntities('NOPEWorkstationApps')
      .catch((e: unknown) => e);
    expect(isServiceError(error)).toBe(true);
    expect(error).toMatchObject({ service: 'tables', statusCode: 404 });
    expect((error as Error).message).toMatch(/does not exist/i);
  });

  it('keeps data on disk across a restart', async () => {
    await azurite.stop();
    azurite = await startAzurite({ location: dir });
    client = new TablesClient({ connectionString: azurite.connectionString });
    expect(await client.listTables()).toContain('ZZZWorkstationApps');
  });
});
