// Issue 26: the OpenAPI-driven route probes reach every route the server has, and the routes
// added since the last probe (clients, branch protection, acceptance decisions) get its bad-input
// matrix and 50 concurrent writers. The auth and role matrices (auth-probe, roles) and the fault
// matrix (fault-matrix) walk the same OpenAPI operations and route list.
import type { ComplianceReport } from '@aegis/contracts';
import type { AcceptedDeviationsConfig } from '@aegis/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';
import { build, SAMPLE_USER, type TestApp } from '../helper';
import { listOperations } from '../openapi-operations';

const ALEX = SAMPLE_USER;
const PRIYA = 'priya.shah@aegis-msp.example';
const WRITERS = 50;

/**
 * Every method and path the server routes, read from Fastify's route tree (`printRoutes`): each
 * line is a path segment under its parent, with the methods it answers.
 */
function registeredRoutes(tree: string): { method: string; path: string }[] {
  const routes: { method: string; path: string }[] = [];
  const parents: string[] = [];
  for (const line of tree.split('\n')) {
    const start = line.search(/[^│├└─\s]/);
    if (start < 0) continue;
    const depth = Math.floor(start / 4);
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(start));
    const path = `${parents[depth - 1] ?? ''}${match?.[1] ?? ''}`;
    parents[depth] = path;
    parents.length = depth + 1;
    for (const method of (match?.[2] ?? '').split(',').map((m) => m.trim())) {
      if (method && method !== 'HEAD') routes.push({ method, path });
    }
  }
  return routes;
}

describe('the probes reach every route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(async () => t.close());

  it('finds every /api route the server registers in the OpenAPI document the probes walk', async () => {
    const documented = new Set(
      (await listOperations(t.app)).map((o) => `${o.method} ${o.template}`),
    );
    const routes = registeredRoutes(t.app.printRoutes({ commonPrefix: false }))
      .filter((r) => r.path.startsWith('/api/') && !r.path.startsWith('/api/docs'))
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
    expect(routes.length).toBeGreaterThan(60);
    expect(routes.filter((r) => !documented.has(r))).toEqual([]);
    for (const added of [
      'GET /api/clients',
      'GET /api/branch-protection',
      'POST /api/branch-protection',
      'POST /api/compliance/{client}/accepted-deviations/decisions',
    ]) {
      expect(routes).toContain(added);
    }
  });

  it('reads the route tree as Fastify prints it', () => {
    expect(
      registeredRoutes(
        [
          '├── /api/backups/:client (GET, HEAD)',
          '│   ├── /restore (POST)',
          '│   │   └── s (GET, HEAD)',
          '│   └── /content (GET, HEAD)',
          '└── /api/me (GET, HEAD)',
        ].join('\n'),
      ),
    ).toEqual([
      { method: 'GET', path: '/api/backups/:client' },
      { method: 'POST', path: '/api/backups/:client/restore' },
      { method: 'GET', path: '/api/backups/:client/restores' },
      { method: 'GET', path: '/api/backups/:client/content' },
      { method: 'GET', path: '/api/me' },
    ]);
  });
});

describe('routes added since the last probe', () => {
  let env: AppWithDevOps;
  let t: TestApp;

  beforeAll(async () => {
    env = await buildWithSeededDevOps();
    ({ t } = env);
  });
  afterEach(() => env.devops.emulator.faults.clear());
  afterAll(() => env.close());

  const decide = (user: string, payload: unknown, client = 'CON') =>
    t.injectAs(user, {
      method: 'POST',
      url: `/api/compliance/${client}/accepted-deviations/decisions`,
      payload: payload as object,
    });

  it.each([
    [
      'a client code that is not three capital letters',
      'con',
      { path: 'a.json', decision: 'approve' },
      'params.client',
    ],
    ['no path', 'CON', { decision: 'approve' }, 'body.path'],
    [
      'a path with a dot-dot segment',
      'CON',
      { path: 'AzureAD/../x.json', decision: 'approve' },
      'body.path',
    ],
    [
      'a path with a NUL byte',
      'CON',
      { path: 'AzureAD/x\u0000.json', decision: 'approve' },
      'body.path',
    ],
    [
      'a decision that is neither',
      'CON',
      { path: 'AzureAD/x.json', decision: 'maybe' },
      'body.decision',
    ],
    [
      'an unknown field',
      'CON',
      { path: 'AzureAD/x.json', decision: 'approve', force: true },
      'body.force',
    ],
  ])(
    'a decision with %s is 400 naming the field, before any call',
    async (_what, client, payload, field) => {
      env.devops.emulator.faults.add({ kind: 'error', statusCode: 500 });
      const response = await decide(PRIYA, payload, client);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field });
    },
  );

  it('/api/clients refuses an unknown filter with 400 naming it', async () => {
    const response = await t.injectAs(ALEX, { method: 'GET', url: '/api/clients?only=everything' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'querystring.only' });
  });

  it(`${WRITERS} concurrent approvals of one critical acceptance: one is accepted, once`, async () => {
    const report = (
      await t.injectAs(PRIYA, { method: 'GET', url: '/api/compliance/CON' })
    ).json() as ComplianceReport;
    const critical = report.compliance.deviations.find((g) =>
      g.deviations.some((d) => d.severity === 'critical'),
    );
    if (!critical) throw new Error('CON has no critical deviation');
    const asked = await t.injectAs(ALEX, {
      method: 'POST',
      url: '/api/compliance/CON/accepted-deviations',
      payload: {
        path: critical.path,
        policyName: critical.policyName,
        category: critical.category,
        properties: critical.deviations.map((d) => d.property),
        reason: 'Probe: fifty approvers at once',
      },
    });
    expect(asked.statusCode).toBe(202);

    const answers = await Promise.all(
      Array.from({ length: WRITERS }, () =>
        decide(PRIYA, { path: critical.path, decision: 'approve' }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    // one approval wins; every other finds no request left (404), none is a 2xx that wrote nothing
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200 && s !== 404)).toEqual([]);
    const file = (
      await t.injectAs(PRIYA, { method: 'GET', url: '/api/compliance/CON/accepted-deviations' })
    ).json() as AcceptedDeviationsConfig;
    expect(file.acceptedDeviations.filter((a) => a.path === critical.path)).toEqual([
      expect.objectContaining({ acceptedBy: ALEX, approvedBy: PRIYA }),
    ]);
    expect(file.pendingAcceptances ?? []).toEqual([]);
  }, 180_000);

  it(`${WRITERS} concurrent set-ups of a missing branch policy leave exactly one policy on main`, async () => {
    const policies = env.devops.emulator.state.data.policyConfigurations;
    for (const policy of policies) policy.isDeleted = true;
    expect(
      (await t.injectAs(ALEX, { method: 'GET', url: '/api/branch-protection' })).json(),
    ).toMatchObject({
      protected: false,
    });

    const answers = await Promise.all(
      Array.from({ length: WRITERS }, () =>
        t.injectAs(ALEX, { method: 'POST', url: '/api/branch-protection' }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(WRITERS).fill(200));
    expect(answers.every((a) => (a.json() as { protected: boolean }).protected)).toBe(true);
    const live = env.devops.emulator.state.data.policyConfigurations.filter((p) => !p.isDeleted);
    expect(live).toHaveLength(1);
    expect(
      (await t.injectAs(ALEX, { method: 'GET', url: '/api/branch-protection' })).json(),
    ).toMatchObject({
      protected: true,
      gaps: [],
    });
  }, 180_000);
});
