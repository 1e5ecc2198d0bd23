import { describe, expect, it } from 'vitest';

import { appDeployPipelineOf } from '../pipelines';

import {
  allRolesAssigned,
  appDeployConsentError,
  checkAppDeployClientCode,
  classifyConsentReturn,
  clientCodeMessage,
  discoveryDomains,
  EMPTY_TENANT_FORM,
  enterpriseAppSearchDelays,
  guidInText,
  isManualTenantId,
  isTenantFormValid,
  ONBOARDING_ROLES,
  pickTenantId,
  readConsentReturn,
  REGIONS,
  regionsByGeography,
  roleStatusLine,
  subscriptionNameOf,
  tenantIdFromIssuer,
} from '.';

const T1 = '6a0f3c2e-8b7d-4e1a-9c3b-2d4e5f6a7b8c';
const T2 = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';
const APP = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

describe('tenant onboarding form (spec 2 §5)', () => {
  const valid = {
    ...EMPTY_TENANT_FORM,
    clientCode: 'TSP',
    domain: 'tailspintoys.com',
    selectedRegion: 'uksouth',
  };
  it('needs a valid code, a domain, a region and a subscription', () => {
    expect(isTenantFormValid(valid)).toBe(true);
    expect(isTenantFormValid({ ...valid, clientCode: 'tsp' })).toBe(false);
    expect(isTenantFormValid({ ...valid, domain: '  ' })).toBe(false);
    expect(isTenantFormValid({ ...valid, selectedRegion: '' })).toBe(false);
    expect(isTenantFormValid({ ...valid, hasOptionsCSP: 'no' })).toBe(false);
    expect(
      isTenantFormValid({ ...valid, hasOptionsCSP: 'no', customSubscriptionName: 'Litware' }),
    ).toBe(true);
  });
  it("uses 'Options IT' when the company subscription is yes", () => {
    expect(subscriptionNameOf(valid)).toBe('Options IT');
    expect(
      subscriptionNameOf({ ...valid, hasOptionsCSP: 'no', customSubscriptionName: ' X ' }),
    ).toBe('X');
  });
  it('says whether the client code is valid', () => {
    expect(clientCodeMessage('ABC')).toEqual({ valid: true, message: 'Client Code is valid!' });
    expect(clientCodeMessage('AB1').message).toBe(
      'Client code must be exactly 3 uppercase letters.',
    );
    expect(clientCodeMessage('ABCD').valid).toBe(false);
    expect(clientCodeMessage('').message).toBe('');
    expect(clientCodeMessage('ABC', true)).toEqual({
      valid: false,
      message: 'ABC has already been onboarded.',
    });
    expect(clientCodeMessage('AB1', true).message).toBe(
      'Client code must be exactly 3 uppercase letters.',
    );
  });
});

describe('regions (spec 2 §3)', () => {
  it('groups about 55 regions by the eight geographies of the spec, each region with every field', () => {
    expect(REGIONS.length).toBeGreaterThanOrEqual(50);
    expect(REGIONS.length).toBeLessThanOrEqual(60);
    expect(regionsByGeography().map((g) => g.group)).toEqual([
      'US',
      'Canada',
      'South America',
      'Europe',
      'Middle East',
      'Africa',
      'Asia Pacific',
      'Mexico',
    ]);
    for (const region of REGIONS) {
      expect(region.azureRegionAPIName).toMatch(/^[a-z0-9]+$/);
      expect(region.displayName).not.toBe('');
      expect(region.shortCode).not.toBe('');
      expect(region.physicalLocation).not.toBe('');
      expect(region.regionType).toBe('Physical');
      expect(['Recommended', 'Other']).toContain(region.regionCategory);
      // a real IANA zone: Intl refuses unknown ones
      expect(() => new Intl.DateTimeFormat('en', { timeZone: region.timeZone })).not.toThrow();
    }
  });

  it('lists about 55 regions with unique API names, Recommended first per geography', () => {
    expect(REGIONS.length).toBeGreaterThanOrEqual(50);
    expect(new Set(REGIONS.map((r) => r.azureRegionAPIName)).size).toBe(REGIONS.length);
    for (const { regions } of regionsByGeography()) {
      const categories = regions.map((r) => r.regionCategory);
      expect(categories).toEqual([...categories].sort().reverse());
    }
  });
});

