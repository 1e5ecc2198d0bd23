import { renderPdf } from '../pdf/render';

import { buildComparisonReportDefinition } from './definition';
import type { ComparisonReportInput } from './types';

/**
 * The comparison report as PDF bytes (spec 1 §9). In the browser, wrap them in a Blob and download them as
 * {@link comparisonReportFileName}.
 */
export async function createComparisonReportPdf(
  input: ComparisonReportInput,
): Promise<Uint8Array<ArrayBuffer>> {
  return renderPdf(buildComparisonReportDefinition(input));
}
