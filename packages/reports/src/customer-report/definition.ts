import { movementSentence, SEVERITY_MEANINGS, SEVERITY_ORDER } from '@aegis/domain';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';

import {
  callout,
  confidentialFooter,
  CONTENT_WIDTH,
  gridLayout,
  hairline,
  sectionTitle,
} from '../pdf/blocks';
import { breakable, formatReportDate, formatReportLongDate } from '../pdf/format';
import { logoContent } from '../pdf/image';
import { notCapturedNotice } from '../pdf/not-captured';
import { renderPdf } from '../pdf/render';
import {
  bandColour,
  bandLightColour,
  colours,
  SEVERITY_COLOURS,
  SEVERITY_NAMES,
} from '../pdf/theme';

import type { CustomerReportInput, TrendFigure } from './types';

const LOGO_BOX = { width: 220, height: 90 };
const HEX_COLOUR = /^#[0-9A-Fa-f]{6}$/;

/** Parts of the report drawn in the MSP's colour. */
interface Theme {
  brand: string;
}

const isoDate = (iso: string): string => formatReportDate(new Date(iso));

function heading(text: string, theme: Theme, pageBreak: boolean): Content {
  const title = sectionTitle(text, pageBreak, theme.brand);
  return pageBreak ? title : { ...title, margin: [0, 14, 0, 0] };
}

function headerRow(cells: string[], theme: Theme): TableCell[] {
  return cells.map((text) => ({ text, style: 'tableHeader', fillColor: theme.brand }));
}

function table(widths: (string | number)[], head: TableCell[], rows: TableCell[][]): Content {
  return {
    table: { headerRows: 1, dontBreakRows: true, widths, body: [head, ...rows] },
    layout: gridLayout({ headerRows: 1, zebra: true }),
    fontSize: 9,
    margin: [0, 0, 0, 14],
  };
}

function nothing(text: string): Content {
  return { text, italics: true, color: colours.muted, margin: [0, 0, 0, 14] };
}

function cover(input: CustomerReportInput, theme: Theme): Content[] {
  const { branding } = input;
  const contact = [branding.contactEmail, branding.contactPhone, branding.website].filter(
    (part): part is string => Boolean(part?.trim()),
  );
  return [
    branding.logo !== undefined
      ? logoContent(branding.logo, LOGO_BOX)
      : { text: branding.mspName, fontSize: 24, bold: true, color: theme.brand },
    {
      text:
        input.period.cadence === 'monthly'
          ? 'Monthly compliance report'
          : 'Quarterly compliance report',
      fontSize: 28,
      bold: true,
      color: theme.brand,
      margin: [0, 110, 0, 6],
    },
    {
      text: `Microsoft 365 security and configuration, ${input.period.label}`,
      fontSize: 14,
      color: colours.muted,
    },
    {
      canvas: [{ type: 'rect', x: 0, y: 0, w: 64, h: 3, color: theme.brand }],
      margin: [0, 16, 0, 22],
    },
    { text: 'Prepared for', fontSize: 10, color: colours.muted },
    { text: input.customerName, fontSize: 24, bold: true, margin: [0, 2, 0, 4] },
    {
      text: `Report date: ${formatReportLongDate(input.generatedAt)}`,
      fontSize: 10,
      color: colours.muted,
    },
    {
      absolutePosition: { x: 50, y: 842 - 70 - 120 },
      stack: [
        hairline([0, 0, 0, 10]),
        { text: `Prepared by ${branding.mspName}`, bold: true, color: theme.brand },
        ...(contact.length > 0
          ? [{ text: contact.join('  ·  '), fontSize: 9, margin: [0, 2, 0, 0] }]
          : []),
        ...(branding.supportMessage?.trim()
          ? [
              {
                text: branding.supportMessage.trim(),
                fontSize: 9,
                color: colours.muted,
                margin: [0, 6, 0, 0],
              },
            ]
          : []),
      ] as Content[],
    },
  ];
}

function scoreBox(label: string, percentage: number | undefined, detail: string): TableCell {
  if (percentage === undefined) {
    return {
      stack: [
        { text: label, fontSize: 9, color: colours.muted },
        { text: 'Not measured', fontSize: 16, bold: true },
        { text: detail, fontSize: 8.5 },
      ],
      margin: [4, 4, 4, 4],
    };
  }
  return {
    stack: [
      { text: label, fontSize: 9, color: colours.muted },
      { text: `${percentage}%`, fontSize: 26, bold: true, color: bandColour(percentage) },
      { text: detail, fontSize: 8.5 },
    ],
    fillColor: bandLightColour(percentage),
    margin: [4, 4, 4, 4],
  };
}

const BAR_HEIGHT = 60;

