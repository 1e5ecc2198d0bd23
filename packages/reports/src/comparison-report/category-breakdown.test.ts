import type { CanvasRect, Content } from 'pdfmake/interfaces';
import { describe, expect, it } from 'vitest';

import { colours } from '../pdf/theme';

import { BAR_WIDTH, complianceBarChart } from './category-breakdown';

/** The filled bar of each area, in chart order (the legend's swatches left out). */
function bars(chart: Content): CanvasRect[] {
  const found: CanvasRect[] = [];
  const table = (chart as { stack: { table?: { body: unknown } }[] }).stack.find((n) => n.table);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const canvas = (node as { canvas?: unknown[] }).canvas;
    if (canvas) {
      found.push(...canvas.filter((e): e is CanvasRect => (e as CanvasRect).type === 'rect'));
      return;
    }
    Object.values(node).forEach(visit);
  };
  visit(table?.table?.body);
  return found;
}

describe('complianceBarChart', () => {
  it('draws one vector bar per area, sized and coloured by the spec 1 §9 bands', () => {
    const chart = complianceBarChart([
      { name: 'AzureAD', passing: 17, failing: 3, percentage: 85 },
      { name: 'Intune', passing: 6, failing: 4, percentage: 60 },
      { name: 'Exchange', passing: 3, failing: 7, percentage: 30 },
      { name: 'Defender', passing: 0, failing: 2, percentage: 0 },
      { name: 'Teams', passing: 4, failing: 1, percentage: 80 },
      { name: 'Forms', passing: 1, failing: 1, percentage: 50 },
    ]);
    const rects = bars(chart);
    expect(rects.map((r) => r.color)).toEqual([
      colours.green,
      colours.amber,
      colours.red,
      colours.red,
      colours.green,
      colours.amber,
    ]);
    expect(rects.map((r) => Math.round((r.w / BAR_WIDTH) * 100))).toEqual([
      85, 60, 30, 100, 80, 50,
    ]);
    expect(JSON.stringify(chart)).not.toContain('"image"');
  });

  it('labels each bar with its area and whole percentage', () => {
    const text = JSON.stringify(
      complianceBarChart([{ name: 'SharePoint', passing: 2, failing: 1, percentage: 67 }]),
    );
    expect(text).toContain('"SharePoint"');
    expect(text).toContain('"67%"');
    expect(text).toContain('"2/3"');
  });
});
