// Issue 28 §4 (ADR 066): drift stored by the check pipeline raises one notification per client
// until its fingerprint changes, and its resolution is said once, however often the pass runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTablesClient, type AppTables } from '@aegis/connectors/tables';
import { DRIFT_TABLE, driftCheckRow, type StoredDriftCheck } from '@aegis/domain';
import { startAzurite, type RunningAzurite } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { driftEventOf, raiseDriftEvents } from '../../src/services/drift-notifier';
import { DriftService } from '../../src/services/drift-service';
import { build, type TestApp } from '../helper';

function stored(overrides: Partial<StoredDriftCheck> = {}): StoredDriftCheck {
  return {
    status: 'drifted',
    fingerprint: 'fp-1',
    driftSince: '2026-11-27T09:00:00.000Z',
    transition: 'detected',
    result: {
      client: 'ABC',
      kind: 'quick',
      checkedAt: '2026-11-27T09:05:00.000Z',
      mainCommit: 'a'.repeat(40),
      workloads: [],
      objects: [
        {
          path: '/Clients/ABC/M365Config/Resources/AzureAD/ConditionalAccess/Block legacy.json',
          workload: 'AzureAD/ConditionalAccess',
          name: 'Block legacy',
          change: 'changed',
          properties: [],
          attribution: {
            status: 'attributed',
            actor: 'admin@abc.example',
            time: '2026-11-27T08:58:00.000Z',
            operation: 'Update conditional access policy',
            log: 'directoryAudits',
          },
        },
      ],
    },
    ...overrides,
  } as StoredDriftCheck;
}

describe('driftEventOf', () => {
  it('names what drifted and who changed it, with the fingerprint of the check', () => {
    expect(driftEventOf(stored())).toMatchObject({
      kind: 'drift',
      clientCode: 'ABC',
      subject: 'tenant',
      fingerprint: 'fp-1',
      title: 'Drift detected: 1 object differs from main',
      summary:
        "changed: AzureAD/ConditionalAccess 'Block legacy' by admin@abc.example at 2026-11-27T08:58:00.000Z",
      link: '/fleet/ABC/drift',
      occurredAt: '2026-11-27T09:00:00.000Z',
    });
  });

  it('says a client in sync resolves its drift', () => {
    expect(
      driftEventOf(
        stored({
          status: 'inSync',
          fingerprint: undefined,
          resolvedAt: '2026-11-27T10:00:00.000Z',
        }),
      ),
    ).toMatchObject({ resolved: true, occurredAt: '2026-11-27T10:00:00.000Z' });
  });
});

describe('drift notifications from the stored checks', () => {
  let dir: string;
  let azurite: RunningAzurite;
  let tables: AppTables;
  let t: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-drift-notifier-'));
    azurite = await startAzurite({ location: dir });
    tables = createTablesClient({ connectionString: azurite.connectionString });
    t = await build({ AEGIS_NOTIFICATION_PASS_MS: '0' }, undefined, { auditTables: tables });
    await tables.createTable(DRIFT_TABLE);
  });
  afterAll(async () => {
    await t?.close();
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('raises once per fingerprint, again when it changes, and resolves once', async () => {
    const notifications = t.app.notifications!;
    const drift = new DriftService(tables);
    const log = { warn: () => undefined };
    const abc = async () => (await notifications.list({ limit: 50, client: 'ABC' })).notifications;

    await tables.upsertEntity(DRIFT_TABLE, driftCheckRow(stored()));
    await raiseDriftEvents(drift, notifications, log);
    await raiseDriftEvents(drift, notifications, log);
    const first = await abc();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ state: 'open', fingerprint: 'fp-1' });

    await tables.upsertEntity(
      DRIFT_TABLE,
      driftCheckRow(stored({ fingerprint: 'fp-2', transition: 'changed' })),
    );
    await raiseDriftEvents(drift, notifications, log);
    const changed = await abc();
    expect(changed).toHaveLength(1);
    expect(changed[0]!.fingerprint).toBe('fp-2');
    expect(changed[0]!.id).not.toBe(first[0]!.id);

    await tables.upsertEntity(
      DRIFT_TABLE,
      driftCheckRow(
        stored({
          status: 'inSync',
          fingerprint: undefined,
          transition: 'resolved',
          resolvedAt: '2026-11-27T10:00:00.000Z',
        }),
      ),
    );
    await raiseDriftEvents(drift, notifications, log);
    await raiseDriftEvents(drift, notifications, log);
    const resolved = await abc();
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({ state: 'resolved' });
    const resolvedAt = resolved[0]!.resolvedAt;
    await raiseDriftEvents(drift, notifications, log);
    expect((await abc())[0]!.resolvedAt).toBe(resolvedAt);
  });
});