/** The trend as two bars per period: company baseline and standard catalogue. */
function trendChart(points: readonly TrendFigure[], theme: Theme): Content {
  const slot = CONTENT_WIDTH / Math.max(points.length, 1);
  const bar = Math.min(14, slot / 3);
  const canvas = points.flatMap((p, i) => {
    const x = i * slot + (slot - 2 * bar - 2) / 2;
    const shapes = [];
    if (p.compliancePercentage !== null) {
      const h = (p.compliancePercentage / 100) * BAR_HEIGHT;
      shapes.push({ type: 'rect' as const, x, y: BAR_HEIGHT - h, w: bar, h, color: theme.brand });
    }
    if (p.standardPercentage !== null) {
      const h = (p.standardPercentage / 100) * BAR_HEIGHT;
      shapes.push({
        type: 'rect' as const,
        x: x + bar + 2,
        y: BAR_HEIGHT - h,
        w: bar,
        h,
        color: colours.accent,
      });
    }
    return shapes;
  });
  canvas.push({
    type: 'rect',
    x: 0,
    y: BAR_HEIGHT,
    w: CONTENT_WIDTH,
    h: 0.5,
    color: colours.border,
  });
  return {
    stack: [
      { canvas, margin: [0, 4, 0, 2] },
      {
        columns: points.map((p) => ({
          text: p.periodLabel,
          fontSize: 7,
          alignment: 'center' as const,
          color: colours.muted,
        })),
      },
      {
        text: [
          { text: '■ ', color: theme.brand },
          'Company baseline   ',
          { text: '■ ', color: colours.accent },
          'Standard catalogue',
        ],
        fontSize: 8,
        margin: [0, 4, 0, 8],
      },
    ],
  };
}

const figure = (value: number | null): string => (value === null ? '–' : `${value}%`);

function executiveSummary(input: CustomerReportInput, theme: Theme): Content[] {
  const { compliance, standard, previous } = input;
  const paragraphs = (input.introduction ?? '')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const critical = compliance.counts.critical;
  const outlook =
    critical > 0
      ? `${critical} critical ${critical === 1 ? 'deviation needs' : 'deviations need'} attention first; they are listed on the next pages with what each means for you.`
      : 'No critical deviations were found this period.';
  return [
    heading('Executive summary', theme, true),
    ...paragraphs.map((text): Content => ({ text, margin: [0, 0, 0, 8] })),
    ...notCapturedNotice(input.notCaptured),
    {
      table: {
        widths: ['*', '*'],
        body: [
          [
            scoreBox(
              'Compliance with our company baseline',
              compliance.percentage,
              `${compliance.compliantCount} of ${compliance.totalCount} policies match`,
            ),
            scoreBox(
              'Compliance with the standard catalogue',
              standard?.percentage,
              standard
                ? `${standard.passed} of ${standard.total} checks pass`
                : 'No setting it checks was captured',
            ),
          ],
        ],
      },
      layout: 'noBorders',
      margin: [0, 4, 0, 12],
    },
    {
      ul: [
        movementSentence(
          'Compliance with our company baseline',
          compliance.percentage,
          previous?.compliancePercentage ?? undefined,
        ),
        movementSentence(
          'Compliance with the standard catalogue',
          standard?.percentage,
          previous?.standardPercentage ?? undefined,
        ),
        `${compliance.deviationCount} ${compliance.deviationCount === 1 ? 'policy deviates' : 'policies deviate'} from the baseline; ${compliance.acceptedCount} accepted ${compliance.acceptedCount === 1 ? 'exception is' : 'exceptions are'} in force.`,
        outlook,
      ],
      margin: [0, 0, 0, 12],
    },
    { text: `Trend over the last ${input.trend.length} periods`, style: 'h2', color: theme.brand },
    trendChart(input.trend, theme),
    table(
      ['*', 110, 110],
      headerRow(['Period', 'Company baseline', 'Standard catalogue'], theme),
      input.trend.map((p) => [
        p.periodLabel,
        figure(p.compliancePercentage),
        figure(p.standardPercentage),
      ]),
    ),
  ];
}

function deviationsBySeverity(input: CustomerReportInput, theme: Theme): Content[] {
  const out: Content[] = [heading('Deviations by severity', theme, true)];
  if (input.deviations.length === 0) return [...out, nothing('Every baseline policy matches.')];
  for (const severity of SEVERITY_ORDER) {
    const rows = input.deviations.filter((d) => d.severity === severity);
    if (rows.length === 0) continue;
    out.push(
      {
        text: `${SEVERITY_NAMES[severity]} (${rows.length})`,
        style: 'h2',
        color: SEVERITY_COLOURS[severity],
        margin: [0, 6, 0, 2],
      },
      callout(
        { text: SEVERITY_MEANINGS[severity], fontSize: 9 },
        { fill: colours.zebra, edge: SEVERITY_COLOURS[severity], margin: [0, 0, 0, 6] },
      ),
      table(
        ['*', 120, 110],
        headerRow(['Policy', 'Area', 'Finding'], theme),
        rows.map((d) => [
          { text: breakable(d.policyName), bold: true },
          breakable(d.category),
          d.isMissing
            ? 'Not in your tenant'
            : `${d.deviationCount} ${d.deviationCount === 1 ? 'setting differs' : 'settings differ'}`,
        ]),
      ),
    );
  }
  return out;
}

