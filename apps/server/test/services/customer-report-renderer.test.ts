import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { inThreadRenderer, type CustomerReportRenderer } from '@aegis/insights';
import { SAMPLE_PNG_LOGO, sampleCustomerReportInput } from '@aegis/reports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { workerRenderer } from '../../src/services/customer-report-renderer';

describe('customer reports rendered on worker threads (ADR 072)', () => {
  let dir: string;
  let pool: CustomerReportRenderer;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'aegis-report-renderer-'));
    pool = workerRenderer(2);
  });

  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const pdfText = (bytes: Uint8Array, name: string): string => {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  };

  it('renders the PDF the server thread renders, page for page and word for word', async () => {
    const facts = sampleCustomerReportInput({ deviations: 40, logo: SAMPLE_PNG_LOGO });
    const [onWorker, inThread] = await Promise.all([
      pool.render(facts),
      inThreadRenderer.render(facts),
    ]);
    expect(onWorker).toBeInstanceOf(Uint8Array);
    const text = pdfText(onWorker, 'worker.pdf');
    expect(text).toContain('Northwind Managed Services');
    expect(text).toContain('CONFIDENTIAL');
    expect(text).toBe(pdfText(inThread, 'in-thread.pdf'));
  }, 60_000);

  it('renders reports side by side on its threads, each its own', async () => {
    const names = ['Contoso Ltd', 'Fabrikam Ltd', 'Adatum Corporation'];
    const pdfs = await Promise.all(
      names.map((customerName) => pool.render({ ...sampleCustomerReportInput(), customerName })),
    );
    pdfs.forEach((pdf, i) => expect(pdfText(pdf, `side-${i}.pdf`)).toContain(names[i]));
  }, 60_000);

  it("answers a rendering failure with the worker's error", async () => {
    const facts = sampleCustomerReportInput({ logo: 'data:image/gif;base64,R0lGODlh' });
    const [onWorker, inThread] = await Promise.allSettled([
      pool.render(facts),
      inThreadRenderer.render(facts),
    ]);
    expect(inThread.status).toBe('rejected');
    expect(onWorker.status).toBe('rejected');
    expect((onWorker as PromiseRejectedResult).reason).toMatchObject({
      message: ((inThread as PromiseRejectedResult).reason as Error).message,
    });
  }, 60_000);
});
