import {
  aegisAppRegistration,
  startIdentityProvider,
  type IdentityProvider,
} from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSeededDevOps, type DevOpsFixture } from '../devops-fixture';
import { build, SAMPLE_USER, TEST_AUDIENCE, type TestApp } from '../helper';

/**
 * Issue 10 §3, ADR 031: the browser holds a token for the Aegis API (with the Aegis roles); the
 * server trades it on-behalf-of for an Azure DevOps token. Against a DevOps that accepts only
 * tokens for itself, as the real service does, the forwarded API token is refused.
 */
describe('Azure DevOps on behalf of the technician', () => {
  let idp: IdentityProvider;
  let devops: DevOpsFixture;
  const aegisApp = aegisAppRegistration(TEST_AUDIENCE);

  beforeAll(async () => {
    idp = await startIdentityProvider({
      port: 0,
      audience: TEST_AUDIENCE,
      allowedOrigins: [],
      applications: [aegisApp],
    });
    devops = await startSeededDevOps(idp, { devopsTokensOnly: true });
  });
  afterAll(async () => {
    await devops.close();
    await idp.close();
  });

  const appWith = (env: Record<string, string>): Promise<TestApp> =>
    build({ AEGIS_DEVOPS_ORG_URL: devops.emulator.url, AEGIS_LOGIN_URL: idp.url, ...env }, idp);

  it('reads DevOps with a token obtained on-behalf-of the signed-in account', async () => {
    const t = await appWith({
      AEGIS_APP_CLIENT_ID: aegisApp.clientId,
      AEGIS_APP_CLIENT_SECRET: aegisApp.clientSecret,
    });
    try {
      const projects = await t.injectAs(SAMPLE_USER, { method: 'GET', url: '/api/projects' });
      expect(projects.statusCode).toBe(200);
      expect((projects.json() as { projects: unknown[] }).projects.length).toBeGreaterThan(0);
      // a role route works with the same API token (the Entra 403 of ADR 009 is gone)
      const clients = await t.injectAs(SAMPLE_USER, {
        method: 'GET',
        url: '/api/clients',
      });
      expect(clients.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('is refused by DevOps when the API token is forwarded as it is (no app secret)', async () => {
    const t = await appWith({});
    try {
      const projects = await t.injectAs(SAMPLE_USER, { method: 'GET', url: '/api/projects' });
      expect(projects.statusCode).toBe(401);
      expect((projects.json() as { message: string }).message).toMatch(
        /Azure DevOps sign-in was refused/,
      );
    } finally {
      await t.close();
    }
  });

  it("answers 502 with the identity provider's text when the app's own secret is refused", async () => {
    const t = await appWith({
      AEGIS_APP_CLIENT_ID: aegisApp.clientId,
      AEGIS_APP_CLIENT_SECRET: 'not-the-secret',
    });
    try {
      const projects = await t.injectAs(SAMPLE_USER, { method: 'GET', url: '/api/projects' });
      expect(projects.statusCode).toBe(502);
      expect((projects.json() as { message: string }).message).toMatch(/AADSTS7000215/);
    } finally {
      await t.close();
    }
  });
});
