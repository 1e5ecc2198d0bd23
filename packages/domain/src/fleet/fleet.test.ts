import { describe, expect, it } from 'vitest';

import {
  FLEET_MISSING,
  fleetStatus,
  fleetStatusCounts,
  formatAge,
  lastCaptureOf,
  selectTrendPoints,
  worstFleetDeviations,
  type FleetDeviation,
  type FleetFacts,
  type TrendCandidate,
} from './fleet';

const NOW = new Date('2026-03-10T12:00:00Z');
const healthy: FleetFacts = {
  compliancePercentage: 96,
  criticalCount: 0,
  highCount: 0,
  standardPercentage: 85,
  backupHealth: 'Healthy',
  lastCaptureAt: '2026-03-08T10:00:00Z',
  missing: [],
};

describe('fleet status', () => {
  it('is compliant only when every figure is present and good', () => {
    expect(fleetStatus(healthy, NOW)).toBe('compliant');
  });

  it('is never compliant when a figure is missing', () => {
    expect(fleetStatus({ ...healthy, missing: [FLEET_MISSING.noCapture] }, NOW)).toBe('incomplete');
    const { compliancePercentage: _p, ...noCompliance } = healthy;
    expect(fleetStatus(noCompliance, NOW)).toBe('incomplete');
    const { backupHealth: _b, ...noBackups } = healthy;
    expect(fleetStatus(noBackups, NOW)).toBe('incomplete');
    expect(fleetStatus({ ...healthy, lastCaptureAt: null }, NOW)).toBe('incomplete');
  });

  it('is critical on any critical figure, even with others missing', () => {
    expect(fleetStatus({ ...healthy, criticalCount: 1 }, NOW)).toBe('critical');
    expect(fleetStatus({ ...healthy, compliancePercentage: 49 }, NOW)).toBe('critical');
    expect(fleetStatus({ ...healthy, backupHealth: 'No Backups' }, NOW)).toBe('critical');
    expect(
      fleetStatus({ missing: ['x'], backupHealth: 'Critical' } satisfies FleetFacts, NOW),
    ).toBe('critical');
  });

  it('is Data missing, not Critical, for a client without configuration on main (issue 27 item 2)', () => {
    const neverCaptured: FleetFacts = {
      hasConfiguration: false,
      backupHealth: 'No Backups',
      lastCaptureAt: null,
      missing: [FLEET_MISSING.noConfiguration, FLEET_MISSING.noBackups],
    };
    expect(fleetStatus(neverCaptured, NOW)).toBe('incomplete');
    expect(fleetStatus({ ...neverCaptured, hasConfiguration: true }, NOW)).toBe('critical');
  });

  it('is at risk on high deviations, lower scores, backup warnings and stale captures', () => {
    expect(fleetStatus({ ...healthy, highCount: 2 }, NOW)).toBe('atRisk');
    expect(fleetStatus({ ...healthy, compliancePercentage: 89 }, NOW)).toBe('atRisk');
    expect(fleetStatus({ ...healthy, standardPercentage: 69 }, NOW)).toBe('atRisk');
    expect(fleetStatus({ ...healthy, backupHealth: 'Warning' }, NOW)).toBe('atRisk');
    expect(fleetStatus({ ...healthy, lastCaptureAt: '2026-02-01T00:00:00Z' }, NOW)).toBe('atRisk');
  });

  it('counts statuses and formats ages', () => {
    expect(fleetStatusCounts(['critical', 'critical', 'compliant'])).toEqual({
      critical: 2,
      incomplete: 0,
      atRisk: 0,
      compliant: 1,
    });
    expect(formatAge(null, NOW)).toBe('Never');
    expect(formatAge('2026-03-10T01:00:00Z', NOW)).toBe('today');
    expect(formatAge('2026-03-09T01:00:00Z', NOW)).toBe('1 day ago');
    expect(formatAge('2026-03-01T01:00:00Z', NOW)).toBe('9 days ago');
  });
});

