// Issue 28 §4, ADR 065: two server instances sharing one Table storage (Azurite) raise and deliver
// notifications; the mail and webhooks arrive at the tenant emulator (Graph sendMail, webhook
// sinks). One clock, moved by the test, drives escalation, retries and claims.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { GraphClient, GraphMailSender } from '@aegis/connectors/graph';
import { createTablesClient } from '@aegis/connectors/tables';
import type { NotificationEvent } from '@aegis/contracts';
import {
  applyEvent,
  claimDeliveries,
  routesFor,
  type NotificationRoutingRule,
} from '@aegis/domain';
import {
  AEGIS_ENTERPRISE_APP,
  aegisAppRegistration,
  buildTenantEmulator,
  jwksTenantTokenVerifier,
  listenTenantEmulator,
  startAzurite,
  startIdentityProvider,
  TENANT_EMULATOR_AUDIENCES,
  type TenantEmulator,
} from '@aegis/emulators';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import type { DeliverableChannel } from '../src/services/notification-channels';
import type { NotificationService } from '../src/services/notification-service';
import {
  NOTIFICATIONS_TABLE,
  NotificationStore,
  notificationId,
  notificationKeys,
} from '../src/services/notification-store';

import { build, TEST_AUDIENCE, type TestApp } from './helper';

const SENDER = 'aegis-alerts@aegis-msp.example';
const MSP_TOKEN = 'msp-app-token';
const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-27T09:00:00.000Z');
const SECRET = 'psa-shared-secret-0123456789';

let clock = T0;
let emulator: TenantEmulator;
let azurite: Awaited<ReturnType<typeof startAzurite>>;
let azuriteDir: string;
let a: TestApp;
let b: TestApp;
let rules: NotificationRoutingRule[] = [];
let channels = new Map<string, DeliverableChannel>();

const routing = {
  listRules: async () => rules,
  deliverableChannels: async () => channels,
};

const service = (t: TestApp): NotificationService => {
  if (!t.app.notifications) throw new Error('the app has no notification service');
  return t.app.notifications;
};

beforeAll(async () => {
  emulator = await listenTenantEmulator(
    buildTenantEmulator({
      // the Aegis app's own token in the MSP's tenant, as the identity provider would issue it
      verifyToken: async (token) =>
        token === MSP_TOKEN
          ? {
              tenantId: AEGIS_ENTERPRISE_APP.ownerTenantId,
              audience: 'https://graph.microsoft.com',
              appOnly: true,
            }
          : undefined,
      msp: { tenantId: AEGIS_ENTERPRISE_APP.ownerTenantId, mailboxes: [SENDER] },
    }),
  );
  azuriteDir = await mkdtemp(path.join(tmpdir(), 'aegis-notifications-'));
  azurite = await startAzurite({ location: azuriteDir });
  const mailSender = new GraphMailSender(
    new GraphClient({
      baseUrl: emulator.url,
      getToken: async () => MSP_TOKEN,
      retry: { maxRetries: 0 },
    }),
    SENDER,
  );
  const env = {
    AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString,
    AEGIS_PUBLIC_URL: 'https://aegis.example',
    AEGIS_NOTIFICATION_PASS_MS: '0',
  };
  const ports = { notificationRouting: routing, mailSender, now: () => new Date(clock) };
  a = await build(env, undefined, ports);
  b = await build(env, a.idp, ports);
}, 60_000);

afterAll(async () => {
  await b?.close();
  await a?.close();
  await emulator?.close();
  await azurite?.stop();
  if (azuriteDir) await rm(azuriteDir, { recursive: true, force: true });
});

let subjectCounter = 0;
let subject = '';

beforeEach(async () => {
  clock = T0;
  emulator.deliveries.clear();
  // no notification of an earlier test escalates or retries into this one
  const tables = createTablesClient({ connectionString: azurite.connectionString });
  await tables.createTable(NOTIFICATIONS_TABLE);
  for (const row of await tables.listEntities(NOTIFICATIONS_TABLE)) {
    await tables.deleteEntity(NOTIFICATIONS_TABLE, {
      partitionKey: row.PartitionKey,
      rowKey: row.RowKey,
    });
  }
  // each test raises about its own subject, so rows of earlier tests never interfere
  subject = `tenant-${(subjectCounter += 1)}`;
  channels = new Map<string, DeliverableChannel>([
    [
      'mail',
      { id: 'mail', type: 'email', name: 'Service desk', recipients: ['desk@aegis-msp.example'] },
    ],
    [
      'teams',
      {
        id: 'teams',
        type: 'teams',
        name: 'Teams',
        url: `${emulator.url}/_emulator/webhooks/in/teams`,
      },
    ],
    [
      'psa',
      {
        id: 'psa',
        type: 'webhook',
        name: 'HaloPSA',
        url: `${emulator.url}/_emulator/webhooks/in/psa`,
        secret: SECRET,
      },
    ],
    [
      'oncall',
      { id: 'oncall', type: 'email', name: 'On call', recipients: ['oncall@aegis-msp.example'] },
    ],
  ]);
  rules = [
    {
      id: 'drift-all',
      client: '*',
      kinds: ['drift'],
      channelIds: ['mail', 'teams', 'psa'],
      escalation: { channelIds: ['oncall'], afterHours: 4 },
      digest: false,
      enabled: true,
    },
  ];
});

