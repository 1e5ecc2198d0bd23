import type { Content } from 'pdfmake/interfaces';

import { callout } from '../pdf/blocks';
import { colours } from '../pdf/theme';

/** The failed-only banner (spec 1 §9). */
export function failedOnlyBanner(margin: [number, number, number, number]): Content {
  return callout(
    {
      stack: [
        { text: 'Showing Failed Results Only', bold: true, fontSize: 11, color: colours.red },
        {
          text: 'Passing settings are left out of the detailed findings. The summary and the category breakdown count every result.',
          fontSize: 8.5,
          color: colours.text,
          margin: [0, 2, 0, 0],
        },
      ],
    },
    { fill: colours.redLight, edge: colours.red, margin },
  );
}
