import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { createCustomerReportPdf } from './definition';
import { SAMPLE_PNG_LOGO, sampleCustomerReportInput } from './sample-input';

const OUT_DIR = join(tmpdir(), 'aegis-customer-report');

function pdfText(bytes: Uint8Array, name: string): string {
  mkdirSync(OUT_DIR, { recursive: true });
  const file = join(OUT_DIR, name);
  writeFileSync(file, bytes);
  // words in reading order, white space collapsed: a sentence may wrap anywhere
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

describe('customer report', () => {
  it('names the customer, period and figures, with CONFIDENTIAL and page numbers', async () => {
    const input = sampleCustomerReportInput({ logo: SAMPLE_PNG_LOGO });
    const text = pdfText(await createCustomerReportPdf(input), 'fab.pdf');
    expect(text).toContain('Fabrikam Ltd');
    expect(text).toContain('Monthly compliance report');
    expect(text).toContain('October 2026');
    expect(text).toContain('Report date: 5 November 2026');
    expect(text).toContain('83%');
    expect(text).toContain('71%');
    expect(text).toMatch(/up 5 points from 78%/);
    expect(text).toMatch(/standard catalogue is 71%, unchanged/);
    expect(text).toContain('CONFIDENTIAL');
    expect(text).toMatch(/Page 2 of \d+/);
    expect(text).toContain('Prepared by Northwind Managed Services');
    expect(text).toContain('service@northwind.example');
  });

  it('explains each severity present and lists exceptions, changes, backups and open items', async () => {
    const text = pdfText(await createCustomerReportPdf(sampleCustomerReportInput()), 'parts.pdf');
    expect(text).toMatch(/Critical \(3\)/);
    expect(text).toContain('These expose your organisation to attack');
    expect(text).toContain('Scanner account until the printer is replaced');
    expect(text).toContain('31/12/2026');
    expect(text).toContain('Capture 41 merged');
    expect(text).toContain('backup/FAB/daily_20261031_020000');
    expect(text).toContain('1 configuration change is waiting for our review.');
  });

  it('says so when there is nothing to list', async () => {
    const input = {
      ...sampleCustomerReportInput({ deviations: 0 }),
      exceptions: [],
      changes: [],
      backups: { health: 'No Backups' as const, restorePoints: [] },
    };
    const text = pdfText(await createCustomerReportPdf(input), 'empty.pdf');
    expect(text).toContain('Every baseline policy matches.');
    expect(text).toContain('No exceptions are in force.');
    expect(text).toContain('No changes were made this period.');
    expect(text).toContain('No restore point is available.');
  });
});
