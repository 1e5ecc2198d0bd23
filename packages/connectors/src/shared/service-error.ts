/** Which external service failed. */
export type ServiceName =
  'devops' | 'graph' | 'arm' | 'exchange' | 'teams' | 'tables' | 'blobs' | 'identity' | 'webhook';

const DISPLAY_NAMES: Record<ServiceName, string> = {
  devops: 'Azure DevOps',
  graph: 'Microsoft Graph',
  arm: 'Azure Resource Manager',
  exchange: 'The Exchange Online admin API',
  teams: 'The Teams admin configuration service',
  tables: 'Table storage',
  blobs: 'Blob storage',
  identity: 'The identity provider',
  webhook: 'The webhook receiver',
};

/** The service as people name it in messages. */
export function serviceDisplayName(service: ServiceName): string {
  return DISPLAY_NAMES[service];
}

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
