// Issue 28 §4, ADR 070: the producers besides drift, on the emulators. Two server instances share
// one Azurite and read the seeded DevOps emulator with the app's own identity; what they raise goes
// through the engine to the tenant emulator's mailbox and webhook sinks.
import { GraphClient, GraphMailSender } from '@aegis/connectors/graph';
import { ConfigRepository } from '@aegis/connectors/repository';
import { createTablesClient, SharedRows } from '@aegis/connectors/tables';
import {
  backupRun,
  type FinishedRunFacts,
  type NewestBackup,
  type NotificationRoutingRule,
} from '@aegis/domain';
import {
  AEGIS_ENTERPRISE_APP,
  buildTenantEmulator,
  listenTenantEmulator,
  SAMPLE_PROJECTS,
  type TenantEmulator,
} from '@aegis/emulators';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { DeliverableChannel } from '../src/services/notification-channels';
import {
  claimProducerPass,
  DevOpsProducerFacts,
  raiseProducedEvents,
  type ProducerFacts,
} from '../src/services/notification-producers';
import type { NotificationService } from '../src/services/notification-service';
import { createPipelineRunsShared, PipelineRuns } from '../src/services/pipeline-runs';

import { buildWithSeededDevOps, type AppWithDevOps } from './devops-fixture';
import type { TestApp } from './helper';

const SENDER = 'aegis-alerts@aegis-msp.example';
const DESK = 'desk@aegis-msp.example';
const MSP_TOKEN = 'msp-app-token';
const HOUR = 3_600_000;
const PROJECT = SAMPLE_PROJECTS.tenantManagement;
// The seed dates its backups back from this moment: CON's newest is a day old, FAB's six days.
// The last noon (UTC) passed: every client's health turns at 01:00 UTC (the scheduled backups'
// hour), so the test's clock, which moves two hours at most, never crosses a change of health.
const T0 = lastNoonUtc(new Date());
function lastNoonUtc(at: Date): Date {
  const noon = new Date(at);
  noon.setUTCHours(12, 0, 0, 0);
  return noon > at ? new Date(noon.getTime() - 24 * HOUR) : noon;
}

let clock = T0.getTime();
let mailbox: TenantEmulator;
let stack: AppWithDevOps;
let b: TestApp;
let rules: NotificationRoutingRule[] = [];
let channels = new Map<string, DeliverableChannel>();
const routing = {
  listRules: async () => rules,
  deliverableChannels: async () => channels,
};
const now = () => new Date(clock);
const silent = { warn: () => undefined };

const service = (t: TestApp): NotificationService => {
  if (!t.app.notifications) throw new Error('the app has no notification service');
  return t.app.notifications;
};

/** The facts as the app reads them: its own DevOps identity, its configuration repository. */
function devOpsFacts(t: TestApp): DevOpsProducerFacts {
  const devops = t.app.aegisDevOps;
  if (!devops) throw new Error('the app has no DevOps identity of its own');
  return new DevOpsProducerFacts(
    devops,
    new ConfigRepository(devops, t.app.configRepositoryShared),
    new PipelineRuns(devops, createPipelineRunsShared()),
    PROJECT,
    now,
  );
}

const evaluate = (t: TestApp, facts: ProducerFacts = devOpsFacts(t)) =>
  raiseProducedEvents({
    facts,
    notifications: service(t),
    rules: async () => rules,
    now,
    log: silent,
  });

const mailTo = (address: string) =>
  mailbox.deliveries.receivedMail().filter((m) => m.to.includes(address));
const hooks = (sink: string) =>
  mailbox.deliveries.receivedWebhooks().filter((w) => w.sink === sink);

