// A thin typed Microsoft Graph client on the shared HTTP pipeline (docs/adr/017-graph-arm-connectors.md):
// paging by @odata.nextLink, JSON batching through $batch (20 requests a call), $filter/$select,
// retries honouring Retry-After, and ServiceErrors keeping Graph's code, message and request id.
// The same code runs against graph.microsoft.com and the tenant emulator: only `baseUrl` differs.
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRYABLE_STATUS_CODES,
  HttpPipeline,
  ServiceError,
  abortableSleep,
  backoffDelay,
  isServiceError,
  parseRetryAfter,
  type HttpResponse,
  type RetryOptions,
} from '../shared';

export const GRAPH_BASE_URL = 'https://graph.microsoft.com';
/** Scope for app-only tokens; delegated flows ask for named scopes of the same resource. */
export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
/** Graph accepts at most 20 requests in one JSON batch. */
export const GRAPH_BATCH_LIMIT = 20;

export type GraphVersion = 'v1.0' | 'beta';

export interface GraphClientOptions {
  /** `https://graph.microsoft.com` or the emulator's origin (no version segment) */
  baseUrl?: string;
  /** default API version (v1.0) */
  version?: GraphVersion;
  getToken: () => Promise<string>;
  retry?: RetryOptions;
  fetch?: typeof fetch;
}

/** OData query options; names without the `$`. */
export interface GraphQuery {
  filter?: string;
  select?: readonly string[];
  expand?: string;
  orderby?: string;
  top?: number;
  search?: string;
  count?: boolean;
}

export interface GraphRequestOptions {
  query?: GraphQuery;
  version?: GraphVersion;
  headers?: Record<string, string>;
  abortSignal?: AbortSignal;
}

export interface GraphCollection<T> {
  '@odata.context'?: string;
  '@odata.nextLink'?: string;
  '@odata.count'?: number;
  value: T[];
}

