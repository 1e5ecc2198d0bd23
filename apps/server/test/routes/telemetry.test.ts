import { Writable } from 'node:stream';

import { context, metrics, propagation, SpanKind, trace } from '@opentelemetry/api';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type HistogramMetricData,
  type SumMetricData,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';
import { SAMPLE_USER } from '../helper';

/** Collects the metrics on demand (the test reads them; nothing is exported on a timer). */
class OnDemandMetricReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** How long to wait for work that ends just after an answer (a loaded machine is slow). */
const WAIT = { timeout: 20_000, interval: 20 };

/** A JSON Web Token anywhere in a text: what must never reach a span or a log line. */
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/;

const exporter = new InMemorySpanExporter();
const tracerProvider = new NodeTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
const metricReader = new OnDemandMetricReader();
const meterProvider = new MeterProvider({ readers: [metricReader] });

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

function serverSpanOf(name: string): ReadableSpan | undefined {
  return exporter
    .getFinishedSpans()
    .find((span) => span.kind === SpanKind.SERVER && span.name === name);
}

/** The server span ends in Fastify's onResponse hook, just after the answer is complete. */
async function finishedServerSpan(name: string): Promise<ReadableSpan> {
  return vi.waitFor(() => {
    const span = serverSpanOf(name);
    if (!span) throw new Error(`no finished server span '${name}'`);
    return span;
  }, WAIT);
}

function devOpsSpans(): ReadableSpan[] {
  return exporter
    .getFinishedSpans()
    .filter(
      (span) => span.kind === SpanKind.CLIENT && span.attributes['aegis.service'] === 'devops',
    );
}

async function collectedMetric(name: string) {
  const { resourceMetrics } = await metricReader.collect();
  return resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((metric) => metric.descriptor.name === name);
}

/** Every string a span would export: name, attributes, events, status. */
function exportedText(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    status: span.status,
  });
}

