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

export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
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
