import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTablesClient } from '@aegis/connectors/tables';
import type {
  ChannelTestResult,
  NotificationChannel,
  NotificationEvent,
  NotificationList,
} from '@aegis/contracts';
import { startAzurite, type RunningAzurite } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { build, SAMPLE_USER, type TestApp } from '../helper';

const ADMIN = SAMPLE_USER;
const OPERATOR = 'sam.taylor@aegis-msp.example';
const READER = 'night.shift@aegis-msp.example';

const DRIFT: NotificationEvent = {
  kind: 'drift',
  clientCode: 'ABC',
  subject: 'tenant',
  fingerprint: 'conditional-access:1',
  severity: 'warning',
  title: 'Drift detected in the tenant',
  summary: '1 Conditional Access policy changed',
  link: '/fleet',
  occurredAt: '2026-11-27T09:00:00.000Z',
};

/** A receiver that answers each POST with `status` and keeps what it got. */
async function receiver(status: number): Promise<{ url: string; got: string[]; server: Server }> {
  const got: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      got.push(body);
      response.writeHead(status, { 'content-type': 'text/plain' }).end(`status ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, server };
}

/** Issue 28 §5: the notification centre's routes and 'send test'. */
describe('notifications: list, acknowledge, snooze, send test', () => {
  let dir: string;
  let azurite: RunningAzurite;
  let t: TestApp;
  let ok: Awaited<ReturnType<typeof receiver>>;
  let refusing: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-notifications-'));
    azurite = await startAzurite({ location: dir });
    ok = await receiver(202);
    refusing = await receiver(403);
    t = await build({ AEGIS_NOTIFICATION_PASS_MS: '0' }, undefined, {
      auditTables: createTablesClient({ connectionString: azurite.connectionString }),
    });
  });
  afterAll(async () => {
    await t?.close();
    ok?.server.close();
    refusing?.server.close();
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = async (user = READER) =>
    (await t.injectAs(user, { method: 'GET', url: '/api/notifications' })).json<NotificationList>();

  it('lists a raised event as unread; an Operator acknowledges it and the count drops', async () => {
    expect(await list()).toEqual({ notifications: [], unread: 0 });
    await t.app.notifications!.raise(DRIFT);
    const raised = await list();
    expect(raised.unread).toBe(1);
    const [notification] = raised.notifications;
    expect(notification).toMatchObject({ clientCode: 'ABC', kind: 'drift', state: 'open' });

    const byReader = await t.injectAs(READER, {
      method: 'POST',
      url: `/api/notifications/${notification!.id}/acknowledge`,
    });
    expect(byReader.statusCode).toBe(403);

    const acknowledged = await t.injectAs(OPERATOR, {
      method: 'POST',
      url: `/api/notifications/${notification!.id}/acknowledge`,
    });
    expect(acknowledged.statusCode).toBe(200);
    expect(acknowledged.json()).toMatchObject({
      state: 'acknowledged',
      acknowledged: { by: OPERATOR },
    });
    expect((await list()).unread).toBe(0);
  });

  it('snoozes until a future time for a reason, and refuses an end in the past naming it', async () => {
    const notification = (await t.app.notifications!.raise({
      ...DRIFT,
      clientCode: 'CON',
    }))!;
    const past = await t.injectAs(OPERATOR, {
      method: 'POST',
      url: `/api/notifications/${notification.id}/snooze`,
      payload: { reason: 'Migration tonight', until: '2020-01-01T00:00:00Z' },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ field: 'body.until' });

    const noReason = await t.injectAs(OPERATOR, {
      method: 'POST',
      url: `/api/notifications/${notification.id}/snooze`,
      payload: { reason: ' ', until: '2099-01-01T00:00:00Z' },
    });
    expect(noReason.json()).toMatchObject({ field: 'body.reason' });

    const until = new Date(Date.now() + 3_600_000).toISOString();
    const snoozed = await t.injectAs(OPERATOR, {
      method: 'POST',
      url: `/api/notifications/${notification.id}/snooze`,
      payload: { reason: 'Migration tonight', until },
    });
    expect(snoozed.statusCode).toBe(200);
    expect(snoozed.json()).toMatchObject({
      state: 'snoozed',
      snoozed: { by: OPERATOR, until, reason: 'Migration tonight' },
    });
  });

  it('answers 404 for a notification that does not exist and 400 for an id no notification has', async () => {
    const missing = await t.injectAs(OPERATOR, {
      method: 'POST',
      url: `/api/notifications/ABC-${'0'.repeat(32)}-1/acknowledge`,
    });
    expect(missing.statusCode).toBe(404);
    const bad = await t.injectAs(OPERATOR, {
      method: 'POST',
      url: '/api/notifications/..%2F..%2Fetc/acknowledge',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('sends a test to a channel and answers what the receiver said, failure included', async () => {
    const create = async (name: string, url: string) =>
      (
        await t.injectAs(ADMIN, {
          method: 'POST',
          url: '/api/notifications/channels',
          payload: { type: 'teams', name, url },
        })
      ).json<NotificationChannel>();
    const good = await create('Teams ops', ok.url);
    const bad = await create('Teams closed', refusing.url);

    const delivered = await t.injectAs(ADMIN, {
      method: 'POST',
      url: `/api/notifications/channels/${good.id}/test`,
    });
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json<ChannelTestResult>()).toMatchObject({
      channelId: good.id,
      outcome: 'delivered',
    });
    expect(ok.got).toHaveLength(1);
    expect(ok.got[0]).toContain('AdaptiveCard');

    const failed = await t.injectAs(ADMIN, {
      method: 'POST',
      url: `/api/notifications/channels/${bad.id}/test`,
    });
    expect(failed.statusCode).toBe(200);
    expect(failed.json<ChannelTestResult>()).toMatchObject({ outcome: 'failed', statusCode: 403 });

    const byOperator = await t.injectAs(OPERATOR, {
      method: 'POST',
      url: `/api/notifications/channels/${good.id}/test`,
    });
    expect(byOperator.statusCode).toBe(403);
    const missing = await t.injectAs(ADMIN, {
      method: 'POST',
      url: '/api/notifications/channels/nochannel/test',
    });
    expect(missing.statusCode).toBe(404);
  });
});
