import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { devOpsUrlTemplate } from '../devops/devops-client';
import { TablesClient } from '../tables/tables-client';

import { HttpPipeline } from './http';
import { urlTemplate } from './telemetry';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  provider.register();
});
beforeEach(() => exporter.reset());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

const noWait = () => Promise.resolve();

/** A fetch that answers each call with the next of `answers`. */
function scriptedFetch(answers: (() => Response)[]): typeof fetch {
  return () => {
    const next = answers.shift();
    return next ? Promise.resolve(next()) : Promise.reject(new Error('no more answers'));
  };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });

function onlySpan(): ReadableSpan {
  const spans = exporter.getFinishedSpans();
  expect(spans).toHaveLength(1);
  return spans[0] as ReadableSpan;
}

describe('urlTemplate', () => {
  it('keeps the route words and replaces values, and drops the query', () => {
    expect(
      urlTemplate(
        'https://graph.microsoft.com/beta/deviceManagement/deviceConfigurations/0f8fad5b-d9cb-469f-a165-70867728950e/assignments?$expand=settings',
      ),
    ).toBe(
      'https://graph.microsoft.com/beta/deviceManagement/deviceConfigurations/{id}/assignments',
    );
    expect(urlTemplate('https://x.example/runs/42/commits/1a2b3c4d5e6f70/items')).toBe(
      'https://x.example/runs/{id}/commits/{id}/items',
    );
  });

  it('never keeps a token, an encoded value or a table key in a path', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGV4In0.c2lnbmF0dXJl';
    expect(urlTemplate(`https://x.example/hooks/${jwt}/go`)).toBe(
      'https://x.example/hooks/{id}/go',
    );
    expect(urlTemplate('https://x.example/items/Intune%20Policy?sig=secret')).toBe(
      'https://x.example/items/{id}',
    );
    expect(
      urlTemplate(
        "http://127.0.0.1:10002/devstoreaccount1/AegisAudit(PartitionKey='ABC',RowKey='1')",
      ),
    ).toBe('http://127.0.0.1:10002/devstoreaccount1/{id}');
  });

  it('names the organisation, project and repository of a DevOps URL', () => {
    const org = 'https://dev.azure.com/contoso';
    expect(
      devOpsUrlTemplate(
        org,
        new URL(`${org}/Tenant%20Management/_apis/git/repositories/M365Config/items?path=/x`),
      ),
    ).toBe(
      'https://dev.azure.com/{organization}/{project}/_apis/git/repositories/{repository}/items',
    );
    expect(devOpsUrlTemplate(org, new URL(`${org}/_apis/projects`))).toBe(
      'https://dev.azure.com/{organization}/_apis/projects',
    );
    expect(devOpsUrlTemplate(org, new URL(`${org}/Aegis/_apis/pipelines/7/runs/1234`))).toBe(
      'https://dev.azure.com/{organization}/{project}/_apis/pipelines/{id}/runs/{id}',
    );
  });
});

