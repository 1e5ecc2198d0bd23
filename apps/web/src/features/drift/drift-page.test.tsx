import type { ClientDriftDto } from '@aegis/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

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

describe('Drift page', () => {
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
});
