import {
  areaStatus,
  complianceBand,
  formatHeaderPercentage,
  formatSummaryPercentage,
} from '@aegis/domain';
import type { CanvasElement, Column, Content, TableCell } from 'pdfmake/interfaces';

import { CONTENT_WIDTH, gridLayout, sectionTitle } from '../pdf/blocks';
import { bandColour, colours, passRateIconSvg } from '../pdf/theme';

import type { ReportContext } from './context';
import type { ReportCategorySummary } from './types';

const LABEL_WIDTH = 130;
const VALUE_WIDTH = 34;
const COUNT_WIDTH = 44;
const ICON_WIDTH = 12;
const GAP = 6;
/** The bars' full width: whatever the label, value, icon and count columns leave. */
export const BAR_WIDTH =
  CONTENT_WIDTH - LABEL_WIDTH - VALUE_WIDTH - ICON_WIDTH - COUNT_WIDTH - 4 * GAP;
const BAR_HEIGHT = 12;
const ROW_PADDING = 4;
const TICKS = [0, 25, 50, 75, 100];

function gridLines(): CanvasElement[] {
  return TICKS.map((t) => ({
    type: 'line' as const,
    x1: (BAR_WIDTH * t) / 100,
    y1: -ROW_PADDING,
    x2: (BAR_WIDTH * t) / 100,
    y2: BAR_HEIGHT + ROW_PADDING,
    lineWidth: t === 0 ? 0.75 : 0.5,
    lineColor: t === 0 ? colours.muted : colours.border,
    ...(t === 0 ? {} : { dash: { length: 2, space: 2 } }),
  }));
}

function barRow(area: ReportCategorySummary): TableCell[] {
  const { barWidth } = complianceBand(area.percentage);
  const colour = bandColour(area.percentage);
  return [
    { text: area.name, fontSize: 9, color: colours.text, alignment: 'right', margin: [0, 1, 0, 0] },
    {
      canvas: [
        ...gridLines(),
        { type: 'rect', x: 0, y: 0, w: (BAR_WIDTH * barWidth) / 100, h: BAR_HEIGHT, color: colour },
      ],
    },
    {
      text: formatHeaderPercentage(area.percentage),
      fontSize: 9,
      bold: true,
      color: colour,
      alignment: 'right',
      margin: [0, 1, 0, 0],
    },
    { svg: passRateIconSvg(area.percentage, ICON_WIDTH), margin: [0, 0.5, 0, 0] },
    {
      text: `${area.passing}/${area.passing + area.failing}`,
      fontSize: 8,
      color: colours.muted,
      margin: [0, 1.5, 0, 0],
    },
  ];
}

function axisRow(): TableCell[] {
  return [
    { text: '' },
    {
      stack: [
        { text: ' ', fontSize: 7 },
        ...TICKS.map((t) => ({
          text: `${t}%`,
          fontSize: 7,
          color: colours.muted,
          relativePosition: {
            x: (BAR_WIDTH * t) / 100 - (t === 0 ? 2 : t === 100 ? 12 : 7),
            y: -9,
          },
        })),
      ],
    },
    { text: '' },
    { text: '' },
    { text: '' },
  ];
}

function legendItem(colour: string, label: string): Column {
  return {
    columns: [
      { canvas: [{ type: 'rect', x: 0, y: 1.5, w: 8, h: 8, color: colour }], width: 12 },
      { text: label, fontSize: 8, color: colours.muted, width: 'auto' },
    ],
    width: 'auto',
    columnGap: 0,
  };
}

/**
 * The per-area compliance chart (issue 4): one horizontal bar per area, drawn with vector shapes, coloured by
 * the spec 1 §9 bands; 0% is a full red bar.
 */
export function complianceBarChart(areas: readonly ReportCategorySummary[]): Content {
  return {
    stack: [
      { text: 'Compliance by Area', style: 'h2' },
      {
        table: {
          widths: [LABEL_WIDTH, BAR_WIDTH, VALUE_WIDTH, ICON_WIDTH, COUNT_WIDTH],
          body: [...areas.map(barRow), axisRow()],
        },
        layout: {
          hLineWidth: () => 0,
          vLineWidth: () => 0,
          paddingLeft: (i: number) => (i === 0 ? 0 : GAP / 2),
          paddingRight: (i: number) => (i === 4 ? 0 : GAP / 2),
          paddingTop: () => ROW_PADDING,
          paddingBottom: () => ROW_PADDING,
        },
      },
      {
        columns: [
          legendItem(colours.green, 'Excellent (80% and above)'),
          legendItem(colours.amber, 'Moderate (50–79%)'),
          legendItem(colours.red, 'Poor (below 50%)'),
        ],
        columnGap: 18,
        margin: [LABEL_WIDTH + GAP, 8, 0, 0],
      },
    ],
    unbreakable: areas.length <= 30,
    margin: [0, 0, 0, 22],
  };
}

function breakdownTable(ctx: ReportContext): Content {
  const header = (text: string, alignment: 'left' | 'center' | 'right' = 'left'): TableCell => ({
    text,
    style: 'tableHeader',
    fillColor: colours.brand,
    alignment,
  });
  const rows: TableCell[][] = ctx.input.categories.map((area) => {
    const colour = bandColour(area.percentage);
    return [
      { text: area.name, bold: true, color: colours.text },
      { text: String(area.passing), alignment: 'center', color: colours.green },
      {
        text: String(area.failing),
        alignment: 'center',
        color: area.failing > 0 ? colours.red : colours.muted,
      },
      { text: String(area.passing + area.failing), alignment: 'center' },
      {
        text: formatSummaryPercentage(area.percentage),
        alignment: 'right',
        bold: true,
        color: colour,
      },
      {
        columns: [
          { svg: passRateIconSvg(area.percentage, 10), width: 10, margin: [0, 1, 0, 0] },
          { text: areaStatus(area.passing, area.failing), margin: [5, 0, 0, 0] },
        ],
      },
    ];
  });
  return {
    stack: [
      { text: 'Results by Area', style: 'h2' },
      {
        table: {
          headerRows: 1,
          dontBreakRows: true,
          widths: ['*', 50, 50, 45, 65, 100],
          body: [
            [
              header('Area'),
              header('Passing', 'center'),
              header('Failing', 'center'),
              header('Total', 'center'),
              header('Compliance', 'right'),
              header('Status'),
            ],
            ...rows,
          ],
        },
        layout: gridLayout({ headerRows: 1, zebra: true }),
        fontSize: 9,
      },
    ],
  };
}

/** Page 3: the compliance chart and the per-area table. */
export function categoryBreakdown(ctx: ReportContext): Content[] {
  return [
    sectionTitle('Category Breakdown'),
    {
      text: `Compliance of each area: the share of its ${ctx.noun.plural} that fully match the baseline.`,
      fontSize: 10,
      color: colours.text,
      margin: [0, 0, 0, 14],
    },
    complianceBarChart(ctx.input.categories),
    breakdownTable(ctx),
  ];
}
