import {
  ServiceError,
  isNotFound,
  mustExist,
  orAbsent,
  orNotFound,
  withPrefix,
} from '@aegis/connectors';
import { NotFoundError } from '@aegis/domain';
import { describe, expect, it } from 'vitest';

import { answerForError } from '../../src/plugins/error-handler';

const upstream = (statusCode: number, extra: { retryAfterInMs?: number } = {}) =>
  new ServiceError('upstream said no', { service: 'devops', statusCode, ...extra });

describe('upstream errors', () => {
  it('knows "not there": an upstream 404 or a NotFoundError, nothing else', () => {
    expect(isNotFound(upstream(404))).toBe(true);
    expect(isNotFound(new NotFoundError('x'))).toBe(true);
    expect(isNotFound(upstream(409))).toBe(false);
    expect(isNotFound(new Error('404'))).toBe(false);
  });

  it('answers undefined for what is not there and keeps every other failure', async () => {
    await expect(orAbsent(Promise.reject(upstream(404)))).resolves.toBeUndefined();
    await expect(orAbsent(Promise.resolve(3))).resolves.toBe(3);
    const throttled = upstream(429, { retryAfterInMs: 2_000 });
    await expect(orAbsent(Promise.reject(throttled))).rejects.toBe(throttled);
  });

  it('words a "not there" failure as a 404 in the caller\'s words and keeps the others', async () => {
    const failed = orNotFound(Promise.reject(upstream(404)), 'Backup run 4 not found');
    await expect(failed).rejects.toThrow(new NotFoundError('Backup run 4 not found'));
    await expect(orNotFound(Promise.reject(upstream(404)))).rejects.toThrow('upstream said no');
    // a write that answers nothing is not "not there"
    await expect(orNotFound(Promise.resolve(undefined), 'No row')).resolves.toBeUndefined();
    const conflict = upstream(409);
    await expect(orNotFound(Promise.reject(conflict), 'No row')).rejects.toBe(conflict);
  });

  it('answers 404 for an absent file as for a 404, and keeps other failures', async () => {
    await expect(mustExist(Promise.resolve(undefined), 'No file')).rejects.toThrow(
      new NotFoundError('No file'),
    );
    await expect(mustExist(Promise.reject(upstream(404)), 'No file')).rejects.toThrow(
      new NotFoundError('No file'),
    );
    await expect(mustExist(Promise.resolve(null), 'No file')).resolves.toBeNull();
    const throttled = upstream(429, { retryAfterInMs: 2_000 });
    await expect(mustExist(Promise.reject(throttled), 'No file')).rejects.toBe(throttled);
  });

  it("puts the spec's prefix in front and keeps the status and Retry-After (ADR 010)", () => {
    const prefixed = withPrefix('Failed to create PR: ', upstream(503, { retryAfterInMs: 1_500 }));
    expect(answerForError(prefixed)).toEqual({
      status: 503,
      message: 'Failed to create PR: upstream said no',
      retryAfterInSeconds: 2,
    });
    expect(
      answerForError(withPrefix('Error fetching clients: ', new NotFoundError('no client'))),
    ).toEqual({ status: 404, message: 'Error fetching clients: no client' });
  });
});
