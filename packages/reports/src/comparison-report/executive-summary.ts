import { complianceBand, formatHeaderPercentage, formatSummaryPercentage } from '@aegis/domain';
import type { Content } from 'pdfmake/interfaces';

import { callout, CONTENT_WIDTH, sectionTitle } from '../pdf/blocks';
import { notCapturedNotice } from '../pdf/not-captured';
import { bandColour, bandName, colours, passRateIconSvg } from '../pdf/theme';

import type { ReportContext } from './context';

const ABOUT_THIS_REPORT = 'About This Report';

function tile(label: string, value: string, colour: string, fill: string): Content {
  return {
    table: {
      widths: ['*'],
      body: [
        [
          {
            stack: [
              {
                text: label.toUpperCase(),
                fontSize: 7.5,
                bold: true,
                color: colours.muted,
                characterSpacing: 0.4,
              },
              { text: value, fontSize: 22, bold: true, color: colour, margin: [0, 4, 0, 0] },
            ],
          },
        ],
      ],
    },
    layout: {
      fillColor: () => fill,
      hLineWidth: (i: number) => (i === 0 ? 3 : 0),
      hLineColor: () => colour,
      vLineWidth: () => 0,
      paddingLeft: () => 10,
      paddingRight: () => 10,
      paddingTop: () => 9,
      paddingBottom: () => 9,
    },
  };
}

function scoreBar(score: number): Content {
  const width = CONTENT_WIDTH - 16 - 8;
  const { barWidth } = complianceBand(score);
  const colour = bandColour(score);
  return {
    columns: [
      { svg: passRateIconSvg(score, 16), width: 16 },
      {
        stack: [
          {
            canvas: [
              { type: 'rect', x: 0, y: 0, w: width, h: 10, r: 5, color: colours.track },
              {
                type: 'rect',
                x: 0,
                y: 0,
                w: Math.max((width * barWidth) / 100, 10),
                h: 10,
                r: 5,
                color: colour,
              },
            ],
            margin: [0, 3, 0, 0],
          },
          {
            columns: [
              { text: `${bandName(score)} compliance`, fontSize: 8.5, bold: true, color: colour },
              {
                text: '0–49% poor · 50–79% moderate · 80–100% excellent',
                fontSize: 8,
                color: colours.muted,
                alignment: 'right',
              },
            ],
            margin: [0, 5, 0, 0],
          },
        ],
      },
    ],
    columnGap: 8,
    margin: [0, 14, 0, 18],
  };
}

function keyFindings(ctx: ReportContext): Content {
  const { categories } = ctx.input;
  const items: Content[] = [];
  items.push({
    text: [
      { text: `${ctx.passed} of ${ctx.total} ${ctx.noun.plural}`, bold: true },
      ` fully match the baseline; ${ctx.failed} ${ctx.failed === 1 ? ctx.noun.singular : ctx.noun.plural} ${ctx.failed === 1 ? 'has' : 'have'} at least one deviation.`,
    ],
  });
  const perfect = categories.filter((c) => c.failing === 0 && c.passing > 0);
  if (perfect.length > 0) {
    items.push({
      text: [
        { text: `${perfect.length} of ${categories.length} areas`, bold: true },
        ` ${perfect.length === 1 ? 'is' : 'are'} fully compliant: ${perfect.map((c) => c.name).join(', ')}.`,
      ],
    });
  }
  const attention = categories
    .filter((c) => c.percentage < 80 && c.passing + c.failing > 0)
    .sort((a, b) => a.percentage - b.percentage || a.name.localeCompare(b.name))
    .slice(0, 5);
  if (attention.length > 0) {
    items.push({
      text: [
        { text: 'Areas needing attention: ', bold: true },
        attention.map((c) => `${c.name} (${formatHeaderPercentage(c.percentage)})`).join(', '),
        '.',
      ],
    });
  } else {
    items.push({ text: 'Every area is at 80% or above.' });
  }
  return {
    stack: [
      { text: 'Key Findings', style: 'h2' },
      {
        ul: items,
        fontSize: 10,
        color: colours.text,
        lineHeight: 1.25,
        markerColor: colours.accent,
      },
    ],
    margin: [0, 0, 0, 18],
  };
}