function drift(fingerprint: string, extra: Partial<NotificationEvent> = {}): NotificationEvent {
  return {
    kind: 'drift',
    clientCode: 'ABC',
    subject,
    fingerprint,
    severity: 'warning',
    title: 'Drift in the tenant',
    summary: 'Conditional Access policy "Block legacy auth" changed',
    link: '/clients/ABC',
    occurredAt: new Date(clock).toISOString(),
    ...extra,
  };
}

const mailTo = (address: string) =>
  emulator.deliveries.receivedMail().filter((m) => m.to.includes(address));
const hooks = (sink: string) =>
  emulator.deliveries.receivedWebhooks().filter((w) => w.sink === sink);

describe('one notification, sent once, with two instances', () => {
  it('sends one email, one Teams card and one webhook for the same event raised on both', async () => {
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => service(i % 2 ? a : b).raise(drift('fp-1'))),
    );
    await Promise.all([service(a).runDue(), service(b).runDue(), service(a).runDue()]);
    expect(mailTo('desk@aegis-msp.example')).toHaveLength(1);
    expect(hooks('teams')).toHaveLength(1);
    expect(hooks('psa')).toHaveLength(1);

    const [mail] = mailTo('desk@aegis-msp.example');
    expect(mail).toMatchObject({ from: SENDER, subject: '[Aegis] ABC · Drift in the tenant' });
    expect(mail!.body.content).toContain('https://aegis.example/clients/ABC');
    const card = hooks('teams')[0]!.body as {
      type: string;
      attachments: { contentType: string; content: { type: string; version: string } }[];
    };
    expect(card.type).toBe('message');
    expect(card.attachments[0]).toMatchObject({
      contentType: 'application/vnd.microsoft.card.adaptive',
      content: { type: 'AdaptiveCard', version: '1.4' },
    });

    // an hour later the check finds the same drift: nothing more is sent
    clock += HOUR;
    await service(b).raise(drift('fp-1'));
    await Promise.all([service(a).runDue(), service(b).runDue()]);
    expect(emulator.deliveries.receivedMail()).toHaveLength(1);
    expect(emulator.deliveries.receivedWebhooks()).toHaveLength(2);
  });

  it('sends again once when the drift changes, and says resolved once', async () => {
    await service(a).raise(drift('fp-1'));
    clock += HOUR;
    await Promise.all([service(a).raise(drift('fp-2')), service(b).raise(drift('fp-2'))]);
    clock += HOUR;
    await Promise.all([
      service(a).raise(drift('fp-2', { resolved: true })),
      service(b).raise(drift('fp-2', { resolved: true })),
    ]);
    await Promise.all([service(a).runDue(), service(b).runDue()]);
    expect(mailTo('desk@aegis-msp.example').map((m) => m.subject)).toEqual([
      '[Aegis] ABC · Drift in the tenant',
      '[Aegis] Changed: ABC · Drift in the tenant',
      '[Aegis] Resolved: ABC · Drift in the tenant',
    ]);
    expect(
      hooks('psa').map(
        (w) => (w.body as { notifications: { event: string }[] }).notifications[0]!.event,
      ),
    ).toEqual(['raised', 'changed', 'resolved']);
  });
});

describe('escalation, with the injected clock', () => {
  it('goes to the second route 4 hours after it was raised unacknowledged, once', async () => {
    await service(a).raise(drift('fp-1'));
    clock = T0 + 4 * HOUR - 1;
    await Promise.all([service(a).runDue(), service(b).runDue()]);
    expect(mailTo('oncall@aegis-msp.example')).toHaveLength(0);
    clock = T0 + 4 * HOUR;
    await Promise.all([service(a).runDue(), service(b).runDue()]);
    clock = T0 + 9 * HOUR;
    await Promise.all([service(a).runDue(), service(b).runDue()]);
    expect(mailTo('oncall@aegis-msp.example').map((m) => m.subject)).toEqual([
      '[Aegis] Not acknowledged: ABC · Drift in the tenant',
    ]);
  });

  it('never escalates once acknowledged on the other instance', async () => {
    const raised = await service(a).raise(drift('fp-1'));
    clock = T0 + HOUR;
    const acknowledged = await service(b).acknowledge(raised!.id, 'alex.morgan@aegis-msp.example');
    expect(acknowledged).toMatchObject({
      state: 'acknowledged',
      acknowledged: { by: 'alex.morgan@aegis-msp.example', at: new Date(T0 + HOUR).toISOString() },
    });
    clock = T0 + 48 * HOUR;
    await Promise.all([service(a).runDue(), service(b).runDue()]);
    expect(mailTo('oncall@aegis-msp.example')).toHaveLength(0);
    expect((await service(a).get(raised!.id)).escalatedAt).toBeUndefined();
  });

  it('refuses to acknowledge a notification that changed since, and one that never was', async () => {
    const first = await service(a).raise(drift('fp-1'));
    await service(a).raise(drift('fp-2'));
    await expect(service(b).acknowledge(first!.id, 'alex')).rejects.toMatchObject({
      name: 'ConflictError',
    });
    await expect(
      service(b).acknowledge('ABC-0123456789abcdef0123456789abcdef-1', 'alex'),
    ).rejects.toMatchObject({
      name: 'NotFoundError',
    });
  });
});