function exceptions(input: CustomerReportInput, theme: Theme): Content[] {
  return [
    heading('Accepted exceptions', theme, false),
    input.exceptions.length === 0
      ? nothing('No exceptions are in force.')
      : table(
          ['*', '*', 90, 62],
          headerRow(['Policy and settings', 'Reason', 'Approved by', 'Expires'], theme),
          input.exceptions.map((e) => [
            {
              stack: [
                { text: breakable(e.policyName), bold: true },
                { text: breakable(e.properties.join(', ')), fontSize: 8, color: colours.muted },
              ],
            },
            e.reason?.trim() || 'No reason recorded',
            breakable(e.approvedBy ? `${e.acceptedBy}\n${e.approvedBy}` : e.acceptedBy),
            e.expiresAt ? isoDate(`${e.expiresAt}T00:00:00Z`) : 'Until revoked',
          ]),
        ),
  ];
}

function changes(input: CustomerReportInput, theme: Theme): Content[] {
  return [
    heading(`What we changed in ${input.period.label}`, theme, true),
    input.changes.length === 0
      ? nothing('No changes were made this period.')
      : table(
          [62, 120, '*'],
          headerRow(['Date', 'Change', 'Details'], theme),
          input.changes.map((c) => [isoDate(c.date), c.kind, breakable(c.description)]),
        ),
  ];
}

function backups(input: CustomerReportInput, theme: Theme): Content[] {
  const { health, restorePoints } = input.backups;
  return [
    heading('Backups and restore points', theme, false),
    { text: [{ text: 'Backup health: ', bold: true }, health], margin: [0, 0, 0, 6] },
    restorePoints.length === 0
      ? nothing('No restore point is available.')
      : table(
          [80, '*'],
          headerRow(['Date', 'Restore point'], theme),
          restorePoints.map((r) => [isoDate(r.date), breakable(r.name)]),
        ),
  ];
}

function openItems(input: CustomerReportInput, theme: Theme): Content[] {
  const { reviewsWaiting, approvalsWaiting, details } = input.openItems;
  return [
    heading('Open items', theme, false),
    {
      ul: [
        `${reviewsWaiting} configuration ${reviewsWaiting === 1 ? 'change is' : 'changes are'} waiting for our review.`,
        `${approvalsWaiting} ${approvalsWaiting === 1 ? 'exception is' : 'exceptions are'} waiting for a second approver.`,
        ...details,
      ],
      margin: [0, 0, 0, 12],
    },
  ];
}

/**
 * The customer's compliance report (issue 29) as a pdfmake document (pure): the MSP's cover, a
 * plain-language summary, deviations by severity, exceptions, the period's changes, backups and
 * open items; every page but the cover is footed with the customer, CONFIDENTIAL, the period and
 * its number.
 */
export function buildCustomerReportDefinition(input: CustomerReportInput): TDocumentDefinitions {
  const chosen = input.branding.primaryColour;
  const theme: Theme = { brand: chosen && HEX_COLOUR.test(chosen) ? chosen : colours.brand };
  return {
    pageSize: 'A4',
    pageMargins: [50, 50, 50, 60],
    info: {
      title: `${input.customerName} compliance report, ${input.period.label}`,
      author: input.branding.mspName,
      creator: 'Aegis',
    },
    footer: confidentialFooter(
      input.customerName,
      theme.brand,
      (currentPage, pageCount) => `${input.period.label}  ·  Page ${currentPage} of ${pageCount}`,
    ),
    content: [
      ...cover(input, theme),
      ...executiveSummary(input, theme),
      ...deviationsBySeverity(input, theme),
      ...exceptions(input, theme),
      ...changes(input, theme),
      ...backups(input, theme),
      ...openItems(input, theme),
    ],
    defaultStyle: { font: 'Roboto', fontSize: 10, color: colours.text },
    styles: {
      h1: { fontSize: 18, bold: true },
      h2: { fontSize: 12, bold: true, margin: [0, 4, 0, 4] },
      tableHeader: { bold: true, fontSize: 8, color: '#FFFFFF' },
    },
  };
}

/** The customer report as PDF bytes. */
export function createCustomerReportPdf(
  input: CustomerReportInput,
): Promise<Uint8Array<ArrayBuffer>> {
  return renderPdf(buildCustomerReportDefinition(input));
}