describe('the HTTP pipeline records each call', () => {
  it('as one client span with its method, template and status', async () => {
    const fetch = scriptedFetch([json(200, { value: [] })]);
    const http = new HttpPipeline({
      service: 'graph',
      fetch,
      getToken: () => Promise.resolve('a-token'),
    });
    await http.send({
      method: 'GET',
      url: 'https://graph.microsoft.com/v1.0/users/0f8fad5b-d9cb-469f-a165-70867728950e',
      query: { $select: 'id' },
      responseType: 'json',
    });
    const span = onlySpan();
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.name).toBe('GET https://graph.microsoft.com/v1.0/users/{id}');
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'url.template': 'https://graph.microsoft.com/v1.0/users/{id}',
      'server.address': 'graph.microsoft.com',
      'aegis.service': 'graph',
      'http.request.resend_count': 0,
      'http.response.status_code': 200,
    });
    expect(JSON.stringify(span.attributes)).not.toContain('a-token');
  });

  it('with the retry decisions: Retry-After honoured, or capped at the longest wait', async () => {
    const fetch = scriptedFetch([
      json(429, { error: { code: 'TooManyRequests' } }, { 'retry-after': '2' }),
      json(429, { error: { code: 'TooManyRequests' } }, { 'retry-after': '120' }),
      json(200, { ok: true }),
    ]);
    const http = new HttpPipeline({
      service: 'arm',
      fetch,
      retry: { sleep: noWait, maxDelayInMs: 30_000 },
    });
    await http.send({ method: 'PUT', url: 'https://management.azure.com/x', responseType: 'json' });
    const span = onlySpan();
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'retry',
        {
          'http.request.resend_count': 1,
          'http.response.status_code': 429,
          'aegis.retry.delay_ms': 2000,
          'aegis.retry.retry_after_ms': 2000,
          'aegis.retry.retry_after_honoured': true,
        },
      ],
      [
        'retry',
        {
          'http.request.resend_count': 2,
          'http.response.status_code': 429,
          'aegis.retry.delay_ms': 30_000,
          'aegis.retry.retry_after_ms': 120_000,
          'aegis.retry.retry_after_honoured': false,
        },
      ],
    ]);
    expect(span.attributes['http.request.resend_count']).toBe(2);
    expect(span.attributes['http.response.status_code']).toBe(200);
  });

  it('and when it gives up: the last status, the error and the retries used', async () => {
    const throttled = json(503, { message: 'busy' }, { 'retry-after': '1' });
    const fetch = scriptedFetch([throttled, throttled]);
    const http = new HttpPipeline({
      service: 'exchange',
      fetch,
      retry: { sleep: noWait, maxRetries: 1 },
    });
    await expect(
      http.send({
        method: 'POST',
        url: 'https://outlook.office365.com/adminapi/x',
        responseType: 'json',
      }),
    ).rejects.toMatchObject({ statusCode: 503 });
    const span = onlySpan();
    expect(span.events.map((event) => event.name)).toEqual(['retry', 'retries exhausted']);
    expect(span.status.code).toBe(2); // SpanStatusCode.ERROR
    expect(span.attributes).toMatchObject({
      'http.response.status_code': 503,
      'http.request.resend_count': 1,
      'error.type': '503',
    });
  });
});

describe('Table storage calls', () => {
  it('are client spans around the SDK retries, with the throttling it honoured', async () => {
    const answers = [
      { status: 503, headers: { 'x-ms-retry-after-ms': '20' } },
      { status: 200, headers: { 'content-type': 'application/json;odata=nometadata' } },
    ];
    const client = new TablesClient(
      { connectionString: 'UseDevelopmentStorage=true' },
      {
        httpClient: {
          sendRequest: (request) => {
            const answer = answers.shift();
            if (!answer) return Promise.reject(new Error('no more answers'));
            const headers = new Map<string, string>(Object.entries(answer.headers));
            return Promise.resolve({
              request,
              status: answer.status,
              headers: {
                get: (name: string) => headers.get(name.toLowerCase()),
                has: (name: string) => headers.has(name.toLowerCase()),
                set: (name: string, value: string | number | boolean) =>
                  void headers.set(name.toLowerCase(), String(value)),
                delete: (name: string) => void headers.delete(name.toLowerCase()),
                toJSON: () => Object.fromEntries(headers),
                [Symbol.iterator]: () => headers.entries(),
              },
              bodyAsText: answer.status === 200 ? '{"value":[]}' : '',
            });
          },
        },
      },
    );
    expect(await client.listTables()).toEqual([]);
    const span = onlySpan();
    expect(span.name).toBe('GET http://127.0.0.1:10002/devstoreaccount1/Tables');
    expect(span.attributes).toMatchObject({
      'aegis.service': 'tables',
      'http.response.status_code': 200,
      'http.request.resend_count': 1,
    });
    const [retry] = span.events;
    expect(retry?.name).toBe('retry');
    expect(retry?.attributes).toMatchObject({
      'http.request.resend_count': 1,
      'http.response.status_code': 503,
      'aegis.retry.retry_after_ms': 20,
      'aegis.retry.retry_after_honoured': true,
    });
  });
});
