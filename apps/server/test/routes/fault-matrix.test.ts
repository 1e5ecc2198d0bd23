import { startIdentityProvider, type FaultRule, type IdentityProvider } from '@aegis/emulators';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startSeededDevOps, type DevOpsFixture } from '../devops-fixture';
import { build, SAMPLE_USER, TEST_AUDIENCE, type TestApp } from '../helper';

/** What each injected upstream fault must become (issue 9 §2, ADR 010). */
const FAULTS: readonly {
  readonly name: string;
  readonly rule: FaultRule;
  readonly status: number;
  readonly message: RegExp;
  readonly retryAfter?: string;
  /** Only the first n routes (a fault without Retry-After backs off for seconds). */
  readonly routes?: number;
}[] = [
  {
    name: '404',
    rule: { kind: 'error', statusCode: 404, message: 'TF200016: The project does not exist.' },
    status: 404,
    // services may word a missing run, client or baseline in the spec's terms
    message: /TF200016|not found|No baseline|No configuration found/,
  },
  {
    name: '409',
    rule: { kind: 'error', statusCode: 409, message: 'TF402455: The ref was updated meanwhile.' },
    status: 409,
    message: /TF402455/,
  },
  {
    name: '429 that outlasts the retries',
    rule: { kind: 'throttle', retryAfterInSeconds: 0 },
    status: 429,
    message: /TF400733/,
    retryAfter: '1',
  },
  {
    name: '503 that outlasts the retries',
    rule: { kind: 'error', statusCode: 503, message: 'The service is unavailable.' },
    status: 503,
    message: /unavailable/,
    routes: 1,
  },
  {
    name: '500',
    rule: { kind: 'error', statusCode: 500 },
    status: 502,
    message: /VS402901/,
  },
  {
    name: '203 sign-in page',
    rule: { kind: 'signInPage' },
    status: 502,
    message: /answered with a sign-in page \(HTTP 203\)\. Sign-in to Azure DevOps needs attention/,
  },
  {
    name: 'no answer in time',
    rule: { kind: 'latency', latencyInMs: 1_500 },
    status: 504,
    message: /Azure DevOps did not answer within 0\.4 seconds/,
  },
];

const TENANT_ID = '3f0c8a52-1d7e-4b6a-9c41-2a5e8d7f6b10';
const BACKUP_TAG = encodeURIComponent('backup/ABC/scheduled_20261120_010000');

interface DevOpsRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  readonly payload?: object;
  /**
   * A route that reads a file which may be absent answers what "absent" means (an empty
   * configuration) for a 404, as the ConfigRepository defines it (ADR 014), not a 404.
   */
  readonly absentIsEmpty?: boolean;
}

