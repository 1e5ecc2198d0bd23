// Retries with exponential backoff and jitter, honouring a service's Retry-After. Each decision
// is recorded on the active span (ADR 061).
import { isServiceError } from './service-error';
import { recordRetriesExhausted, recordRetry } from './telemetry';

export interface RetryOptions {
  /** retries after the first attempt (default 3) */
  maxRetries?: number;
  /** first backoff when the service gives no Retry-After (default 500 ms) */
  baseDelayInMs?: number;
  /** cap for any single wait, Retry-After included (default 30 s) */
  maxDelayInMs?: number;
  /** statuses worth retrying (default 429 and 503) */
  retryableStatusCodes?: readonly number[];
  /** injectable for tests */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Statuses retried when the options name none: throttled (429) and unavailable (503). */
export const DEFAULT_RETRYABLE_STATUS_CODES: readonly number[] = [429, 503];
/** Retries after the first attempt when the options name none. */
export const DEFAULT_MAX_RETRIES = 3;

/** Why a signal aborted, as the error a waiter rejects with (`abort(reason)` accepts any value). */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new Error('The operation was aborted', { cause: reason });
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      if (signal) reject(abortError(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Parses Retry-After (delta seconds or an HTTP date) into milliseconds. */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before retry `attempt` (0-based): the service's Retry-After, else jittered doubling, capped. */
export function backoffDelay(
  attempt: number,
  options: RetryOptions,
  retryAfterInMs?: number,
): number {
  const max = options.maxDelayInMs ?? 30_000;
  if (retryAfterInMs !== undefined) return Math.min(retryAfterInMs, max);
  const base = options.baseDelayInMs ?? 500;
  const exponential = base * 2 ** attempt;
  return Math.min(exponential / 2 + Math.random() * (exponential / 2), max);
}

/** Runs `operation`, retrying ServiceErrors with a retryable status. */
export async function withRetry<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
  signal?: AbortSignal,
): Promise<T> {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const retryable = options.retryableStatusCodes ?? DEFAULT_RETRYABLE_STATUS_CODES;
  const sleep = options.sleep ?? abortableSleep;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await operation(attempt);
    } catch (error) {
      const isRetryable =
        isServiceError(error) &&
        error.statusCode !== undefined &&
        retryable.includes(error.statusCode);
      if (!isRetryable) throw error;
      if (attempt >= maxRetries) {
        recordRetriesExhausted(attempt + 1, error.statusCode);
        throw error;
      }
      const delayInMs = backoffDelay(attempt, options, error.retryAfterInMs);
      recordRetry({
        attempt,
        service: error.service,
        delayInMs,
        retryAfterHonoured:
          error.retryAfterInMs !== undefined && delayInMs === error.retryAfterInMs,
        ...(error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
        ...(error.retryAfterInMs !== undefined ? { retryAfterInMs: error.retryAfterInMs } : {}),
      });
      await sleep(delayInMs, signal);
    }
  }
}

/** How long optimistic concurrency keeps trying when writers race for the same thing. */
export interface ConflictRetryPolicy {
  /** attempts in all, the first included */
  readonly attempts: number;
  /** first back-off; doubles per attempt, with full jitter */
  readonly baseDelayInMs: number;
  /** cap for any single wait */
  readonly maxDelayInMs: number;
}

/** What one attempt of an optimistic write came to: done, or lost a race with another writer. */
export type ConflictOutcome = 'settled' | 'conflict';

/**
 * The one retry-on-conflict loop (issue 31): git pushes with `oldObjectId`, Table rows with
 * ETags and new RowKeys. `run(attempt)` reads fresh state, tries its write and says whether it
 * settled; after a conflict the next attempt starts after a jittered, doubling pause, so racing
 * writers do not collide again in lockstep. Answers the last outcome: 'conflict' when the attempts
 * ran out, which the caller reports in its own terms (a 409, rows that failed).
 */
export async function retryOnConflict(
  run: (attempt: number) => Promise<ConflictOutcome>,
  policy: ConflictRetryPolicy,
  sleep: (ms: number) => Promise<void> = abortableSleep,
): Promise<ConflictOutcome> {
  for (let attempt = 0; ; attempt += 1) {
    const outcome = await run(attempt);
    if (outcome === 'settled' || attempt + 1 >= policy.attempts) return outcome;
    const cap = Math.min(policy.maxDelayInMs, policy.baseDelayInMs * 2 ** Math.min(attempt, 10));
    await sleep(Math.random() * cap);
  }
}