export interface GraphBatchRequest {
  /** unique within the batch; defaults to the request's position */
  id?: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** relative to the version, e.g. `/servicePrincipals?$filter=...` */
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface GraphBatchResponse<T = unknown> {
  id: string;
  status: number;
  headers: Record<string, string>;
  body: T;
}

interface GraphErrorBody {
  error?: { code?: string; message?: string; innerError?: Record<string, unknown> };
}

export function parseGraphError(status: number, text: string): { code?: string; message?: string } {
  try {
    const parsed = JSON.parse(text) as GraphErrorBody;
    const error = parsed.error;
    if (error && typeof error === 'object') {
      return {
        ...(typeof error.code === 'string' ? { code: error.code } : {}),
        ...(typeof error.message === 'string' ? { message: error.message } : {}),
      };
    }
  } catch {
    // not JSON: the pipeline keeps the raw text
  }
  return status === 401 ? { code: 'InvalidAuthenticationToken' } : {};
}

function queryParams(query: GraphQuery | undefined): Record<string, string | undefined> {
  if (!query) return {};
  return {
    $filter: query.filter,
    $select: query.select?.join(','),
    $expand: query.expand,
    $orderby: query.orderby,
    $top: query.top !== undefined ? String(query.top) : undefined,
    $search: query.search,
    $count: query.count !== undefined ? String(query.count) : undefined,
  };
}

/** `?$filter=…&$select=…` for a batch request's relative URL. */
export function graphQueryString(query: GraphQuery | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(queryParams(query))) {
    if (value !== undefined) params.set(name, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Quotes a string literal for $filter (`'` doubled). */
export function odataString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export class GraphClient {
  readonly baseUrl: string;
  readonly version: GraphVersion;
  private readonly http: HttpPipeline;
  private readonly retry: RetryOptions;

  constructor(options: GraphClientOptions) {
    this.baseUrl = (options.baseUrl ?? GRAPH_BASE_URL).replace(/\/+$/, '');
    this.version = options.version ?? 'v1.0';
    this.retry = options.retry ?? {};
    this.http = new HttpPipeline({
      service: 'graph',
      getToken: options.getToken,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      parseError: parseGraphError,
      requestIdHeaders: ['request-id', 'client-request-id', 'x-ms-request-id'],
    });
  }

  url(path: string, version: GraphVersion = this.version): string {
    return `${this.baseUrl}/${version}${path.startsWith('/') ? path : `/${path}`}`;
  }

  async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    options: GraphRequestOptions & { body?: unknown } = {},
  ): Promise<T> {
    return (await this.send<T>(method, path, options)).body;
  }

  /** As `request`, with the status and headers (e.g. 202 Accepted for a queued change). */
  async send<T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    options: GraphRequestOptions & { body?: unknown } = {},
  ): Promise<HttpResponse<T>> {
    return this.http.send<T>({
      method,
      url: this.url(path, options.version),
      query: queryParams(options.query),
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.body !== undefined ? { body: options.body } : {}),
      responseType: method === 'DELETE' ? 'none' : 'json',
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
  }

  get<T>(path: string, options?: GraphRequestOptions): Promise<T> {
    return this.request<T>('GET', path, options);
  }

  /** GET that answers `undefined` for 404 (an absent object is not an error). */
  async find<T>(path: string, options?: GraphRequestOptions): Promise<T | undefined> {
    try {
      return await this.get<T>(path, options);
    } catch (error) {
      if (isServiceError(error) && error.statusCode === 404) return undefined;
      throw error;
    }
  }

  post<T>(path: string, body: unknown, options?: GraphRequestOptions): Promise<T> {
    return this.request<T>('POST', path, { ...options, body });
  }

  patch<T>(path: string, body: unknown, options?: GraphRequestOptions): Promise<T> {
    return this.request<T>('PATCH', path, { ...options, body });
  }

  put<T>(path: string, body: unknown, options?: GraphRequestOptions): Promise<T> {
    return this.request<T>('PUT', path, { ...options, body });
  }

  async delete(path: string, options?: GraphRequestOptions): Promise<void> {
    await this.request<void>('DELETE', path, options);
  }

  /** Every page of a collection, following `@odata.nextLink` until it is absent. */
  async *pages<T>(path: string, options: GraphRequestOptions = {}): AsyncGenerator<T[]> {
    let page = await this.get<GraphCollection<T>>(path, options);
    for (;;) {
      yield page.value ?? [];
      const next = page['@odata.nextLink'];
      if (!next) return;
      const response = await this.http.send<GraphCollection<T>>({
        method: 'GET',
        url: next,
        ...(options.headers ? { headers: options.headers } : {}),
        responseType: 'json',
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
      page = response.body;
    }
  }

  /** The whole collection (all pages). */
  async list<T>(path: string, options?: GraphRequestOptions): Promise<T[]> {
    const items: T[] = [];
    for await (const page of this.pages<T>(path, options)) items.push(...page);
    return items;
  }

  /**
   * Sends requests through `$batch`, 20 per call, and answers one response per request in the
   * order given. Sub-requests Graph throttles (429/503) are sent again after their Retry-After,
   * up to the retry limit; other failures are returned as responses, not thrown.
   */
  async batch<T = unknown>(
    requests: readonly GraphBatchRequest[],
    options: { version?: GraphVersion; abortSignal?: AbortSignal } = {},
  ): Promise<GraphBatchResponse<T>[]> {
    const withIds = requests.map((r, i) => ({ ...r, id: r.id ?? String(i + 1) }));
    if (new Set(withIds.map((r) => r.id)).size !== withIds.length) {
      throw new Error('Graph batch request ids must be unique');
    }
    const results = new Map<string, GraphBatchResponse<T>>();
    for (let start = 0; start < withIds.length; start += GRAPH_BATCH_LIMIT) {
      let pending = withIds.slice(start, start + GRAPH_BATCH_LIMIT);
      const maxRetries = this.retry.maxRetries ?? DEFAULT_MAX_RETRIES;
      const retryable = this.retry.retryableStatusCodes ?? DEFAULT_RETRYABLE_STATUS_CODES;
      for (let attempt = 0; pending.length > 0; attempt += 1) {
        const answer = await this.post<{ responses: GraphBatchResponse<T>[] }>(
          '/$batch',
          {
            requests: pending.map((r) => ({
              id: r.id,
              method: r.method,
              url: r.url,
              ...(r.body !== undefined
                ? { body: r.body, headers: { 'content-type': 'application/json', ...r.headers } }
                : r.headers
                  ? { headers: r.headers }
                  : {}),
            })),
          },
          {
            ...(options.version ? { version: options.version } : {}),
            ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
          },
        );
        const responses = answer.responses ?? [];
        const throttled: typeof pending = [];
        let waitInMs = 0;
        for (const r of pending) {
          const response = responses.find((candidate) => candidate.id === r.id);
          if (!response) {
            throw new ServiceError(`Graph $batch gave no response for request ${r.id}`, {
              service: 'graph',
              code: 'InvalidResponse',
            });
          }
          const normalised: GraphBatchResponse<T> = {
            id: response.id,
            status: response.status,
            headers: Object.fromEntries(
              Object.entries(response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
            ),
            body: response.body,
          };
          if (retryable.includes(response.status) && attempt < maxRetries) {
            throttled.push(r);
            const retryAfterInMs = parseRetryAfter(normalised.headers['retry-after']);
            waitInMs = Math.max(waitInMs, backoffDelay(attempt, this.retry, retryAfterInMs));
          } else {
            results.set(r.id, normalised);
          }
        }
        pending = throttled;
        if (pending.length > 0) {
          const sleep = this.retry.sleep ?? abortableSleep;
          await sleep(waitInMs, options.abortSignal);
        }
      }
    }
    return withIds.map((r) => results.get(r.id) as GraphBatchResponse<T>);
  }
}

/** A batch response as a ServiceError when it failed (Graph's own code and message). */
export function batchError(response: GraphBatchResponse): ServiceError | undefined {
  if (response.status < 400) return undefined;
  const body = response.body as GraphErrorBody | undefined;
  const requestId = body?.error?.innerError?.['request-id'];
  const retryAfterInMs = parseRetryAfter(response.headers['retry-after']);
  return new ServiceError(body?.error?.message ?? `Graph answered ${response.status}`, {
    service: 'graph',
    statusCode: response.status,
    ...(body?.error?.code ? { code: body.error.code } : {}),
    ...(typeof requestId === 'string' ? { requestId } : {}),
    ...(retryAfterInMs !== undefined ? { retryAfterInMs } : {}),
  });
}
