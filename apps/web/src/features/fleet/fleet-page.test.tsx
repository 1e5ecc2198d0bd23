import type { Fleet, FleetDriftDto, FleetRow, FleetTrendList } from '@aegis/contracts';
import { FLEET_MISSING } from '@aegis/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const NOW = '2026-03-10T12:00:00.000Z';

function row(client: string, overrides: Partial<FleetRow> = {}): FleetRow {
  return {
    client,
    status: 'compliant',
    compliancePercentage: 95,
    criticalCount: 0,
    highCount: 0,
    standardPercentage: 88,
    acceptedDeviations: 1,
    lastCapture: '2026-03-08T10:00:00.000Z',
    lastCaptureAgeDays: 2,
    pendingReviews: 0,
    lastBackup: '2026-03-10T01:00:00.000Z',
    backupHealth: 'Healthy',
    missing: [],
    notCaptured: [],
    clientTreeId: `tree-${client}`,
    ...overrides,
  };
}

const FLEET: Fleet = {
  generatedAt: NOW,
  commitId: 'c0ffee',
  baselineTreeId: 'b4se',
  summary: { clients: 3, compliant: 1, atRisk: 1, critical: 0, incomplete: 1 },
  worstDeviations: [
    {
      path: 'Exchange/TransportConfig/Transport.json',
      policyName: 'Transport Config',
      category: 'Exchange',
      property: 'SmtpClientAuthenticationDisabled',
      severity: 'high',
      clientCount: 2,
      clients: ['ABC', 'CON'],
    },
  ],
  rows: [
    row('ABC'),
    row('CON', { status: 'atRisk', compliancePercentage: 81, highCount: 3 }),
    row('NEW', {
      status: 'incomplete',
      compliancePercentage: null,
      criticalCount: null,
      highCount: null,
      standardPercentage: null,
      acceptedDeviations: null,
      lastCapture: null,
      lastCaptureAgeDays: null,
      missing: [FLEET_MISSING.noConfiguration, FLEET_MISSING.noCapture],
    }),
  ],
};

const TRENDS: FleetTrendList = {
  trends: [
    {
      client: 'ABC',
      points: [70, 80, 95].map((value, i) => ({
        date: `2026-03-0${i + 1}T09:00:00.000Z`,
        commitId: `c${i}`,
        source: 'merge' as const,
        label: `Merge ${i}`,
        compliancePercentage: value,
        criticalCount: 0,
        highCount: 0,
        standardPercentage: 80,
      })),
    },
  ],
};

const DRIFT: FleetDriftDto = {
  clients: [
    {
      client: 'CON',
      status: 'drifted',
      kind: 'quick',
      checkedAt: '2026-03-10T11:55:00.000Z',
      driftedCount: 2,
      driftSince: '2026-03-10T11:45:00.000Z',
      resolvedAt: null,
      notRead: [],
      lastChange: { actor: 'pat@con.example', time: '2026-03-10T11:40:00.000Z' },
    },
    {
      client: 'ABC',
      status: 'inSync',
      kind: 'full',
      checkedAt: '2026-03-10T11:50:00.000Z',
      driftedCount: 0,
      driftSince: null,
      resolvedAt: null,
      notRead: [
        {
          workload: 'Intune/DeviceConfiguration',
          status: 'failed',
          text: 'Not captured: the service answered 500',
        },
      ],
      lastChange: null,
    },
  ],
};

function serve() {
  mockServer.use(
    http.get('*/api/fleet', () => HttpResponse.json(FLEET)),
    http.get('*/api/drift', () => HttpResponse.json(DRIFT)),
    http.get('*/api/fleet/trends', () => HttpResponse.json(TRENDS)),
    // the client's Baseline Compliance that a row opens (another feature's requests)
    http.get('*/api/*', () =>
      HttpResponse.json(
        { error: 'NotFoundError', statusCode: 404, message: 'not in this test' },
        { status: 404 },
      ),
    ),
  );
}

const bodyRows = (grid: HTMLElement) => within(grid).getAllByRole('row').slice(1);
const clientOf = (r: HTMLElement) => within(r).getAllByRole('gridcell')[0]?.textContent;

