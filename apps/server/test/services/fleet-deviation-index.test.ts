import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  createTablesClient,
  FleetDeviationIndex,
  type ClientDeviations,
} from '@aegis/connectors/tables';
import { worstFleetDeviations, type FleetDeviation, type Severity } from '@aegis/domain';
import {
  generateFleetDeviations,
  startAzurite,
  THOUSAND_CLIENTS,
  type RunningAzurite,
} from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const setting = (n: number, severity: Severity = 'high'): FleetDeviation => ({
  path: `Entra/ConditionalAccess/policy-${n}.json`,
  policyName: `Policy ${n}`,
  category: 'Entra',
  property: `conditions.setting${n}`,
  severity,
});

/** Client i deviates on settings i % 7 … i % 7 + 3 (critical when even): overlapping rankings. */
const clientDeviations = (i: number, tree = `tree-${i}`): ClientDeviations => ({
  client: `C${String(i).padStart(2, '0')}`,
  clientTreeId: tree,
  computedAt: 1_000 + i,
  deviations: [0, 1, 2, 3].map((k) => setting((i % 7) + k, (i + k) % 2 ? 'high' : 'critical')),
});

const ruleOver = (clients: readonly ClientDeviations[]) =>
  worstFleetDeviations(new Map(clients.map((c) => [c.client, c.deviations])));

const atTip = (baselineTreeId: string, clients: readonly ClientDeviations[]) => ({
  baselineTreeId,
  clients: new Map(clients.map((c) => [c.client, c.clientTreeId])),
});

