import { displayValue, formatHeaderPercentage, MISSING } from '@aegis/domain';
import type { Content, ContentText, TableCell, TableCellProperties } from 'pdfmake/interfaces';

import { CONTENT_WIDTH, gridLayout, sectionTitle } from '../pdf/blocks';
import { breakable, runFitting } from '../pdf/format';
import { bandColour, colours, passRateIconSvg } from '../pdf/theme';

import type { ReportContext } from './context';
import { failedOnlyBanner } from './failed-only-banner';
import { reportPolicyPasses } from './summarise';
import type { ReportCategory, ReportPolicy, ReportRow } from './types';

type TextCell = ContentText & TableCellProperties;

/** Detail table columns (spec 1 §9). */
const DETAIL_COLUMNS = ['Setting', 'Expected', 'Current', 'Status'] as const;

const FONT_SIZE = 8;
const STATUS_WIDTH = 38;

/**
 * Column widths of a detail table whose Expected and Current columns are `valueWidth` wide, and
 * the longest run of each column kept whole when a value wraps (ADR 039).
 */
export function detailColumns(valueWidth: number) {
  const settingWidth = CONTENT_WIDTH - 2 * valueWidth - STATUS_WIDTH;
  return {
    widths: ['*', valueWidth, valueWidth, STATUS_WIDTH],
    settingRun: runFitting(settingWidth, FONT_SIZE),
    valueRun: runFitting(valueWidth, FONT_SIZE),
  };
}

/** Options baseline policy tables; the standard baseline's check tables. */
const POLICY_COLUMNS = detailColumns(118);
const CHECK_COLUMNS = detailColumns(100);

/**
 * A value cell: truncated by the 50-character rule (47 plus '...', spec 1 §9), then wrapped at
 * the break points of ADR 039 only.
 */
function valueCell(value: unknown, longRun: number): TableCell {
  const text = displayValue(value);
  const placeholder = text === MISSING || text === 'Empty';
  return placeholder
    ? { text, italics: true, color: colours.muted }
    : { text: breakable(text, longRun), color: colours.text };
}

function statusCell(pass: boolean): TextCell {
  return {
    text: pass ? 'PASS' : 'FAIL',
    bold: true,
    fontSize: 7.5,
    alignment: 'center',
    color: pass ? colours.green : colours.red,
    fillColor: pass ? colours.greenLight : colours.redLight,
  };
}

function rowCells(row: ReportRow, columns: ReturnType<typeof detailColumns>): TableCell[] {
  return [
    { text: breakable(row.setting || '(whole policy)', columns.settingRun), color: colours.text },
    valueCell(row.expected, columns.valueRun),
    valueCell(row.current, columns.valueRun),
    statusCell(row.pass),
  ];
}

function policyTable(policy: ReportPolicy, shown: ReportRow[], ctx: ReportContext): Content {
  const pass = reportPolicyPasses(policy);
  const matching = policy.rows.filter((r) => r.pass).length;
  const settingsNote = ctx.input.options.failedOnly
    ? `${shown.length} failing of ${policy.rows.length} settings`
    : `${matching} of ${policy.rows.length} settings match`;
  const header = (text: string): TextCell => ({
    text,
    style: 'tableHeader',
    fillColor: colours.brand,
  });
  return {
    table: {
      headerRows: 2,
      keepWithHeaderRows: 1,
      dontBreakRows: true,
      widths: POLICY_COLUMNS.widths,
      body: [
        [
          {
            text: [
              { text: breakable(policy.name), bold: true, color: colours.brand, fontSize: 9.5 },
              // Non-breaking spaces: the note wraps as one piece, never as '19 of 19 settings / match'.
              {
                text: `   ${settingsNote.replace(/ /g, '\u00a0')}`,
                color: colours.muted,
                fontSize: 8,
              },
            ],
            colSpan: 3,
            fillColor: colours.brandLight,
          },
          {},
          {},
          { ...statusCell(pass), fillColor: pass ? colours.green : colours.red, color: '#FFFFFF' },
        ],
        [
          header(DETAIL_COLUMNS[0]),
          header(DETAIL_COLUMNS[1]),
          header(DETAIL_COLUMNS[2]),
          { ...header(DETAIL_COLUMNS[3]), alignment: 'center' },
        ],
        ...(shown.length > 0
          ? shown.map((row) => rowCells(row, POLICY_COLUMNS))
          : [
              [
                { text: 'No settings compared.', colSpan: 4, italics: true, color: colours.muted },
                {},
                {},
                {},
              ],
            ]),
      ],
    },
    layout: gridLayout({ headerRows: 2, zebra: true }),
    fontSize: FONT_SIZE,
    margin: [0, 0, 0, 10],
  };
}

/** Marks the parts of a category heading, so the page-break hook can tell them from the content after it. */
export const HEADING_PART = 'categoryHeadingPart';

