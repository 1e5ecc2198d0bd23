import type { Content, ContentStack, ContentTable, CustomTableLayout } from 'pdfmake/interfaces';

import { colours } from './theme';

/** Width of the content area: A4 (595.28 pt) less the 50 pt left and right margins. */
export const CONTENT_WIDTH = 595.28 - 50 - 50;

/** A hairline across the content area. */
export function hairline(margin: [number, number, number, number]): Content {
  return {
    canvas: [
      {
        type: 'line',
        x1: 0,
        y1: 0,
        x2: CONTENT_WIDTH,
        y2: 0,
        lineWidth: 0.5,
        lineColor: colours.border,
      },
    ],
    margin,
  };
}

/**
 * A section title with an accent rule; `pageBreak` starts it on a new page. `colour` draws the
 * title and the accent in a colour of the report's own (the MSP's brand), instead of the theme's.
 */
export function sectionTitle(text: string, pageBreak = true, colour?: string): ContentStack {
  return {
    stack: [
      { text, style: 'h1', ...(colour ? { color: colour } : {}) },
      {
        canvas: [
          { type: 'rect', x: 0, y: 0, w: 48, h: 3, color: colour ?? colours.accent },
          {
            type: 'line',
            x1: 48,
            y1: 1.5,
            x2: CONTENT_WIDTH,
            y2: 1.5,
            lineWidth: 0.5,
            lineColor: colours.border,
          },
        ],
        margin: [0, 4, 0, 14],
      },
    ],
    ...(pageBreak ? { pageBreak: 'before' as const } : {}),
  };
}

/** A report's footer: whose report (in its colour), CONFIDENTIAL, and where in it the page is. */
export function confidentialFooter(
  owner: string,
  ownerColour: string,
  pageLabel: (currentPage: number, pageCount: number) => string,
): (currentPage: number, pageCount: number) => Content {
  return (currentPage, pageCount) => ({
    margin: [50, 20, 50, 0],
    columns: [
      { text: owner, bold: true, color: ownerColour },
      { text: 'CONFIDENTIAL', alignment: 'center', bold: true, color: colours.red },
      { text: pageLabel(currentPage, pageCount), alignment: 'right' },
    ],
    fontSize: 8,
    color: colours.muted,
  });
}

/** A one-cell box with a coloured left edge. */
export function callout(
  body: Content,
  options: { fill: string; edge: string; margin?: [number, number, number, number] },
): ContentTable {
  return {
    table: { widths: ['*'], body: [[body]] },
    layout: {
      fillColor: () => options.fill,
      hLineWidth: () => 0,
      vLineWidth: (i: number) => (i === 0 ? 3 : 0),
      vLineColor: () => options.edge,
      paddingLeft: () => 12,
      paddingRight: () => 12,
      paddingTop: () => 9,
      paddingBottom: () => 9,
    },
    margin: options.margin ?? [0, 0, 0, 12],
  };
}

/** Thin horizontal rules between rows, light outer frame, no inner vertical lines. */
export function gridLayout(options: { headerRows: number; zebra?: boolean }): CustomTableLayout {
  return {
    hLineWidth: (i, node) => (i === 0 || i === node.table.body.length ? 0.75 : 0.5),
    vLineWidth: (i, node) => (i === 0 || i === (node.table.body[0]?.length ?? 0) ? 0.75 : 0),
    hLineColor: () => colours.border,
    vLineColor: () => colours.border,
    fillColor: (rowIndex) =>
      options.zebra && rowIndex >= options.headerRows && (rowIndex - options.headerRows) % 2 === 1
        ? colours.zebra
        : null,
    paddingLeft: () => 6,
    paddingRight: () => 6,
    paddingTop: () => 4,
    paddingBottom: () => 4,
  };
}
