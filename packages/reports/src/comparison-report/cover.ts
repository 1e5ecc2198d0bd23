import { formatSummaryPercentage } from '@aegis/domain';
import type { Content } from 'pdfmake/interfaces';

import { hairline } from '../pdf/blocks';
import { formatReportLongDate, generatedByName } from '../pdf/format';
import { logoContent } from '../pdf/image';
import { bandColour, bandLightColour, bandName, colours, passRateIconSvg } from '../pdf/theme';

import type { ReportContext } from './context';
import { failedOnlyBanner } from './failed-only-banner';
import { baselineLabel } from './format';

export const REPORT_TITLE = 'Microsoft 365 Configuration Compliance Assessment';

const AEGIS_EMBLEM =
  `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="46" viewBox="0 0 40 46">` +
  `<path d="M20 1 L38 7.5 L38 21 C38 32.5 30.5 40.5 20 45 C9.5 40.5 2 32.5 2 21 L2 7.5 Z" fill="${colours.brand}"/>` +
  `<path d="M20 7 L32 11.5 L32 21.5 C32 29.5 27 35.5 20 38.8 Z" fill="${colours.accent}"/>` +
  `<path d="M12.5 22.5 L18 28 L28.5 16.5" fill="none" stroke="#FFFFFF" stroke-width="3.4" stroke-linecap="round" stroke-linejoin="round"/>` +
  `</svg>`;

/** Largest size of a custom logo on the cover, in points. */
const LOGO_BOX = { width: 200, height: 80 };

function logoBlock(ctx: ReportContext): Content {
  const { logo } = ctx.input.options;
  if (logo !== undefined) return logoContent(logo, LOGO_BOX);
  return {
    columns: [
      { svg: AEGIS_EMBLEM, width: 40 },
      {
        stack: [
          { text: 'Aegis', fontSize: 22, bold: true, color: colours.brand },
          { text: 'Microsoft 365 operations', fontSize: 9, color: colours.muted },
        ],
        margin: [10, 6, 0, 0],
      },
    ],
  };
}

function scoreCard(ctx: ReportContext): Content {
  const { score } = ctx.input.totals;
  const colour = bandColour(score);
  return {
    table: {
      widths: [56, '*'],
      body: [
        [
          { svg: passRateIconSvg(score, 40), margin: [4, 4, 0, 0] },
          {
            stack: [
              { text: 'Overall compliance score', fontSize: 9, color: colours.muted },
              {
                text: [
                  { text: formatSummaryPercentage(score), fontSize: 26, bold: true, color: colour },
                  { text: `   ${bandName(score)}`, fontSize: 12, bold: true, color: colour },
                ],
              },
              {
                text: `${ctx.passed} of ${ctx.total} ${ctx.noun.plural} meet the baseline`,
                fontSize: 9,
                color: colours.text,
              },
            ],
          },
        ],
      ],
    },
    layout: {
      fillColor: () => bandLightColour(score),
      hLineWidth: () => 0,
      vLineWidth: (i: number) => (i === 0 ? 4 : 0),
      vLineColor: () => colour,
      paddingLeft: () => 14,
      paddingRight: () => 14,
      paddingTop: () => 12,
      paddingBottom: () => 12,
    },
    margin: [0, 28, 0, 0],
  };
}

function details(ctx: ReportContext): Content {
  const { input } = ctx;
  const row = (label: string, value: string): Content[] => [
    { text: label, fontSize: 9, color: colours.muted },
    { text: value, fontSize: 10, color: colours.text, bold: true },
  ];
  return {
    absolutePosition: { x: 50, y: 842 - 70 - 110 },
    stack: [
      hairline([0, 0, 0, 10]),
      {
        table: {
          widths: [90, '*'],
          body: [
            row('Client', input.clientName),
            row('Baseline', ctx.baselineTitle),
            row('Report date', formatReportLongDate(input.generatedAt)),
            row('Prepared by', generatedByName(input.generatedBy)),
          ],
        },
        layout: 'noBorders',
      },
    ],
  };
}

/** Page 1: logo, title, client, overall score and report details; no header. */
export function coverPage(ctx: ReportContext): Content[] {
  const { input } = ctx;
  return [
    logoBlock(ctx),
    {
      text: REPORT_TITLE,
      fontSize: 28,
      bold: true,
      color: colours.brand,
      margin: [0, 110, 0, 6],
      lineHeight: 1.05,
    },
    { text: `${baselineLabel(input.baselineType)} Report`, fontSize: 16, color: colours.accent },
    {
      canvas: [{ type: 'rect', x: 0, y: 0, w: 64, h: 3, color: colours.accent }],
      margin: [0, 16, 0, 22],
    },
    { text: 'Prepared for', fontSize: 10, color: colours.muted },
    { text: input.clientName, fontSize: 22, bold: true, color: colours.text, margin: [0, 2, 0, 0] },
    scoreCard(ctx),
    ...(input.options.failedOnly ? [failedOnlyBanner([0, 16, 0, 0])] : []),
    details(ctx),
  ];
}
