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

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
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
  const maxRetries = options.maxRetries ?? 3;
  const retryable = options.retryableStatusCodes ?? [429, 503];
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
