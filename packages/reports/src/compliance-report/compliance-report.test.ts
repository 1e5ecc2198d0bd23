import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  acceptDeviations,
  applyAcceptedDeviations,
  buildCaptureManifest,
  complianceSummary,
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
  const layout = execFileSync('/usr/bin/pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], {
    encoding: 'utf8',
  });
  execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '60', file, join(OUT_DIR, name)]);
  return { pages: text.split('\f').slice(0, -1), text, layout };
}

/** A summary tile's figure: the number above its label in the page's layout. */
function figure(layout: string, label: string): string | undefined {
  const lines = layout.split('\n');
  const at = lines.findIndex((l) => l.includes(label));
  const above = lines[at - 1];
  return above?.slice(lines[at]?.indexOf(label)).trim().split(/\s+/)[0];
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

  describe("a client whose capture's manifest marks a workload failed", () => {
    // Teams failed with a 500 and Planner has no public API; the client's Teams file on main is
    // stale (left as it was), so without the manifest its RecordingConfig is a deviation
    const manifest = buildCaptureManifest(new Date('2026-03-10T11:00:00Z'), [
      ['AzureAD/AuthorizationPolicy', { status: 'read', count: 1 }],
      [
        'Teams/MeetingPolicy',
        { status: 'failed', httpStatus: 500, message: 'InternalServerError' },
      ],
      ['Planner/PlannerConfiguration', { status: 'noPublicApi' }],
    ]);
    const screenData = complianceSummary(evaluateCompliance(baseline, client, { manifest }));
    const text = (t: string) => t.replace(/\u200b/g, '');

    it("shows it as 'Not captured: {reason}' and counts none of its policies", async () => {
      const without = await render('not-captured-without-manifest', input());
      expect(without.text).toContain('RecordingConfig');

      const r = await render('not-captured', input({ data: screenData }));
      const all = text(r.text);
      expect(all).toContain('Partial capture: some workloads were not read');
      expect(all).toContain('Their policies are left as they were and are not compared.');
      expect(all).toMatch(
        /Teams\/MeetingPolicy:\s+Not captured: the service answered 500: InternalServerError/,
      );
      expect(all).toContain(
        'Planner/PlannerConfiguration: Not captured: Microsoft publishes no API',
      );
      // the Teams policy is neither a deviation, nor in the breakdown, nor in the totals
      expect(all).not.toContain('RecordingConfig');
      expect(all).not.toMatch(/^Teams$/m);
      expect(figure(without.layout, 'Total policies')).toBe('4');
      expect(figure(without.layout, 'Deviations')).toBe('4');
      expect(figure(r.layout, 'Total policies')).toBe('3');
      expect(figure(r.layout, 'Deviations')).toBe('3');
      // the notice stands on the first page, above the summary
      expect(text(r.pages[0] ?? '').indexOf('Partial capture')).toBeLessThan(
        text(r.pages[0] ?? '').indexOf('Executive Summary'),
      );
    });

    it('shows the notice when only the summary is exported', async () => {
      const r = await render(
        'not-captured-summary-only',
        input({
          data: screenData,
          options: options({ includeCategoryBreakdown: false, includeDetailedDeviations: false }),
        }),
      );
      expect(text(r.text)).toContain('Not captured: the service answered 500: InternalServerError');
    });

    it('is information, not a warning, when nothing failed (no public API, not licensed)', () => {
      const permanent = buildCaptureManifest(new Date('2026-03-10T11:00:00Z'), [
        ['Planner/PlannerConfiguration', { status: 'noPublicApi' }],
      ]);
      const def = buildComplianceReportDefinition(
        input({
          data: complianceSummary(evaluateCompliance(baseline, client, { manifest: permanent })),
        }),
      );
      const content = text(JSON.stringify(def.content));
      expect(content).toContain('Some workloads are not captured');
      expect(content).not.toContain('Partial capture');
      // and a fully read capture has no notice at all
      expect(text(JSON.stringify(buildComplianceReportDefinition(input()).content))).not.toContain(
        'Not captured',
      );
    });
  });
});
