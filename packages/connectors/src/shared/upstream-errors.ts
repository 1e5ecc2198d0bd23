// Reading from an upstream service and wording what went wrong, once (ADR 010): the status a
// failure answers is decided by the server's answerForError; the services and tasks only say
// what "not there" means for them and put the spec's words in front of the message. Anything else
// keeps its upstream status, code, request id and Retry-After.
import { NotFoundError } from '@aegis/domain';

import { isServiceError, ServiceError } from './service-error';

/** Whether a failure means "not there": an upstream 404 or the domain's NotFoundError. */
export function isNotFound(error: unknown): boolean {
  return error instanceof NotFoundError || (isServiceError(error) && error.statusCode === 404);
}

/** The read's value, or undefined when what it reads is not there; other failures are kept. */
export async function orAbsent<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * The read's value; a "not there" failure becomes a 404 in the caller's words (`message`, or the
 * failure's own text when none is given). Other failures keep their status.
 */
export async function orNotFound<T>(read: Promise<T>, message?: string): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error)) throw new NotFoundError(message ?? (error as Error).message);
    throw error;
  }
}

/**
 * The value of a read that answers undefined for "absent" (ConfigRepository.readJson, findRef, …);
 * absent, or a "not there" failure, is a 404 in the caller's words. Other failures keep their status.
 */
export async function mustExist<T>(read: Promise<T | undefined>, message: string): Promise<T> {
  const value = await orNotFound(read, message);
  if (value === undefined) throw new NotFoundError(message);
  return value;
}

/** The spec's message for a failure: a prefix and the failure's own text (spec 1 §8, spec 3 §7). */
export function withPrefix(prefix: string, error: unknown): Error {
  if (isServiceError(error)) {
    return new ServiceError(`${prefix}${error.message}`, {
      service: error.service,
      ...(error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
      ...(error.code !== undefined ? { code: error.code } : {}),
      ...(error.requestId !== undefined ? { requestId: error.requestId } : {}),
      ...(error.retryAfterInMs !== undefined ? { retryAfterInMs: error.retryAfterInMs } : {}),
      cause: error,
    });
  }
  if (error instanceof NotFoundError) return new NotFoundError(`${prefix}${error.message}`);
  return error instanceof Error ? error : new Error(String(error));
}
