// The drift check pipeline (issue 28, ADR 063) through the emulator runner against the tenant
// emulator and Azurite, as `npm start` wires them: what it records, that a workload it could not
// read is 'partial' and never drift, the transitions (detected, unchanged, changed, resolved), the
// schedule run that checks every due client, and that it writes nothing to git.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { TablesClient } from '@aegis/connectors/tables';
import {
  DRIFT_CHECK_PARTITION,
  DRIFT_TABLE,
  driftCheckOfRow,
  PIPELINE_CATALOGUE,
  type StoredDriftCheck,
  textOf,
  workloadFor,
} from '@aegis/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startAzurite, type RunningAzurite } from '../azurite';
import type { Json, JsonObject } from '../seed/policies/types';
import { CONFIG_REPOSITORY_NAME } from '../seed/seed-devops';
import { findSimulatedTenant } from '../tenants/registry';
import { TenantWorld } from '../tenants/world';

import {
  startTenantPipelines,
  TENANT_MANAGEMENT_PROJECT as PROJECT,
  type TenantPipelines,
} from './tenant-pipelines';

const DRIFT_CHECK = 232;
const REPO = { project: PROJECT, repository: CONFIG_REPOSITORY_NAME };
const world = new TenantWorld({ propagationDelayInMs: 0 });
const abc = findSimulatedTenant('ABC')!;
let dir: string;
let azurite: RunningAzurite;
let tables: TablesClient;
let fixture: TenantPipelines;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aegis-drift-check-'));
  azurite = await startAzurite({ location: dir });
  tables = new TablesClient({ connectionString: azurite.connectionString });
  fixture = await startTenantPipelines(world, {
    tablesConnectionString: azurite.connectionString,
  });
}, 60_000);

afterAll(async () => {
  await fixture?.close();
  await azurite?.stop();
  await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  fixture.tenants.faults.clear();
  world.resetScenarios();
});

async function stored(client: string): Promise<StoredDriftCheck | undefined> {
  const row = await tables.getEntity(DRIFT_TABLE, {
    partitionKey: DRIFT_CHECK_PARTITION,
    rowKey: client,
  });
  return row && driftCheckOfRow(row);
}

const CA004 =
  '/Clients/ABC/M365Config/Resources/ConditionalAccess/Policy/CA004-Global-IdentityProtection-AnyApp-AnyPlatform-MFA-RiskySignIn.json';

