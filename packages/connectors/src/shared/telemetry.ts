// OpenTelemetry for every outgoing call (ADR 061): one client span per call and the duration of
// each attempt, written through @opentelemetry/api alone. Without a registered SDK the API is a
// no-op, so nothing is recorded and the cost is a few function calls; the server registers one
// when Application Insights is configured.
import {
  metrics,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Histogram,
  type Counter,
  type MeterProvider,
  type Span,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  METRIC_HTTP_CLIENT_REQUEST_DURATION,
} from '@opentelemetry/semantic-conventions';

import { isServiceError, type ServiceName } from './service-error';

/** The instrumentation scope of the connectors' spans and metrics. */
export const CONNECTORS_SCOPE = '@aegis/connectors';

/** `url.template` is still experimental in the semantic conventions, so it is not imported. */
export const ATTR_URL_TEMPLATE = 'url.template';
/** Which Microsoft service a call went to (the connectors' `ServiceName`). */
export const ATTR_AEGIS_SERVICE = 'aegis.service';
/** The retry decision's wait, and the service's own Retry-After when it gave one. */
export const ATTR_RETRY_DELAY_MS = 'aegis.retry.delay_ms';
export const ATTR_RETRY_AFTER_MS = 'aegis.retry.retry_after_ms';
/** true when the wait is the service's Retry-After; false when it was capped or there was none. */
export const ATTR_RETRY_AFTER_HONOURED = 'aegis.retry.retry_after_honoured';
/** The span event of a retry decision, and of giving up on a retryable failure. */
export const RETRY_EVENT = 'retry';
export const RETRIES_EXHAUSTED_EVENT = 'retries exhausted';
/** Counts retries per service and status (throttling shows here before it shows as failures). */
export const METRIC_CLIENT_RETRIES = 'aegis.client.retries';

/**
 * A GUID, a number, a commit or object id, a JSON Web Token (base64url JSON starts `eyJ`): values,
 * never part of a route's shape.
 */
const ID_SEGMENT =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+|(?=[0-9a-f]*\d)[0-9a-f]{7,}|eyJ.*)$/i;
/** Characters a REST route's own words use; anything else (encoded text, tokens) is a value. */
const WORD_SEGMENT = /^[A-Za-z$_][A-Za-z0-9._$-]{0,63}$/;

/** A path segment as it appears in a URL template: route words kept, values as `{id}`. */
export function templateSegment(segment: string): string {
  return segment === '' || (WORD_SEGMENT.test(segment) && !ID_SEGMENT.test(segment))
    ? segment
    : '{id}';
}

/**
 * The shape of a URL for a span's name: origin and path, with every segment that carries a value
 * (ids, numbers, encoded text, anything token-like) replaced by `{id}`, and no query string, so
 * a template never carries a secret or an unbounded number of distinct values.
 */
export function urlTemplate(url: URL | string): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  return `${parsed.origin}${parsed.pathname.split('/').map(templateSegment).join('/')}`;
}

interface ClientInstruments {
  readonly provider: MeterProvider;
  readonly duration: Histogram;
  readonly retries: Counter;
}

let instruments: ClientInstruments | undefined;

/** The instruments of the meter provider registered now (a test or the server may register one later). */
function clientInstruments(): ClientInstruments {
  const provider = metrics.getMeterProvider();
  if (instruments?.provider !== provider) {
    const meter = provider.getMeter(CONNECTORS_SCOPE);
    instruments = {
      provider,
      duration: meter.createHistogram(METRIC_HTTP_CLIENT_REQUEST_DURATION, {
        unit: 's',
        description: 'Duration of each HTTP request Aegis sends to a Microsoft service',
      }),
      retries: meter.createCounter(METRIC_CLIENT_RETRIES, {
        description:
          'Requests to a Microsoft service sent again after a throttled or failed answer',
      }),
    };
  }
  return instruments;
}

export interface OutgoingCall {
  service: ServiceName;
  method: string;
  /** the URL as sent; only its template reaches the span */
  url: URL | string;
  /** overrides the generic {@link urlTemplate} (a service that knows its own path shape) */
  template?: string;
}

/**
 * Runs one outgoing call (all its attempts) inside a client span named `{METHOD} {template}`.
 * The retry code records its decisions on this span ({@link recordRetry}); the span ends with
 * the final status, or the error's.
 */
