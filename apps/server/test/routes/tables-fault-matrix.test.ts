import { TablesClient } from '@aegis/connectors/tables';
import { startIdentityProvider, type IdentityProvider } from '@aegis/emulators';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildApp, loadConfig } from '../../src';
import { SAMPLE_USER, TEST_AUDIENCE } from '../helper';

type HttpClient = NonNullable<ConstructorParameters<typeof TablesClient>[1]>['httpClient'];
type Fault = { status: number; body?: object; headers?: Record<string, string> } | 'hang';

/** Answers every Table storage call with the current fault, as the service would. */
function faultyHttpClient(current: () => Fault): NonNullable<HttpClient> {
  return {
    async sendRequest(request) {
      const fault = current();
      if (fault === 'hang') {
        return new Promise((_resolve, reject) => {
          const signal = request.abortSignal;
          signal?.addEventListener('abort', () => reject(new Error('The operation was aborted.')));
        });
      }
      const headers = new Map<string, string>(
        Object.entries({ 'content-type': 'application/json', ...fault.headers }),
      );
      return {
        request,
        status: fault.status,
        headers: {
          get: (name: string) => headers.get(name.toLowerCase()),
          has: (name: string) => headers.has(name.toLowerCase()),
          set: (name: string, value: string | number | boolean) =>
            void headers.set(name.toLowerCase(), String(value)),
          delete: (name: string) => void headers.delete(name.toLowerCase()),
          toJSON: () => Object.fromEntries(headers),
          [Symbol.iterator]: () => headers.entries(),
        },
        bodyAsText: JSON.stringify(fault.body ?? {}),
      };
    },
  };
}

const odata = (code: string, message: string) => ({
  'odata.error': { code, message: { lang: 'en-US', value: message } },
});

const FAULTS: readonly { name: string; fault: Fault; status: number; message: RegExp }[] = [
  {
    name: '404',
    fault: { status: 404, body: odata('TableNotFound', 'The table specified does not exist.') },
    status: 404,
    message: /table specified does not exist/,
  },
  {
    name: '409',
    fault: {
      status: 409,
      body: odata('EntityAlreadyExists', 'The specified entity already exists.'),
    },
    status: 409,
    message: /already exists/,
  },
  {
    name: '412',
    fault: {
      status: 412,
      body: odata(
        'UpdateConditionNotSatisfied',
        'The update condition specified in the request was not satisfied.',
      ),
    },
    status: 412,
    message: /condition/,
  },
  {
    name: '401 (Entra token refused)',
    fault: {
      status: 401,
      body: odata(
        'InvalidAuthenticationInfo',
        'Authentication information is not given in the correct format.',
      ),
    },
    status: 401,
    message: /^The Table storage sign-in was refused: Authentication information/,
  },
  {
    name: '403 (authentication refused)',
    fault: {
      status: 403,
      body: odata('AuthenticationFailed', 'Server failed to authenticate the request.'),
    },
    status: 403,
    message: /failed to authenticate/,
  },
  {
    name: '503 that outlasts the retries',
    fault: {
      status: 503,
      body: odata('ServerBusy', 'The server is busy.'),
      headers: { 'retry-after': '0' },
    },
    status: 503,
    message: /busy/,
  },
  {
    name: '500',
    fault: {
      status: 500,
      body: odata('InternalError', 'The server encountered an internal error.'),
    },
    status: 502,
    message: /internal error/,
  },
  {
    name: 'no answer in time',
    fault: 'hang',
    status: 504,
    message: /Table storage did not answer within 0\.3 seconds/,
  },
];

const ROUTES = [
  { method: 'GET', url: '/api/app-tables' },
  { method: 'GET', url: '/api/app-tables/GENWorkstationApps/rows' },
] as const;

describe('Table storage faults answer the status that tells the truth', () => {
  let idp: IdentityProvider;
  let app: FastifyInstance;
  let fault: Fault = { status: 200 };

  beforeAll(async () => {
    idp = await startIdentityProvider({ port: 0, audience: TEST_AUDIENCE, allowedOrigins: [] });
    const config = loadConfig({
      AEGIS_LOG_LEVEL: 'silent',
      AEGIS_AUTH_JWKS_URL: idp.jwksUrl,
      AEGIS_AUTH_ISSUER: idp.issuer,
      AEGIS_AUTH_AUDIENCE: TEST_AUDIENCE,
      AEGIS_LOCAL_IDP_URL: idp.url,
      AEGIS_DEVOPS_ORG_URL: 'http://127.0.0.1:9/unused',
    });
    const tables = new TablesClient(
      { connectionString: 'UseDevelopmentStorage=true' },
      {
        httpClient: faultyHttpClient(() => fault),
        timeoutInMs: 300,
        retryOptions: { maxRetries: 1, retryDelayInMs: 1, maxRetryDelayInMs: 1 },
      },
    );
    app = await buildApp({ config, tables });
  });
  afterAll(async () => {
    await app.close();
    await idp.close();
  });

  for (const { name, fault: injected, status, message } of FAULTS) {
    it(`Table storage ${name} → ${status}`, async () => {
      fault = injected;
      const token = await idp.issueToken(SAMPLE_USER);
      for (const route of ROUTES) {
        const response = await app.inject({
          ...route,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(`${route.url} ${response.statusCode}`).toBe(`${route.url} ${status}`);
        expect((response.json() as { message: string }).message).toMatch(message);
      }
    });
  }
});
