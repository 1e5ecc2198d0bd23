// A small fetch-based HTTP pipeline shared by the connectors: bearer token, JSON bodies, typed
// ServiceErrors carrying the service's own message, retries (shared/retry.ts), and a client span
// per call with the duration of each attempt (shared/telemetry.ts, ADR 061).
import { LRUCache } from 'lru-cache';

import { withRetry, parseRetryAfter, type RetryOptions } from './retry';
import {
  isServiceError,
  ServiceError,
  serviceDisplayName,
  type ServiceName,
} from './service-error';
import { recordAttempt, traceOutgoingCall, urlTemplate } from './telemetry';

export type QueryValue = string | number | boolean | undefined;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** serialised as JSON */
  body?: unknown;
  /**
   * `stream`: the body as chunks, read by the caller (large downloads processed as they arrive);
   * then the timeout is an idle timeout, reset by every chunk, not a limit on the whole answer.
   */
  responseType: 'json' | 'bytes' | 'text' | 'none' | 'stream';
  abortSignal?: AbortSignal;
}

export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ParsedServiceError {
  code?: string;
  message?: string;
}

export interface HttpPipelineOptions {
  service: ServiceName;
  /** bearer token per request; absent for anonymous endpoints (tenant discovery) */
  getToken?: () => Promise<string>;
  retry?: RetryOptions;
  fetch?: typeof fetch;
  /** reads the service's error body */
  parseError?: (status: number, body: string) => ParsedServiceError;
  /** header names to read the request id from, in order */
  requestIdHeaders?: readonly string[];
  /** a 2xx answer that is really a failure (e.g. DevOps' 203 sign-in page) */
  checkResponse?: (response: Response) => ServiceError | undefined;
  /**
   * How long one attempt may take, answer body included, before it is aborted and reported as a
   * `Timeout` ServiceError (default {@link DEFAULT_TIMEOUT_IN_MS}).
   */
  timeoutInMs?: number;
  /**
   * The URL's shape for telemetry, when the service knows it better than the generic
   * {@link urlTemplate} (DevOps: organisation, project, repository). Never carries a secret.
   */
  urlTemplate?: (url: URL) => string;
}

/**
 * URL templates by service and path: a call's template is worked out once, not on every call
 * (clients are made per request, so the cache is the module's). Paths repeat; ids are bounded by
 * the size.
 */
const templates = new LRUCache<string, string>({ max: 5_000 });

/** Issue 9 §2: an upstream that does not answer within 30 s is reported as a timeout. */
export const DEFAULT_TIMEOUT_IN_MS = 30_000;

/** The ServiceError for an upstream that did not answer in time (the server answers 504). */
export function timeoutError(service: ServiceName, timeoutInMs: number, cause?: unknown) {
  return new ServiceError(
    `${serviceDisplayName(service)} did not answer within ${Math.round(timeoutInMs / 100) / 10} seconds.`,
    { service, code: 'Timeout', cause },
  );
}