beforeAll(async () => {
  mailbox = await listenTenantEmulator(
    buildTenantEmulator({
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
  const mailSender = new GraphMailSender(
    new GraphClient({
      baseUrl: mailbox.url,
      getToken: async () => MSP_TOKEN,
      retry: { maxRetries: 0 },
    }),
    SENDER,
  );
  const ports = { notificationRouting: routing, mailSender, now };
  stack = await buildWithSeededDevOps({
    tables: true,
    now: T0,
    ports,
    // the tests run the passes themselves
    env: { AEGIS_NOTIFICATION_PASS_MS: '0', AEGIS_PUBLIC_URL: 'https://aegis.example' },
  });
  b = await stack.another(ports);
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await mailbox?.close();
});

beforeEach(() => {
  mailbox.deliveries.clear();
  channels = new Map<string, DeliverableChannel>([
    ['mail', { id: 'mail', type: 'email', name: 'Service desk', recipients: [DESK] }],
    [
      'psa',
      {
        id: 'psa',
        type: 'webhook',
        name: 'PSA',
        url: `${mailbox.url}/_emulator/webhooks/in/psa`,
        secret: 'psa-shared-secret-0123456789',
      },
    ],
  ]);
});

describe('backup missed, read from the seeded backups', () => {
  it('two instances evaluating at once send each client one email; again, nothing; a new backup resolves it', async () => {
    rules = [
      {
        id: 'backups',
        client: '*',
        kinds: ['backup-missed'],
        channelIds: ['mail'],
        digest: false,
        enabled: true,
      },
    ];
    const [first, second] = await Promise.all([evaluate(stack.t), evaluate(b)]);
    // every producer's facts were read from the emulator (runs of four pipelines, tags, files, PRs)
    expect(first.failed).toEqual([]);
    expect(second.failed).toEqual([]);
    await Promise.all([service(stack.t).runDue(), service(b).runDue()]);
    expect(
      mailTo(DESK)
        .map((m) => m.subject)
        .sort(),
    ).toEqual([
      '[Aegis] CON · Backup missed: health Warning',
      '[Aegis] FAB · Backup missed: health Critical',
    ]);

    clock += HOUR;
    await Promise.all([evaluate(stack.t), evaluate(b)]);
    await Promise.all([service(stack.t).runDue(), service(b).runDue()]);
    expect(mailTo(DESK).map((m) => m.subject)).toHaveLength(2);

    // a backup of CON through the backup pipeline: CON is Healthy again, said once
    const devops = stack.t.app.aegisDevOps;
    if (!devops) throw new Error('the app has no DevOps identity of its own');
    const runs = new PipelineRuns(devops, createPipelineRunsShared());
    const started = await runs.start(PROJECT, backupRun({ clientCode: 'CON' }));
    await expect
      .poll(async () => (await runs.getCatalogued(PROJECT, 'backup', started.id)).state, {
        timeout: 30_000,
      })
      .toBe('completed');
    // the new backup is dated by the emulator's real clock, at or after this test's clock
    clock += HOUR;
    await Promise.all([evaluate(stack.t), evaluate(b)]);
    await Promise.all([service(stack.t).runDue(), service(b).runDue()]);
    expect(mailTo(DESK).map((m) => m.subject)).toContain(
      '[Aegis] Resolved: CON · Backup missed: health Warning',
    );
    expect(mailTo(DESK)).toHaveLength(3);
    const open = await service(b).list({ state: 'open', limit: 200 });
    expect(
      open.notifications.filter((n) => n.kind === 'backup-missed').map((n) => n.clientCode),
    ).toEqual(['FAB']);
  }, 90_000);
});

/** Facts a test sets: runs, backups, acceptances and reviews as the DevOps reader would answer. */
class SetFacts implements ProducerFacts {
  runs: FinishedRunFacts[] = [];
  backups = new Map<string, NewestBackup>();
  configs: Awaited<ReturnType<ProducerFacts['acceptedDeviations']>>['configs'] = [];
  reviews: Awaited<ReturnType<ProducerFacts['openCaptureReviews']>> = [];
  unreadable = false;

  async latestFinishedRuns(pipeline: FinishedRunFacts['pipeline']) {
    return this.runs.filter((r) => r.pipeline === pipeline);
  }
  async newestBackups() {
    return this.backups;
  }
  async acceptedDeviations() {
    if (this.unreadable) throw new Error('the repository did not answer');
    return { configs: this.configs, read: new Set(['NWT']) };
  }
  async openCaptureReviews() {
    return this.reviews;
  }
}

describe('runs, acceptances and approvals through the engine', () => {
  it('says each once on both instances, and resolves what is gone or fixed', async () => {
    rules = [
      {
        id: 'ops',
        client: 'NWT',
        kinds: [
          'capture-failed',
          'deploy-failed',
          'deploy-awaiting-approval',
          'deviation-expiring',
          'approval-waiting',
        ],
        channelIds: ['psa'],
        digest: false,
        enabled: true,
        deviationExpiringDays: 30,
        approvalWaitingHours: 2,
      },
    ];
    const at = now();
    const iso = (offsetInMs: number) => new Date(at.getTime() + offsetInMs).toISOString();
    const facts = new SetFacts();
    facts.runs = [
      {
        pipeline: 'capture',
        clientCode: 'NWT',
        runId: 41,
        result: 'succeeded',
        partial: true,
        finishedAt: iso(-HOUR),
      },
      {
        pipeline: 'deploy',
        clientCode: 'NWT',
        runId: 42,
        result: 'succeeded',
        pendingApproval: '1 change(s) wait for Multi Admin Approval in the tenant',
        finishedAt: iso(-HOUR),
      },
    ];
    const day = (days: number) => iso(days * 24 * HOUR).slice(0, 10);
    facts.configs = [
      {
        version: '1.0',
        clientCode: 'NWT',
        timestamp: iso(0),
        acceptedDeviations: [
          {
            path: 'M365Config/Resources/Intune/A.json',
            policyName: 'A',
            category: 'Intune',
            properties: ['x'],
            timestamp: iso(0),
            acceptedBy: 'ann@msp.example',
            // inside the rule's 30 days, outside the default 14
            expiresAt: day(20),
          },
        ],
      },
    ];
    facts.reviews = [
      {
        clientCode: 'NWT',
        subject: 'pr-7',
        what: 'Capture review 7 (run 40)',
        requestedAt: iso(-3 * HOUR),
        link: '/capture-management/NWT',
      },
    ];
    await Promise.all([evaluate(stack.t, facts), evaluate(b, facts), evaluate(b, facts)]);
    await Promise.all([service(stack.t).runDue(), service(b).runDue()]);
    const said = () =>
      hooks('psa').map((w) => {
        const [n] = (w.body as { notifications: { event: string; kind: string }[] }).notifications;
        return `${n?.event} ${n?.kind}`;
      });
    expect(said().sort()).toEqual([
      'raised approval-waiting',
      'raised capture-failed',
      'raised deploy-awaiting-approval',
      'raised deviation-expiring',
    ]);

    // a later clean capture, the review completed, the acceptance revoked, the approval given
    facts.runs = [
      {
        pipeline: 'capture',
        clientCode: 'NWT',
        runId: 43,
        result: 'succeeded',
        finishedAt: iso(0),
      },
      { pipeline: 'deploy', clientCode: 'NWT', runId: 44, result: 'succeeded', finishedAt: iso(0) },
    ];
    facts.reviews = [];
    facts.configs = [];
    // a read that fails resolves nothing
    facts.unreadable = true;
    await evaluate(b, facts);
    await Promise.all([service(stack.t).runDue(), service(b).runDue()]);
    expect(
      said()
        .filter((s) => s.startsWith('resolved'))
        .sort(),
    ).toEqual(['resolved capture-failed', 'resolved deploy-awaiting-approval']);
    facts.unreadable = false;
    await Promise.all([evaluate(stack.t, facts), evaluate(b, facts)]);
    await Promise.all([service(stack.t).runDue(), service(b).runDue()]);
    expect(
      said()
        .filter((s) => s.startsWith('resolved'))
        .sort(),
    ).toEqual([
      'resolved approval-waiting',
      'resolved capture-failed',
      'resolved deploy-awaiting-approval',
      'resolved deviation-expiring',
    ]);
    expect(hooks('psa')).toHaveLength(8);
  });
});

describe('the producers pass', () => {
  it('is taken by exactly one of several instances per interval', async () => {
    if (!stack.azurite) throw new Error('the stack has no Table storage');
    const rows = new SharedRows(
      createTablesClient({ connectionString: stack.azurite.connectionString }),
      'AegisSharedState',
    );
    const at = new Date('2030-01-01T00:00:00.000Z');
    const claims = await Promise.all(
      ['a', 'b', 'c', 'd'].map((id) => claimProducerPass(rows, id, at, 5 * 60_000)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimProducerPass(rows, 'a', new Date(at.getTime() + 60_000), 5 * 60_000)).toBe(
      false,
    );
    expect(
      await claimProducerPass(rows, 'b', new Date(at.getTime() + 5 * 60_000), 5 * 60_000),
    ).toBe(true);
  });
});
