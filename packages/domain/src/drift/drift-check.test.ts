import { describe, expect, it } from 'vitest';

import {
  DEFAULT_DRIFT_CHECK_SETTINGS,
  driftedObjects,
  driftFingerprintText,
  driftStatusOf,
  dueDriftCheck,
  isPartialCheck,
  nextDriftState,
  unreadWorkloads,
  validateDriftCheckSettings,
  worstCaseDetectionMinutes,
} from './drift-check';
import { driftCheckOfRow, driftCheckRow, driftSettingsOfRow, driftSettingsRow } from './drift-rows';

const CA = '/Clients/ABC/M365Config/Resources/ConditionalAccess/Policy';
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe('driftedObjects', () => {
  it('names added, removed and changed objects with their property changes', () => {
    const objects = driftedObjects([
      {
        changeType: 'add',
        path: `${CA}/New.json`,
        after: json({ id: 'p-1', displayName: 'New policy' }),
      },
      { changeType: 'delete', path: `${CA}/Old.json`, before: json({ displayName: 'Old' }) },
      {
        changeType: 'edit',
        path: `${CA}/Mfa.json`,
        before: json({ displayName: 'MFA', state: 'enabled' }),
        after: json({ displayName: 'MFA', state: 'disabled' }),
      },
    ]);
    expect(objects).toEqual([
      {
        path: `${CA}/Mfa.json`,
        workload: 'ConditionalAccess/Policy',
        name: 'MFA',
        change: 'changed',
        properties: [
          { property: 'state', oldValue: 'enabled', newValue: 'disabled', changeType: 'modified' },
        ],
      },
      {
        path: `${CA}/New.json`,
        workload: 'ConditionalAccess/Policy',
        name: 'New policy',
        id: 'p-1',
        change: 'added',
        properties: [],
      },
      {
        path: `${CA}/Old.json`,
        workload: 'ConditionalAccess/Policy',
        name: 'Old',
        change: 'removed',
        properties: [],
      },
    ]);
  });

  it('an edit of excluded properties only (timestamps, the client’s exclusions) is no drift', () => {
    const edit = {
      changeType: 'edit' as const,
      path: `${CA}/Mfa.json`,
      before: json({ displayName: 'MFA', modifiedDateTime: '2026-01-01', notes: 'a' }),
      after: json({ displayName: 'MFA', modifiedDateTime: '2026-02-01', notes: 'b' }),
    };
    expect(driftedObjects([edit])).toHaveLength(1);
    expect(driftedObjects([edit], ['notes'])).toEqual([]);
  });
});

describe('status, partial and fingerprint', () => {
  const read = { workload: 'ConditionalAccess/Policy', status: 'read' as const, count: 3 };
  it('a failed read makes the check partial, never drift; a missing licence or API does not', () => {
    const result = {
      objects: [],
      workloads: [
        read,
        {
          workload: 'Intune/DeviceConfiguration',
          status: 'failed' as const,
          httpStatus: 500,
          message: 'x',
        },
        { workload: 'Planner/PlannerConfiguration', status: 'noPublicApi' as const },
      ],
    };
    expect(driftStatusOf(result)).toBe('inSync');
    expect(isPartialCheck(result)).toBe(true);
    expect(unreadWorkloads(result)).toEqual(['Intune/DeviceConfiguration']);
    expect(isPartialCheck({ workloads: [read, result.workloads[2]!] })).toBe(false);
  });

  it('the fingerprint text ignores order and changes with any property value', () => {
    const a = driftedObjects([
      { changeType: 'add', path: `${CA}/A.json`, after: json({ displayName: 'A' }) },
      {
        changeType: 'edit',
        path: `${CA}/B.json`,
        before: json({ x: 1, y: 1 }),
        after: json({ x: 2, y: 2 }),
      },
    ]);
    const reversed = [...a]
      .reverse()
      .map((o) => ({ ...o, properties: [...o.properties].reverse() }));
    expect(driftFingerprintText(reversed)).toBe(driftFingerprintText(a));
    const other = driftedObjects([
      { changeType: 'add', path: `${CA}/A.json`, after: json({ displayName: 'A' }) },
      {
        changeType: 'edit',
        path: `${CA}/B.json`,
        before: json({ x: 1, y: 1 }),
        after: json({ x: 3, y: 2 }),
      },
    ]);
    expect(driftFingerprintText(other)).not.toBe(driftFingerprintText(a));
  });
});