export class HttpPipeline {
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: HttpPipelineOptions) {
    this.fetchImpl = options.fetch ?? fetch;
  }

  requestIdOf(headers: Headers): string | undefined {
    for (const name of this.options.requestIdHeaders ?? ['x-ms-request-id']) {
      const value = headers.get(name);
      if (value) return value;
    }
    return undefined;
  }

  async send<T>(request: HttpRequest): Promise<HttpResponse<T>> {
    const url = new URL(request.url);
    const { service } = this.options;
    const key = `${service} ${url.origin}${url.pathname}`;
    const template = templates.get(key) ?? this.templateOf(key, url);
    return traceOutgoingCall({ service, method: request.method, url, template }, () =>
      withRetry(
        async (attempt) => {
          const started = performance.now();
          const outcome = {
            service,
            method: request.method,
            serverAddress: url.hostname,
            template,
          };
          try {
            const response = await this.sendInTime<T>(request);
            recordAttempt({
              ...outcome,
              attempt,
              statusCode: response.status,
              durationInMs: performance.now() - started,
            });
            return response;
          } catch (error) {
            const statusCode = isServiceError(error) ? error.statusCode : undefined;
            recordAttempt({
              ...outcome,
              attempt,
              durationInMs: performance.now() - started,
              ...(statusCode !== undefined
                ? { statusCode }
                : { errorType: isServiceError(error) ? (error.code ?? 'ServiceError') : 'Error' }),
            });
            throw error;
          }
        },
        this.options.retry,
        request.abortSignal,
      ),
    );
  }

  private templateOf(key: string, url: URL): string {
    const template = this.options.urlTemplate?.(url) ?? urlTemplate(url);
    templates.set(key, template);
    return template;
  }

  /** One attempt, aborted through an AbortSignal when it outlasts the timeout. */
  private async sendInTime<T>(request: HttpRequest): Promise<HttpResponse<T>> {
    const timeoutInMs = this.options.timeoutInMs ?? DEFAULT_TIMEOUT_IN_MS;
    if (request.responseType === 'stream') return this.sendStream<T>(request, timeoutInMs);
    const timeout = AbortSignal.timeout(timeoutInMs);
    const signal = request.abortSignal ? AbortSignal.any([request.abortSignal, timeout]) : timeout;
    try {
      return await this.sendOnce<T>({ ...request, abortSignal: signal });
    } catch (error) {
      if (timeout.aborted && !request.abortSignal?.aborted) {
        throw timeoutError(this.options.service, timeoutInMs, error);
      }
      throw error;
    }
  }

  /**
   * One attempt whose body the caller reads as it arrives: aborted when nothing arrives for the
   * timeout (headers first, then between chunks), so a long download that keeps flowing finishes.
   */
  private async sendStream<T>(request: HttpRequest, timeoutInMs: number): Promise<HttpResponse<T>> {
    const idle = new AbortController();
    let timer = setTimeout(() => idle.abort(), timeoutInMs);
    const rearm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => idle.abort(), timeoutInMs);
    };
    const signal = request.abortSignal
      ? AbortSignal.any([request.abortSignal, idle.signal])
      : idle.signal;
    const service = this.options.service;
    const timedOut = (error: unknown) =>
      idle.signal.aborted && !request.abortSignal?.aborted
        ? timeoutError(service, timeoutInMs, error)
        : error;
    let response: HttpResponse<ReadableStream<Uint8Array> | null>;
    try {
      response = await this.sendOnce<ReadableStream<Uint8Array> | null>({
        ...request,
        abortSignal: signal,
      });
    } catch (error) {
      clearTimeout(timer);
      throw timedOut(error);
    }
    rearm();
    const stream = response.body;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      if (!stream) return;
      const reader = stream.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          rearm();
          yield value;
        }
      } catch (error) {
        throw timedOut(error);
      } finally {
        clearTimeout(timer);
        reader.releaseLock();
        await stream.cancel().catch(() => undefined);
      }
    }
    return { status: response.status, headers: response.headers, body: chunks() as T };
  }

  private async sendOnce<T>(request: HttpRequest): Promise<HttpResponse<T>> {
    const url = new URL(request.url);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const token = this.options.getToken ? await this.options.getToken() : undefined;
    const headers: Record<string, string> = {
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      ...request.headers,
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method: request.method,
        headers,
        ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
        ...(request.abortSignal ? { signal: request.abortSignal } : {}),
      });
    } catch (error) {
      if (request.abortSignal?.aborted) throw error;
      throw new ServiceError(
        `${this.options.service} could not be reached: ${(error as Error).message}`,
        { service: this.options.service, code: 'NetworkError', cause: error },
      );
    }
    const requestId = this.requestIdOf(response.headers);
    const retryAfterInMs = parseRetryAfter(response.headers.get('retry-after'));
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const parsed = this.options.parseError?.(response.status, text) ?? {};
      throw new ServiceError(
        parsed.message ??
          (text.trim() ||
            `${this.options.service} answered ${response.status} ${response.statusText}`),
        {
          service: this.options.service,
          statusCode: response.status,
          ...(parsed.code ? { code: parsed.code } : {}),
          ...(requestId ? { requestId } : {}),
          ...(retryAfterInMs !== undefined ? { retryAfterInMs } : {}),
        },
      );
    }
    const rejected = this.options.checkResponse?.(response);
    if (rejected) {
      await response.body?.cancel().catch(() => undefined);
      throw rejected;
    }
    let body: unknown;
    if (request.responseType === 'json') {
      const text = await response.text();
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch (error) {
        throw new ServiceError(
          `Unexpected response format from ${this.options.service}: not JSON`,
          {
            service: this.options.service,
            statusCode: response.status,
            code: 'InvalidResponse',
            ...(requestId ? { requestId } : {}),
            cause: error,
          },
        );
      }
    } else if (request.responseType === 'bytes') {
      body = new Uint8Array(await response.arrayBuffer());
    } else if (request.responseType === 'text') {
      body = await response.text();
    } else if (request.responseType === 'stream') {
      body = response.body;
    } else {
      await response.body?.cancel().catch(() => undefined);
    }
    return { status: response.status, headers: response.headers, body: body as T };
  }
}