describe('tenant id (spec 2 §4, §5, §7)', () => {
  it('validates a manual tenant id as 36 hex characters and hyphens', () => {
    expect(isManualTenantId(T1)).toBe(true);
    expect(isManualTenantId(T1.slice(1))).toBe(false);
    expect(isManualTenantId(`${T1.slice(0, 35)}g`)).toBe(false);
  });
  it('tries the domain, domain.onmicrosoft.com and the .com swap', () => {
    expect(discoveryDomains('Contoso.com')).toEqual([
      'contoso.com',
      'contoso.com.onmicrosoft.com',
      'contoso.onmicrosoft.com',
    ]);
    expect(discoveryDomains('contoso.onmicrosoft.com')).toEqual(['contoso.onmicrosoft.com']);
  });
  it('reads the tenant id from an issuer and refuses the common placeholder', () => {
    expect(tenantIdFromIssuer(`https://login.microsoftonline.com/${T1}/v2.0`)).toBe(T1);
    expect(tenantIdFromIssuer('https://login.microsoftonline.com/{tenantid}/v2.0')).toBeUndefined();
  });
  it('picks the tenant id from the sources in spec order', () => {
    expect(pickTenantId({ stored: T2, 'tenant parameter': T1 })).toEqual({
      tenantId: T1,
      source: 'tenant parameter',
    });
    expect(pickTenantId({ stored: T2, 'error description': 'not a guid', discovery: T1 })).toEqual({
      tenantId: T1,
      source: 'discovery',
    });
    expect(pickTenantId({ stored: T2 })?.source).toBe('stored');
    expect(pickTenantId({})).toBeUndefined();
  });
  it('takes the tenant GUID an error description names after the app id', () => {
    expect(
      guidInText(
        `name ${APP} is already present for tenant ${T2}. Trace ID: ${T1} Correlation ID: ${T1}`,
      ),
    ).toBe(T2);
    expect(guidInText(`app ${APP} failed. Trace ID: ${T1}`)).toBe(APP);
  });
});

describe('consent return (spec 2 §4)', () => {
  it('reads the query parameters', () => {
    const params = new Map([
      ['admin_consent', 'True'],
      ['tenant', T1],
    ]);
    const ret = readConsentReturn({ get: (key) => params.get(key) ?? null });
    expect(ret).toMatchObject({ adminConsent: 'True', tenant: T1 });
    expect(readConsentReturn({ get: () => null })).toBeUndefined();
  });
  it('proceeds with a known tenant, asks when consent has no tenant, retries an error', () => {
    expect(classifyConsentReturn({ adminConsent: 'True', tenant: T1 }, undefined)).toEqual({
      kind: 'proceed',
      tenantId: T1,
    });
    expect(classifyConsentReturn({ adminConsent: 'True' }, undefined)).toEqual({
      kind: 'ask-tenant-id',
    });
    expect(
      classifyConsentReturn({ error: 'access_denied', errorDescription: 'AADSTS65004' }, T1).kind,
    ).toBe('retry');
  });
  it('continues when the already-present service principal is in the resolved tenant, else recovers', () => {
    const description = (tenant: string) =>
      `AADSTS650051: The service principal cannot be created, updated, or restored because the service principal name ${APP} is already present for tenant ${tenant}.`;
    expect(
      classifyConsentReturn({ error: 'access_denied', errorDescription: description(T1) }, T1),
    ).toEqual({ kind: 'proceed', tenantId: T1 });
    expect(
      classifyConsentReturn({ error: 'access_denied', errorDescription: description(T2) }, T1),
    ).toEqual({ kind: 'service-principal-present', errorTenantId: T2 });
  });
});

