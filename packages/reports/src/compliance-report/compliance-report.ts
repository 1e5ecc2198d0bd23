import {
  EXPORT_SEVERITY_LABELS,
  deviationsByCategory,
  displayValue,
  filterForExport,
  InputError,
  pdfScoreDescription,
  safeFileName,
  SEVERITY_ORDER,
  type ComplianceSummary,
  type ComplianceExportOptions,
  type DeviationSummary,
} from '@aegis/domain';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';

import {
  callout,
  confidentialFooter,
  CONTENT_WIDTH,
  gridLayout,
  sectionTitle,
} from '../pdf/blocks';
import { breakable, formatReportDate, generatedByName, type ReportUser } from '../pdf/format';
import { readLogo } from '../pdf/image';
import { notCapturedNotice } from '../pdf/not-captured';
import { renderPdf } from '../pdf/render';
import {
  bandColour,
  bandLightColour,
  colours,
  SEVERITY_COLOURS,
  SEVERITY_NAMES,
} from '../pdf/theme';

/** What the compliance PDF is made of (spec 3 §2 'Export Compliance Report', §9). */
export interface ComplianceReportInput {
  client: string;
  data: ComplianceSummary;
  options: ComplianceExportOptions;
  /** The company banner: a PNG or JPEG data URL (local storage key companyBanner). */
  banner?: string;
  generatedAt: Date;
  generatedBy: ReportUser;
}

/** Values in the PDF are cut at 50 characters (spec 3 §9). */
export const PDF_VALUE_LENGTH = 50;

const isoDay = (d: Date): string => d.toISOString().slice(0, 10);

/** `{client}_Baseline_Compliance_Report_{date}.pdf` (spec 3 §9); the date is yyyy-mm-dd. */
export function complianceReportFileName(client: string, date: Date): string {
  // the name's parts are joined by '_', so white space inside the client becomes '_' too
  const safe = safeFileName(client).replace(/\s/g, '_');
  return `${safe}_Baseline_Compliance_Report_${isoDay(date)}.pdf`;
}

function header(input: ComplianceReportInput): Content[] {
  const out: Content[] = [];
  if (input.banner) {
    const logo = readLogo(input.banner);
    if (logo.kind === 'image')
      out.push({ image: logo.dataUrl, fit: [CONTENT_WIDTH, 130], margin: [0, 0, 0, 16] });
  }
  const filter =
    input.options.severityFilter === 'all'
      ? 'All severities'
      : EXPORT_SEVERITY_LABELS[input.options.severityFilter];
  out.push(
    { text: 'Baseline Compliance Report', style: 'title' },
    {
      text: `${input.client} vs company baseline (main branch)`,
      fontSize: 13,
      color: colours.muted,
      margin: [0, 2, 0, 10],
    },
    {
      columns: [
        { text: [{ text: 'Generated: ', bold: true }, formatReportDate(input.generatedAt)] },
        { text: [{ text: 'By: ', bold: true }, generatedByName(input.generatedBy)] },
        { text: [{ text: 'Filter: ', bold: true }, filter] },
      ],
      fontSize: 9,
      margin: [0, 0, 0, 16],
    },
  );
  return out;
}

function executiveSummary(input: ComplianceReportInput): Content[] {
  const d = input.data;
  const score = d.compliancePercentage;
  const stat = (label: string, value: number, colour: string = colours.brand): TableCell => ({
    stack: [
      { text: String(value), fontSize: 18, bold: true, color: colour },
      { text: label, fontSize: 8.5, color: colours.muted },
    ],
    margin: [0, 4, 0, 4],
  });
  return [
    sectionTitle('Executive Summary', false),
    callout(
      {
        columns: [
          { text: `${score}%`, fontSize: 30, bold: true, color: bandColour(score), width: 'auto' },
          {
            stack: [
              { text: 'Overall compliance score', bold: true },
              { text: pdfScoreDescription(score), color: colours.text },
            ],
            margin: [14, 6, 0, 0],
          },
        ],
      },
      { fill: bandLightColour(score), edge: bandColour(score) },
    ),
    {
      table: {
        widths: ['*', '*', '*', '*'],
        body: [
          [
            stat('Total policies', d.totalCount),
            stat('Compliant', d.compliantCount, colours.green),
            stat('Deviations', d.deviationCount),
            stat('Accepted deviations', d.acceptedDeviationsCount),
          ],
          [
            stat('Critical', d.criticalCount, colours.red),
            stat('High', d.highCount, SEVERITY_COLOURS.high),
            stat('Medium', d.mediumCount, colours.amber),
            stat('Baseline prerequisites', d.prerequisiteCount, colours.muted),
          ],
        ],
      },
      layout: gridLayout({ headerRows: 0 }),
      margin: [0, 0, 0, 18],
    },
  ];
}