describe('nextDriftState', () => {
  const t1 = '2026-11-27T10:00:00.000Z';
  const t2 = '2026-11-27T10:10:00.000Z';
  const t3 = '2026-11-27T10:20:00.000Z';
  it('detected, unchanged, changed, resolved, then quiet', () => {
    const detected = nextDriftState(undefined, {
      status: 'drifted',
      fingerprint: 'f1',
      checkedAt: t1,
    });
    expect(detected).toMatchObject({ transition: 'detected', driftSince: t1, fingerprint: 'f1' });
    const again = nextDriftState(detected, { status: 'drifted', fingerprint: 'f1', checkedAt: t2 });
    expect(again).toMatchObject({ transition: 'unchanged', driftSince: t1 });
    const changed = nextDriftState(again, { status: 'drifted', fingerprint: 'f2', checkedAt: t2 });
    expect(changed).toMatchObject({ transition: 'changed', driftSince: t2, fingerprint: 'f2' });
    const resolved = nextDriftState(changed, { status: 'inSync', checkedAt: t3 });
    expect(resolved).toEqual({ status: 'inSync', resolvedAt: t3, transition: 'resolved' });
    expect(nextDriftState(resolved, { status: 'inSync', checkedAt: t3 })).toEqual({
      status: 'inSync',
      resolvedAt: t3,
      transition: 'unchanged',
    });
  });
});

describe('dueDriftCheck', () => {
  const settings = DEFAULT_DRIFT_CHECK_SETTINGS;
  const now = new Date('2026-11-27T12:00:30.000Z');
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

  it('a client never checked gets a full check', () => {
    expect(dueDriftCheck(settings, {}, now)).toBe('full');
  });

  it('quick when the quick interval is over, full when the full one is, nothing in between', () => {
    expect(
      dueDriftCheck(settings, { lastCheckedAt: ago(4), lastFullCheckedAt: ago(60) }, now),
    ).toBe(undefined);
    // a check that read 30 s after its cron time is due again on the run 10 minutes after that time
    expect(
      dueDriftCheck(settings, { lastCheckedAt: ago(9.5), lastFullCheckedAt: ago(60) }, now),
    ).toBe('quick');
    expect(
      dueDriftCheck(settings, { lastCheckedAt: ago(5), lastFullCheckedAt: ago(360) }, now),
    ).toBe('full');
  });

  it('a disabled client is never due', () => {
    expect(dueDriftCheck({ ...settings, enabled: false }, {}, now)).toBe(undefined);
  });

  it('settings out of range are refused naming the field', () => {
    expect(() => validateDriftCheckSettings({ ...settings, quickIntervalInMinutes: 1 })).toThrow(
      /quickIntervalInMinutes/,
    );
    expect(() =>
      validateDriftCheckSettings({
        ...settings,
        quickIntervalInMinutes: 120,
        fullIntervalInMinutes: 60,
      }),
    ).toThrow(/fullIntervalInMinutes/);
    expect(validateDriftCheckSettings(settings)).toEqual(settings);
  });
});

describe('worstCaseDetectionMinutes', () => {
  it('is the quick interval on the pipeline’s 5-minute grid plus the check’s own time', () => {
    expect(worstCaseDetectionMinutes({ quickIntervalInMinutes: 10 }, 0.5)).toBe(10.5);
    expect(worstCaseDetectionMinutes({ quickIntervalInMinutes: 7 }, 0)).toBe(10);
    expect(worstCaseDetectionMinutes(DEFAULT_DRIFT_CHECK_SETTINGS, 1)).toBeLessThanOrEqual(15);
  });
});

describe('drift rows', () => {
  it('a stored check reads back as it was written, however long its result', () => {
    const objects = Array.from({ length: 400 }, (_, i) => ({
      path: `${CA}/P${i}.json`,
      workload: 'ConditionalAccess/Policy',
      name: `P${i}`,
      change: 'changed' as const,
      properties: [
        {
          property: 'description',
          oldValue: 'x'.repeat(200),
          newValue: 'y',
          changeType: 'modified' as const,
        },
      ],
    }));
    const stored = {
      status: 'drifted' as const,
      fingerprint: 'abc',
      driftSince: '2026-11-27T10:00:00.000Z',
      transition: 'detected' as const,
      lastFullCheckedAt: '2026-11-27T10:00:00.000Z',
      result: {
        client: 'ABC',
        kind: 'full' as const,
        checkedAt: '2026-11-27T10:00:00.000Z',
        mainCommit: 'c0ffee',
        workloads: [{ workload: 'ConditionalAccess/Policy', status: 'read' as const, count: 400 }],
        objects,
      },
    };
    const row = driftCheckRow(stored);
    expect(Number(row['ResultParts'])).toBeGreaterThan(1);
    expect(Object.values(row).every((v) => typeof v !== 'string' || v.length <= 32_000)).toBe(true);
    expect(driftCheckOfRow(row)).toEqual(stored);
  });

  it('settings fall back to the defaults for a client without its own row', () => {
    expect(driftSettingsOfRow(undefined)).toEqual(DEFAULT_DRIFT_CHECK_SETTINGS);
    const own = { enabled: false, quickIntervalInMinutes: 30, fullIntervalInMinutes: 720 };
    expect(driftSettingsOfRow(driftSettingsRow('ABC', own))).toEqual(own);
  });
});
