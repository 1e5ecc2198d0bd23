// What a capture writes (ADR 024): ExcludedProperties dropped by name at any depth, ExcludedPaths
// as folders that are not read (and whose files stay as they are) or as dotted property paths, and a
// live object keeping the file it had when its id matches, so a rename is an edit.
import type { ConfigRepository } from '@aegis/connectors/repository';
import { workloadFor } from '@aegis/domain';
import { describe, expect, it } from 'vitest';

import { MemoryTenant } from '../testing/memory-tenant';

import { snapshotTenant } from './snapshot';

const ROOT = 'Clients/ABC/M365Config/Resources';
const CA = workloadFor('ConditionalAccess', 'Policy')!;
const RULES = workloadFor('Exchange', 'TransportRule')!;
const MEETING = workloadFor('Teams', 'MeetingPolicy')!;
const MESSAGING = workloadFor('Teams', 'MessagingPolicy')!;
const NOW = new Date('2026-11-27T05:00:00Z');

/** The client's copy at the base commit. */
function repositoryWith(files: Record<string, unknown>): ConfigRepository {
  const map = new Map(
    Object.entries(files).map(([path, object]) => [path, `${JSON.stringify(object, null, 2)}\n`]),
  );
  return { readFolderTexts: () => Promise.resolve(map) } as unknown as ConfigRepository;
}

function tenantWith(): MemoryTenant {
  const tenant = new MemoryTenant();
  tenant.list(CA).push({
    id: 'ca-1',
    displayName: 'CA001-Block-Legacy',
    createdDateTime: '2025-01-01T00:00:00Z',
    state: 'enabled',
    conditions: {
      users: { includeUsers: ['All'], CreatedDateTime: 'nested' },
      applications: { includeApplications: ['All'] },
    },
    includeUsers: 'kept: not the dotted path',
  });
  tenant.list(RULES).push({ Name: 'External Sender Warning', Guid: 'g-1', Mode: 'Enforce' });
  tenant.list(MEETING).push({ Identity: 'Global', AllowCloudRecording: false });
  tenant.list(MESSAGING).push({ Identity: 'Global', AllowUserDeleteChat: false });
  return tenant;
}

const parse = (text: string | undefined) => JSON.parse(text ?? '{}') as Record<string, unknown>;

