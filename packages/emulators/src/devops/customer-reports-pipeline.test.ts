// The Customer Reports pipeline (issue 29, ADR 089) through the emulator's runner, as an agent runs
// `aegis-task customer-reports`: the daily schedule of pipelines/customer-reports.yml seen by the
// emulator's scheduler, the report sent from the MSP's mailbox through the tenant emulator's Graph
// sendMail with the PDF attached, kept in Azurite's blobs and recorded; a second run sends nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { createBlobsClient } from '@aegis/connectors/blobs';
import { CustomerReportStore } from '@aegis/connectors/customer-reports';
import { createTablesClient } from '@aegis/connectors/tables';
import { duePeriod, PIPELINE_CATALOGUE } from '@aegis/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startAzurite, startAzuriteBlob, type RunningAzurite } from '../azurite';
import { AEGIS_ENTERPRISE_APP } from '../tenants';
import { TenantWorld } from '../tenants/world';

import {
  startTenantPipelines,
  TENANT_MANAGEMENT_PROJECT as PROJECT,
  type TenantPipelines,
} from './tenant-pipelines';

const HOUR = 3_600_000;
const SENDER = 'reports@aegis-msp.example';

let dir: string;
let tablesAzurite: RunningAzurite;
let blobAzurite: RunningAzurite;
let fixture: TenantPipelines;
let store: CustomerReportStore;
let reportsId: number;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aegis-customer-reports-pipeline-'));
  tablesAzurite = await startAzurite({ location: dir });
  blobAzurite = await startAzuriteBlob({ location: dir });
  fixture = await startTenantPipelines(new TenantWorld({ propagationDelayInMs: 0 }), {
    tablesConnectionString: tablesAzurite.connectionString,
    blobsConnectionString: blobAzurite.connectionString,
    mail: { tenantId: AEGIS_ENTERPRISE_APP.ownerTenantId, sender: SENDER },
  });
  store = new CustomerReportStore(
    createTablesClient({ connectionString: tablesAzurite.connectionString }),
    createBlobsClient({ connectionString: blobAzurite.connectionString }),
  );
  const pipelines = await fixture.devops.listPipelines(PROJECT);
  reportsId = pipelines.find((p) => p.name === PIPELINE_CATALOGUE.customerReports.name)!.id;
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  await blobAzurite?.stop();
  await tablesAzurite?.stop();
  await rm(dir, { recursive: true, force: true });
});

const reportMail = () =>
  fixture.tenants.deliveries
    .receivedMail()
    .filter((m) => m.attachments.some((a) => a.contentType === 'application/pdf'));

describe('Customer Reports (aegis-task customer-reports)', () => {
  it("runs daily from its YAML's schedule and sends each due report once", async () => {
    await store.saveSchedule({
      client: 'FAB',
      customerName: 'Fabrikam Ltd',
      cadence: 'monthly',
      dayOfMonth: 1,
      contacts: ['it-lead@fab.example'],
      technicians: ['alex.morgan@aegis-msp.example'],
      introduction: '',
      enabled: true,
      updatedBy: 'test',
      updatedAt: new Date().toISOString(),
    });
    const queued = await fixture.emulator.scheduler.advance(25 * HOUR);
    const scheduled = queued.filter((q) => q.run.pipelineId === reportsId);
    expect(scheduled).toHaveLength(1);
    await fixture.emulator.runner.waitForIdle();
    const run = await fixture.devops.getRun(PROJECT, reportsId, scheduled[0]!.run.id);
    expect(run?.result).toBe('succeeded');

    const period = duePeriod('monthly', 1, fixture.emulator.clock.now());
    expect(reportMail()).toEqual([
      expect.objectContaining({
        from: SENDER,
        to: ['it-lead@fab.example'],
        cc: ['alex.morgan@aegis-msp.example'],
        attachments: [
          expect.objectContaining({
            name: `FAB_Compliance_Report_${period.id}.pdf`,
            contentType: 'application/pdf',
          }),
        ],
      }),
    ]);
    const [send] = await store.history('FAB');
    expect(send).toMatchObject({ periodId: period.id, trigger: 'scheduled' });
    expect((await store.pdf('FAB', send!.id))?.byteLength).toBe(send!.sizeInBytes);

    // queued again for the same period: it was sent, nothing more goes out
    const again = await fixture.run(reportsId, {});
    expect(again.result).toBe('succeeded');
    expect(again.log).toContain(`Sent before: FAB ${period.id}`);
    expect(reportMail()).toHaveLength(1);
  }, 180_000);
});