describe('telemetry (ADR 061)', () => {
  let env: AppWithDevOps;
  let startupCheck: ReadableSpan;

  beforeAll(async () => {
    tracerProvider.register();
    metrics.setGlobalMeterProvider(meterProvider);
    env = await buildWithSeededDevOps({ ports: { logStream, logLevel: 'info' } });
    // The start-up check of main's branch policy (ADR 051) is work of its own: its own trace,
    // finished before the tests look at theirs.
    startupCheck = await vi.waitFor(() => {
      const check = devOpsSpans().find((span) =>
        span.name.endsWith('/_apis/policy/configurations'),
      );
      if (!check) throw new Error('the branch policy check has not finished');
      return check;
    }, WAIT);
  });
  beforeEach(() => {
    exporter.reset();
    logLines.length = 0;
  });
  afterEach(() => env.devops.emulator.faults.clear());
  afterAll(async () => {
    await env.close();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
    metrics.disable();
  });

  const compare = () =>
    env.t.injectAs(SAMPLE_USER, {
      method: 'POST',
      url: '/api/comparison/runs',
      payload: { client: 'CON', baselineType: 'options' },
    });

  it('gives a comparison one trace: the server span and, as its children, the DevOps calls', async () => {
    const response = await compare();
    expect(response.statusCode).toBe(200);

    const server = await finishedServerSpan('POST /api/comparison/runs');
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/api/comparison/runs',
      'url.path': '/api/comparison/runs',
      'http.response.status_code': 200,
    });
    const calls = devOpsSpans();
    expect(calls.length).toBeGreaterThan(1);
    const { traceId, spanId } = server.spanContext();
    for (const call of calls) {
      expect(call.spanContext().traceId).toBe(traceId);
      expect(call.parentSpanContext?.spanId).toBe(spanId);
      expect(call.attributes['http.request.method']).toBe('GET');
      // 404: an optional file the comparison reads when it exists (accepted deviations, matches)
      expect([200, 404]).toContain(call.attributes['http.response.status_code']);
      // the organisation, project and repository are named, never their values; no query
      expect(call.attributes['url.template']).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/\{organization\}\/\{project\}\/_apis\/[^?]+$/,
      );
      expect(call.name).toBe(`GET ${String(call.attributes['url.template'])}`);
    }
    expect(
      calls.filter((call) => call.attributes['http.response.status_code'] === 200).length,
    ).toBeGreaterThan(1);
    expect(calls.map((call) => call.attributes['url.template'])).toContainEqual(
      expect.stringMatching(/\/_apis\/git\/repositories\/\{repository\}\/items$/),
    );

    // the DevOps token traded on the technician's behalf (ADR 031), inside the first DevOps call
    const grants = exporter
      .getFinishedSpans()
      .filter((span) => span.attributes['aegis.service'] === 'identity');
    expect(grants.length).toBeGreaterThan(0);
    for (const grant of grants) {
      expect(grant.spanContext().traceId).toBe(traceId);
      expect(grant.attributes).toMatchObject({
        'http.request.method': 'POST',
        'http.response.status_code': 200,
      });
      expect(grant.attributes['url.template']).toMatch(/\/oauth2\/v2\.0\/token$/);
    }

    const duration = (await collectedMetric('http.server.request.duration')) as
      HistogramMetricData | undefined;
    const comparison = duration?.dataPoints.find(
      (point) => point.attributes['http.route'] === '/api/comparison/runs',
    );
    expect(comparison?.value.count).toBe(1);
    expect(comparison?.attributes['http.response.status_code']).toBe(200);
    const outgoing = (await collectedMetric('http.client.request.duration')) as
      HistogramMetricData | undefined;
    const devopsCalls = (outgoing?.dataPoints ?? [])
      .filter((point) => point.attributes['aegis.service'] === 'devops')
      .reduce((sum, point) => sum + point.value.count, 0);
    expect(devopsCalls).toBeGreaterThanOrEqual(calls.length);
  });

  it('keeps work outside a request in a trace of its own (the start-up branch policy check)', () => {
    expect(startupCheck.parentSpanContext).toBeUndefined();
    expect(startupCheck.attributes['http.response.status_code']).toBe(200);
  });

  it('shows a throttled DevOps call retried after the Retry-After the emulator gave', async () => {
    // main's ref: the one call a comparison run again makes (the rest is cached by commit, ADR 088)
    env.devops.emulator.faults.add({
      kind: 'throttle',
      retryAfterInSeconds: 1,
      times: 1,
      method: 'GET',
      pathPattern: '/_apis/git/repositories/[^/]+/refs',
    });
    const response = await compare();
    expect(response.statusCode).toBe(200);
    await finishedServerSpan('POST /api/comparison/runs');

    const throttled = devOpsSpans().filter((span) =>
      span.events.some((event) => event.name === 'retry'),
    );
    expect(throttled).toHaveLength(1);
    const [call] = throttled;
    expect(call?.events.find((event) => event.name === 'retry')?.attributes).toEqual({
      'http.request.resend_count': 1,
      'http.response.status_code': 429,
      'aegis.retry.delay_ms': 1000,
      'aegis.retry.retry_after_ms': 1000,
      'aegis.retry.retry_after_honoured': true,
    });
    // the second attempt succeeded
    expect(call?.attributes['http.request.resend_count']).toBe(1);
    expect(call?.attributes['http.response.status_code']).toBe(200);

    const retries = (await collectedMetric('aegis.client.retries')) as SumMetricData | undefined;
    expect(
      retries?.dataPoints.find(
        (point) =>
          point.attributes['aegis.service'] === 'devops' &&
          point.attributes['http.response.status_code'] === 429,
      )?.value,
    ).toBe(1);
  });

  it('puts the trace on every log line of a request, and no token in a span or a log line', async () => {
    const token = await env.t.idp.issueToken(SAMPLE_USER);
    // a token where a careless client might put one: in the path and in the query
    const response = await env.t.app.inject({
      method: 'GET',
      url: `/api/comparison/${token}?access_token=${token}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(404);
    await compare();
    const server = await finishedServerSpan('POST /api/comparison/runs');

    const spans = exporter.getFinishedSpans();
    const notFound = spans.find(
      (span) =>
        span.kind === SpanKind.SERVER && span.attributes['http.response.status_code'] === 404,
    );
    expect(notFound?.attributes['url.path']).toBe('/api/comparison/[Redacted]');
    for (const span of spans) expect(exportedText(span)).not.toMatch(JWT);

    const requestLines = logLines
      .map((line) => JSON.parse(line) as { reqId?: string; trace_id?: string; span_id?: string })
      .filter((line) => line.reqId !== undefined);
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    for (const line of requestLines) {
      expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(requestLines.map((line) => line.trace_id)).toContain(server.spanContext().traceId);
    for (const line of logLines) expect(line).not.toMatch(JWT);
  });
});