describe('drift check against the tenant emulator', () => {
  it('is the catalogue’s Aegis\\Tenant Drift Check pipeline', async () => {
    const pipelines = await fixture.devops.listPipelines(PROJECT);
    expect(pipelines.find((p) => p.id === DRIFT_CHECK)).toMatchObject({
      name: PIPELINE_CATALOGUE.driftCheck.name,
      folder: '\\Aegis',
    });
  });

  it('records every drifted object with its property changes, and writes nothing to git', async () => {
    const refsBefore = await fixture.devops.listRefs(REPO);
    const { result, log } = await fixture.run(DRIFT_CHECK, { ClientCode: 'ABC', Kind: 'full' });
    expect({ result, log }).toMatchObject({ result: 'succeeded' });
    const check = await stored('ABC');
    expect(check).toMatchObject({ status: 'drifted', transition: 'detected' });
    expect(check?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(check?.result.kind).toBe('full');
    expect(check?.lastFullCheckedAt).toBe(check?.result.checkedAt);
    // the tenant emulator's drift of ABC: 2 changed, 1 added, 1 removed
    expect(check?.result.objects.map((o) => o.change).sort()).toEqual([
      'added',
      'changed',
      'changed',
      'removed',
    ]);
    expect(check?.result.objects.find((o) => o.path === CA004)).toMatchObject({
      workload: 'ConditionalAccess/Policy',
      change: 'changed',
      properties: [
        {
          property: 'state',
          newValue: 'enabledForReportingButNotEnforced',
          changeType: 'modified',
        },
      ],
    });
    expect(
      check?.result.workloads.find((w) => w.workload === 'ConditionalAccess/Policy'),
    ).toMatchObject({ status: 'read' });
    const refsAfter = await fixture.devops.listRefs(REPO);
    expect(refsAfter).toEqual(refsBefore);
  });

  it('a workload that cannot be read is partial, never drift: its object is not reported removed', async () => {
    world.setScenarios(abc.tenantId, {
      failingWorkload: { workload: 'Intune/DeviceConfiguration', status: 500 },
    });
    const { result, log } = await fixture.run(DRIFT_CHECK, { ClientCode: 'ABC', Kind: 'full' });
    expect(result).toBe('succeeded');
    expect(log).toMatch(/partial check of ABC: workloads that were not read are not drift/);
    const check = await stored('ABC');
    expect(
      check?.result.workloads.find((w) => w.workload === 'Intune/DeviceConfiguration'),
    ).toMatchObject({ status: 'failed', httpStatus: 500 });
    // the iOS restrictions the client deleted live in the workload that was not read
    expect(check?.result.objects.map((o) => o.change).sort()).toEqual([
      'added',
      'changed',
      'changed',
    ]);
    expect(check?.result.objects.some((o) => o.workload === 'Intune/DeviceConfiguration')).toBe(
      false,
    );
    // another drift state, so another fingerprint
    expect(check?.transition).toBe('changed');
  });

  it('the same drift again is unchanged; a change to a property is a changed drift; undoing all of it resolves', async () => {
    await fixture.run(DRIFT_CHECK, { ClientCode: 'ABC', Kind: 'full' });
    const first = await stored('ABC');
    await fixture.run(DRIFT_CHECK, { ClientCode: 'ABC', Kind: 'quick' });
    const second = await stored('ABC');
    expect(second).toMatchObject({
      status: 'drifted',
      transition: 'unchanged',
      fingerprint: first?.fingerprint,
      driftSince: first?.driftSince,
      // a quick check keeps the time of the last full one
      lastFullCheckedAt: first?.result.checkedAt,
    });
    expect(second?.result.kind).toBe('quick');

    expect(second?.result.workloadsReread).not.toContain('ConditionalAccess/Policy');

    // the tenant's Global Administrator switches the risky sign-in policy off altogether: the
    // audit log records it, so the quick check reads Conditional Access again and names who
    const state = world.state(abc.tenantId);
    const policies = workloadFor('ConditionalAccess', 'Policy')!;
    const ca004 = [...state.workloadObjects(policies).values()].find((p) =>
      textOf(p['displayName']).startsWith('CA004'),
    )!;
    expect(
      state.changeByAdministrator(policies, textOf(ca004['id']), { set: { state: 'disabled' } }),
    ).toBeDefined();
    const quick = await fixture.run(DRIFT_CHECK, { ClientCode: 'ABC', Kind: 'quick' });
    expect(quick.log).toMatch(
      /Quick check: re-reading \d+ workloads \(.*ConditionalAccess\/Policy/,
    );
    const third = await stored('ABC');
    expect(third?.result.kind).toBe('quick');
    expect(third?.result.workloadsReread).toContain('ConditionalAccess/Policy');
    expect(third?.transition).toBe('changed');
    expect(third?.fingerprint).not.toBe(first?.fingerprint);
    // what the quick check did not read again stands: still four objects
    expect(third?.result.objects).toHaveLength(4);
    const changedCa004 = third?.result.objects.find((o) => o.path === CA004);
    expect(changedCa004?.properties).toMatchObject([{ property: 'state', newValue: 'disabled' }]);
    expect(changedCa004?.attribution).toMatchObject({
      status: 'attributed',
      log: 'entraDirectoryAudits',
    });

    // revert every drifted object to what main holds
    for (const object of third?.result.objects ?? []) {
      const [category, kind] = object.workload.split('/') as [string, string];
      const items = state.workloadObjects({ category, kind });
      if (object.change === 'added') {
        for (const [key, item] of items) if (item['displayName'] === object.name) items.delete(key);
      } else if (object.change === 'removed') {
        const file = await fixture.devops.getFile(REPO, object.path);
        const approved = JSON.parse(file?.content ?? '{}') as JsonObject;
        items.set(textOf(approved['id'] ?? object.name), approved);
      } else {
        const live = [...items.values()].find(
          (item) => (item['displayName'] ?? item['Identity'] ?? item['Name']) === object.name,
        )!;
        for (const change of object.properties) live[change.property] = change.oldValue as Json;
      }
    }
    // a direct change leaves no audit entry: a full check reads every workload
    await fixture.run(DRIFT_CHECK, { ClientCode: 'ABC', Kind: 'full' });
    const resolved = await stored('ABC');
    expect(resolved).toMatchObject({ status: 'inSync', transition: 'resolved' });
    expect(resolved?.resolvedAt).toBe(resolved?.result.checkedAt);
    expect(resolved?.result.objects).toEqual([]);
    expect(resolved?.fingerprint).toBeUndefined();
  });

  it('the scheduled run checks each client that is due and skips the ones checked just now', async () => {
    const { result, log } = await fixture.run(DRIFT_CHECK, {});
    expect(result).toBe('succeeded');
    // ABC was checked moments ago; the other sample clients never were: a full check each
    expect(log).toMatch(/Not due: ABC/);
    for (const client of ['CON', 'FAB', 'NWT']) {
      expect(log).toContain(`Full drift check of ${client}`);
      expect((await stored(client))?.result.kind).toBe('full');
    }
  });
});
