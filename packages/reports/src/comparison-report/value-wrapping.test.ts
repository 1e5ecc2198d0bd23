/// <reference types="node" />
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { breakPieces, displayValue } from '@aegis/domain';
import { describe, expect, it } from 'vitest';

import { createComparisonReportPdf, type ComparisonReportInput } from '../index';

import { detailColumns } from './detailed-findings';
import { sampleInput } from './sample-input';

const OUT_DIR = join(tmpdir(), 'aegis-comparison-report');

/** Current values a technician meets: policy ids, enum values, GUID lists, hashes (issue 19). */
const CURRENT = [
  'CA001-Global-AttackSurfaceReduction-AnyApp-AnyPlatform-BLOCK-CountryWhitelist',
  'enabledForReportingButNotEnforced',
  '3f2a9c1b7e4d5a6f8b0c1d2e3f4a5b6c7d8e9f0a',
  ['62e90394-69f5-4237-9190-012177145e10', 'f28a1f50-f6e7-4571-818b-6a12f2af6b6c'],
  'microsoft.maintenance/maintenanceconfigurations',
  'AllowedToReadBitlockerKeysForOwnedDevice',
];

interface Word {
  x: number;
  y: number;
  text: string;
}

/** Every word of the PDF with its page-relative position (pdftotext -bbox). */
function words(file: string): Word[][] {
  const html = execFileSync('/usr/bin/pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
  return html
    .split('<page ')
    .slice(1)
    .map((page) =>
      [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)<\/word>/g)].map(
        (m) => ({
          x: Number(m[1]),
          y: Number(m[2]),
          text: m[3]!
            .replace(/\u200b/g, '')
            .replace(/&quot;/g, '"')
            .replace(/&amp;/g, '&'),
        }),
      ),
    );
}

/** The lines of each cell of the Current column, top to bottom. */
function currentCells(page: Word[], valueWidth: number): string[][] {
  const header = page.find((w) => w.text === 'Current');
  if (!header) return [];
  const left = header.x - 1;
  const right = left + valueWidth - 6;
  const lines = new Map<number, Word[]>();
  for (const w of page.filter((w) => w.y > header.y + 2 && w.x >= left && w.x < right)) {
    const y = Math.round(w.y);
    lines.set(y, [...(lines.get(y) ?? []), w]);
  }
  const cells: string[][] = [];
  let lastY = -Infinity;
  for (const [y, line] of [...lines.entries()].sort((a, b) => a[0] - b[0])) {
    const text = line
      .sort((a, b) => a.x - b.x)
      .map((w) => w.text)
      .join(' ');
    // a new row starts after the cell padding and rule, more than a line's height below
    if (y - lastY > 13) cells.push([text]);
    else cells.at(-1)!.push(text);
    lastY = y;
  }
  return cells;
}

describe('long values in the detail tables (ADR 039)', () => {
  it('wrap only at the break points of the rule, after truncation at 50 characters', async () => {
    const input: ComparisonReportInput = sampleInput('options');
    input.findings = [
      {
        name: 'Conditional Access',
        policies: [
          {
            name: 'Long identifiers',
            rows: CURRENT.map((current, i) => ({
              setting: `value${i}`,
              expected: 'x',
              current,
              pass: false,
            })),
          },
        ],
      },
    ];
    mkdirSync(OUT_DIR, { recursive: true });
    const file = join(OUT_DIR, 'long-values.pdf');
    writeFileSync(file, await createComparisonReportPdf(input));
    execFileSync('/usr/bin/pdftoppm', [
      '-png',
      '-r',
      '90',
      '-f',
      '4',
      '-l',
      '4',
      file,
      join(OUT_DIR, 'long-values'),
    ]);

    const { valueRun } = detailColumns(118);
    const cells = words(file).flatMap((page) => currentCells(page, 118));
    const compact = (s: string) => s.replace(/\s+/g, '');
    for (const value of CURRENT) {
      const shown = displayValue(value);
      const cell = cells.find((c) => compact(c.join('')) === compact(shown));
      expect(cell, `${shown} in ${JSON.stringify(cells)}`).toBeDefined();
      // where a line may end: after each piece of the rule
      const ends = new Set<number>();
      let at = 0;
      for (const piece of breakPieces(shown, valueRun)) ends.add((at += compact(piece).length));
      let end = 0;
      for (const line of cell!.slice(0, -1)) {
        end += compact(line).length;
        expect(ends, `${shown} wraps after "${line}"`).toContain(end);
      }
    }
    // The id keeps AttackSurfaceReduction whole and breaks at its hyphens.
    expect(cells.map((c) => c.map(compact))).toContainEqual([
      'CA001-Global-',
      'AttackSurfaceReduction-',
      'AnyApp-AnyP...',
    ]);
  });
});
