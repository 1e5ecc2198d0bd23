import type { IncomingMessage } from 'node:http';

import {
  context,
  metrics,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Histogram,
  type MeterProvider,
  type Span,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  METRIC_HTTP_SERVER_REQUEST_DURATION,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { redactDeep, redactUrl } from '../lib/logging';
import { registering } from '../lib/registering';

/** The instrumentation scope of the server's spans and metrics. */
const SERVER_SCOPE = '@aegis/server';

interface RequestTelemetry {
  readonly span: Span;
  readonly startedAt: number;
}

/** The server span of each request in flight, by Node's request (the key Fastify's logger factory gets). */
const spans = new WeakMap<IncomingMessage, RequestTelemetry>();

let serverInstruments: { provider: MeterProvider; duration: Histogram } | undefined;

function requestDuration(): Histogram {
  const provider = metrics.getMeterProvider();
  if (serverInstruments?.provider !== provider) {
    serverInstruments = {
      provider,
      duration: provider
        .getMeter(SERVER_SCOPE)
        .createHistogram(METRIC_HTTP_SERVER_REQUEST_DURATION, {
          unit: 's',
          description: 'Duration of each request the Aegis server answered',
        }),
    };
  }
  return serverInstruments.duration;
}

/** The path of a request as a span may carry it: credential-shaped values redacted (ADR 056). */
function spanPath(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  return redactUrl(path);
}

/**
 * Starts the server span of a request, continuing the caller's W3C trace context when it sends
 * one. Without a registered SDK the span is a non-recording no-op and nothing is kept.
 */
function startServerSpan(raw: IncomingMessage): RequestTelemetry | undefined {
  const parent = propagation.extract(ROOT_CONTEXT, raw.headers);
  const method = raw.method ?? 'GET';
  const span = trace.getTracer(SERVER_SCOPE).startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: method,
        [ATTR_URL_PATH]: spanPath(raw.url),
        [ATTR_URL_SCHEME]: 'encrypted' in raw.socket ? 'https' : 'http',
      },
    },
    parent,
  );
  if (!span.isRecording()) return undefined;
  const telemetry = { span, startedAt: performance.now() };
  spans.set(raw, telemetry);
  return telemetry;
}

/** Ends the request's span with the status answered; `statusCode` is absent when none was sent. */
function endServerSpan(
  request: FastifyRequest,
  statusCode: number | undefined,
  errorType?: string,
): void {
  const telemetry = spans.get(request.raw);
  if (!telemetry) return;
  spans.delete(request.raw);
  const { span, startedAt } = telemetry;
  const route = request.routeOptions.url;
  const failure =
    errorType ?? (statusCode !== undefined && statusCode >= 500 ? String(statusCode) : undefined);
  if (statusCode !== undefined) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, statusCode);
  if (failure) {
    span.setAttribute(ATTR_ERROR_TYPE, failure);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
  requestDuration().record((performance.now() - startedAt) / 1000, {
    [ATTR_HTTP_REQUEST_METHOD]: request.method,
    ...(statusCode !== undefined ? { [ATTR_HTTP_RESPONSE_STATUS_CODE]: statusCode } : {}),
    ...(route ? { [ATTR_HTTP_ROUTE]: route } : {}),
    ...(failure ? { [ATTR_ERROR_TYPE]: failure } : {}),
  });
}

/**
 * OpenTelemetry for every request (ADR 061): a server span, active while the request is handled
 * so that the connectors' client spans are its children; `trace_id` and `span_id` on every log
 * line of the request; the request duration metric. Spans are made here, by Fastify's own hooks,
 * rather than by patching `node:http`, which the bundled production server and `inject` in
 * tests would both escape. Register it first: routes take the logger factory of their time.
 */
export const telemetryPlugin = fp(
  registering((app: FastifyInstance) => {
    // Fastify makes the request's logger before it logs 'incoming request': the span starts here so
    // that this line too carries the trace.
    app.setChildLoggerFactory(function childLogger(logger, bindings, options, raw) {
      const telemetry = startServerSpan(raw);
      if (!telemetry) return logger.child(bindings, options);
      const { traceId, spanId } = telemetry.span.spanContext();
      return logger.child({ ...bindings, trace_id: traceId, span_id: spanId }, options);
    });
    app.addHook('onRequest', (request, _reply, done) => {
      const telemetry = spans.get(request.raw);
      if (!telemetry) {
        done();
        return;
      }
      const route = request.routeOptions.url;
      if (route) {
        telemetry.span.updateName(`${request.method} ${route}`);
        telemetry.span.setAttribute(ATTR_HTTP_ROUTE, route);
      }
      // Everything after this hook (the other hooks, the handler, its calls) runs in the span.
      context.with(trace.setSpan(context.active(), telemetry.span), done);
    });
    app.addHook('onError', async (request, _reply, error) => {
      const telemetry = spans.get(request.raw);
      telemetry?.span.recordException({
        name: error.name,
        message: redactDeep(error.message) as string,
      });
    });
    app.addHook('onResponse', async (request, reply) => {
      endServerSpan(request, reply.statusCode);
    });
    app.addHook('onRequestAbort', (request, done) => {
      endServerSpan(request, undefined, 'aborted');
      done();
    });
  }),
  { name: 'telemetry' },
);