// Each "instance" has its own Table storage client, as two servers would (ADR 060, 085).
describe("the fleet's deviation index (ADR 085)", () => {
  let dir: string;
  let azurite: RunningAzurite;
  let table = 0;
  /** a new table per test, so tests do not see each other's index */
  const instances = (count: number) => {
    const name = `AegisFleetIndexTest${++table}`;
    return Array.from(
      { length: count },
      () =>
        new FleetDeviationIndex(
          createTablesClient({ connectionString: azurite.connectionString }),
          name,
        ),
    );
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-fleet-index-'));
    azurite = await startAzurite({ location: dir });
  });
  afterAll(async () => {
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("stores every client's deviations and the one rule's ranking of them, read back whole", async () => {
    const [index] = instances(1);
    const clients = Array.from({ length: 12 }, (_, i) => clientDeviations(i));
    expect(await index!.read()).toBeUndefined();
    const { stored } = await index!.update(atTip('base-1', clients), clients);
    expect(stored).toBe(true);
    const read = await index!.read();
    expect(read?.baselineTreeId).toBe('base-1');
    expect(read?.worst).toEqual(ruleOver(clients));
    for (const c of clients) {
      expect(read?.entries.get(c.client)).toEqual({
        clientTreeId: c.clientTreeId,
        computedAt: c.computedAt,
        deviations: c.deviations,
      });
    }
    const identities = new Map(clients.map((c) => [c.client, c]));
    expect(read?.lacking('base-1', identities)).toEqual([]);
    expect(read?.lacking('base-2', identities)).toHaveLength(clients.length);
    // the ranking over fewer clients (one whose summary failed) is ranked again, not the stored one
    identities.delete('C03');
    expect(read?.worstOf(identities)).toEqual(ruleOver(clients.filter((c) => c.client !== 'C03')));
  });

  it("replaces a merged client's deviations only, drops clients main no longer has, and ranks again", async () => {
    const [index] = instances(1);
    const clients = Array.from({ length: 10 }, (_, i) => clientDeviations(i));
    await index!.update(atTip('base-1', clients), clients);
    // C04 merged: new tree, now deviating on one low setting; C09's folder removed from main
    const merged = { ...clientDeviations(4, 'tree-4-merged'), deviations: [setting(40, 'low')] };
    const atMerge = [...clients.slice(0, 9).filter((c) => c.client !== 'C04'), merged];
    await index!.update(atTip('base-1', atMerge), [merged]);
    const read = await index!.read();
    expect([...(read?.entries.keys() ?? [])].sort()).toEqual(atMerge.map((c) => c.client).sort());
    expect(read?.entries.get('C04')?.deviations).toEqual([setting(40, 'low')]);
    expect(read?.entries.get('C05')?.deviations).toEqual(clients[5]?.deviations);
    expect(read?.worst).toEqual(ruleOver(atMerge));
    expect(read?.worst).not.toEqual(ruleOver(clients));
    // a late writer of C04's old trees is not taken for main's tip
    await index!.update(atTip('base-1', atMerge), [clientDeviations(4)]);
    expect((await index!.read())?.entries.get('C04')?.clientTreeId).toBe('tree-4-merged');
  });

  it('loses no client when two instances store 30 clients at once', async () => {
    const [one, two] = instances(2);
    const clients = Array.from({ length: 30 }, (_, i) => clientDeviations(i));
    const tip = atTip('base-1', clients);
    const results = await Promise.all(
      clients.map((c, i) => (i % 2 ? one! : two!).update(tip, [c])),
    );
    expect(results.every((r) => r.stored)).toBe(true);
    const read = await one!.read();
    expect([...(read?.entries.keys() ?? [])].sort()).toEqual(clients.map((c) => c.client));
    expect(read?.worst).toEqual(ruleOver(clients));
  });

  it('answers the index as stored, also when another instance wrote between its read and its write', async () => {
    const name = `AegisFleetIndexTest${++table}`;
    const tables = createTablesClient({ connectionString: azurite.connectionString });
    const one = new FleetDeviationIndex(tables, name);
    const two = new FleetDeviationIndex(
      createTablesClient({ connectionString: azurite.connectionString }),
      name,
    );
    const clients = Array.from({ length: 6 }, (_, i) => clientDeviations(i));
    const tip = atTip('base-1', clients);
    await one.update(tip, clients.slice(0, 4));
    // the other instance stores C05 after this one read the row and before it writes its change
    const replace = tables.updateEntity.bind(tables);
    const writes = vi.spyOn(tables, 'updateEntity').mockImplementationOnce(async (...args) => {
      await two.update(tip, [clients[5]!]);
      return replace(...args);
    });
    const { index, stored } = await one.update(tip, [clients[4]!]);
    // the first write met the other's etag and was decided again on the row it left
    expect(writes).toHaveBeenCalledTimes(2);
    expect(stored).toBe(true);
    const read = await one.read();
    expect([...index.entries.keys()].sort()).toEqual(clients.map((c) => c.client));
    expect(index.entries).toEqual(read?.entries);
    expect(index.worst).toEqual(read?.worst);
    expect(index.worst).toEqual(ruleOver(clients));
  });

  it('holds 1,000 clients of 500 policies in rows of its own, read back whole, and keeps two generations', async () => {
    const name = `AegisFleetIndexTest${++table}`;
    const tables = createTablesClient({ connectionString: azurite.connectionString });
    const index = new FleetDeviationIndex(tables, name);
    const clients = generateFleetDeviations(THOUSAND_CLIENTS);
    const tip = atTip('base-1', clients);
    const indexRows = async () =>
      (await tables.queryEntities(name, { filter: "PartitionKey eq 'index'" })).entities;
    expect((await index.update(tip, clients)).stored).toBe(true);
    const rows = await indexRows();
    // more than one row's 15 parts: what the head row alone could not hold (ADR 085's limit)
    expect(rows.length).toBeGreaterThan(1);
    const queries = vi.spyOn(tables, 'queryEntities');
    const gets = vi.spyOn(tables, 'getEntity');
    const read = await index.read();
    // the head row, then the rows it names in one query
    expect(gets).toHaveBeenCalledTimes(1);
    expect(queries).toHaveBeenCalledTimes(1);
    queries.mockRestore();
    gets.mockRestore();
    expect(read?.entries.size).toBe(clients.length);
    for (const c of [clients[0]!, clients[499]!, clients[999]!]) {
      expect(read?.entries.get(c.client)?.deviations).toEqual(c.deviations);
    }
    expect(read?.worst).toEqual(ruleOver(clients));

    // two merges: each writes a generation; the one it replaced stays for readers still on it,
    // the one before is removed
    const merged = (i: number) => ({ ...clients[i]!, clientTreeId: `merged-${i}`, deviations: [] });
    for (const i of [3, 4]) {
      const tipNow = atTip('base-1', [
        ...clients.filter((_, k) => k !== 3 && k !== 4),
        merged(3),
        merged(4),
      ]);
      await index.update(tipNow, [merged(i)]);
    }
    expect((await indexRows()).length).toBe(2 * rows.length - 1);
    const after = await index.read();
    expect(after?.entries.get(clients[3]!.client)?.clientTreeId).toBe('merged-3');
    expect(after?.entries.get(clients[4]!.client)?.clientTreeId).toBe('merged-4');
    expect(after?.entries.size).toBe(clients.length);
  }, 120_000);

  it('reads the head again when a writer removed the rows it named meanwhile', async () => {
    const name = `AegisFleetIndexTest${++table}`;
    const readerTables = createTablesClient({ connectionString: azurite.connectionString });
    const reader = new FleetDeviationIndex(readerTables, name);
    const writer = new FleetDeviationIndex(
      createTablesClient({ connectionString: azurite.connectionString }),
      name,
    );
    // every client's deviations its own: more than one row for 300 clients
    const clients = generateFleetDeviations({ ...THOUSAND_CLIENTS, clients: 300, ownShare: 1 });
    const merged = (i: number) => ({ ...clients[i]!, clientTreeId: `merged-${i}`, deviations: [] });
    const tip = atTip('base-1', [
      ...clients.filter((_, k) => k !== 1 && k !== 2),
      merged(1),
      merged(2),
    ]);
    await writer.update(tip, clients);
    // two merges land after the reader read the head and before it reads the rows the head named:
    // the second removes them
    const query = readerTables.queryEntities.bind(readerTables);
    const queries = vi
      .spyOn(readerTables, 'queryEntities')
      .mockImplementationOnce(async (...args) => {
        await writer.update(tip, [merged(1)]);
        await writer.update(tip, [merged(2)]);
        return query(...args);
      });
    const read = await reader.read();
    expect(queries).toHaveBeenCalledTimes(2);
    expect(read?.entries.get(clients[1]!.client)?.clientTreeId).toBe('merged-1');
    expect(read?.entries.get(clients[2]!.client)?.clientTreeId).toBe('merged-2');
    expect(read?.entries.size).toBe(clients.length);
  }, 120_000);

  it('starts over for another baseline', async () => {
    const [index] = instances(1);
    const clients = Array.from({ length: 5 }, (_, i) => clientDeviations(i));
    await index!.update(atTip('base-1', clients), clients);
    const rebased = [clientDeviations(2, 'tree-2')];
    await index!.update(atTip('base-2', clients), rebased);
    const read = await index!.read();
    expect(read?.baselineTreeId).toBe('base-2');
    expect([...(read?.entries.keys() ?? [])]).toEqual(['C02']);
    expect(read?.worst).toEqual(ruleOver(rebased));
  });
});
