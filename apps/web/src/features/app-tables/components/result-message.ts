import type { TableOperationResponse } from '@aegis/contracts';

import { ApiError } from '../../../lib/api-client';

import type { BannerMessage } from './banner';

/** The banner for a change to rows: the success text, or the screen's error text with details. */
export function operationBanner(
  result: TableOperationResponse,
  errorText: (details: string) => string,
): BannerMessage {
  return result.failed.length === 0
    ? { intent: 'success', text: result.message }
    : { intent: 'error', text: errorText(result.message) };
}

export function errorDetails(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