describe('worst deviations across the fleet', () => {
  const d = (path: string, property: string, severity: FleetDeviation['severity']) => ({
    path,
    policyName: path.replace('.json', ''),
    category: 'Exchange',
    property,
    severity,
  });

  it('ranks by severity weight times the clients a setting fails in', () => {
    const byClient = new Map<string, FleetDeviation[]>([
      ['ABC', [d('a.json', 'x', 'low'), d('b.json', 'y', 'critical'), d('c.json', 'z', 'high')]],
      ['CON', [d('a.json', 'x', 'low'), d('c.json', 'z', 'high'), d('a.json', 'x', 'low')]],
      ['FAB', [d('a.json', 'x', 'medium'), d('d.json', '', 'critical')]],
    ]);
    const worst = worstFleetDeviations(byClient, 3);
    // c: high in 2 (8); d and b: critical in 1 (8, then by name); a: medium in 3 (6)
    expect(worst.map((w) => [w.path, w.property, w.clientCount, w.severity])).toEqual([
      ['c.json', 'z', 2, 'high'],
      ['b.json', 'y', 1, 'critical'],
      ['d.json', '', 1, 'critical'],
    ]);
    const all = worstFleetDeviations(byClient);
    expect(all.find((w) => w.path === 'a.json')?.clients).toEqual(['ABC', 'CON', 'FAB']);
  });

  it('counts each client once however often it lists a setting, at its worst, in a large fleet', () => {
    const codes = Array.from({ length: 1_000 }, (_, i) => `C${String(i).padStart(3, '0')}`);
    const byClient = new Map(
      codes.map((code, i) => [
        code,
        [d('a.json', 'x', 'low'), d('a.json', 'x', i === 500 ? 'high' : 'low')],
      ]),
    );
    const [a] = worstFleetDeviations(byClient, 1);
    expect([a?.clientCount, a?.severity, new Set(a?.clients).size]).toEqual([1_000, 'high', 1_000]);
  });
});

describe('trend points', () => {
  const point = (commitId: string, date: string, source: TrendCandidate['source']) => ({
    commitId,
    date,
    source,
    label: `${source} ${date}`,
  });

  it('keeps a point where the commit changes, and the newest point', () => {
    const points = selectTrendPoints([
      point('c1', '2026-01-01T09:00:00Z', 'merge'),
      point('c1', '2026-01-02T01:00:00Z', 'backup'),
      point('c1', '2026-01-03T01:00:00Z', 'backup'),
      point('c2', '2026-01-03T09:00:00Z', 'merge'),
      point('c2', '2026-01-04T01:00:00Z', 'backup'),
      point('c2', '2026-01-05T01:00:00Z', 'backup'),
    ]);
    expect(points.map((p) => [p.commitId, p.date.slice(0, 10)])).toEqual([
      ['c1', '2026-01-01'],
      ['c2', '2026-01-03'],
      ['c2', '2026-01-05'],
    ]);
  });

  it('returns the newest points up to the limit, oldest first', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      point(`c${i}`, new Date(Date.UTC(2026, 0, i + 1)).toISOString(), 'backup'),
    );
    const points = selectTrendPoints(many, 5);
    expect(points.map((p) => p.commitId)).toEqual(['c25', 'c26', 'c27', 'c28', 'c29']);
  });
});

describe('lastCaptureOf', () => {
  it('is the newest of the capture branches and the read the configuration on main records', () => {
    expect(lastCaptureOf(null, '2026-11-20T09:30:00Z')).toBe('2026-11-20T09:30:00Z');
    expect(lastCaptureOf('2026-11-21T00:00:00Z', '2026-11-20T09:30:00Z')).toBe(
      '2026-11-21T00:00:00Z',
    );
    expect(lastCaptureOf('2026-11-19T00:00:00Z', '2026-11-20T09:30:00Z')).toBe(
      '2026-11-20T09:30:00Z',
    );
    expect(lastCaptureOf(undefined, 'not a time')).toBeNull();
    expect(lastCaptureOf(null, null)).toBeNull();
  });
});
