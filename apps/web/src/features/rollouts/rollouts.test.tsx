import type { RolloutDto, RolloutPlanDto } from '@aegis/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { clientsHandler, knownClient } from '../../testing/mocks/clients';
import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const ID = '3f2b8c1e-0000-4000-8000-000000000001';

const HALTED: RolloutDto = {
  id: ID,
  status: 'halted',
  commitId: 'c0ffee0123456789',
  createdBy: 'priya.shah@aegis-msp.example',
  createdAt: '2026-11-27T10:00:00.000Z',
  rings: [
    { name: 'Ring 1', clients: ['NWT', 'CON'], maxFailures: 0, needsApproval: false },
    { name: 'Ring 2', clients: ['FAB'], maxFailures: 0, needsApproval: false },
  ],
  currentRing: 0,
  plan: [
    { client: 'NWT', creates: 0, updates: 2, deletes: 0 },
    { client: 'CON', creates: 1, updates: 1, deletes: 0 },
    { client: 'FAB', creates: 0, updates: 1, deletes: 0 },
    { client: 'WWI', creates: 0, updates: 0, deletes: 0 },
  ],
  deploys: {
    NWT: { status: 'succeeded', runId: 11, backupTag: 'backup/NWT/20261127_100100' },
    CON: { status: 'failed', runId: 12, backupTag: 'backup/CON/20261127_100100' },
    FAB: { status: 'pending' },
  },
  rollbacks: {},
  approvals: {},
  failed: ['CON'],
  project: 'Tenant Management',
  pipelineId: 212,
};

