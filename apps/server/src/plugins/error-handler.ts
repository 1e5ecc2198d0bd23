import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** The body of every Aegis API error. */
export interface ApiErrorBody {
  readonly error: string;
  readonly message: string;
  readonly field?: string;
  readonly statusCode: number;
}

const statusByName: Record<string, number> = {
  InputError: 400,
  AuthenticationError: 401,
  NotAllowedError: 403,
  NotFoundError: 404,
  ConflictError: 409,
  ServiceError: 502,
};

/** The HTTP status for an error: domain names, service failures, or a status the error carries. */
export function statusForError(error: Error & { statusCode?: number }): number {
  const mapped = statusByName[error.name];
  if (mapped) return mapped;
  return error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
}

/** Maps errors to statuses once (STYLE R5): domain names, zod fields, service failures. */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError & { field?: string }, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const first = error.validation[0];
        const path = (first?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
        const field = [error.validationContext, path].filter(Boolean).join('.');
        const body: ApiErrorBody = {
          error: 'Bad Request',
          statusCode: 400,
          field,
          message: `${field || 'request'}: ${first?.message ?? 'is invalid'}`,
        };
        return reply.code(400).send(body);
      }
      if (error.name === 'RowsFailedError') {
        // an operation on many rows that failed for some rows (ADR 012): the status of the
        // failure that decided it, and which rows failed
        const failure = error as FastifyError & {
          succeeded: number;
          failed: unknown[];
          cause?: Error & { statusCode?: number };
        };
        const rowsStatus = failure.cause ? statusForError(failure.cause) : 409;
        return reply.code(rowsStatus).send({
          error: failure.cause?.name ?? 'ConflictError',
          statusCode: rowsStatus,
          message: failure.message,
          succeeded: failure.succeeded,
          failed: failure.failed,
        });
      }
      const status = statusForError(error);
      if (status >= 500 && error.name !== 'ServiceError') {
        request.log.error({ err: error }, 'unhandled error');
        return reply.code(500).send({
          error: 'Internal Server Error',
          statusCode: 500,
          message: 'Internal Server Error',
        });
      }
      if (status >= 500) request.log.warn({ err: error }, 'service failure');
      const body: ApiErrorBody = {
        error: error.name,
        statusCode: status,
        message: error.message,
        ...(error.field ? { field: error.field } : {}),
      };
      return reply.code(status).send(body);
    });
  },
  { name: 'error-handler' },
);
