import { isServiceError, serviceDisplayName, type ServiceError } from '@aegis/connectors';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

import { registering } from '../lib/registering';

/** The body of every Aegis API error. */
interface ApiErrorBody {
  readonly error: string;
  readonly message: string;
  readonly field?: string;
  readonly statusCode: number;
  /** a machine-readable reason (ADR 042), e.g. NoClientConfiguration */
  readonly code?: string;
}

const statusByName: Record<string, number> = {
  InputError: 400,
  AuthenticationError: 401,
  NotAllowedError: 403,
  NotFoundError: 404,
  ConflictError: 409,
  TooManyRequestsError: 429,
};

/** What the API answers for an error: status, message and, for throttling, when to retry. */
export interface ErrorAnswer {
  readonly status: number;
  readonly message: string;
  readonly retryAfterInSeconds?: number;
}

/**
 * The one mapping from a failure to an HTTP answer (issue 9 §2, ADR 010). Domain errors by name;
 * an upstream failure (ServiceError, after the connector's retries) by what really happened:
 * conflict 409, failed precondition 412, not found 404, sign-in refused 401 (DevOps' 203
 * sign-in page instead of data is 502: the technician's own session is fine), permission refused 403, throttling 429/503 with its Retry-After, no answer
 * in time 504, anything else 502. Unknown errors are 500.
 */
export function answerForError(error: Error & { statusCode?: number }): ErrorAnswer {
  if (isServiceError(error)) return answerForServiceError(error);
  const mapped = statusByName[error.name];
  if (mapped) {
    const { retryAfterInSeconds } = error as { retryAfterInSeconds?: unknown };
    return {
      status: mapped,
      message: error.message,
      ...(typeof retryAfterInSeconds === 'number' ? { retryAfterInSeconds } : {}),
    };
  }
  const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
  return { status, message: error.message };
}

function answerForServiceError(error: ServiceError): ErrorAnswer {
  const service = serviceDisplayName(error.service);
  if (error.code === 'Timeout') return { status: 504, message: error.message };
  // DevOps' sign-in page answers the credentials Aegis sent on-behalf-of, not the technician's
  // own session: a 401 would tell the browser to sign in again, which cannot help.
  if (error.code === 'SignInPageReturned') {
    return { status: 502, message: `${error.message} Sign-in to ${service} needs attention.` };
  }
  switch (error.statusCode) {
    case 401:
      return { status: 401, message: `The ${service} sign-in was refused: ${error.message}` };
    case 403:
    case 404:
    case 409:
    case 412:
      return { status: error.statusCode, message: error.message };
    case 429:
    case 503:
      return {
        status: error.statusCode,
        message: error.message,
        ...(error.retryAfterInMs !== undefined
          ? { retryAfterInSeconds: Math.max(1, Math.ceil(error.retryAfterInMs / 1000)) }
          : {}),
      };
    default:
      return { status: 502, message: error.message };
  }
}

/** The HTTP status for an error (see {@link answerForError}). */
function statusForError(error: Error & { statusCode?: number }): number {
  return answerForError(error).status;
}

/** Maps errors to statuses once (STYLE R5): domain names, zod fields, service failures. */
export const errorHandlerPlugin = fp(
  registering((app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError & { field?: string }, request, reply) => {
      // a domain error's machine-readable reason (ADR 042); Fastify's own codes (FST_…) stay out
      const domainCode =
        error.name in statusByName && typeof error.code === 'string' ? error.code : undefined;
      if (hasZodFastifySchemaValidationErrors(error)) {
        const first = error.validation[0];
        const path = (first?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
        // A field the route does not know (every body is strict, issue 9 §4) is named itself.
        const unknownKey =
          first?.keyword === 'unrecognized_keys'
            ? (first.params as { keys?: unknown }).keys
            : undefined;
        const unknown = Array.isArray(unknownKey) ? String(unknownKey[0]) : undefined;
        const field = [error.validationContext, path, unknown].filter(Boolean).join('.');
        const body: ApiErrorBody = {
          error: 'Bad Request',
          statusCode: 400,
          field,
          message: unknown
            ? `${field}: is not a field this request accepts`
            : `${field || 'request'}: ${first?.message ?? 'is invalid'}`,
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
      const answer = answerForError(error);
      const { status } = answer;
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
        message: answer.message,
        ...(error.field ? { field: error.field } : {}),
        ...(domainCode ? { code: domainCode } : {}),
      };
      if (answer.retryAfterInSeconds !== undefined) {
        void reply.header('retry-after', String(answer.retryAfterInSeconds));
      }
      return reply.code(status).send(body);
    });
  }),
  { name: 'error-handler' },
);