describe('a failing channel', () => {
  const failSink = (sink: string, status: number, times?: number) =>
    fetch(`${emulator.url}/_emulator/webhooks/sinks/${sink}/failure`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status, ...(times ? { times } : {}) }),
    });

  it('is retried with a growing delay and delivered once it answers again', async () => {
    await failSink('psa', 503, 2);
    const raised = await service(a).raise(drift('fp-1'));
    expect(hooks('psa')).toHaveLength(0);
    // the first retry is due a minute later, not before
    clock = T0 + 59_000;
    await service(b).runDue();
    expect(hooks('psa')).toHaveLength(0);
    clock = T0 + 60_000;
    await service(b).runDue();
    clock = T0 + 60_000 + 120_000;
    await Promise.all([service(a).runDue(), service(b).runDue()]);
    expect(hooks('psa')).toHaveLength(1);
    const psa = (await service(a).get(raised!.id)).deliveries.find((d) => d.channelId === 'psa');
    expect(psa).toMatchObject({ status: 'delivered', attempts: 3 });
  });

  it('is reported failed after the last attempt, never dropped silently', async () => {
    await failSink('psa', 503);
    const raised = await service(a).raise(drift('fp-1'));
    for (let minute = 1; minute <= 64; minute += 1) {
      clock = T0 + minute * 60_000;
      await service(minute % 2 ? a : b).runDue();
    }
    const psa = (await service(b).get(raised!.id)).deliveries.find((d) => d.channelId === 'psa');
    expect(psa).toMatchObject({ status: 'failed', attempts: 6 });
    expect(psa?.lastError).toMatch(/^503: /);
    // the other channels were not held back by it
    expect(hooks('teams')).toHaveLength(1);
    expect(mailTo('desk@aegis-msp.example')).toHaveLength(1);
  });

  it("takes over a send whose instance died holding it, after the claim's expiry", async () => {
    // an instance raised the notification and claimed its sends, then died before sending
    const tables = createTablesClient({ connectionString: azurite.connectionString });
    const event = drift('fp-1');
    const keys = notificationKeys(event.clientCode, event.kind, event.subject);
    await new NotificationStore(tables).update(keys, (current) => {
      const raised = applyEvent(current, event, routesFor(rules, event), clock, (g) =>
        notificationId(keys, g),
      )!;
      const { record } = claimDeliveries(
        raised,
        raised.deliveries.map((d) => d.id),
        'the-instance-that-died',
        clock,
        2 * 60_000,
      );
      return { next: record, result: undefined };
    });
    clock = T0 + 60_000;
    await Promise.all([service(a).runDue(), service(b).runDue()]);
    expect(emulator.deliveries.receivedMail()).toHaveLength(0);
    clock = T0 + 2 * 60_000;
    await Promise.all([service(a).runDue(), service(b).runDue()]);
    expect(mailTo('desk@aegis-msp.example')).toHaveLength(1);
    expect(hooks('teams')).toHaveLength(1);
    expect(hooks('psa')).toHaveLength(1);
  });
});

describe("each instance's delivery loop", () => {
  it('sends what an instance wrote and never sent (it died right after raising)', async () => {
    const tables = createTablesClient({ connectionString: azurite.connectionString });
    const event = drift('fp-1');
    const keys = notificationKeys(event.clientCode, event.kind, event.subject);
    await new NotificationStore(tables).update(keys, (current) => ({
      next: applyEvent(current, event, routesFor(rules, event), clock, (g) =>
        notificationId(keys, g),
      ),
      result: undefined,
    }));
    // an instance started with its loop on finds it on its own
    const c = await build(
      {
        AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString,
        AEGIS_NOTIFICATION_PASS_MS: '25',
      },
      a.idp,
      {
        notificationRouting: routing,
        mailSender: new GraphMailSender(
          new GraphClient({ baseUrl: emulator.url, getToken: async () => MSP_TOKEN }),
          SENDER,
        ),
        now: () => new Date(clock),
      },
    );
    try {
      await vi.waitFor(() => expect(hooks('psa')).toHaveLength(1), { timeout: 20_000 });
      await vi.waitFor(() => expect(mailTo('desk@aegis-msp.example')).toHaveLength(1));
      expect(hooks('teams')).toHaveLength(1);
    } finally {
      await c.close();
    }
  });
});