function categoryHeading(category: ReportCategory, ctx: ReportContext): Content {
  const summary = ctx.input.categories.find((c) => c.name === category.name);
  const passing = summary?.passing ?? category.policies.filter(reportPolicyPasses).length;
  const total = summary ? summary.passing + summary.failing : category.policies.length;
  const percentage = summary?.percentage ?? (total > 0 ? Math.round((passing / total) * 100) : 0);
  return {
    table: {
      widths: [14, '*', 'auto'],
      body: [
        [
          { svg: passRateIconSvg(percentage, 14), margin: [0, 0.5, 0, 0], style: HEADING_PART },
          { text: category.name, bold: true, fontSize: 12, color: '#FFFFFF', style: HEADING_PART },
          {
            text: [
              {
                text: formatHeaderPercentage(percentage),
                bold: true,
                fontSize: 12,
                color: '#FFFFFF',
              },
              {
                text: `   ${passing} of ${total} ${ctx.noun.plural} passing`,
                fontSize: 8.5,
                color: '#D6E0EE',
              },
            ],
            alignment: 'right',
            margin: [0, 1.5, 0, 0],
            style: HEADING_PART,
          },
        ],
      ],
    },
    layout: {
      fillColor: () => colours.brand,
      hLineWidth: () => 0,
      vLineWidth: (i: number) => (i === 0 ? 4 : 0),
      vLineColor: () => bandColour(percentage),
      paddingLeft: (i: number) => (i === 0 ? 10 : 8),
      paddingRight: () => 10,
      paddingTop: () => 7,
      paddingBottom: () => 7,
    },
    headlineLevel: 1,
    margin: [0, 8, 0, 8],
  };
}

/** Standard baseline: one table per category, one row per check, the check named above its setting. */
function checksTable(policies: ShownCategory['policies']): Content {
  const header = (text: string): TextCell => ({
    text,
    style: 'tableHeader',
    fillColor: colours.brand,
  });
  const body: TableCell[][] = [
    [
      header(DETAIL_COLUMNS[0]),
      header(DETAIL_COLUMNS[1]),
      header(DETAIL_COLUMNS[2]),
      { ...header(DETAIL_COLUMNS[3]), alignment: 'center' },
    ],
  ];
  for (const { policy, rows } of policies) {
    for (const row of rows) {
      const [, ...values] = rowCells(row, CHECK_COLUMNS);
      body.push([
        {
          stack: [
            {
              text: breakable(policy.name, CHECK_COLUMNS.settingRun),
              bold: true,
              color: colours.brand,
              fontSize: 8.5,
            },
            ...(row.setting && row.setting !== policy.name
              ? [
                  {
                    text: breakable(row.setting, CHECK_COLUMNS.settingRun),
                    color: colours.muted,
                    fontSize: 7.5,
                    margin: [0, 1, 0, 0],
                  },
                ]
              : []),
          ],
        } as TableCell,
        ...values,
      ]);
    }
  }
  return {
    table: {
      headerRows: 1,
      keepWithHeaderRows: 1,
      dontBreakRows: true,
      widths: CHECK_COLUMNS.widths,
      body,
    },
    layout: gridLayout({ headerRows: 1, zebra: true }),
    fontSize: FONT_SIZE,
    margin: [0, 0, 0, 10],
  };
}

interface ShownCategory {
  category: ReportCategory;
  policies: { policy: ReportPolicy; rows: ReportRow[] }[];
}

/** What the report lists: everything, or for a failed-only report the failing rows of failing policies. */
function shownFindings(findings: readonly ReportCategory[], failedOnly: boolean): ShownCategory[] {
  return findings
    .map((category) => ({
      category,
      policies: category.policies
        .map((policy) => ({
          policy,
          rows: failedOnly ? policy.rows.filter((r) => !r.pass) : policy.rows,
        }))
        .filter((p) => !failedOnly || p.rows.length > 0),
    }))
    .filter((c) => c.policies.length > 0);
}

/** Pages 4 onward: category → policy tables (Setting, Expected, Current, Status). */
export function detailedFindings(ctx: ReportContext): Content[] {
  const { input } = ctx;
  const failedOnly = input.options.failedOnly;
  const shown = shownFindings(input.findings, failedOnly);
  const content: Content[] = [
    sectionTitle('Detailed Findings'),
    ...(failedOnly ? [failedOnlyBanner([0, 0, 0, 12])] : []),
    {
      text:
        `Each table lists the compared settings of one ${ctx.noun.singular}: the baseline's expected value, the ` +
        "client's current value and the result. Values longer than 50 characters are shortened with '...'; " +
        "'Missing' means the setting is absent, 'Empty' that it is an empty text.",
      fontSize: 9,
      color: colours.muted,
      lineHeight: 1.25,
      margin: [0, 0, 0, 8],
    },
  ];
  if (shown.length === 0) {
    content.push({
      text: failedOnly
        ? `No failed results: every ${ctx.noun.singular} matches the baseline.`
        : 'No settings were compared.',
      fontSize: 11,
      bold: true,
      color: failedOnly ? colours.green : colours.muted,
      margin: [0, 12, 0, 0],
    });
    return content;
  }
  for (const { category, policies } of shown) {
    content.push(categoryHeading(category, ctx));
    if (input.baselineType === 'standard') content.push(checksTable(policies));
    else for (const { policy, rows } of policies) content.push(policyTable(policy, rows, ctx));
  }
  return content;
}
