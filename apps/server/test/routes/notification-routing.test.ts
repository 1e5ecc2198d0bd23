import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTablesClient, type AppTables } from '@aegis/connectors/tables';
import type { NotificationChannel, NotificationRule } from '@aegis/contracts';
import { startAzurite, type RunningAzurite } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { build, SAMPLE_USER, type TestApp } from '../helper';

const ADMIN = SAMPLE_USER;
const OPERATOR = 'sam.taylor@aegis-msp.example';
const READER = 'night.shift@aegis-msp.example';
const SECRET = 'a-signing-secret-of-32-characters';

/** Issue 28 §4: channels and rules, written by Administrators only, secrets never read back. */
describe('notification channels and rules', () => {
  let dir: string;
  let azurite: RunningAzurite;
  let tables: AppTables;
  let t: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-notification-routing-'));
    azurite = await startAzurite({ location: dir });
    tables = createTablesClient({ connectionString: azurite.connectionString });
    t = await build({}, undefined, { auditTables: tables });
  });
  afterAll(async () => {
    await t?.close();
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (user: string, url: string, payload: object) =>
    t.injectAs(user, { method: 'POST', url, payload });

  it('keeps a webhook secret write-only: stored for signing, never answered', async () => {
    const created = await post(ADMIN, '/api/notifications/channels', {
      type: 'webhook',
      name: 'PSA',
      url: 'https://psa.example/hooks/aegis',
      secret: SECRET,
    });
    expect(created.statusCode).toBe(201);
    const channel = created.json<NotificationChannel>();
    expect(channel).toMatchObject({ type: 'webhook', name: 'PSA', secretSet: true });
    expect(created.body).not.toContain(SECRET);

    // an update without a secret keeps the stored one
    const renamed = await t.injectAs(ADMIN, {
      method: 'PUT',
      url: `/api/notifications/channels/${channel.id}`,
      payload: { type: 'webhook', name: 'PSA tickets', url: 'https://psa.example/hooks/aegis' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'PSA tickets', secretSet: true });

    const listed = await t.injectAs(READER, { method: 'GET', url: '/api/notifications/channels' });
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(SECRET);
    const row = await tables.getEntity('AegisNotificationRouting', {
      partitionKey: 'channel',
      rowKey: channel.id,
    });
    expect(row?.Secret).toBe(SECRET);
  });

  it('refuses a webhook channel without a secret with 400 naming the field', async () => {
    const response = await post(ADMIN, '/api/notifications/channels', {
      type: 'webhook',
      name: 'No secret',
      url: 'https://psa.example/hooks/aegis',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'body.secret' });
  });

  it.each([
    [
      'an email that is not one',
      { type: 'email', name: 'Ops', recipients: ['ops'] },
      'body.recipients.0',
    ],
    ['no recipients', { type: 'email', name: 'Ops', recipients: [] }, 'body.recipients'],
    [
      'a URL that is not http(s)',
      { type: 'teams', name: 'Ops', url: 'ftp://x.example' },
      'body.url',
    ],
    ['an empty name', { type: 'teams', name: ' ', url: 'https://x.example/w' }, 'body.name'],
    ['an unknown type', { type: 'sms', name: 'Ops' }, 'body.type'],
    [
      'a short secret',
      { type: 'webhook', name: 'W', url: 'https://x.example', secret: 'short' },
      'body.secret',
    ],
  ])('refuses a channel with %s with 400 naming the field', async (_what, payload, field) => {
    const response = await post(ADMIN, '/api/notifications/channels', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field });
  });

  it('lets only an Administrator change channels and rules', async () => {
    const payload = { type: 'email', name: 'Ops', recipients: ['ops@aegis-msp.example'] };
    for (const user of [OPERATOR, READER]) {
      const response = await post(user, '/api/notifications/channels', payload);
      expect({ user, status: response.statusCode }).toEqual({ user, status: 403 });
    }
    const rule = await post(OPERATOR, '/api/notifications/rules', {
      name: 'r',
      client: 'ABC',
      kinds: ['drift'],
      channelIds: ['x'],
    });
    expect(rule.statusCode).toBe(403);
  });

  it('routes a rule to existing channels only, and keeps a channel in use from deletion', async () => {
    const mail = (
      await post(ADMIN, '/api/notifications/channels', {
        type: 'email',
        name: 'Service desk',
        recipients: ['desk@aegis-msp.example'],
      })
    ).json<NotificationChannel>();

    const unknown = await post(ADMIN, '/api/notifications/rules', {
      name: 'ABC drift',
      client: 'ABC',
      kinds: ['drift'],
      channelIds: [mail.id, 'nochannel'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ field: 'body.channelIds' });

    const created = await post(ADMIN, '/api/notifications/rules', {
      name: 'ABC drift',
      client: 'ABC',
      kinds: ['drift', 'backup-missed', 'approval-waiting'],
      channelIds: [mail.id],
      escalation: { channelIds: [mail.id], afterHours: 4 },
      approvalWaitingHours: 6,
    });
    expect(created.statusCode).toBe(201);
    const rule = created.json<NotificationRule>();
    expect(rule).toMatchObject({
      client: 'ABC',
      kinds: ['drift', 'backup-missed', 'approval-waiting'],
      approvalWaitingHours: 6,
      digest: false,
      enabled: true,
      updatedBy: ADMIN,
    });

    const inUse = await t.injectAs(ADMIN, {
      method: 'DELETE',
      url: `/api/notifications/channels/${mail.id}`,
    });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json<{ message: string }>().message).toContain("'ABC drift'");

    const rules = await t.injectAs(READER, { method: 'GET', url: '/api/notifications/rules' });
    const stored = rules.json<{ rules: NotificationRule[] }>().rules.find((r) => r.id === rule.id);
    expect(stored).toMatchObject({ name: 'ABC drift', approvalWaitingHours: 6 });
    expect(stored).not.toHaveProperty('deviationExpiringDays');

    expect(
      (await t.injectAs(ADMIN, { method: 'DELETE', url: `/api/notifications/rules/${rule.id}` }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.injectAs(ADMIN, { method: 'DELETE', url: `/api/notifications/channels/${mail.id}` }))
        .statusCode,
    ).toBe(200);
  });

  it.each([
    ['a client that is not a code', { client: 'abc' }, 'body.client'],
    ['an unknown event kind', { kinds: ['weather'] }, 'body.kinds.0'],
    ['no channel', { channelIds: [] }, 'body.channelIds'],
    ['an approval waiting 0 hours', { approvalWaitingHours: 0 }, 'body.approvalWaitingHours'],
    [
      'a deviation said 400 days ahead',
      { deviationExpiringDays: 400 },
      'body.deviationExpiringDays',
    ],
    [
      'escalation after 0 hours',
      { escalation: { channelIds: ['a'], afterHours: 0 } },
      'body.escalation.afterHours',
    ],
  ])('refuses a rule with %s with 400 naming the field', async (_what, change, field) => {
    const response = await post(ADMIN, '/api/notifications/rules', {
      name: 'Rule',
      client: '*',
      kinds: ['drift'],
      channelIds: ['a'],
      ...change,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field });
  });

  it('answers 404 for a change to a rule or channel that does not exist', async () => {
    const response = await t.injectAs(ADMIN, {
      method: 'PUT',
      url: '/api/notifications/channels/missing',
      payload: { type: 'teams', name: 'T', url: 'https://x.example/w' },
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('50 concurrent writers of one rule', () => {
  let dir: string;
  let azurite: RunningAzurite;
  let t: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-notification-writers-'));
    azurite = await startAzurite({ location: dir });
    const tables = createTablesClient({ connectionString: azurite.connectionString });
    t = await build({}, undefined, { auditTables: tables });
  });
  afterAll(async () => {
    await t?.close();
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps one whole write: each is saved or refused with 409, none half-written', async () => {
    const channel = (
      await t.injectAs(ADMIN, {
        method: 'POST',
        url: '/api/notifications/channels',
        payload: { type: 'teams', name: 'Ops', url: 'https://teams.example/workflows/1' },
      })
    ).json<NotificationChannel>();
    const rule = (
      await t.injectAs(ADMIN, {
        method: 'POST',
        url: '/api/notifications/rules',
        payload: { name: 'Start', client: '*', kinds: ['drift'], channelIds: [channel.id] },
      })
    ).json<NotificationRule>();

    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.injectAs(ADMIN, {
          method: 'PUT',
          url: `/api/notifications/rules/${rule.id}`,
          payload: {
            name: `Writer ${i}`,
            client: 'ABC',
            kinds: i % 2 ? ['drift'] : ['backup-missed'],
            channelIds: [channel.id],
            escalation: { channelIds: [channel.id], afterHours: i + 1 },
          },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(statuses).toContain(200);

    const stored = (await t.injectAs(ADMIN, { method: 'GET', url: '/api/notifications/rules' }))
      .json<{ rules: NotificationRule[] }>()
      .rules.find((r) => r.id === rule.id)!;
    const i = Number(/^Writer (\d+)$/.exec(stored.name)?.[1]);
    // the stored rule is one writer's whole rule, not a mix of two
    expect(stored).toMatchObject({
      kinds: i % 2 ? ['drift'] : ['backup-missed'],
      escalation: { afterHours: i + 1 },
    });
    const saved = answers.flatMap((answer) =>
      answer.statusCode === 200 ? [answer.json<NotificationRule>().name] : [],
    );
    expect(saved).toContain(stored.name);
  }, 120_000);
});