describe('daily digest', () => {
  it('sends the digest rule’s notifications in one message at the digest hour', async () => {
    rules = [
      {
        id: 'digest',
        client: 'ABC',
        kinds: ['drift'],
        channelIds: ['psa'],
        digest: true,
        enabled: true,
      },
    ];
    await service(a).raise(drift('fp-1'));
    await service(b).raise(drift('fp-1', { subject: `${subject}-second`, title: 'More drift' }));
    await Promise.all([service(a).runDue(), service(b).runDue()]);
    expect(hooks('psa')).toHaveLength(0);
    clock = Date.parse('2026-11-28T07:00:00.000Z');
    await Promise.all([service(a).runDue(), service(b).runDue()]);
    expect(hooks('psa')).toHaveLength(1);
    const body = hooks('psa')[0]!.body as { type: string; notifications: { title: string }[] };
    expect(body.type).toBe('digest');
    expect(body.notifications.map((n) => n.title).sort()).toEqual([
      'Drift in the tenant',
      'More drift',
    ]);
  });
});

describe('the digest hour', () => {
  it('is the configured one', async () => {
    rules = [
      {
        id: 'digest',
        client: 'ABC',
        kinds: ['drift'],
        channelIds: ['psa'],
        digest: true,
        enabled: true,
      },
    ];
    const c = await build(
      {
        AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString,
        AEGIS_NOTIFICATION_PASS_MS: '0',
        AEGIS_NOTIFICATION_DIGEST_HOUR_UTC: '18',
      },
      a.idp,
      { notificationRouting: routing, now: () => new Date(clock) },
    );
    try {
      const raised = await service(c).raise(drift('fp-1'));
      expect(raised?.deliveries.map((d) => d.dueAt)).toEqual(['2026-11-27T18:00:00.000Z']);
    } finally {
      await c.close();
    }
  });
});

describe('send test', () => {
  it('answers what the receiver said, delivered or not', async () => {
    expect(await service(a).sendTest('teams')).toMatchObject({
      outcome: 'delivered',
      statusCode: 202,
    });
    await fetch(`${emulator.url}/_emulator/webhooks/sinks/teams/failure`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 404 }),
    });
    expect(await service(a).sendTest('teams')).toMatchObject({
      outcome: 'failed',
      statusCode: 404,
    });
    await expect(service(a).sendTest('nope')).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});

describe("email with the Aegis app's own token, wired as npm start wires it", () => {
  it('goes from the configured mailbox of the MSP tenant through Graph sendMail', async () => {
    const aegisApp = aegisAppRegistration(TEST_AUDIENCE);
    const idp = await startIdentityProvider({
      port: 0,
      audience: TEST_AUDIENCE,
      allowedOrigins: [],
      applications: [aegisApp],
      homeTenantId: AEGIS_ENTERPRISE_APP.ownerTenantId,
    });
    const tenants = await listenTenantEmulator(
      buildTenantEmulator({
        verifyToken: jwksTenantTokenVerifier({
          jwksUrl: idp.jwksUrl,
          audiences: TENANT_EMULATOR_AUDIENCES,
        }),
        msp: { tenantId: AEGIS_ENTERPRISE_APP.ownerTenantId, mailboxes: [SENDER] },
      }),
    );
    const c = await build(
      {
        AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString,
        AEGIS_NOTIFICATION_PASS_MS: '0',
        AEGIS_LOGIN_URL: idp.url,
        AEGIS_APP_CLIENT_ID: aegisApp.clientId,
        AEGIS_APP_CLIENT_SECRET: aegisApp.clientSecret,
        AEGIS_ENTRA_TENANT_ID: AEGIS_ENTERPRISE_APP.ownerTenantId,
        AEGIS_GRAPH_URL: tenants.url,
        AEGIS_MAIL_SENDER: SENDER,
      },
      idp,
      { notificationRouting: routing, now: () => new Date(clock) },
    );
    try {
      expect(await service(c).sendTest('mail')).toMatchObject({ outcome: 'delivered' });
      expect(tenants.deliveries.receivedMail()).toMatchObject([
        {
          from: SENDER,
          to: ['desk@aegis-msp.example'],
          subject: "[Aegis] Aegis · Test message to 'Service desk'",
        },
      ]);
    } finally {
      await c.close();
      await tenants.close();
      await idp.close();
    }
  });
});
