import { describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config';

const MINIMAL = {
  AEGIS_AUTH_JWKS_URL: 'https://login.microsoftonline.com/t/discovery/v2.0/keys',
  AEGIS_AUTH_ISSUER: 'https://sts.windows.net/t/',
  AEGIS_AUTH_AUDIENCE: 'api://aegis',
  AEGIS_AUTH_MODE: 'entra',
  AEGIS_ENTRA_CLIENT_ID: '00000000-0000-0000-0000-000000000001',
  AEGIS_ENTRA_TENANT_ID: '00000000-0000-0000-0000-000000000002',
  AEGIS_DEVOPS_ORG_URL: 'https://dev.azure.com/contoso',
};

describe('configuration for real Azure', () => {
  it("reads the organisation's pipeline ids", () => {
    expect(
      loadConfig({ ...MINIMAL, AEGIS_PIPELINE_IDS: 'capture=1234,backup=1301' }).AEGIS_PIPELINE_IDS,
    ).toEqual({ capture: 1234, backup: 1301 });
    expect(loadConfig(MINIMAL).AEGIS_PIPELINE_IDS).toEqual({});
  });

  it('refuses to start with a pipeline id it cannot use, naming the variable and the entry', () => {
    expect(() => loadConfig({ ...MINIMAL, AEGIS_PIPELINE_IDS: 'capture=abc' })).toThrow(
      /AEGIS_PIPELINE_IDS: 'capture=abc': the id must be a positive whole number/,
    );
  });
});
