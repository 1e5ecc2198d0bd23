import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  acceptDeviations,
  applyAcceptedDeviations,
  emptyAcceptedDeviations,
  evaluateCompliance,
  type ComplianceExportOptions,
} from '@aegis/domain';
import { describe, expect, it } from 'vitest';

import {
  buildComplianceReportDefinition,
  complianceReportFileName,
  createComplianceReportPdf,
  type ComplianceReportInput,
} from './compliance-report';

/** A 120×36 PNG standing in for the company banner. */
const PNG_LOGO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAHgAAAAkCAIAAADNSmkJAAAAnUlEQVR42u3auQ2AMBAEQFdCE5RA/wVQDWSIBPxiC5iVQwenCfcubNIlAQHoX0Kvy3T/UNZCR4lx10JnEeMuhC5WZp0BXanMOgm6iTLrCHRDZdagR0M3V2YNehz0Q8pn6/k6xxhf/QMaNGjQoEGDBg0aNGjQoEHrOpRK+mjKoO0MQduCj4N219EP2qVSP+gCbqDl0IncKNtAC+h3ZAfFaIHc+avWhAAAAABJRU5ErkJggg==';

const OUT_DIR = join(tmpdir(), 'aegis-compliance-report');
const LONG = 'x'.repeat(80);

const baseline = [
  {
    path: 'AzureAD/AuthorizationPolicy/Authorization Policy.json',
    content: {
      displayName: 'Authorization Policy',
      allowUserConsentForRiskyApps: false,
      guestUserRoleId: 'a',
    },
  },
  {
    path: 'ConditionalAccess/Policy/CA000.json',
    content: {
      displayName: 'CA000 MFA',
      state: 'enabled',
      conditions: { clientAppTypes: ['all'] },
    },
  },
  {
    path: 'Teams/MeetingPolicy/Global.json',
    content: { Identity: 'Global', AllowRecording: false, RecordingConfig: 'short' },
  },
  {
    path: 'Intune/DeviceConfiguration/Desc.json',
    content: { displayName: 'Desc', description2: 'short' },
  },
];
const client = [
  {
    path: 'AzureAD/AuthorizationPolicy/Authorization Policy.json',
    content: {
      displayName: 'Authorization Policy',
      allowUserConsentForRiskyApps: true,
      guestUserRoleId: 'b',
    },
  },
  {
    path: 'Teams/MeetingPolicy/Global.json',
    content: { Identity: 'Global', AllowRecording: false, RecordingConfig: 'long' },
  },
  {
    path: 'Intune/DeviceConfiguration/Desc.json',
    content: { displayName: 'Desc', description2: LONG },
  },
];
const data = evaluateCompliance(baseline, client);
const options = (o: Partial<ComplianceExportOptions> = {}): ComplianceExportOptions => ({
  includeSummary: true,
  includeCategoryBreakdown: true,
  includeDetailedDeviations: true,
  severityFilter: 'all',
  categories: ['AzureAD', 'ConditionalAccess', 'Intune', 'Teams'],
  ...o,
});
const input = (o: Partial<ComplianceReportInput> = {}): ComplianceReportInput => ({
  client: 'FAB',
  data,
  options: options(),
  generatedAt: new Date('2026-03-10T12:00:00Z'),
  generatedBy: { upn: 'alex.morgan@aegis-msp.example', displayName: 'Alex Morgan' },
  ...o,
});

async function render(name: string, i: ComplianceReportInput) {
  mkdirSync(OUT_DIR, { recursive: true });
  const file = join(OUT_DIR, `${name}.pdf`);
  const bytes = await createComplianceReportPdf(i);
  expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
  writeFileSync(file, bytes);
  const text = execFileSync('/usr/bin/pdftotext', ['-enc', 'UTF-8', file, '-'], {
    encoding: 'utf8',
  });
  execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '60', file, join(OUT_DIR, name)]);
  return { pages: text.split('\f').slice(0, -1), text };
}

describe('compliance report PDF', () => {
  it('is named {client}_Baseline_Compliance_Report_{date}.pdf', () => {
    expect(complianceReportFileName('FAB', new Date('2026-03-10T12:00:00Z'))).toBe(
      'FAB_Baseline_Compliance_Report_2026-03-10.pdf',
    );
  });

  it('has every section, the PDF score description and footed pages', async () => {
    const r = await render('all', input({ banner: PNG_LOGO }));
    expect(r.text).toContain('Baseline Compliance Report');
    expect(r.text).toContain('Executive Summary');
    expect(r.text).toContain('Low compliance - immediate attention needed');
    expect(r.text).toContain('Category Breakdown');
    expect(r.text).toContain('Detailed Deviations');
    expect(r.text).toContain('allowUserConsentForRiskyApps');
    r.pages.forEach((page, i) => {
      expect(page).toContain('CONFIDENTIAL');
      expect(page).toContain('FAB');
      expect(page).toContain(`Page ${i + 1} of ${r.pages.length}`);
    });
    // values are cut at 50 characters
    const compact = r.text.replace(/[\s\u200b]+/g, '');
    expect(compact).toContain(`${'x'.repeat(47)}...`);
    expect(compact).not.toContain('x'.repeat(48));
  });

  it('follows the options: Critical & High only, no breakdown', async () => {
    const r = await render(
      'critical-high',
      input({
        options: options({ severityFilter: 'criticalHigh', includeCategoryBreakdown: false }),
      }),
    );
    expect(r.text).toContain('Filter: Critical & High Only');
    expect(r.text).not.toContain('Category Breakdown');
    expect(r.text).toContain('CA000 MFA');
    expect(r.text).not.toContain('Authorization Policy');
    expect(r.text).not.toContain('RecordingConfig');
    expect(r.text).not.toContain('description2');
  });

  it('leaves out a section not ticked and categories not chosen', () => {
    const def = buildComplianceReportDefinition(
      input({ options: options({ includeSummary: false, categories: ['Teams'] }) }),
    );
    const text = JSON.stringify(def.content).replace(/\u200b/g, '');
    expect(text).not.toContain('Executive Summary');
    expect(text).toContain('RecordingConfig');
    expect(text).not.toContain('allowUserConsentForRiskyApps');
  });

  it('counts accepted deviations in the summary', () => {
    const accepted = applyAcceptedDeviations(
      data,
      acceptDeviations(emptyAcceptedDeviations('FAB'), {
        path: 'Teams/MeetingPolicy/Global.json',
        policyName: 'Global',
        category: 'Teams',
        properties: ['RecordingConfig'],
      }),
    );
    const text = JSON.stringify(
      buildComplianceReportDefinition(input({ data: accepted })).content,
    ).replace(/\u200b/g, '');
    expect(text).toContain('Accepted deviations');
    expect(text).not.toContain('RecordingConfig');
  });
});
