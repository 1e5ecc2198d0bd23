import { tableRowsFailedSchema, type TableOperationResponse } from '@aegis/contracts';

import { ApiError } from '../../../lib/api-client';

import type { TableMessage } from './table-message-bar';

/** The message for a change to rows: the success text, or the screen's error text with details. */
export function operationMessage(
  result: TableOperationResponse,
  errorText: (details: string) => string,
): TableMessage {
  return result.failed.length === 0
    ? { intent: 'success', text: result.message }
    : { intent: 'error', text: errorText(result.message), failedRows: result.failed };
}

export function errorDetails(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The message for a failed request: the screen's error text with the server's message and, when
 * some rows of an operation on many rows failed (ADR 012), which rows and why.
 */
export function failureMessage(
  error: unknown,
  errorText: (details: string) => string,
): TableMessage {
  const rows = error instanceof ApiError ? tableRowsFailedSchema.safeParse(error.body) : undefined;
  return {
    intent: 'error',
    text: errorText(errorDetails(error)),
    ...(rows?.success && rows.data.failed.length > 0 ? { failedRows: rows.data.failed } : {}),
  };
}
