/** Business errors, analogous to HTTP errors; the server maps `name` to a status once. */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * Machine-readable reasons an API error body can carry (`code`, ADR 042), for the screens that
 * must tell one 404 from another without reading its wording.
 */
export const ERROR_CODES = {
  /** main holds no configuration of the client: nothing captured yet, not a failure */
  noClientConfiguration: 'NoClientConfiguration',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
  constructor(
    message: string,
    /** why, for a screen that treats this absence as a state (the body's `code`) */
    readonly code?: ErrorCode,
  ) {
    super(message);
  }
}

export class ConflictError extends Error {
  override readonly name = 'ConflictError';
}

export class NotAllowedError extends Error {
  override readonly name = 'NotAllowedError';
}

export class AuthenticationError extends Error {
  override readonly name = 'AuthenticationError';
}

/** Too much asked at once by one caller: try again after `retryAfterInSeconds` (429). */
export class TooManyRequestsError extends Error {
  override readonly name = 'TooManyRequestsError';
  constructor(
    message: string,
    readonly retryAfterInSeconds: number,
  ) {
    super(message);
  }
}

/** One row that an operation on many rows could not change, with the reason. */
export interface FailedRowDetail {
  partitionKey: string;
  rowKey: string;
  message: string;
  /** the upstream status of the failure, when the service gave one */
  statusCode?: number;
}

/**
 * An operation on many rows in which at least one row failed (ADR 012): never answered as a
 * success. `cause` is the failure that decides the status (a ConflictError when rows kept
 * losing to concurrent changes, else the service's error); the body lists every failed row.
 */
export class RowsFailedError extends Error {
  override readonly name = 'RowsFailedError';
  constructor(
    message: string,
    readonly succeeded: number,
    readonly failed: readonly FailedRowDetail[],
    options: { cause: Error },
  ) {
    super(message, options);
  }
}
