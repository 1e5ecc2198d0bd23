// Graph wire helpers shared by the emulator's Graph routes: collections with `@odata.context`,
// `value` and `@odata.nextLink` (server-driven paging by $skiptoken), $filter/$select/$top.
import type { FastifyRequest } from 'fastify';

import type { JsonObject } from '../seed/policies/types';

import { ODataQueryError, matches, parseFilter, select } from './odata';
import type { TenantState } from './tenant-state';
import { EmulatorError, principalOf } from './wire';
import type { TenantWorld } from './world';

export type GraphQuery = Record<string, string | undefined>;

export function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host ?? request.hostname}`;
}

function versionOf(request: FastifyRequest): 'v1.0' | 'beta' {
  return /^\/beta\//i.test(request.url) ? 'beta' : 'v1.0';
}

function contextUrl(request: FastifyRequest, fragment: string): string {
  return `${origin(request)}/${versionOf(request)}/$metadata#${fragment}`;
}

export function stateOf(world: TenantWorld, request: FastifyRequest): TenantState {
  return world.state(principalOf(request).tenantId);
}

export function queryOf(request: FastifyRequest): GraphQuery {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const out: GraphQuery = {};
  for (const [key, value] of Object.entries(query)) {
    out[key.replace(/^\$/, '').toLowerCase()] = typeof value === 'string' ? value : undefined;
  }
  return out;
}

/** Applies $filter, then answers one page with `@odata.nextLink` when more remain. */
export function listPage(
  request: FastifyRequest,
  items: readonly JsonObject[],
  contextFragment: string,
  defaultPageSize: number,
  options: { filterable?: boolean } = {},
): JsonObject {
  const query = queryOf(request);
  let filtered = [...items];
  if (query['filter']) {
    if (options.filterable === false) {
      throw new EmulatorError(
        400,
        'Request_UnsupportedQuery',
        'The specified filter to the reference property query is currently not supported.',
      );
    }
    try {
      const expr = parseFilter(query['filter']);
      filtered = filtered.filter((item) => matches(expr, item));
    } catch (error) {
      if (error instanceof ODataQueryError) {
        throw new EmulatorError(400, 'BadRequest', `Invalid filter clause: ${error.message}`);
      }
      throw error;
    }
  }
  const top = query['top'] !== undefined ? Number(query['top']) : defaultPageSize;
  if (!Number.isInteger(top) || top < 1 || top > 999) {
    throw new EmulatorError(
      400,
      'BadRequest',
      `Invalid page size specified: '${query['top'] ?? ''}'. Must be between 1 and 999 inclusive.`,
    );
  }
  let offset = 0;
  if (query['skiptoken']) {
    const decoded = Number(Buffer.from(query['skiptoken'], 'base64url').toString('utf8'));
    if (!Number.isInteger(decoded) || decoded < 0) {
      throw new EmulatorError(
        400,
        'Directory_ExpiredPageToken',
        'The specified page token value has expired and can no longer be included in your request.',
      );
    }
    offset = decoded;
  }
  const page = filtered.slice(offset, offset + top).map((item) => select(item, query['select']));
  const body: JsonObject = { '@odata.context': contextUrl(request, contextFragment) };
  if (query['count'] === 'true') body['@odata.count'] = filtered.length;
  body['value'] = page;
  if (offset + top < filtered.length) {
    const url = new URL(request.url, origin(request));
    url.searchParams.delete('$skiptoken');
    url.searchParams.set('$skiptoken', Buffer.from(String(offset + top)).toString('base64url'));
    body['@odata.nextLink'] = url.toString();
  }
  return body;
}

export function entity(
  request: FastifyRequest,
  item: JsonObject,
  contextFragment: string,
): JsonObject {
  const query = queryOf(request);
  return {
    '@odata.context': contextUrl(request, contextFragment),
    ...select(item, query['select']),
  };
}

/** Drops the bookkeeping `@odata.type` of base-typed directory objects, as Graph does. */
export function withoutBaseType(item: JsonObject): JsonObject {
  const { ['@odata.type']: _ignored, ...rest } = item;
  return rest;
}

export function notFound(id: string): EmulatorError {
  return new EmulatorError(
    404,
    'Request_ResourceNotFound',
    `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`,
  );
}
