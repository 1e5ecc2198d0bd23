import {
  makesCapturePartial,
  NOT_CAPTURED_NOTICE_TEXTS,
  notCapturedByReason,
  type NotCapturedWorkload,
} from '@aegis/domain';
import type { Content } from 'pdfmake/interfaces';

import { callout } from './blocks';
import { breakable } from './format';
import { colours } from './theme';

/**
 * The 'not captured' notice of the screens (ADR 050) as a PDF block: each reason once, after the
 * workloads it kept out. A partial capture is a warning (amber), workloads no capture can read are
 * information. Nothing when every workload was read.
 */
export function notCapturedNotice(workloads: readonly NotCapturedWorkload[]): Content[] {
  if (workloads.length === 0) return [];
  const partial = workloads.some(makesCapturePartial);
  return [
    callout(
      {
        stack: [
          {
            text: partial
              ? NOT_CAPTURED_NOTICE_TEXTS.partialTitle
              : NOT_CAPTURED_NOTICE_TEXTS.title,
            bold: true,
            fontSize: 11,
            color: partial ? colours.text : colours.brand,
          },
          {
            text: NOT_CAPTURED_NOTICE_TEXTS.body,
            fontSize: 9,
            margin: [0, 2, 0, 4],
          },
          {
            ul: notCapturedByReason(workloads).map(({ text, workloads: names }) => ({
              text: [{ text: breakable(names.join(', ')), bold: true }, `: ${breakable(text)}`],
            })),
            fontSize: 9,
            markerColor: partial ? colours.amber : colours.accent,
          },
        ],
      },
      partial
        ? { fill: colours.amberLight, edge: colours.amber, margin: [0, 0, 0, 16] }
        : { fill: colours.brandLight, edge: colours.brand, margin: [0, 0, 0, 16] },
    ),
  ];
}
