// Aegis's mechanisms inside an Azure SDK client's pipeline (ADR 058): telemetry (ADR 061), the bearer token from Aegis's
// own acquisition (in place of the SDK's bearer policy, which refuses plain http and so the
// emulators), Aegis's retry (retry.ts: 429/503, Retry-After honoured, the SDK's own retry turned
// off so a request is never retried twice over), the per-attempt timeout of the other connectors,
// and requests sent through a given `fetch` (the gateway counts and tests record them).
import type { AccessToken, TokenCredential } from '@azure/core-auth';
import {
  bearerTokenAuthenticationPolicyName,
  createHttpHeaders,
  type HttpClient,
  type Pipeline,
  type PipelinePolicy,
  type PipelineRequest,
  type PipelineResponse,
} from '@azure/core-rest-pipeline';

import { timeoutError } from './http';
import { parseRetryAfter, withRetry, type RetryOptions } from './retry';
import { ServiceError, isServiceError, type ServiceName } from './service-error';
import { recordAttempt, recordFinalStatus, traceOutgoingCall, urlTemplate } from './telemetry';

/**
 * A TokenCredential over Aegis's token acquisition. Its tokens are asked for on every request
 * (expiry reported as now): the acquisition behind `getToken` caches them, the SDK does not.
 */
export function tokenCredential(getToken: () => Promise<string>): TokenCredential {
  return {
    async getToken(): Promise<AccessToken> {
      return { token: await getToken(), expiresOnTimestamp: Date.now() };
    },
  };
}

/**
 * The bearer token of `credential` on every attempt. It replaces the SDK's bearer policy (see
 * {@link withAegisAuthentication}), which refuses any URL but https: ARM's URL is configuration
 * (https in production, the tenant emulator's http URL on `npm start` and in tests).
 */
export function bearerTokenPolicy(credential: TokenCredential): PipelinePolicy {
  return {
    name: 'aegisBearerToken',
    async sendRequest(request, next) {
      const token = await credential.getToken([], {
        abortSignal: request.abortSignal as AbortSignal | undefined,
      });
      if (!token) throw new Error('No token was acquired for the request');
      request.headers.set('Authorization', `Bearer ${token.token}`);
      return next(request);
    },
  };
}

/** Takes the SDK's own bearer policy out of a client's pipeline: {@link bearerTokenPolicy} signs. */
export function withAegisAuthentication<T extends { pipeline: Pipeline }>(client: T): T {
  client.pipeline.removePolicy({ name: bearerTokenAuthenticationPolicyName });
  return client;
}

/**
 * Aegis's retry as a pipeline policy, inside one client span per call with each attempt recorded,
 * as HttpPipeline does (ADR 061): an answer of 400 or more is retried when `withRetry` would retry
 * it (429 and 503 by default, after Retry-After), each attempt through the rest of the pipeline (a
 * fresh token included). The last answer goes back to the SDK, which makes its error.
 */
export function retryPolicy(service: ServiceName, options: RetryOptions = {}): PipelinePolicy {
  return {
    name: 'aegisRetry',
    async sendRequest(request, next) {
      const url = new URL(request.url);
      const template = urlTemplate(url);
      const outcome = { service, method: request.method, serverAddress: url.hostname, template };
      let last: PipelineResponse | undefined;
      const attempts = () =>
        withRetry(
          async (attempt) => {
            const started = performance.now();
            try {
              last = await next(request);
            } catch (error) {
              recordAttempt({
                ...outcome,
                attempt,
                durationInMs: performance.now() - started,
                errorType: error instanceof Error ? error.name : 'Error',
              });
              throw error;
            }
            recordAttempt({
              ...outcome,
              attempt,
              statusCode: last.status,
              durationInMs: performance.now() - started,
            });
            if (last.status < 400) return last;
            const retryAfterInMs = parseRetryAfter(last.headers.get('retry-after'));
            throw new ServiceError(`${service} answered ${last.status}`, {
              service,
              statusCode: last.status,
              ...(retryAfterInMs !== undefined ? { retryAfterInMs } : {}),
            });
          },
          options,
          request.abortSignal as AbortSignal | undefined,
        );
      return traceOutgoingCall({ service, method: request.method, url, template }, async (span) => {
        try {
          const response = await attempts();
          recordFinalStatus(span, response.status);
          return response;
        } catch (error) {
          if (!last || !isServiceError(error) || error.statusCode !== last.status) throw error;
          recordFinalStatus(span, last.status);
          return last;
        }
      });
    },
  };
}

/** Aborts an attempt through an AbortSignal when it outlasts the timeout (issue 9 §2). */
export function timeoutPolicy(service: ServiceName, timeoutInMs: number): PipelinePolicy {
  return {
    name: 'aegisTimeout',
    async sendRequest(request, next) {
      const timeout = AbortSignal.timeout(timeoutInMs);
      const callerSignal = request.abortSignal as AbortSignal | undefined;
      request.abortSignal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
      try {
        return await next(request);
      } catch (error) {
        if (timeout.aborted && !callerSignal?.aborted) {
          throw timeoutError(service, timeoutInMs, error);
        }
        throw error;
      }
    },
  };
}

/** An SDK HttpClient that sends through `fetchImpl` (JSON and text bodies: what ARM clients send). */
export function fetchHttpClient(fetchImpl: typeof fetch): HttpClient {
  return {
    async sendRequest(request: PipelineRequest): Promise<PipelineResponse> {
      const body = request.body;
      if (body !== undefined && body !== null && typeof body !== 'string') {
        throw new TypeError('fetchHttpClient sends string bodies only');
      }
      const response = await fetchImpl(request.url, {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        ...(typeof body === 'string' ? { body } : {}),
        ...(request.abortSignal ? { signal: request.abortSignal as AbortSignal } : {}),
      });
      const headers = createHttpHeaders();
      response.headers.forEach((value, name) => headers.set(name, value));
      return {
        request,
        status: response.status,
        headers,
        bodyAsText: request.method === 'HEAD' ? null : await response.text(),
      };
    },
  };
}
