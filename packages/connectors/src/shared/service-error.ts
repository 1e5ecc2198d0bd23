/** Which external service failed. */
export type ServiceName = 'devops' | 'graph' | 'arm' | 'tables' | 'identity';

export interface ServiceErrorOptions {
  service: ServiceName;
  statusCode?: number;
  /** The service's own error code (Tables: odata.error.code). */
  code?: string;
  requestId?: string;
  retryAfterInMs?: number;
  cause?: unknown;
}

/**
 * A failure of an external service (after Azure's RestError). `message` is the service's own
 * text, verbatim; the server maps this error to 502 once.
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly service: ServiceName;
  readonly statusCode: number | undefined;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterInMs: number | undefined;

  constructor(message: string, options: ServiceErrorOptions) {
    super(message, { cause: options.cause });
    this.service = options.service;
    this.statusCode = options.statusCode;
    this.code = options.code;
    this.requestId = options.requestId;
    this.retryAfterInMs = options.retryAfterInMs;
  }
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && error.name === 'ServiceError';
}
