import type { ClientDriftDto, DriftedObjectDto } from '@aegis/contracts';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const SETTINGS = { enabled: true, quickIntervalInMinutes: 10, fullIntervalInMinutes: 360 };

const DRIFTED: ClientDriftDto = {
  client: 'ABC',
  settings: SETTINGS,
  defaultSettings: true,
  check: {
    client: 'ABC',
    status: 'drifted',
    kind: 'quick',
    checkedAt: '2026-03-10T11:55:00.000Z',
    driftedCount: 2,
    driftSince: '2026-03-10T11:45:00.000Z',
    resolvedAt: null,
    mainCommit: 'c0ffee',
    notRead: [
      {
        workload: 'Intune/DeviceConfiguration',
        status: 'failed',
        text: 'Not captured: the service answered 500',
      },
    ],
    lastChange: { actor: 'pat@abc.example', time: '2026-03-10T11:40:00.000Z' },
    objects: [
      {
        path: '/Clients/ABC/M365Config/Resources/ConditionalAccess/Policy/CA004.json',
        workload: 'ConditionalAccess/Policy',
        name: 'CA004 risky sign-in MFA',
        change: 'changed',
        properties: [
          {
            property: 'state',
            oldValue: 'enabled',
            newValue: 'disabled',
            changeType: 'modified',
          },
        ],
        attribution: {
          status: 'attributed',
          actor: 'pat@abc.example',
          time: '2026-03-10T11:40:00.000Z',
          operation: 'Update conditional access policy',
          log: 'entraDirectoryAudits',
        },
      },
      {
        path: '/Clients/ABC/M365Config/Resources/Exchange/OrganizationConfig/Organization Config.json',
        workload: 'Exchange/OrganizationConfig',
        name: 'Organization Config',
        change: 'added',
        properties: [],
        attribution: { status: 'unknown', reason: "not in the audit log's retention window" },
      },
    ],
  },
};

const CA004 = DRIFTED.check!.objects[0]!;
const ORGANIZATION = DRIFTED.check!.objects[1]!;
/** an object of a workload no public API writes: shown, never offered for revert */
const SPO_TENANT: DriftedObjectDto = {
  path: '/Clients/ABC/M365Config/Resources/SharePoint/SPOTenant/SharePoint Tenant Settings.json',
  workload: 'SharePoint/SPOTenant',
  name: 'SharePoint Tenant Settings',
  change: 'changed',
  properties: [],
  attribution: null,
};

/** A run of the projects API answering each read with the next state, the last one repeated. */
function runAnswers(pipelineId: number, runId: number, states: [string, string | null][]) {
  let read = 0;
  return http.get(`*/api/projects/:project/pipelines/${pipelineId}/runs/${runId}`, () => {
    const [state, result] = states[Math.min(read, states.length - 1)]!;
    read += 1;
    return HttpResponse.json({ id: runId, state, result });
  });
}

