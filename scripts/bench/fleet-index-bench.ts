/**
 * The fleet's deviation index at 1,000 clients (issue 32 item 5, ADR 085, 090), built from generated
 * client deviations (no rebuild of 1,000 summaries needed: the index is made from them) and stored
 * in Azurite: its size and rows, and the CPU of storing it whole, of a cold read and of a merge's
 * update of one client.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';

import { createTablesClient, FleetDeviationIndex } from '@aegis/connectors/tables';
import { generateFleetDeviations, startAzurite, THOUSAND_CLIENTS } from '@aegis/emulators';

const TABLE = 'AegisFleetIndexBench';

export interface FleetIndexBenchResult {
  clients: number;
  deviationsPerClient: number;
  rows: number;
  /** characters stored over the rows' parts (gzip'd JSON in base64) */
  storedChars: number;
  /** CPU ms of this process (Azurite apart) */
  cpu: { storeWhole: number; read: number; mergeUpdate: number };
  load: [number, number];
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function measured<T>(work: () => Promise<T>): Promise<{ value: T; cpu: number }> {
  const start = cpuMs();
  const value = await work();
  return { value, cpu: cpuMs() - start };
}

export async function runFleetIndexBench(): Promise<FleetIndexBenchResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'aegis-bench-fleet-index-'));
  const azurite = await startAzurite({ location: dir });
  try {
    const loadBefore = loadavg()[0] ?? 0;
    const tables = createTablesClient({ connectionString: azurite.connectionString });
    const index = new FleetDeviationIndex(tables, TABLE);
    const clients = generateFleetDeviations(THOUSAND_CLIENTS);
    const tip = {
      baselineTreeId: 'baseline',
      clients: new Map(clients.map((c) => [c.client, c.clientTreeId])),
    };
    const whole = await measured(() => index.update(tip, clients));
    if (!whole.value.stored) throw new Error('the index of 1,000 clients was not stored');
    const rows = (await tables.queryEntities(TABLE, { filter: "PartitionKey eq 'index'" }))
      .entities;
    const storedChars = rows.reduce(
      (sum, row) =>
        sum +
        Object.entries(row)
          .filter(([name]) => /^Body\d+$/.test(name))
          .reduce((n, [, value]) => n + String(value).length, 0),
      0,
    );
    // a second instance's cold read
    const read = await measured(() => new FleetDeviationIndex(tables, TABLE).read());
    if (read.value?.entries.size !== clients.length) throw new Error('the index read back short');
    // a merge changes one client's folder: the writer reads the index, puts it in, ranks again
    const [first] = clients;
    if (!first) throw new Error('no client generated');
    const merged = { ...first, clientTreeId: 'merged', deviations: first.deviations.slice(1) };
    tip.clients.set(first.client, 'merged');
    const merge = await measured(() => index.update(tip, [merged]));
    if (!merge.value.stored) throw new Error("the merge's index was not stored");
    return {
      clients: clients.length,
      deviationsPerClient:
        clients.reduce((sum, c) => sum + c.deviations.length, 0) / clients.length,
      rows: rows.length,
      storedChars,
      cpu: { storeWhole: whole.cpu, read: read.cpu, mergeUpdate: merge.cpu },
      load: [loadBefore, loadavg()[0] ?? 0],
    };
  } finally {
    await azurite.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export function printFleetIndexBench(r: FleetIndexBenchResult): void {
  console.log(
    `\nfleet deviation index (Azurite): ${r.clients.toLocaleString('en')} generated clients of 500 policies, ${r.deviationsPerClient.toFixed(0)} deviating settings each`,
  );
  console.log(
    `stored in ${r.rows} rows, ${r.storedChars.toLocaleString('en')} characters (one row holds 15 parts of 30,000: ${(r.storedChars / 450_000).toFixed(1)} rows' worth)`,
  );
  console.log(
    `CPU ms of this process: stored whole ${r.cpu.storeWhole.toFixed(0)}, read cold ${r.cpu.read.toFixed(0)}, a merge's update of one client ${r.cpu.mergeUpdate.toFixed(0)}`,
  );
  console.log(
    `this machine: ${availableParallelism()} cores shared with other work, load (1 min) ${r.load[0].toFixed(1)} before and ${r.load[1].toFixed(1)} after`,
  );
}
