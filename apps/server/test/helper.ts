import type { AppTables } from '@aegis/connectors/tables';
import { startIdentityProvider, type IdentityProvider } from '@aegis/emulators';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

import { buildApp, loadConfig, type AegisConfig, type BuildAppOptions } from '../src';

export const SAMPLE_USER = 'alex.morgan@aegis-msp.example';
export const TEST_AUDIENCE = 'api://aegis';

export interface TestApp {
  readonly app: FastifyInstance;
  readonly idp: IdentityProvider;
  readonly config: AegisConfig;
  /** Injects a request signed in as a sample staff account. */
  injectAs(user: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * Builds the app exactly as server.ts does, with the local identity provider on a random port.
 * `env` overrides configuration, e.g. the DevOps URL of an emulator the test started.
 */
export async function build(
  env: Record<string, string> = {},
  existingIdp?: IdentityProvider,
  ports: Omit<BuildAppOptions, 'config' | 'logger'> = {},
): Promise<TestApp> {
  const idp =
    existingIdp ??
    (await startIdentityProvider({ port: 0, audience: TEST_AUDIENCE, allowedOrigins: [] }));
  const config = loadConfig({
    AEGIS_LOG_LEVEL: 'silent',
    AEGIS_AUTH_MODE: 'local',
    AEGIS_AUTH_JWKS_URL: idp.jwksUrl,
    AEGIS_AUTH_ISSUER: idp.issuer,
    AEGIS_AUTH_AUDIENCE: TEST_AUDIENCE,
    AEGIS_LOCAL_IDP_URL: idp.url,
    AEGIS_DEVOPS_ORG_URL: 'http://127.0.0.1:9/unused',
    ...env,
  });
  const app = await buildApp({ config, ...ports });
  await app.ready();
  let closed: Promise<void> | undefined;
  return {
    app,
    idp,
    config,
    injectAs: async (user, options) => {
      const token = await idp.issueToken(user);
      return app.inject({
        ...options,
        headers: { ...options.headers, authorization: `Bearer ${token}` },
      });
    },
    // once, whoever asks first (a test that stops an instance, then the fixture)
    close: () =>
      (closed ??= (async () => {
        await app.close();
        if (!existingIdp) await idp.close();
      })()),
  };
}

/**
 * A Table storage port that accepts every write and keeps nothing: the audit trail of tests that
 * point app tables at a fake and do not look at the trail (ADR 037 refuses a change it cannot record).
 */
export function discardingTables(): AppTables {
  return new Proxy({} as AppTables, {
    // not a thenable: `await` must not take it for a promise
    get: (_target, name) =>
      name === 'then'
        ? undefined
        : async () => {
            if (name === 'createTable') return { outcome: 'created' };
            if (name === 'listTables' || name === 'listEntities') return [];
            if (name === 'queryEntities') return { entities: [] };
            return undefined;
          },
  });
}
