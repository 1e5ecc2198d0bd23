import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { createBlobsClient } from '@aegis/connectors/blobs';
import { CustomerReportStore } from '@aegis/connectors/customer-reports';
import { createTablesClient } from '@aegis/connectors/tables';
import { startAzurite, startAzuriteBlob, type RunningAzurite } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const at = (iso: string) => new Date(iso);

describe('customer report period claims (ADR 067, ADR 084)', () => {
  let dir: string;
  let tables: RunningAzurite;
  let blobs: RunningAzurite;
  let store: CustomerReportStore;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'aegis-report-claims-'));
    tables = await startAzurite({ location: path.join(dir, 'tables') });
    blobs = await startAzuriteBlob({ location: path.join(dir, 'blobs') });
    store = new CustomerReportStore(
      createTablesClient({ connectionString: tables.connectionString }),
      createBlobsClient({ connectionString: blobs.connectionString }),
    );
  }, 60_000);

  afterAll(async () => {
    await tables?.stop();
    await blobs?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets one sender hold a period until its claim lapses, and none once it is sent', async () => {
    const claim = (now: string, until: string) =>
      store.claimPeriod('FAB', '2026-10', at(now), at(until));
    expect(await claim('2026-11-01T06:00:00Z', '2026-11-01T06:10:00Z')).toBe('claimed');
    // another run while the claim holds
    expect(await claim('2026-11-01T06:05:00Z', '2026-11-01T06:15:00Z')).toBe('busy');
    // the first sender died: its claim lapsed, the next run takes the period over
    expect(await claim('2026-11-01T06:11:00Z', '2026-11-01T06:21:00Z')).toBe('claimed');
    await store.settlePeriod('FAB', '2026-10', { reason: 'sendMail answered 503' });
    expect(await store.periodState('FAB', '2026-10')).toEqual({
      state: 'failed',
      attempts: 2,
      reason: 'sendMail answered 503',
    });
    // a failed period is claimed again by the next run, then sent once
    expect(await claim('2026-11-02T06:00:00Z', '2026-11-02T06:10:00Z')).toBe('claimed');
    await store.settlePeriod('FAB', '2026-10', { sendId: 'send-1' });
    expect(await claim('2026-12-01T06:00:00Z', '2026-12-01T06:10:00Z')).toBe('sent');
    expect(await store.periodState('FAB', '2026-10')).toEqual({ state: 'sent', sendId: 'send-1' });
    // another client's period, or another period, is its own
    expect(
      await store.claimPeriod(
        'FAB',
        '2026-11',
        at('2026-12-01T06:00:00Z'),
        at('2026-12-01T06:10:00Z'),
      ),
    ).toBe('claimed');
    expect(await store.periodState('CON', '2026-10')).toEqual({ state: 'free' });
  }, 60_000);

  it('answers exactly one of several runs claiming the same period at once', async () => {
    const now = at('2026-11-01T06:00:00Z');
    const until = at('2026-11-01T06:10:00Z');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => store.claimPeriod('NWT', '2026-10', now, until)),
    );
    expect(answers.filter((a) => a === 'claimed')).toHaveLength(1);
    expect(answers.filter((a) => a === 'busy')).toHaveLength(7);
  }, 60_000);
});