/** Routes that call Azure DevOps, as a technician's browser calls them. */
const DEVOPS_ROUTES: readonly DevOpsRoute[] = [
  { method: 'GET', url: '/api/projects' },
  { method: 'GET', url: '/api/pipelines' },
  { method: 'GET', url: '/api/projects/Aegis/pipelines' },
  { method: 'POST', url: '/api/projects/Aegis/pipelines/1/runs', payload: {} },
  { method: 'GET', url: '/api/projects/Aegis/pipelines/1/runs/1' },
  { method: 'GET', url: '/api/clients' },
  { method: 'GET', url: '/api/backups/ABC' },
  { method: 'GET', url: '/api/backups/ABC/restores' },
  { method: 'GET', url: '/api/backups/ABC/runs/1' },
  // capture
  { method: 'GET', url: '/api/capture/clients/ABC/branches' },
  { method: 'GET', url: '/api/capture/clients/ABC/overview' },
  { method: 'POST', url: '/api/capture/clients/ABC/runs', payload: {} },
  { method: 'GET', url: '/api/capture/clients/ABC/runs/1' },
  // compliance
  { method: 'GET', url: '/api/compliance/ABC' },
  { method: 'GET', url: '/api/compliance/ABC/accepted-deviations', absentIsEmpty: true },
  { method: 'GET', url: '/api/compliance/ABC/matching', absentIsEmpty: true },
  {
    method: 'POST',
    url: '/api/compliance/ABC/accepted-deviations',
    payload: {
      path: 'AzureAD/Policies/Block legacy.json',
      policyName: 'Block legacy',
      category: 'AzureAD',
      properties: ['state'],
      reason: 'Agreed with the client',
    },
  },
  {
    method: 'POST',
    url: '/api/compliance/ABC/accepted-deviations/decisions',
    payload: { path: 'AzureAD/Policies/Block legacy.json', decision: 'approve' },
    // an absent file waits for nothing: its 404 names the acceptance, not the file
    absentIsEmpty: true,
  },
  { method: 'DELETE', url: '/api/compliance/ABC/matching' },
  {
    method: 'POST',
    url: '/api/compliance/ABC/preview',
    payload: {
      pendingMatches: [
        {
          baselineName: 'CA001 - Block legacy authentication',
          clientName: 'Block legacy auth',
          score: 90,
          scores: { conditions: 90, grantControls: 90, sessionControls: 90 },
          confirmedAt: '2026-11-20T10:00:00.000Z',
        },
      ],
    },
  },
  {
    method: 'GET',
    url: '/api/compliance/ABC/policy?side=baseline&path=AzureAD%2FPolicies%2FBlock%20legacy.json',
  },
  // backups: a backup's content, its comparison and its download
  { method: 'GET', url: `/api/backups/ABC/content?tag=${BACKUP_TAG}` },
  { method: 'GET', url: `/api/backups/ABC/comparison?tag=${BACKUP_TAG}` },
  { method: 'GET', url: `/api/backups/ABC/download?tag=${BACKUP_TAG}` },
  // chosen policies of a backup: as a pull request, and straight into the tenant (issue 30 §4)
  {
    method: 'POST',
    url: '/api/backups/ABC/restore',
    payload: { tag: decodeURIComponent(BACKUP_TAG), policies: ['ConditionalAccess/Policy/x.json'] },
  },
  {
    method: 'POST',
    url: '/api/backups/ABC/restore-runs',
    payload: { tag: decodeURIComponent(BACKUP_TAG), policies: ['ConditionalAccess/Policy/x.json'] },
  },
  { method: 'GET', url: '/api/backups/ABC/restore-runs/1' },
  // comparison, baseline files, capture files
  { method: 'GET', url: '/api/comparison/clients/ABC/configurations' },
  { method: 'GET', url: '/api/baseline/files?path=M365Config%2FResources' },
  { method: 'GET', url: '/api/baseline/file?path=M365Config%2FResources%2Fx.json' },
  // a review shows a file absent on one side as absent
  {
    method: 'GET',
    url: '/api/capture/clients/ABC/file?branch=main&path=AzureAD%2Fx.json',
    absentIsEmpty: true,
  },
  // client YAML, schedules, run lists and logs
  { method: 'GET', url: '/api/client-yaml/ABC' },
  { method: 'GET', url: '/api/client-yaml/ABC/apps-preview' },
  { method: 'GET', url: '/api/schedules' },
  { method: 'GET', url: '/api/projects/Aegis/pipelines/1/runs' },
  { method: 'GET', url: '/api/projects/Aegis/pipelines/1/runs/1/log' },
  // main's branch policy (ADR 051)
  { method: 'GET', url: '/api/branch-protection' },
  { method: 'POST', url: '/api/branch-protection' },
  // fleet
  { method: 'GET', url: '/api/fleet' },
  { method: 'GET', url: '/api/fleet/trends' },
  { method: 'GET', url: '/api/fleet/ABC/trend' },
  // onboarding
  { method: 'GET', url: '/api/onboarding/tenant-pipelines' },
  {
    method: 'POST',
    url: '/api/onboarding/tenant/runs',
    payload: {
      clientCode: 'ZZQ',
      domain: 'zzq.example',
      subscriptionName: 'Options IT',
      tenantId: TENANT_ID,
      enrollInPowerSupport: false,
      region: 'West Europe',
    },
  },
  {
    method: 'POST',
    url: '/api/onboarding/app-deploy-new/runs',
    payload: {
      clientCode: 'ZZQ',
      domain: 'zzq.example',
      clientTenantId: TENANT_ID,
      enterpriseAppId: TENANT_ID,
    },
  },
];

