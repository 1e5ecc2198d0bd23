import { describe, expect, it } from 'vitest';

import { applyEvent } from './engine';
import {
  approvalWaitingEvent,
  backupMissedEvent,
  deviationExpiryEvents,
  resolutionsOfVanished,
  runOutcomeEvents,
  thresholdFor,
  type FinishedRunFacts,
} from './producers';
import type { NotificationEventInput, NotificationRecord, NotificationRoutingRule } from './types';

const NOW = new Date('2026-11-27T10:00:00.000Z');
const HOUR = 3_600_000;
const routes = { channels: new Map([['mail', false]]) };

/** What the engine keeps after each event in turn, and which of them wrote anything. */
function throughEngine(events: readonly (NotificationEventInput | undefined)[]) {
  let record: NotificationRecord | undefined;
  const wrote: boolean[] = [];
  for (const event of events) {
    const next = event && applyEvent(record, event, routes, NOW.getTime(), (g) => `id-${g}`);
    wrote.push(next !== undefined);
    record = next ?? record;
  }
  return { record, wrote };
}

const run = (facts: Partial<FinishedRunFacts>): FinishedRunFacts => ({
  pipeline: 'capture',
  clientCode: 'ABC',
  runId: 7,
  result: 'succeeded',
  finishedAt: '2026-11-27T09:00:00.000Z',
  ...facts,
});

describe('runOutcomeEvents', () => {
  it('raises a failed capture once, again for a new failing run, and resolves on a clean run', () => {
    const failed = runOutcomeEvents(run({ result: 'failed', failure: 'Graph said 403' }));
    expect(failed).toEqual([
      expect.objectContaining({
        kind: 'capture-failed',
        subject: 'capture',
        fingerprint: 'run-7-failed',
        summary: 'Graph said 403',
      }),
    ]);
    const again = runOutcomeEvents(run({ result: 'failed', failure: 'Graph said 403' }));
    const next = runOutcomeEvents(run({ runId: 8, result: 'failed' }));
    const clean = runOutcomeEvents(run({ runId: 9 }));
    const { record, wrote } = throughEngine([failed[0], again[0], next[0], clean[0]]);
    expect(wrote).toEqual([true, false, true, true]);
    expect(record).toMatchObject({ generation: 2, fingerprint: 'run-8-failed' });
    expect(record?.resolvedAt).toBeDefined();
  });

  it('says a partial backup as backup-failed and a clean first run says nothing', () => {
    const partial = runOutcomeEvents(run({ pipeline: 'backup', partial: true }));
    expect(partial).toEqual([
      expect.objectContaining({ kind: 'backup-failed', fingerprint: 'run-7-partial' }),
    ]);
    const { wrote } = throughEngine(runOutcomeEvents(run({ pipeline: 'backup' })));
    expect(wrote).toEqual([false]);
  });

  it('says a deploy waiting for Multi Admin Approval and resolves it when a later run leaves nothing', () => {
    const waiting = runOutcomeEvents(
      run({ pipeline: 'offboard', pendingApproval: '2 change(s) wait for Multi Admin Approval' }),
    );
    expect(waiting.map((e) => [e.kind, e.subject, e.resolved ?? false])).toEqual([
      ['deploy-failed', 'offboard', true],
      ['deploy-awaiting-approval', 'offboard', false],
    ]);
    const later = runOutcomeEvents(run({ pipeline: 'offboard', runId: 8 }));
    const approval = (events: NotificationEventInput[]) =>
      events.find((e) => e.kind === 'deploy-awaiting-approval');
    const { record, wrote } = throughEngine([
      approval(waiting),
      approval(waiting),
      approval(later),
    ]);
    expect(wrote).toEqual([true, false, true]);
    expect(record?.resolvedAt).toBeDefined();
  });

  it('says nothing of a cancelled run', () => {
    expect(runOutcomeEvents(run({ pipeline: 'deploy', result: 'canceled' }))).toEqual([]);
  });
});

describe('backupMissedEvent', () => {
  const backupAt = (hoursAgo: number) => ({
    tagName: `backup/ABC/${hoursAgo}`,
    date: new Date(NOW.getTime() - hoursAgo * HOUR),
  });

  it('is raised at Warning, said again at Critical, and resolved by a newer backup', () => {
    const warning = backupMissedEvent('ABC', backupAt(30), NOW);
    expect(warning).toMatchObject({ severity: 'warning', title: 'Backup missed: health Warning' });
    const critical = backupMissedEvent('ABC', backupAt(50), NOW);
    expect(critical).toMatchObject({ severity: 'critical' });
    const healthy = backupMissedEvent('ABC', backupAt(2), NOW);
    expect(healthy?.resolved).toBe(true);
    const { record, wrote } = throughEngine([warning, warning, critical, healthy]);
    expect(wrote).toEqual([true, false, true, true]);
    expect(record?.resolvedAt).toBeDefined();
  });

  it('says nothing for a client without any backup', () => {
    expect(backupMissedEvent('ABC', undefined, NOW)).toBeUndefined();
  });
});