function nextSteps(ctx: ReportContext): Content {
  const poor = ctx.input.categories.filter((c) => c.percentage < 50 && c.passing + c.failing > 0);
  const items: Content[] =
    ctx.failed === 0
      ? [
          `No action needed: every ${ctx.noun.singular} matches the baseline. Keep the configuration under regular review.`,
        ]
      : [
          `Review the ${ctx.failed} failing ${ctx.failed === 1 ? ctx.noun.singular : ctx.noun.plural} in Detailed Findings` +
            (poor.length > 0
              ? `, starting with the areas below 50%: ${poor.map((c) => c.name).join(', ')}.`
              : '.'),
          'Confirm whether each deviation is intended for this organisation and record the accepted exceptions.',
          'Apply the baseline value where a deviation is not intended, then run the comparison again to confirm.',
        ];
  return {
    stack: [
      { text: 'Recommended Next Steps', style: 'h2' },
      {
        ul: items,
        fontSize: 10,
        color: colours.text,
        lineHeight: 1.25,
        markerColor: colours.accent,
      },
    ],
    margin: [0, 0, 0, 18],
  };
}

function aboutThisReport(ctx: ReportContext): Content {
  return callout(
    {
      stack: [
        {
          text: ABOUT_THIS_REPORT,
          bold: true,
          fontSize: 11,
          color: colours.brand,
          margin: [0, 0, 0, 4],
        },
        {
          text:
            `This report checks the Microsoft 365 configuration of ${ctx.input.clientName} against the CIS Standard ` +
            'Baseline: general security best practices for Conditional Access, Azure AD settings, device settings, ' +
            'Defender for Office 365 and Exchange security. It is not the company baseline. Each check reads one ' +
            "setting of the tenant's configuration and compares it with the recommended value; a setting that is " +
            "not configured is shown as 'Missing'. A failed check is a recommendation to review: some settings may " +
            'differ on purpose for this organisation.',
          fontSize: 9,
          color: colours.text,
          lineHeight: 1.25,
        },
      ],
    },
    { fill: colours.brandLight, edge: colours.brand },
  );
}

/** Page 2: the overall score, totals, key findings and, for the standard baseline, 'About This Report'. */
export function executiveSummary(ctx: ReportContext): Content[] {
  const { input } = ctx;
  const { score } = input.totals;
  const noun = ctx.noun.plural.replace(/^./, (c) => c.toUpperCase());
  return [
    sectionTitle('Executive Summary'),
    {
      text:
        `This assessment compares the Microsoft 365 configuration of ${input.clientName} with the ` +
        `${ctx.baselineTitle}. A ${ctx.noun.singular} passes only when every one of its settings matches ` +
        'the baseline. The overall score is the share of passing ' +
        `${ctx.noun.plural}.`,
      fontSize: 10,
      color: colours.text,
      lineHeight: 1.3,
      margin: [0, 0, 0, 14],
    },
    ...notCapturedNotice(input.notCaptured ?? []),
    {
      columns: [
        tile('Overall Score', formatSummaryPercentage(score), bandColour(score), colours.zebra),
        tile(`${noun} Passed`, String(ctx.passed), colours.green, colours.greenLight),
        tile(`${noun} Failed`, String(ctx.failed), colours.red, colours.redLight),
        tile(`Total ${noun}`, String(ctx.total), colours.brand, colours.brandLight),
      ],
      columnGap: 10,
    },
    scoreBar(score),
    keyFindings(ctx),
    nextSteps(ctx),
    ...(input.baselineType === 'standard' ? [aboutThisReport(ctx)] : []),
  ];
}
