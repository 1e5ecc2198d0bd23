// The monthly customer reports as the pipeline task (`aegis-task customer-reports`, issue 29, ADR
// 089) against the emulators: the DevOps emulator's configuration repository read as the app's own
// identity, Azurite's Table and Blob storage, a recording mailbox. The server beside it is only the
// witness: its screens' figures must be the report's, and its producers say the task's failures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { createBlobsClient, type BlobStore } from '@aegis/connectors/blobs';
import { ConfigRepository, createConfigRepositoryShared } from '@aegis/connectors/repository';
import { createTablesClient } from '@aegis/connectors/tables';
import type { CustomerReportHistory, Fleet, NotificationList } from '@aegis/contracts';
import { duePeriod } from '@aegis/domain';
import { SAMPLE_PROJECTS, startAzuriteBlob, type RunningAzurite } from '@aegis/emulators';
import { runCustomerReports, type CustomerReportsContext } from '@aegis/pipeline-tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pdfText, RecordingMail } from './customer-report-fixture';
import { buildWithSeededDevOps, type AppWithDevOps } from './devops-fixture';
import { SAMPLE_USER } from './helper';

const SCHEDULE = {
  customerName: 'Fabrikam Ltd',
  cadence: 'monthly',
  dayOfMonth: 1,
  contacts: ['it-lead@fabrikam.example'],
  technicians: ['alex.morgan@aegis-msp.example'],
  introduction: '',
  enabled: true,
};

describe('aegis-task customer-reports', () => {
  let dir: string;
  let blob: RunningAzurite;
  let blobs: BlobStore;
  let f: AppWithDevOps;
  const mail = new RecordingMail();
  const log: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'aegis-customer-reports-task-'));
    blob = await startAzuriteBlob({ location: dir });
    blobs = createBlobsClient({ connectionString: blob.connectionString });
    f = await buildWithSeededDevOps({
      tables: true,
      ports: { blobs },
      // the producers' pass says the task's outcome: often, so the test waits little
      env: { AEGIS_NOTIFICATION_PASS_MS: '100', AEGIS_NOTIFICATION_PRODUCER_PASS_MS: '100' },
    });
  }, 120_000);

  afterAll(async () => {
    await f?.close();
    await blob?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const as = (options: Parameters<AppWithDevOps['t']['injectAs']>[1]) =>
    f.t.injectAs(SAMPLE_USER, options);

  /** A run of the task as an agent runs it: its own repository reader, caches and clients. */
  const runTask = () => {
    const devops = f.t.app.aegisDevOps;
    if (!devops || !f.azurite) throw new Error('the fixture has no app identity or Azurite');
    const context: CustomerReportsContext = {
      log: {
        info: (line) => log.push(line),
        section: (title) => log.push(`##[section]${title}`),
        warning: (message) => log.push(`##[warning]${message}`),
        error: (message) => log.push(`##[error]${message}`),
        succeededWithIssues: (message) => log.push(`##[warning]${message}`),
      },
      now: () => new Date(),
      repository: new ConfigRepository(
        devops,
        createConfigRepositoryShared({
          project: SAMPLE_PROJECTS.tenantManagement,
          repository: 'M365Config',
        }),
      ),
      tables: createTablesClient({ connectionString: f.azurite.connectionString }),
      blobs,
      mail,
    };
    return runCustomerReports(context);
  };

  const reportNotices = async () =>
    (await as({ method: 'GET', url: '/api/notifications?client=FAB' }))
      .json<NotificationList>()
      .notifications.filter((n) => n.kind === 'customer-report-failed');

  it('refuses to run without its storage and mailbox, naming what is missing', async () => {
    await expect(
      runCustomerReports({
        log: { info() {}, section() {}, warning() {}, error() {}, succeededWithIssues() {} },
        now: () => new Date(),
        repository: {} as ConfigRepository,
      }),
    ).rejects.toThrow('AEGIS_TABLES_URL, AEGIS_BLOBS_URL, AEGIS_MAIL_SENDER not set');
  });

  it("retries a failing report, records the failure the producers say, then sends it once with the screens' figures", async () => {
    const saved = await as({
      method: 'PUT',
      url: '/api/customer-reports/FAB/schedule',
      payload: SCHEDULE,
    });
    expect(saved.statusCode).toBe(200);
    const period = duePeriod('monthly', 1, new Date());

    // every attempt fails: the run fails, nothing is sent, the period is recorded as failed …
    mail.failures = 3;
    await expect(runTask()).rejects.toThrow('1 customer report(s) not sent');
    expect(mail.attempts).toBe(3);
    expect(mail.sent).toHaveLength(0);
    expect(log).toContain(`##[error]Not sent: FAB ${period.id}: sendMail answered 503`);
    // … which the server's producers say to the technicians
    await expect.poll(reportNotices, { timeout: 30_000 }).toHaveLength(1);
    const [notice] = await reportNotices();
    expect(notice).toMatchObject({
      state: 'open',
      fingerprint: period.id,
      title: `Customer report for ${period.label} not sent`,
    });
    expect(notice!.summary).toContain('sendMail answered 503');

    // the next run: one failure retried within the run, then sent
    mail.failures = 1;
    const run = await runTask();
    expect(run.sent).toEqual([{ client: 'FAB', periodId: period.id }]);
    expect(mail.sent).toHaveLength(1);
    await expect
      .poll(async () => (await reportNotices()).map((n) => [n.id, n.state]), { timeout: 30_000 })
      .toEqual([[notice!.id, 'resolved']]);

    // its figures are the screens' at this moment
    const compliance = (await as({ method: 'GET', url: '/api/compliance/FAB' })).json<{
      compliance: { compliancePercentage: number };
    }>().compliance.compliancePercentage;
    const standard = (await as({ method: 'GET', url: '/api/fleet' }))
      .json<Fleet>()
      .rows.find((r) => r.client === 'FAB')?.standardPercentage;
    expect(standard).toEqual(expect.any(Number));
    const attachment = mail.sent[0]!.attachments?.[0];
    const text = pdfText(attachment!.content, dir, 'task.pdf');
    expect(text).toContain('Fabrikam Ltd');
    expect(text).toContain(period.label);
    expect(text).toContain(`Compliance with our company baseline is ${compliance}%`);
    expect(text).toContain(`Compliance with the standard catalogue is ${standard}%`);

    // listed in the portal's history, the PDF kept in Blob storage
    const history = (
      await as({ method: 'GET', url: '/api/customer-reports/FAB/sends' })
    ).json<CustomerReportHistory>();
    const scheduled = history.sends.filter((s) => s.trigger === 'scheduled');
    expect(scheduled).toEqual([
      expect.objectContaining({ periodId: period.id, compliancePercentage: compliance }),
    ]);
    const download = await as({
      method: 'GET',
      url: `/api/customer-reports/FAB/sends/${scheduled[0]!.id}/pdf`,
    });
    expect(Buffer.compare(download.rawPayload, Buffer.from(attachment!.content))).toBe(0);

    // re-runs, two at once and one after, send nothing
    const again = await Promise.all([runTask(), runTask()]);
    expect(again.map((r) => r.sent)).toEqual([[], []]);
    expect((await runTask()).alreadySent).toEqual([{ client: 'FAB', periodId: period.id }]);
    expect(mail.sent).toHaveLength(1);
  }, 240_000);
});
