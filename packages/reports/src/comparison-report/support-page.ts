import type { Content } from 'pdfmake/interfaces';

import { callout, sectionTitle } from '../pdf/blocks';
import { generatedByName } from '../pdf/format';
import { colours } from '../pdf/theme';

import type { ReportContext } from './context';

const SUPPORT_TITLE = 'Support Information / Contact Details';

/** The last page, only when the Export Report modal was given a support message. */
export function supportPage(ctx: ReportContext): Content[] {
  const message = ctx.input.options.supportMessage?.trim();
  if (!message) return [];
  return [
    sectionTitle(SUPPORT_TITLE),
    {
      text: 'For questions about this report or help with the recommended changes, please contact:',
      fontSize: 10,
      color: colours.text,
      margin: [0, 0, 0, 12],
    },
    callout(
      {
        text: message.replace(/\r\n?/g, '\n'),
        fontSize: 10.5,
        color: colours.text,
        lineHeight: 1.35,
        preserveLeadingSpaces: true,
      },
      { fill: colours.brandLight, edge: colours.accent, margin: [0, 0, 0, 16] },
    ),
    {
      text: `Report prepared by ${generatedByName(ctx.input.generatedBy)}.`,
      fontSize: 9,
      color: colours.muted,
    },
  ];
}