describe('roles (spec 2 §4, §6)', () => {
  const ok = (role: string) => ({ role, ok: true, message: '' });
  it('needs the six required roles; the two authentication roles are optional', () => {
    const required = ONBOARDING_ROLES.filter((r) => r.required).map((r) => r.name);
    expect(required).toEqual([
      'Reader',
      'Resource Policy Contributor',
      'Contributor',
      'Teams Administrator',
      'Global Administrator',
      'Exchange Administrator',
    ]);
    expect(allRolesAssigned(required.map(ok))).toBe(true);
    expect(allRolesAssigned(required.slice(1).map(ok))).toBe(false);
    expect(
      allRolesAssigned([
        ...required.slice(0, 5).map(ok),
        { role: 'Exchange Administrator', ok: false, message: 'x' },
      ]),
    ).toBe(false);
  });
  it('writes status lines with a tick or a cross', () => {
    expect(roleStatusLine(ok('Reader'))).toMatch(/^✅/);
    expect(roleStatusLine({ role: 'Contributor', ok: false, message: 'boom' })).toBe(
      '❌ Error assigning Contributor role: boom',
    );
  });
});

describe('app-deploy onboarding (spec 2 §4, §5, §8)', () => {
  it('checks format, then a table, then not onboarded, in that order', () => {
    expect(checkAppDeployClientCode('ab', 'old', undefined, undefined).state).toBe(
      'invalid-format',
    );
    expect(checkAppDeployClientCode('TSP', 'old', undefined, []).message).toBe(
      'Error checking client code in tables.',
    );
    expect(checkAppDeployClientCode('TSP', 'old', ['ABCWorkstationApps'], undefined).message).toBe(
      'No tables found starting with TSP. Please create Client App Table!',
    );
    expect(checkAppDeployClientCode('TSP', 'new', [], []).message).toBe(
      'No tables found starting with TSP. Please create Client App Table first!',
    );
    expect(checkAppDeployClientCode('TSP', 'new', ['TSPWorkstationApps'], undefined).message).toBe(
      'Error checking pipelines.',
    );
    const tenants = (name: string, folder = '\\Tenants') => [{ folder, name }];
    expect(
      checkAppDeployClientCode('TSP', 'new', ['TSPWorkstationApps'], tenants('TSP - Onboarding'))
        .message,
    ).toBe('TSP has already been onboarded.');
    expect(
      checkAppDeployClientCode('TSP', 'new', ['TSPWorkstationApps'], tenants('x', '\\Tenants\\TSP'))
        .state,
    ).toBe('already-onboarded');
    expect(
      checkAppDeployClientCode('TSP', 'new', ['TSPWorkstationApps'], tenants('ABC')).message,
    ).toBe('Table found for client code TSP.');
    // app-deploy onboarding made TSP's app pipeline and nothing under Tenants (ADR 055)
    expect(
      checkAppDeployClientCode('TSP', 'old', ['TSPWorkstationApps'], [appDeployPipelineOf('TSP')])
        .message,
    ).toBe('TSP has already been onboarded.');
  });
  it('maps the three admin-consent errors', () => {
    expect(appDeployConsentError('access_denied', 'AADSTS1003031: x')).toMatch(
      /^Application permissions are not properly configured/,
    );
    expect(appDeployConsentError('access_denied', 'AADSTS65004')).toMatch(
      /^Admin consent was denied/,
    );
    expect(appDeployConsentError('invalid_request', 'bad')).toBe('Admin consent failed: bad');
  });
  it('waits 3000 ms then ×1.5 for up to 6 attempts', () => {
    expect(enterpriseAppSearchDelays()).toEqual([3000, 4500, 6750, 10125, 15187.5, 22781.25]);
  });
});