describe('Drift page', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows what drifted, who changed it and when, and what was not read', async () => {
    mockServer.use(http.get('*/api/drift/ABC', () => HttpResponse.json(DRIFTED)));
    renderApp('/fleet/ABC/drift');
    const table = await screen.findByRole('table', { name: 'Drifted objects' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('CA004 risky sign-in MFA');
    expect(rows[0]).toHaveTextContent('state: "enabled" → "disabled"');
    expect(rows[0]).toHaveTextContent('pat@abc.example');
    expect(rows[0]).toHaveTextContent('10 Mar 2026');
    expect(rows[0]).toHaveTextContent('Update conditional access policy');
    expect(rows[1]).toHaveTextContent("Unknown: not in the audit log's retention window");
    expect(screen.getByText('Drifted: 2')).toBeInTheDocument();
    expect(screen.getByText('Partial check: some workloads were not read')).toBeInTheDocument();
    expect(
      screen.getByText('Intune/DeviceConfiguration: Not captured: the service answered 500'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/Checked every 10 minutes, fully every 6 hours \(defaults\)/),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Capture the tenant to review the drift' }),
    ).toHaveAttribute('href', '/trigger-capture');
  });

  it('says a client was never checked, and starts a check with the keyboard', async () => {
    let started = 0;
    mockServer.use(
      http.get('*/api/drift/CON', () =>
        HttpResponse.json({ ...DRIFTED, client: 'CON', check: null }),
      ),
      http.post('*/api/drift/CON/checks', () => {
        started += 1;
        return HttpResponse.json(
          { runId: 42, pipelineId: 232, project: 'Tenant Management' },
          { status: 202 },
        );
      }),
    );
    renderApp('/fleet/CON/drift');
    expect(await screen.findByText(/Not checked yet\./)).toBeInTheDocument();
    screen.getByRole('button', { name: 'Check now' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText(/Drift check started \(run 42\)/)).toBeInTheDocument();
    expect(started).toBe(1);
  });

  it('says so when the drift cannot be loaded, and when a check cannot be started', async () => {
    mockServer.use(
      http.get('*/api/drift/FAB', () =>
        HttpResponse.json(
          { error: 'ServiceError', statusCode: 504, message: 'Table storage did not answer' },
          { status: 504 },
        ),
      ),
      http.post('*/api/drift/FAB/checks', () =>
        HttpResponse.json(
          { error: 'NotAllowedError', statusCode: 403, message: 'Operator role required' },
          { status: 403 },
        ),
      ),
    );
    renderApp('/fleet/FAB/drift');
    expect(await screen.findByText('Failed to load the drift.')).toBeInTheDocument();
    expect(screen.getByText('Table storage did not answer')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect(await screen.findByText('The drift check could not be started.')).toBeInTheDocument();
    expect(screen.getByText('Operator role required')).toBeInTheDocument();
  });

  it('reverts the chosen objects after a confirmation listing them, then checks and shows the drift resolved', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const reverted: unknown[] = [];
    let checks = 0;
    const inSync: ClientDriftDto = {
      ...DRIFTED,
      check: {
        ...DRIFTED.check!,
        status: 'inSync',
        driftedCount: 0,
        driftSince: null,
        resolvedAt: '2026-03-10T12:10:00.000Z',
        notRead: [],
        objects: [],
      },
    };
    mockServer.use(
      http.get('*/api/drift/ABC', () =>
        HttpResponse.json(
          checks === 0
            ? {
                ...DRIFTED,
                check: { ...DRIFTED.check!, objects: [CA004, ORGANIZATION, SPO_TENANT] },
              }
            : inSync,
        ),
      ),
      http.post('*/api/drift/ABC/revert-runs', async ({ request }) => {
        reverted.push(await request.json());
        return HttpResponse.json(
          { runId: 57, state: 'inProgress', pipelineId: 230, project: 'Aegis' },
          { status: 201 },
        );
      }),
      runAnswers(230, 57, [
        ['inProgress', null],
        ['completed', 'succeeded'],
      ]),
      http.post('*/api/drift/ABC/checks', () => {
        checks += 1;
        return HttpResponse.json({ runId: 58, pipelineId: 232, project: 'Aegis' }, { status: 202 });
      }),
      runAnswers(232, 58, [['completed', 'succeeded']]),
    );
    renderApp('/fleet/ABC/drift', { roles: ['Approver'] });
    const table = await screen.findByRole('table', { name: 'Drifted objects' });
    // the object no public API writes cannot be chosen, and says what to do instead
    expect(
      within(table).getByRole('checkbox', { name: 'Choose SharePoint Tenant Settings' }),
    ).toBeDisabled();
    expect(
      within(table).getByText(/Not reverted by Aegis: Microsoft publishes no API/),
    ).toBeInTheDocument();
    const revertChosen = screen.getByRole('button', { name: 'Revert chosen (0)' });
    expect(revertChosen).toBeDisabled();
    await userEvent.click(within(table).getByRole('checkbox', { name: `Choose ${CA004.name}` }));
    await userEvent.click(screen.getByRole('button', { name: 'Revert chosen (1)' }));

    const prompt = await screen.findByRole('alertdialog', { name: 'Revert drift' });
    expect(prompt).toHaveTextContent(
      "Put back 1 object in ABC's tenant as the approved configuration on main has them? Aegis backs the tenant up first, as every deploy does.",
    );
    expect(prompt).toHaveTextContent(
      'CA004 risky sign-in MFA (ConditionalAccess/Policy): set back to the approved values',
    );
    expect(prompt).not.toHaveTextContent('Organization Config');
    expect(reverted).toEqual([]);
    await userEvent.click(within(prompt).getByRole('button', { name: 'Revert' }));

    expect(
      await screen.findByText(
        'Reverting 1 object of ABC to the approved configuration (run 57)...',
      ),
    ).toBeInTheDocument();
    expect(reverted).toEqual([{ objects: [CA004.path] }]);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(
      await screen.findByText('Reverted 1 object of ABC to the approved configuration (run 57).'),
    ).toBeInTheDocument();
    // the revert's success started one check, whose end reloaded the drift
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
    });
    expect(
      await screen.findByText('Drift check finished (run 58): the drift below is its result.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('In sync')).toBeInTheDocument();
    expect(checks).toBe(1);
  });

  it('reverts all that can be, nothing without the confirmation, and not for an Operator', async () => {
    const reverted: unknown[] = [];
    mockServer.use(
      http.get('*/api/drift/ABC', () =>
        HttpResponse.json({
          ...DRIFTED,
          check: { ...DRIFTED.check!, objects: [CA004, ORGANIZATION, SPO_TENANT] },
        }),
      ),
      http.post('*/api/drift/ABC/revert-runs', async ({ request }) => {
        reverted.push(await request.json());
        return HttpResponse.json(
          {
            error: 'ConflictError',
            statusCode: 409,
            message: 'CA004.json is not drifted in the last check of ABC',
          },
          { status: 409 },
        );
      }),
    );
    const { unmount } = renderApp('/fleet/ABC/drift', { roles: ['Approver'] });
    await userEvent.click(await screen.findByRole('button', { name: 'Revert all' }));
    let prompt = await screen.findByRole('alertdialog', { name: 'Revert drift' });
    expect(prompt).toHaveTextContent('Put back 2 objects');
    expect(prompt).toHaveTextContent(
      'Organization Config (Exchange/OrganizationConfig): removed from the tenant (the approved configuration does not have it)',
    );
    // focus starts on Cancel: going ahead changes the client's tenant
    expect(within(prompt).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(reverted).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Revert all' }));
    prompt = await screen.findByRole('alertdialog', { name: 'Revert drift' });
    await userEvent.click(within(prompt).getByRole('button', { name: 'Revert' }));
    expect(await screen.findByText('The revert could not be started.')).toBeInTheDocument();
    expect(screen.getByText(/is not drifted in the last check of ABC/)).toBeInTheDocument();
    expect(reverted).toEqual([{ objects: [CA004.path, ORGANIZATION.path] }]);
    unmount();

    renderApp('/fleet/ABC/drift', { roles: ['Operator'] });
    await screen.findByRole('table', { name: 'Drifted objects' });
    const all = screen.getByRole('button', { name: 'Revert all' });
    expect(all).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(all);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});