describe('snapshotTenant', () => {
  it('drops ExcludedProperties by name at any depth, whatever their case', async () => {
    const snapshot = await snapshotTenant(tenantWith(), repositoryWith({}), 'ABC', 'base', NOW, {
      excludedProperties: ['createddatetime'],
    });
    const text = snapshot.files.get(`${ROOT}/ConditionalAccess/Policy/CA001-Block-Legacy.json`);
    expect(text).toBeDefined();
    expect(text).not.toMatch(/createddatetime/i);
    expect(parse(text)['state']).toBe('enabled');
  });

  it('drops a dotted ExcludedPath from every file, only at that path', async () => {
    const snapshot = await snapshotTenant(tenantWith(), repositoryWith({}), 'ABC', 'base', NOW, {
      excludedPaths: ['conditions.users.includeUsers'],
    });
    const policy = parse(
      snapshot.files.get(`${ROOT}/ConditionalAccess/Policy/CA001-Block-Legacy.json`),
    );
    expect(policy['conditions']).toEqual({
      users: { CreatedDateTime: 'nested' },
      applications: { includeApplications: ['All'] },
    });
    expect(policy['includeUsers']).toBe('kept: not the dotted path');
  });

  it('does not read excluded folders, and leaves their files on the branch untouched', async () => {
    const existing = {
      [`${ROOT}/Exchange/TransportRule/Old Rule.json`]: { Name: 'Old Rule', Guid: 'g-0' },
      [`${ROOT}/Teams/MeetingPolicy/Global.json`]: {
        Identity: 'Global',
        AllowCloudRecording: true,
      },
      [`${ROOT}/Teams/MessagingPolicy/Global.json`]: {
        Identity: 'Global',
        AllowUserDeleteChat: true,
      },
    };
    const snapshot = await snapshotTenant(
      tenantWith(),
      repositoryWith(existing),
      'ABC',
      'base',
      NOW,
      {
        excludedPaths: ['/Exchange', '/Teams/MeetingPolicy/'],
      },
    );
    const changed = snapshot.changes.map((c) => `${c.changeType} ${c.path.slice(ROOT.length)}`);
    expect(changed.sort()).toEqual([
      'add /ConditionalAccess/Policy/CA001-Block-Legacy.json',
      'edit /Teams/MessagingPolicy/Global.json',
    ]);
    expect([...snapshot.files.keys()].some((p) => p.includes('/Exchange/'))).toBe(false);
    expect([...snapshot.files.keys()].some((p) => p.includes('/MeetingPolicy/'))).toBe(false);
  });

  it('keeps the file of an object renamed in the tenant (matched by id): an edit, not delete + add', async () => {
    const existing = {
      [`${ROOT}/ConditionalAccess/Policy/CA001 old name.json`]: {
        id: 'ca-1',
        displayName: 'CA001 old name',
        state: 'enabled',
      },
    };
    const snapshot = await snapshotTenant(
      tenantWith(),
      repositoryWith(existing),
      'ABC',
      'base',
      NOW,
      {
        excludedPaths: ['/Exchange', '/Teams'],
      },
    );
    expect(snapshot.changes.map((c) => `${c.changeType} ${c.path.slice(ROOT.length)}`)).toEqual([
      'edit /ConditionalAccess/Policy/CA001 old name.json',
    ]);
  });

  it('deletes files whose objects left the tenant, and counts critical changes', async () => {
    const existing = {
      [`${ROOT}/ConditionalAccess/Policy/CA001-Block-Legacy.json`]: {
        id: 'ca-1',
        displayName: 'CA001-Block-Legacy',
        state: 'disabled',
      },
      [`${ROOT}/ConditionalAccess/Policy/CA009-Gone.json`]: {
        id: 'ca-9',
        displayName: 'CA009-Gone',
      },
    };
    const snapshot = await snapshotTenant(
      tenantWith(),
      repositoryWith(existing),
      'ABC',
      'base',
      NOW,
      {
        excludedPaths: ['/Exchange', '/Teams'],
      },
    );
    expect(
      snapshot.changes.map((c) => `${c.changeType} ${c.path.slice(ROOT.length)}`).sort(),
    ).toEqual([
      'delete /ConditionalAccess/Policy/CA009-Gone.json',
      'edit /ConditionalAccess/Policy/CA001-Block-Legacy.json',
    ]);
    expect(snapshot.criticalCount).toBe(1);
  });

  it('counts changes as the review does: an edit of only a timestamp is committed but is no change', async () => {
    const existing = {
      // the tenant has the same policy, with another creation time only
      [`${ROOT}/ConditionalAccess/Policy/CA001-Block-Legacy.json`]: {
        id: 'ca-1',
        displayName: 'CA001-Block-Legacy',
        createdDateTime: '2024-06-01T00:00:00Z',
        state: 'enabled',
        conditions: {
          users: { includeUsers: ['All'], CreatedDateTime: 'nested' },
          applications: { includeApplications: ['All'] },
        },
        includeUsers: 'kept: not the dotted path',
      },
      [`${ROOT}/Teams/MessagingPolicy/Global.json`]: {
        Identity: 'Global',
        AllowUserDeleteChat: true,
      },
    };
    const snapshot = await snapshotTenant(
      tenantWith(),
      repositoryWith(existing),
      'ABC',
      'base',
      NOW,
      { excludedPaths: ['/Exchange', '/Teams/MeetingPolicy'] },
    );
    expect(snapshot.changes.map((c) => c.changeType)).toEqual(['edit', 'edit']);
    expect(snapshot.changeCount).toBe(1);
    expect(snapshot.criticalCount).toBe(0);
  });

  it('leaves the files of a workload that was not read as they are, and records why', async () => {
    const tenant = tenantWith();
    tenant.notRead.set('Exchange/TransportRule', {
      status: 'notPermitted',
      permission: 'Exchange.ManageAsApp and the Exchange Administrator role',
    });
    tenant.notRead.set('Teams/MeetingPolicy', {
      status: 'failed',
      httpStatus: 500,
      message: 'InternalServerError',
    });
    const existing = {
      // gone from nothing: the tenant's rules were not read, so this file must not be deleted
      [`${ROOT}/Exchange/TransportRule/Old Rule.json`]: { Name: 'Old Rule', Guid: 'g-9' },
      [`${ROOT}/ConditionalAccess/Policy/CA009-Gone.json`]: {
        id: 'ca-9',
        displayName: 'CA009-Gone',
      },
    };
    const snapshot = await snapshotTenant(tenant, repositoryWith(existing), 'ABC', 'base', NOW);
    const changed = snapshot.changes.map((c) => `${c.changeType} ${c.path.slice(ROOT.length)}`);
    expect(changed).toContain('delete /ConditionalAccess/Policy/CA009-Gone.json');
    expect(changed).toContain('add /Teams/MessagingPolicy/Global.json');
    expect(changed.filter((c) => c.includes('/Exchange/TransportRule/'))).toEqual([]);
    expect(changed.filter((c) => c.includes('/Teams/MeetingPolicy/'))).toEqual([]);
    const byWorkload = new Map(snapshot.manifest.workloads.map((w) => [w.workload, w]));
    expect(byWorkload.get('Exchange/TransportRule')).toEqual({
      workload: 'Exchange/TransportRule',
      status: 'notPermitted',
      permission: 'Exchange.ManageAsApp and the Exchange Administrator role',
    });
    expect(byWorkload.get('Teams/MeetingPolicy')?.status).toBe('failed');
    expect(byWorkload.get('ConditionalAccess/Policy')).toEqual({
      workload: 'ConditionalAccess/Policy',
      status: 'read',
      count: 1,
    });
    expect(snapshot.manifest.capturedAt).toBe(NOW.toISOString());
  });

  it('fails when no workload could be read, with the reasons', async () => {
    const tenant = tenantWith();
    tenant.failReads = 'Graph answered 503 ServiceUnavailable';
    await expect(snapshotTenant(tenant, repositoryWith({}), 'ABC', 'base', NOW)).rejects.toThrow(
      /No workload of the tenant could be read\. .*Graph answered 503 ServiceUnavailable/,
    );
  });
});