describe('Fleet page', () => {
  it('shows the summary, every client with what is missing, and filters', async () => {
    serve();
    renderApp('/fleet');
    const grid = await screen.findByRole('grid', { name: 'Fleet' });
    const summary = screen.getByRole('region', { name: 'Fleet summary' });
    expect(within(summary).getByRole('group', { name: 'Compliant' })).toHaveTextContent('1');
    expect(within(summary).getByRole('group', { name: 'Data missing' })).toHaveTextContent('1');
    expect(within(summary).getByText('Failing in 2 of 3 clients: ABC, CON')).toBeInTheDocument();

    // sorted by status: data missing before at risk before compliant
    expect(bodyRows(grid).map(clientOf)).toEqual(['NEW', 'CON', 'ABC']);
    const missing = within(grid).getByRole('list', { name: 'Missing for NEW' });
    expect(missing).toHaveTextContent(FLEET_MISSING.noConfiguration);
    expect(missing).toHaveTextContent(FLEET_MISSING.noCapture);
    const newRow = bodyRows(grid)[0] as HTMLElement;
    expect(within(newRow).getByText('Data missing')).toBeInTheDocument();
    expect(within(newRow).queryByText('Compliant')).not.toBeInTheDocument();
    expect(
      await within(grid).findByLabelText(/Compliance of ABC went from 70% to 95%/),
    ).toBeVisible();

    await userEvent.type(screen.getByRole('searchbox'), 'con');
    expect(screen.getByText('1 of 3 clients shown')).toBeInTheDocument();
    expect(bodyRows(grid).map(clientOf)).toEqual(['CON']);
  });

  it('keeps the filters in the address, so Back from a client finds them again', async () => {
    serve();
    const { router } = renderApp('/fleet');
    const grid = await screen.findByRole('grid', { name: 'Fleet' });
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(screen.getByRole('option', { name: 'At risk' }));
    expect(bodyRows(grid).map(clientOf)).toEqual(['CON']);
    expect(router.state.location.search).toBe('?status=atRisk');

    await userEvent.click(within(grid).getByRole('link', { name: 'CON' }));
    await screen.findByRole('tab', { name: 'Baseline Compliance' });
    await router.navigate(-1);
    const again = await screen.findByRole('grid', { name: 'Fleet' });
    expect(bodyRows(again).map(clientOf)).toEqual(['CON']);
    expect(screen.getByText('1 of 3 clients shown')).toBeInTheDocument();
  });

  it('reads a filter from a shared address, and ignores a status it does not know', async () => {
    serve();
    renderApp('/fleet?q=ab&status=nonsense');
    const grid = await screen.findByRole('grid', { name: 'Fleet' });
    expect(bodyRows(grid).map(clientOf)).toEqual(['ABC']);
    expect(screen.getByRole('searchbox')).toHaveValue('ab');
  });

  it('sorts by a column and opens the client Baseline Compliance from a row', async () => {
    serve();
    renderApp('/fleet');
    const grid = await screen.findByRole('grid', { name: 'Fleet' });
    await userEvent.click(within(grid).getByRole('columnheader', { name: 'Baseline' }));
    // ascending, unknown figures first
    expect(bodyRows(grid).map(clientOf)).toEqual(['NEW', 'CON', 'ABC']);
    await userEvent.click(within(grid).getByRole('columnheader', { name: 'Baseline' }));
    expect(bodyRows(grid).map(clientOf)).toEqual(['ABC', 'CON', 'NEW']);

    const link = within(grid).getByRole('link', { name: 'CON' });
    expect(link).toHaveAttribute('href', '/capture-management/CON?view=baseline');
    await userEvent.click(link);
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Baseline Compliance' })).toHaveAttribute(
        'aria-selected',
        'true',
      ),
    );
  });

  it('says so when the fleet cannot be loaded', async () => {
    mockServer.use(
      http.get('*/api/fleet', () =>
        HttpResponse.json(
          { error: 'ServiceError', statusCode: 502, message: 'Azure DevOps did not answer' },
          { status: 502 },
        ),
      ),
      http.get('*/api/fleet/trends', () => HttpResponse.json({ trends: [] })),
      http.get('*/api/drift', () => HttpResponse.json({ clients: [] })),
    );
    renderApp('/fleet');
    expect(await screen.findByText('Failed to load the fleet.')).toBeInTheDocument();
    expect(screen.getByText('Azure DevOps did not answer')).toBeInTheDocument();
  });

  it('shows each client’s drift, who changed it, a partial check, and filters by drift', async () => {
    serve();
    const { router } = renderApp('/fleet');
    const grid = await screen.findByRole('grid', { name: 'Fleet' });
    const rowOf = (client: string) => bodyRows(grid).find((r) => clientOf(r) === client)!;
    expect(await within(rowOf('CON')).findByText('Drifted: 2')).toBeInTheDocument();
    expect(within(rowOf('CON')).getByText(/by pat@con\.example, 10 Mar 2026/)).toBeInTheDocument();
    expect(within(rowOf('ABC')).getByText('In sync')).toBeInTheDocument();
    expect(within(rowOf('ABC')).getByText('Partial: 1 not read')).toBeInTheDocument();
    expect(within(rowOf('NEW')).getByText('Not checked yet')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('combobox', { name: 'Drift' }));
    await userEvent.click(screen.getByRole('option', { name: 'Drifted' }));
    expect(bodyRows(grid).map(clientOf)).toEqual(['CON']);
    expect(router.state.location.search).toBe('?drift=drifted');
    await userEvent.click(screen.getByRole('combobox', { name: 'Drift' }));
    await userEvent.click(screen.getByRole('option', { name: 'Not checked' }));
    expect(bodyRows(grid).map(clientOf)).toEqual(['NEW']);

    await userEvent.click(screen.getByRole('combobox', { name: 'Drift' }));
    await userEvent.click(screen.getByRole('option', { name: 'All' }));
    await userEvent.click(
      within(rowOf('CON')).getByRole('link', { name: 'Drifted: 2, drift of CON' }),
    );
    // the drift page's code loads first
    await waitFor(() => expect(router.state.location.pathname).toBe('/fleet/CON/drift'));
  });

  it('keeps the fleet usable when drift cannot be read', async () => {
    serve();
    mockServer.use(
      http.get('*/api/drift', () =>
        HttpResponse.json(
          { error: 'ServiceError', statusCode: 503, message: 'Table storage is busy' },
          { status: 503 },
        ),
      ),
    );
    renderApp('/fleet');
    const grid = await screen.findByRole('grid', { name: 'Fleet' });
    expect((await within(grid).findAllByText('Drift unavailable')).length).toBe(3);
    expect(screen.getByRole('combobox', { name: 'Drift' })).toBeDisabled();
  });
});
