import type { ApiErrorBody } from '@aegis/contracts';

import { getAuthClient } from './auth/auth-context';
import { clearSession } from './session';

/** An Aegis API failure, carrying the server's message (and the field for a 400). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    /** the whole error body, for errors that carry more (e.g. the rows that failed) */
    readonly body?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }

  /**
   * The form field a refused body names: `body.contacts.0` → `contacts` (the server prefixes a
   * body's fields with `body.`); undefined when the error names none.
   */
  get formField(): string | undefined {
    return this.field?.replace(/^body\./, '').split('.')[0] || undefined;
  }

  /** The body's machine-readable reason (ADR 042), e.g. NoClientConfiguration; never its wording. */
  get code(): string | undefined {
    const code = this.body?.['code'];
    return typeof code === 'string' ? code : undefined;
  }
}

export interface ApiRequest {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** Extra headers, e.g. a client tenant's Global Administrator token (ADR 020). */
  readonly headers?: Record<string, string>;
}

export async function authorizedFetch(path: string, request: ApiRequest = {}): Promise<Response> {
  const client = await getAuthClient();
  let token: string;
  try {
    token = await client.getAccessToken();
  } catch (error) {
    clearSession();
    throw new ApiError(401, (error as Error).message || 'No authenticated account found.');
  }
  const response = await fetch(new URL(path, window.location.origin), {
    method: request.method ?? 'GET',
    signal: request.signal,
    headers: {
      ...request.headers,
      authorization: `Bearer ${token}`,
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  if (response.status === 401) {
    // The token expired or was revoked: the route guard sends the user to sign in again.
    clearSession();
  }
  if (!response.ok) throw await apiErrorFrom(response);
  return response;
}

export async function apiErrorFrom(response: Response): Promise<ApiError> {
  let body: Partial<ApiErrorBody> = {};
  try {
    body = (await response.json()) as Partial<ApiErrorBody>;
  } catch {
    // Not JSON: a proxy or the network answered.
  }
  return new ApiError(
    response.status,
    body.message ?? `Request failed with status ${response.status}`,
    body.field,
    body,
  );
}

/** Calls the Aegis API as the signed-in user and returns the parsed JSON body. */
export async function api<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const response = await authorizedFetch(path, request);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