function categoryBreakdown(groups: readonly DeviationSummary[]): Content[] {
  const cats = deviationsByCategory(groups);
  const head = ['Service area', 'Policies', ...SEVERITY_ORDER.map((s) => SEVERITY_NAMES[s])].map(
    (text): TableCell => ({ text, style: 'tableHeader', fillColor: colours.brand }),
  );
  return [
    sectionTitle('Category Breakdown', false),
    {
      table: {
        headerRows: 1,
        widths: ['*', 50, 46, 40, 46, 36, 66],
        body: [
          head,
          ...cats.map((c): TableCell[] => [
            { text: c.category, bold: true },
            String(c.groups.length),
            ...SEVERITY_ORDER.map((s): TableCell => ({
              text: String(c.counts[s]),
              color: c.counts[s] > 0 ? SEVERITY_COLOURS[s] : colours.muted,
              bold: c.counts[s] > 0,
            })),
          ]),
        ],
      },
      layout: gridLayout({ headerRows: 1, zebra: true }),
      fontSize: 9,
      margin: [0, 0, 0, 18],
    },
  ];
}

function value(v: unknown): string {
  return breakable(displayValue(v, PDF_VALUE_LENGTH));
}

function policyBlock(g: DeviationSummary): Content {
  const rows: TableCell[][] = g.deviations.map((d) => [
    { text: breakable(displayValue(d.property, PDF_VALUE_LENGTH)), fontSize: 8 },
    { text: value(d.baselineValue), fontSize: 8 },
    { text: value(d.clientValue), fontSize: 8 },
    {
      text: SEVERITY_NAMES[d.severity],
      color: SEVERITY_COLOURS[d.severity],
      bold: true,
      fontSize: 8,
    },
  ]);
  return {
    stack: [
      {
        text: [
          {
            text: `${SEVERITY_NAMES[g.highestSeverity]}  `,
            color: SEVERITY_COLOURS[g.highestSeverity],
            bold: true,
          },
          { text: g.policyName, bold: true },
        ],
        margin: [0, 6, 0, 2],
      },
      {
        text: `${g.isMissing ? 'Missing from the client' : `${g.deviationCount} property deviation(s)`} · ${breakable(g.path)}`,
        fontSize: 8,
        color: colours.muted,
        margin: [0, 0, 0, 4],
      },
      {
        table: {
          headerRows: 1,
          dontBreakRows: true,
          widths: ['30%', '28%', '28%', '14%'],
          body: [
            ['Property', 'Baseline', 'Client', 'Severity'].map((text): TableCell => ({
              text,
              style: 'tableHeader',
              fillColor: colours.brand,
            })),
            ...rows,
          ],
        },
        layout: gridLayout({ headerRows: 1, zebra: true }),
      },
    ],
    margin: [0, 0, 0, 8],
  };
}

function detailedDeviations(groups: readonly DeviationSummary[]): Content[] {
  const out: Content[] = [sectionTitle('Detailed Deviations', true)];
  for (const c of deviationsByCategory(groups)) {
    out.push({ text: c.category, style: 'h2', margin: [0, 10, 0, 4] });
    for (const g of c.groups) out.push(policyBlock(g));
  }
  return out;
}

/**
 * The compliance report as a pdfmake document (pure): banner, title, and the sections the export options ask
 * for, over the deviation groups passing the severity and category filters. Pages are footed with the client,
 * 'CONFIDENTIAL' and page numbers (spec 3 §9).
 */
export function buildComplianceReportDefinition(
  input: ComplianceReportInput,
): TDocumentDefinitions {
  const groups = filterForExport(input.data.deviations, input.options);
  if (groups.length === 0 && !input.options.includeSummary) {
    throw new InputError('No deviations match the chosen filters.');
  }
  // what the capture did not read stands above every section: the figures below leave it out
  const content: Content[] = [...header(input), ...notCapturedNotice(input.data.notCaptured ?? [])];
  if (input.options.includeSummary) content.push(...executiveSummary(input));
  if (input.options.includeCategoryBreakdown && groups.length > 0)
    content.push(...categoryBreakdown(groups));
  if (input.options.includeDetailedDeviations && groups.length > 0)
    content.push(...detailedDeviations(groups));
  return {
    pageSize: 'A4',
    pageMargins: [50, 50, 50, 60],
    info: {
      title: `${input.client} Baseline Compliance Report`,
      author: generatedByName(input.generatedBy),
      creator: 'Aegis',
    },
    footer: confidentialFooter(
      input.client,
      colours.brand,
      (currentPage, pageCount) => `Page ${currentPage} of ${pageCount}`,
    ),
    content,
    defaultStyle: { font: 'Roboto', fontSize: 10, color: colours.text },
    styles: {
      title: { fontSize: 22, bold: true, color: colours.brand },
      h1: { fontSize: 18, bold: true, color: colours.brand },
      h2: { fontSize: 12, bold: true, color: colours.brand },
      tableHeader: { bold: true, fontSize: 8, color: '#FFFFFF' },
    },
  };
}

/** The compliance report as PDF bytes, in the browser or in Node. */
export function createComplianceReportPdf(
  input: ComplianceReportInput,
): Promise<Uint8Array<ArrayBuffer>> {
  return renderPdf(buildComplianceReportDefinition(input));
}
