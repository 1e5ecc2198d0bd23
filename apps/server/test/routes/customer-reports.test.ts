import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { createBlobsClient } from '@aegis/connectors/blobs';
import type {
  CustomerReportHistory,
  CustomerReportRun,
  CustomerReportScheduleResponse,
  CustomerReportSend,
  Fleet,
  NotificationList,
  ReportBranding,
} from '@aegis/contracts';
import { duePeriod } from '@aegis/domain';
import { startAzuriteBlob, type RunningAzurite } from '@aegis/emulators';
import { SAMPLE_PNG_LOGO } from '@aegis/reports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pdfText, RecordingMail } from '../customer-report-fixture';
import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';
import { SAMPLE_USER } from '../helper';

const SCHEDULE = {
  customerName: 'Fabrikam Ltd',
  cadence: 'monthly',
  dayOfMonth: 1,
  contacts: ['it-lead@fabrikam.example'],
  technicians: ['alex.morgan@aegis-msp.example'],
  introduction: 'Dear Fabrikam team,\n\nyour monthly report is attached.',
  enabled: true,
};

describe('customer reports (issue 29)', () => {
  let dir: string;
  let blob: RunningAzurite;
  let f: AppWithDevOps;
  const mail = new RecordingMail();

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'aegis-customer-reports-'));
    blob = await startAzuriteBlob({ location: dir });
    f = await buildWithSeededDevOps({
      tables: true,
      // the producers' pass says a run's outcome (ADR 089): often, so the test waits little
      env: { AEGIS_NOTIFICATION_PASS_MS: '100', AEGIS_NOTIFICATION_PRODUCER_PASS_MS: '100' },
      ports: {
        blobs: createBlobsClient({ connectionString: blob.connectionString }),
        mailSender: mail,
      },
    });
  }, 120_000);

  afterAll(async () => {
    await f?.close();
    await blob?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const as = (options: Parameters<AppWithDevOps['t']['injectAs']>[1]) =>
    f.t.injectAs(SAMPLE_USER, options);

  it('refuses a schedule naming the bad field', async () => {
    const bad = await as({
      method: 'PUT',
      url: '/api/customer-reports/FAB/schedule',
      payload: { ...SCHEDULE, contacts: ['not an address'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('contacts');
    const day = await as({
      method: 'PUT',
      url: '/api/customer-reports/FAB/schedule',
      payload: { ...SCHEDULE, dayOfMonth: 31 },
    });
    expect(day.statusCode).toBe(400);
    expect(day.body).toContain('dayOfMonth');
  });

  it('keeps the branding, its logo in Blob storage, and refuses a bad field by name', async () => {
    const branding = {
      mspName: 'Northwind Managed Services',
      primaryColour: '#7A1F5C',
      contactEmail: 'service@northwind.example',
      contactPhone: '+44 20 7946 0000',
      website: 'northwind.example',
      supportMessage: 'Our service desk answers 8:00-18:00.',
    };
    const put = (payload: object) =>
      as({ method: 'PUT', url: '/api/customer-reports/branding', payload });
    const colour = await put({ ...branding, primaryColour: 'purple' });
    expect(colour.statusCode).toBe(400);
    expect(colour.body).toContain('primaryColour');
    // a data URL that says PNG but holds no image: refused before it could break every report
    const notAnImage = await put({ ...branding, logo: 'data:image/png;base64,SGVsbG8=' });
    expect(notAnImage.statusCode).toBe(400);
    expect(notAnImage.json()).toMatchObject({
      field: 'logo',
      message: 'The logo must be a PNG, JPEG or SVG image.',
    });
    const gif = await put({ ...branding, logo: 'data:image/gif;base64,R0lGODlh' });
    expect(gif.statusCode).toBe(400);
    expect(gif.body).toContain('logo');

    const saved = await put({ ...branding, logo: SAMPLE_PNG_LOGO });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<ReportBranding>()).toEqual({ ...branding, logo: SAMPLE_PNG_LOGO });
    // without a logo the stored one is kept; null removes it
    const kept = await put({ ...branding, mspName: 'Northwind MSP' });
    expect(kept.json<ReportBranding>()).toMatchObject({
      mspName: 'Northwind MSP',
      logo: SAMPLE_PNG_LOGO,
    });
    const read = await as({ method: 'GET', url: '/api/customer-reports/branding' });
    expect(read.json<ReportBranding>().logo).toBe(SAMPLE_PNG_LOGO);
    expect((await put({ ...branding, logo: null })).json<ReportBranding>().logo).toBeNull();
    expect((await put(branding)).json<ReportBranding>()).toEqual({ ...branding, logo: null });
  }, 60_000);

  it("sends FAB's report with the figures Baseline Compliance and the standard comparison show", async () => {
    const saved = await as({
      method: 'PUT',
      url: '/api/customer-reports/FAB/schedule',
      payload: SCHEDULE,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<CustomerReportScheduleResponse>().schedule?.customerName).toBe(
      'Fabrikam Ltd',
    );

    const compliance = (await as({ method: 'GET', url: '/api/compliance/FAB' })).json<{
      compliance: { compliancePercentage: number };
    }>().compliance.compliancePercentage;
    const fleet = (await as({ method: 'GET', url: '/api/fleet' })).json<Fleet>();
    const standard = fleet.rows.find((r) => r.client === 'FAB')?.standardPercentage;
    expect(standard).toEqual(expect.any(Number));

    const sent = await as({ method: 'POST', url: '/api/customer-reports/FAB/sends', payload: {} });
    expect(sent.statusCode).toBe(201);
    const send = sent.json<CustomerReportSend>();
    const period = duePeriod('monthly', 1, new Date());
    expect(send).toMatchObject({
      client: 'FAB',
      periodId: period.id,
      to: SCHEDULE.contacts,
      cc: SCHEDULE.technicians,
      trigger: 'manual',
      compliancePercentage: compliance,
      standardPercentage: standard,
    });

    const message = mail.sent.at(-1)!;
    expect(message.to).toEqual(SCHEDULE.contacts);
    expect(message.cc).toEqual(SCHEDULE.technicians);
    const attachment = message.attachments?.[0];
    expect(attachment).toMatchObject({
      name: `FAB_Compliance_Report_${period.id}.pdf`,
      contentType: 'application/pdf',
    });
    const text = pdfText(attachment!.content, dir, 'sent.pdf');
    expect(text).toContain('Fabrikam Ltd');
    expect(text).toContain(period.label);
    expect(text).toContain(`Compliance with our company baseline is ${compliance}%`);
    expect(text).toContain(`Compliance with the standard catalogue is ${standard}%`);
    expect(text).toContain('CONFIDENTIAL');

    const history = (
      await as({ method: 'GET', url: '/api/customer-reports/FAB/sends' })
    ).json<CustomerReportHistory>();
    expect(history.sends[0]).toEqual(send);
    const download = await as({
      method: 'GET',
      url: `/api/customer-reports/FAB/sends/${send.id}/pdf`,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(download.rawPayload, Buffer.from(attachment!.content))).toBe(0);
  }, 120_000);

  it('previews the same report without sending it', async () => {
    const before = mail.sent.length;
    const preview = await as({ method: 'GET', url: '/api/customer-reports/FAB/preview' });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('application/pdf');
    expect(pdfText(preview.rawPayload, dir, 'preview.pdf')).toContain('Fabrikam Ltd');
    expect(mail.sent.length).toBe(before);
    const bad = await as({
      method: 'GET',
      url: '/api/customer-reports/FAB/preview?period=2026-13',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('period');
  }, 60_000);

  it('retries a failed send, reports it, and never sends a period twice', async () => {
    const run = () => as({ method: 'POST', url: '/api/customer-reports/runs' });
    // every attempt of the first run fails: reported, nothing recorded as sent
    mail.failures = 3;
    const sendsBefore = mail.sent.length;
    const failed = (await run()).json<CustomerReportRun>();
    expect(failed.failed).toEqual([
      expect.objectContaining({ client: 'FAB', reason: 'sendMail answered 503' }),
    ]);
    expect(mail.sent.length).toBe(sendsBefore);
    // … and said to the technicians by the notification producers, from the period's outcome
    const reportNotices = async () =>
      (await as({ method: 'GET', url: '/api/notifications?client=FAB' }))
        .json<NotificationList>()
        .notifications.filter((n) => n.kind === 'customer-report-failed');
    await expect.poll(reportNotices, { timeout: 30_000 }).toHaveLength(1);
    const [notice] = await reportNotices();
    expect(notice).toMatchObject({
      state: 'open',
      severity: 'warning',
      title: `Customer report for ${duePeriod('monthly', 1, new Date()).label} not sent`,
      link: '/customer-reports?client=FAB',
    });
    expect(notice!.summary).toContain('sendMail answered 503');
    expect(notice!.fingerprint).toBe(failed.failed[0]!.periodId);

    // the next run tries that period again; one failure is retried within the run
    mail.failures = 1;
    const first = (await run()).json<CustomerReportRun>();
    expect(first.sent).toEqual([{ client: 'FAB', periodId: expect.any(String) }]);
    expect(mail.sent.length).toBe(sendsBefore + 1);
    // sent at last: the notification is resolved, no second one raised
    await expect
      .poll(async () => (await reportNotices()).map((n) => [n.id, n.state]), { timeout: 30_000 })
      .toEqual([[notice!.id, 'resolved']]);

    // two runs at once and one after: the period was sent, none sends it again
    const again = await Promise.all([run(), run()]);
    expect(again.map((r) => r.json<CustomerReportRun>().sent)).toEqual([[], []]);
    expect((await run()).json<CustomerReportRun>().alreadySent).toEqual([
      { client: 'FAB', periodId: first.sent[0]!.periodId },
    ]);
    expect(mail.sent.length).toBe(sendsBefore + 1);
    const history = (
      await as({ method: 'GET', url: '/api/customer-reports/FAB/sends' })
    ).json<CustomerReportHistory>();
    expect(history.sends.filter((s) => s.trigger === 'scheduled')).toHaveLength(1);
  }, 180_000);
});