describe('upstream faults answer the status that tells the truth', () => {
  let idp: IdentityProvider;
  let devops: DevOpsFixture;
  let t: TestApp;

  beforeAll(async () => {
    idp = await startIdentityProvider({ port: 0, audience: TEST_AUDIENCE, allowedOrigins: [] });
    devops = await startSeededDevOps(idp);
    // A request that outlives the server's timeout still reaches the emulator and may start a
    // run; runs here do nothing, so none of them keeps the emulator busy (capture, onboarding).
    for (const pipeline of devops.emulator.state.data.pipelines) {
      devops.emulator.runner.register(pipeline.id, async () => undefined);
    }
    t = await build(
      {
        AEGIS_DEVOPS_ORG_URL: devops.emulator.url,
        AEGIS_DEVOPS_PROJECT: 'Aegis Tenant Management',
        AEGIS_UPSTREAM_TIMEOUT_MS: '400',
      },
      idp,
    );
    // The first call signs in and exchanges tokens: let it happen before the 0.4 s limit counts.
    await t.injectAs(SAMPLE_USER, { method: 'GET', url: '/api/projects' });
  });
  afterEach(() => devops.emulator.faults.clear());
  afterAll(async () => {
    await t.close();
    await devops.close();
    await idp.close();
  });

  for (const fault of FAULTS) {
    it(`DevOps ${fault.name} → ${fault.status}`, async () => {
      const failures: string[] = [];
      for (const route of DEVOPS_ROUTES.slice(0, fault.routes)) {
        // A missing Clients folder is a repository without clients (spec: empty list), not a 404.
        if (fault.status === 404 && (route.url.endsWith('/clients') || route.absentIsEmpty))
          continue;
        devops.emulator.faults.clear();
        devops.emulator.faults.add(fault.rule);
        const response = await t.injectAs(SAMPLE_USER, {
          method: route.method,
          url: route.url,
          ...(route.payload ? { payload: route.payload } : {}),
        });
        const body = response.json() as { message?: string };
        const ok =
          response.statusCode === fault.status &&
          fault.message.test(body.message ?? '') &&
          (fault.retryAfter === undefined || response.headers['retry-after'] === fault.retryAfter);
        if (!ok) {
          failures.push(
            `${route.method} ${route.url} → ${response.statusCode} ${body.message} (retry-after ${String(response.headers['retry-after'])})`,
          );
        }
      }
      expect(failures).toEqual([]);
    }, 90_000);
  }
});

describe('a streamed answer that fails after it started', () => {
  let idp: IdentityProvider;
  let devops: DevOpsFixture;
  let t: TestApp;

  beforeAll(async () => {
    idp = await startIdentityProvider({ port: 0, audience: TEST_AUDIENCE, allowedOrigins: [] });
    devops = await startSeededDevOps(idp);
    t = await build(
      {
        AEGIS_DEVOPS_ORG_URL: devops.emulator.url,
        AEGIS_DEVOPS_PROJECT: 'Aegis Tenant Management',
      },
      idp,
    );
  });
  afterAll(async () => {
    await t.close();
    await devops.close();
    await idp.close();
  });

  it('ends with an error event carrying the same status and message as a plain answer', async () => {
    // the client check before the stream passes; the comparison's full listings fail
    devops.emulator.faults.add({ kind: 'signInPage', queryPattern: 'recursionLevel=full' });
    const response = await t.injectAs(SAMPLE_USER, {
      method: 'POST',
      url: '/api/comparison/runs',
      payload: { client: 'ABC', baselineType: 'standard' },
    });
    expect(response.statusCode).toBe(200);
    const events = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; statusCode?: number; message?: string });
    expect(events.at(-1)).toMatchObject({ type: 'error', statusCode: 502 });
    expect(events.at(-1)?.message).toMatch(/Sign-in to Azure DevOps needs attention/);
  });
});