describe('deviationExpiryEvents', () => {
  const entry = (expiresAt?: string) => ({
    path: 'M365Config/Resources/Intune/Policy.json',
    policyName: 'Policy',
    category: 'Intune',
    properties: ['a', 'b'],
    timestamp: '2026-01-01T00:00:00Z',
    acceptedBy: 'ann@msp.example',
    ...(expiresAt ? { expiresAt } : {}),
  });
  const events = (expiresAt?: string, days?: number) =>
    deviationExpiryEvents(
      { clientCode: 'ABC', acceptedDeviations: [entry(expiresAt)] },
      NOW,
      days,
    )[0];

  it('says expiring within the window, expired after the last day, and resolves a renewal', () => {
    expect(events('2026-12-20')?.resolved).toBe(true);
    const expiring = events('2026-12-05');
    expect(expiring).toMatchObject({ fingerprint: 'expiring:2026-12-05', severity: 'info' });
    expect(events('2026-12-20', 30)).toMatchObject({ fingerprint: 'expiring:2026-12-20' });
    const expired = events('2026-11-26');
    expect(expired).toMatchObject({ fingerprint: 'expired:2026-11-26', severity: 'warning' });
    // the last day itself still holds
    expect(events('2026-11-27')).toMatchObject({ fingerprint: 'expiring:2026-11-27' });
    const renewed = events('2027-06-01');
    const { record, wrote } = throughEngine([expiring, expiring, expired, renewed]);
    expect(wrote).toEqual([true, false, true, true]);
    expect(record?.resolvedAt).toBeDefined();
  });

  it('resolves an acceptance that no longer has a last day', () => {
    expect(events(undefined)).toMatchObject({ resolved: true, fingerprint: 'holds:no-end' });
  });
});

describe('approvalWaitingEvent', () => {
  const request = (hoursAgo: number) => ({
    clientCode: 'ABC',
    subject: 'pr-42',
    what: "Capture review 'client-ABC-capture-12'",
    requestedAt: new Date(NOW.getTime() - hoursAgo * HOUR).toISOString(),
    requestedBy: 'Ann',
    link: '/capture-management/ABC',
  });

  it('says nothing before N hours and once after, whatever the hours waited', () => {
    expect(approvalWaitingEvent(request(23), NOW)).toBeUndefined();
    const late = approvalWaitingEvent(request(25), NOW);
    expect(late).toMatchObject({ title: expect.stringContaining('25 hours') as unknown });
    expect(approvalWaitingEvent(request(3), NOW, 2)).toBeDefined();
    const later = approvalWaitingEvent(request(25), new Date(NOW.getTime() + 5 * HOUR));
    const { wrote } = throughEngine([late, later]);
    expect(wrote).toEqual([true, false]);
  });
});

describe('resolutionsOfVanished', () => {
  const open = [
    { kind: 'approval-waiting', clientCode: 'ABC', subject: 'pr-1', title: 'A', state: 'open' },
    { kind: 'approval-waiting', clientCode: 'ABC', subject: 'pr-2', title: 'B', state: 'open' },
    { kind: 'approval-waiting', clientCode: 'NWT', subject: 'pr-3', title: 'C', state: 'open' },
    { kind: 'approval-waiting', clientCode: 'ABC', subject: 'pr-4', title: 'D', state: 'resolved' },
    { kind: 'drift', clientCode: 'ABC', subject: 'tenant', title: 'E', state: 'open' },
  ];

  it('resolves only open subjects of the kind, of clients read, that are gone', () => {
    const resolved = resolutionsOfVanished(
      open,
      'approval-waiting',
      new Set(['ABC']),
      [{ clientCode: 'ABC', subject: 'pr-1' }],
      NOW,
    );
    expect(resolved.map((e) => [e.clientCode, e.subject, e.resolved])).toEqual([
      ['ABC', 'pr-2', true],
    ]);
  });
});

describe('thresholdFor', () => {
  const rule = (over: Partial<NotificationRoutingRule>): NotificationRoutingRule => ({
    id: 'r',
    client: '*',
    kinds: ['deviation-expiring', 'approval-waiting'],
    channelIds: ['mail'],
    digest: false,
    enabled: true,
    ...over,
  });

  it('takes the earliest any enabled rule for the client asks for, else the default', () => {
    const rules = [
      rule({ deviationExpiringDays: 30, approvalWaitingHours: 48 }),
      rule({ client: 'ABC', deviationExpiringDays: 7, approvalWaitingHours: 4 }),
      rule({ client: 'NWT', approvalWaitingHours: 1 }),
      rule({ enabled: false, approvalWaitingHours: 2, deviationExpiringDays: 90 }),
    ];
    expect(thresholdFor(rules, 'approvalWaitingHours', 'ABC', 24)).toBe(4);
    expect(thresholdFor(rules, 'deviationExpiringDays', 'ABC', 14)).toBe(30);
    // NWT's rule leaves the days to the default, which is later than 30
    expect(thresholdFor(rules, 'deviationExpiringDays', 'NWT', 14)).toBe(30);
    expect(thresholdFor(rules, 'approvalWaitingHours', 'NWT', 24)).toBe(1);
    expect(thresholdFor([], 'approvalWaitingHours', 'NWT', 24)).toBe(24);
  });
});