export async function traceOutgoingCall<T>(
  call: OutgoingCall,
  operation: (span: Span) => Promise<T>,
): Promise<T> {
  const url = typeof call.url === 'string' ? new URL(call.url) : call.url;
  const template = call.template ?? urlTemplate(url);
  const tracer = trace.getTracer(CONNECTORS_SCOPE);
  return tracer.startActiveSpan(
    `${call.method} ${template}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: call.method,
        [ATTR_URL_TEMPLATE]: template,
        [ATTR_SERVER_ADDRESS]: url.hostname,
        ...(url.port ? { [ATTR_SERVER_PORT]: Number(url.port) } : {}),
        [ATTR_AEGIS_SERVICE]: call.service,
      },
    },
    async (span) => {
      try {
        const result = await operation(span);
        span.end();
        return result;
      } catch (error) {
        endWithError(span, error);
        throw error;
      }
    },
  );
}

/** Marks a call span that ended with an answer the caller treats as a failure (4xx, 5xx). */
export function recordFinalStatus(span: Span, statusCode: number): void {
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, statusCode);
  if (statusCode >= 400) {
    span.setAttribute(ATTR_ERROR_TYPE, String(statusCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}

function endWithError(span: Span, error: unknown): void {
  if (isServiceError(error)) {
    if (error.statusCode !== undefined) {
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, error.statusCode);
    }
    span.setAttribute(ATTR_ERROR_TYPE, error.code ?? String(error.statusCode ?? 'ServiceError'));
  } else {
    span.setAttribute(ATTR_ERROR_TYPE, error instanceof Error ? error.name : 'Error');
  }
  // The message is the service's own text (ServiceError), which never carries a credential.
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
  span.end();
}

export interface AttemptOutcome {
  service: ServiceName;
  method: string;
  serverAddress: string;
  template: string;
  /** 0 for the first attempt */
  attempt: number;
  durationInMs: number;
  statusCode?: number;
  /** the failure's code when there was no answer (timeout, network) */
  errorType?: string;
}

/** Records one attempt: the call span's status and resend count, and the duration metric. */
export function recordAttempt(outcome: AttemptOutcome): void {
  const span = trace.getActiveSpan();
  span?.setAttribute(ATTR_HTTP_REQUEST_RESEND_COUNT, outcome.attempt);
  if (outcome.statusCode !== undefined) {
    span?.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.statusCode);
  }
  const attributes: Attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: outcome.method,
    [ATTR_SERVER_ADDRESS]: outcome.serverAddress,
    [ATTR_URL_TEMPLATE]: outcome.template,
    [ATTR_AEGIS_SERVICE]: outcome.service,
    ...(outcome.statusCode !== undefined
      ? { [ATTR_HTTP_RESPONSE_STATUS_CODE]: outcome.statusCode }
      : {}),
    ...(outcome.errorType !== undefined
      ? { [ATTR_ERROR_TYPE]: outcome.errorType }
      : outcome.statusCode !== undefined && outcome.statusCode >= 400
        ? { [ATTR_ERROR_TYPE]: String(outcome.statusCode) }
        : {}),
  };
  clientInstruments().duration.record(outcome.durationInMs / 1000, attributes);
}

export interface RetryDecision {
  /** the attempt that failed, 0 for the first */
  attempt: number;
  statusCode?: number;
  delayInMs: number;
  retryAfterInMs?: number;
  /** whether the wait is the service's Retry-After (not capped, not ignored) */
  retryAfterHonoured: boolean;
  service?: ServiceName;
}

/** Records on the active call span that a failed attempt is retried, after how long and why. */
export function recordRetry(decision: RetryDecision): void {
  trace.getActiveSpan()?.addEvent(RETRY_EVENT, {
    [ATTR_HTTP_REQUEST_RESEND_COUNT]: decision.attempt + 1,
    ...(decision.statusCode !== undefined
      ? { [ATTR_HTTP_RESPONSE_STATUS_CODE]: decision.statusCode }
      : {}),
    [ATTR_RETRY_DELAY_MS]: Math.round(decision.delayInMs),
    ...(decision.retryAfterInMs !== undefined
      ? { [ATTR_RETRY_AFTER_MS]: decision.retryAfterInMs }
      : {}),
    [ATTR_RETRY_AFTER_HONOURED]: decision.retryAfterHonoured,
  });
  clientInstruments().retries.add(1, {
    ...(decision.service ? { [ATTR_AEGIS_SERVICE]: decision.service } : {}),
    ...(decision.statusCode !== undefined
      ? { [ATTR_HTTP_RESPONSE_STATUS_CODE]: decision.statusCode }
      : {}),
  });
}

/** Records that a retryable failure is not retried any more (the retries are used up). */
export function recordRetriesExhausted(attempts: number, statusCode?: number): void {
  trace.getActiveSpan()?.addEvent(RETRIES_EXHAUSTED_EVENT, {
    [ATTR_HTTP_REQUEST_RESEND_COUNT]: attempts - 1,
    ...(statusCode !== undefined ? { [ATTR_HTTP_RESPONSE_STATUS_CODE]: statusCode } : {}),
  });
}