describe('Rollouts', () => {
  it('a halted rollout names the failed tenant with its run log, and resumes from the keyboard', async () => {
    let resumed = 0;
    mockServer.use(
      http.get(`*/api/rollouts/${ID}`, () => HttpResponse.json(HALTED)),
      http.post(`*/api/rollouts/${ID}/resume`, () => {
        resumed += 1;
        return HttpResponse.json({
          ...HALTED,
          status: 'running',
          failed: [],
          deploys: { ...HALTED.deploys, CON: { status: 'pending' } },
        });
      }),
    );
    renderApp(`/rollouts/${ID}`);
    expect(await screen.findByText(/Ring 1 failed in CON\./)).toBeInTheDocument();
    const ring1 = screen.getByRole('table', { name: 'Tenants of Ring 1' });
    const con = within(ring1).getByRole('row', { name: /CON/ });
    expect(con).toHaveTextContent('Failed');
    expect(con).toHaveTextContent('1 to create, 1 to change');
    expect(within(con).getByRole('button', { name: /log/i })).toBeInTheDocument();
    expect(screen.getByText(/WWI: their tenants already match the baseline/)).toBeInTheDocument();

    screen.getByRole('button', { name: 'Resume' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('The rollout resumed.')).toBeInTheDocument();
    expect(resumed).toBe(1);
    expect(screen.queryByText(/Ring 1 failed in CON\./)).not.toBeInTheDocument();
  });

  it('a rollout halted because main moved says so, and plans again from its clients but the excluded', async () => {
    mockServer.use(
      clientsHandler([knownClient('NWT'), knownClient('CON'), knownClient('FAB')]),
      http.get('*/api/rollouts/commits', () => HttpResponse.json({ commits: [] })),
      http.get(`*/api/rollouts/${ID}`, () =>
        HttpResponse.json({
          ...HALTED,
          failed: [],
          deploys: { ...HALTED.deploys, CON: { status: 'succeeded', runId: 12 } },
          mainMoved: { commitId: 'beef0123456789ab', at: '2026-11-27T11:00:00.000Z' },
          // an Approver left FAB out: planning again does not bring it back
          unreadDecisions: {
            FAB: { decision: 'excluded', by: 'ann@msp.example', at: '2026-11-27T10:00:00.000Z' },
          },
        }),
      ),
    );
    renderApp(`/rollouts/${ID}`);
    expect(await screen.findByText('Halted: the baseline on main changed')).toBeInTheDocument();
    expect(
      screen.getByText(/planned at commit c0ffee01, main now at beef0123/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resume' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Plan again' }));
    expect(await screen.findByRole('checkbox', { name: /NWT/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /CON/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /FAB/ })).not.toBeChecked();
  });

  it('plans the chosen clients from fresh captures and creates the rollout in rings', async () => {
    const plan: RolloutPlanDto = {
      commitId: 'c0ffee0123456789',
      tenants: [
        {
          client: 'NWT',
          runId: 21,
          status: 'planned',
          plan: { client: 'NWT', creates: 0, updates: 2, deletes: 0, policies: [] },
        },
        {
          client: 'FAB',
          runId: 22,
          status: 'planned',
          plan: { client: 'FAB', creates: 0, updates: 0, deletes: 0, policies: [] },
        },
      ],
    };
    let created: unknown;
    let plannedAt: string | null = null;
    const commit = (n: number) => String(n).repeat(40);
    mockServer.use(
      clientsHandler([knownClient('NWT'), knownClient('FAB')]),
      http.get('*/api/rollouts/commits', () =>
        HttpResponse.json({
          commits: [
            {
              commitId: commit(2),
              subject: 'Baseline: MFA for admins',
              author: 'Priya Shah',
              date: '2026-11-27T09:00:00.000Z',
            },
            {
              commitId: commit(1),
              subject: 'Layer Healthcare: lockout after 5',
              author: 'Jo Second',
              date: '2026-11-26T09:00:00.000Z',
            },
          ],
        }),
      ),
      http.post('*/api/rollouts/plans', () =>
        HttpResponse.json(
          {
            captures: [
              { client: 'NWT', runId: 21 },
              { client: 'FAB', runId: 22 },
            ],
            project: 'Tenant Management',
            pipelineId: 216,
          },
          { status: 201 },
        ),
      ),
      http.get('*/api/rollouts/plan', ({ request }) => {
        plannedAt = new URL(request.url).searchParams.get('commit');
        return HttpResponse.json(plan);
      }),
      http.post('*/api/rollouts', async ({ request }) => {
        created = await request.json();
        return HttpResponse.json({ ...HALTED, status: 'planned' }, { status: 201 });
      }),
      http.get(`*/api/rollouts/${ID}`, () => HttpResponse.json({ ...HALTED, status: 'planned' })),
    );
    renderApp('/rollouts/new');
    const picker = await screen.findByRole('combobox', { name: /Baseline commit/ });
    // the newest baseline commit by default; the technician picks the layer change instead
    expect(picker).toHaveValue(commit(2));
    await userEvent.selectOptions(
      picker,
      screen.getByRole('option', { name: /Layer Healthcare: lockout after 5 · Jo Second/ }),
    );
    await userEvent.click(await screen.findByRole('checkbox', { name: /NWT/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /FAB/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Plan' }));
    const table = await screen.findByRole('table', { name: 'Plan per tenant' });
    expect(within(table).getByRole('row', { name: /NWT/ })).toHaveTextContent('Planned');
    expect(screen.getByText(/Nothing to do in FAB/)).toBeInTheDocument();
    expect(plannedAt).toBe(commit(1));
    await userEvent.click(screen.getByRole('button', { name: 'Create rollout' }));
    expect(await screen.findByRole('button', { name: 'Start rollout' })).toBeInTheDocument();
    expect(created).toEqual({
      captures: [
        { client: 'NWT', runId: 21 },
        { client: 'FAB', runId: 22 },
      ],
      rings: [{ name: 'Ring 1', clients: ['NWT'] }],
      commitId: commit(1),
    });
  });

  it('flags a tenant the plan could not fully read; it is acknowledged or excluded before the start', async () => {
    const denied = {
      workload: 'ConditionalAccess/Policy',
      status: 'notPermitted' as const,
      text: 'Not captured: the Aegis app lacks Policy.Read.All (Authorization_RequestDenied: Insufficient privileges to complete the operation.)',
      baselinePolicies: 1,
    };
    const planned: RolloutDto = {
      ...HALTED,
      status: 'planned',
      failed: [],
      deploys: {
        NWT: { status: 'pending' },
        CON: { status: 'pending' },
        FAB: { status: 'pending' },
      },
      plan: HALTED.plan.map((p) =>
        p.client === 'NWT' || p.client === 'CON' ? { ...p, unread: [denied] } : p,
      ),
      etag: 'W/"1"',
    };
    const bodies: unknown[] = [];
    let current = planned;
    mockServer.use(
      http.get(`*/api/rollouts/${ID}`, () => HttpResponse.json(current)),
      http.post(`*/api/rollouts/${ID}/unread-decisions`, async ({ request }) => {
        const body = (await request.json()) as { client: string; decision: string; etag: string };
        bodies.push(body);
        if (body.etag !== current.etag) {
          return HttpResponse.json(
            { message: `Rollout ${ID} changed since you read it: read it again, then decide.` },
            { status: 409 },
          );
        }
        current = {
          ...current,
          etag: `W/"${bodies.length + 1}"`,
          unreadDecisions: {
            ...current.unreadDecisions,
            [body.client]: {
              decision: body.decision as 'acknowledged' | 'excluded',
              by: 'jo.second@aegis-msp.example',
              at: '2026-11-27T10:30:00.000Z',
            },
          },
          ...(body.decision === 'excluded'
            ? {
                rings: current.rings.map((r) => ({
                  ...r,
                  clients: r.clients.filter((c) => c !== body.client),
                })),
              }
            : {}),
        };
        return HttpResponse.json(current);
      }),
    );
    renderApp(`/rollouts/${ID}`);
    const section = await screen.findByRole('region', {
      name: 'Tenants the plan could not fully read',
    });
    const nwt = within(section).getByRole('region', { name: 'NWT' });
    expect(nwt).toHaveTextContent(
      'ConditionalAccess/Policy: Not captured: the Aegis app lacks Policy.Read.All (Authorization_RequestDenied: Insufficient privileges to complete the operation.) 1 baseline policy there is counted as to create',
    );
    expect(nwt).toHaveTextContent('Waiting for an Approver: acknowledge or exclude.');
    const ring1 = screen.getByRole('table', { name: 'Tenants of Ring 1' });
    expect(within(ring1).getByRole('row', { name: /NWT/ })).toHaveTextContent(
      '1 workload not read',
    );
    expect(screen.getByRole('button', { name: 'Start rollout' })).toBeDisabled();
    expect(
      screen.getByText('Acknowledge or exclude NWT, CON before the rollout starts.'),
    ).toBeInTheDocument();

    await userEvent.click(within(nwt).getByRole('button', { name: 'Acknowledge NWT' }));
    expect(
      await within(nwt).findByText(/Acknowledged by jo.second@aegis-msp.example/),
    ).toBeInTheDocument();
    expect(bodies).toEqual([{ client: 'NWT', decision: 'acknowledged', etag: 'W/"1"' }]);
    expect(screen.getByRole('button', { name: 'Start rollout' })).toBeDisabled();

    const con = within(section).getByRole('region', { name: 'CON' });
    await userEvent.click(within(con).getByRole('button', { name: 'Exclude CON' }));
    expect(
      await within(con).findByText(/Excluded by .*: no ring deploys to it\./),
    ).toBeInTheDocument();
    expect(bodies[1]).toEqual({ client: 'CON', decision: 'excluded', etag: 'W/"2"' });
    expect(screen.getByRole('button', { name: 'Start rollout' })).toBeEnabled();
    expect(
      within(screen.getByRole('table', { name: 'Tenants of Ring 1' })).queryByRole('row', {
        name: /CON/,
      }),
    ).not.toBeInTheDocument();
  });

  it('says when a decision met a rollout that had changed, and reads it again', async () => {
    const planned: RolloutDto = {
      ...HALTED,
      status: 'planned',
      failed: [],
      deploys: {
        NWT: { status: 'pending' },
        CON: { status: 'pending' },
        FAB: { status: 'pending' },
      },
      plan: HALTED.plan.map((p) =>
        p.client === 'NWT'
          ? {
              ...p,
              unread: [
                {
                  workload: 'Exchange/TransportRule',
                  status: 'failed' as const,
                  text: 'Not captured: the service answered 503: Server busy',
                  baselinePolicies: 0,
                },
              ],
            }
          : p,
      ),
      etag: 'W/"1"',
    };
    let reads = 0;
    mockServer.use(
      http.get(`*/api/rollouts/${ID}`, () => {
        reads += 1;
        return HttpResponse.json(planned);
      }),
      http.post(`*/api/rollouts/${ID}/unread-decisions`, () =>
        HttpResponse.json(
          { message: `Rollout ${ID} changed since you read it: read it again, then decide.` },
          { status: 409 },
        ),
      ),
    );
    renderApp(`/rollouts/${ID}`);
    const nwt = await screen.findByRole('region', { name: 'NWT' });
    expect(nwt).toHaveTextContent(
      'Exchange/TransportRule: Not captured: the service answered 503: Server busy. The baseline has no policy there.',
    );
    await userEvent.click(within(nwt).getByRole('button', { name: 'Acknowledge NWT' }));
    expect(await screen.findByText('NWT was not decided')).toBeInTheDocument();
    expect(screen.getAllByText(/changed since you read it/)[0]).toBeInTheDocument();
    // the rollout is read again, so the next decision names its current version
    await waitFor(() => expect(reads).toBeGreaterThan(1));
  });
});
