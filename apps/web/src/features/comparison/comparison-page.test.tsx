import type { ClientList, ComparisonEvent, StandardComparisonResult } from '@aegis/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const CLIENTS: ClientList = { clients: [{ code: 'ABC' }, { code: 'CON' }] };

const RESULT: StandardComparisonResult = {
  baselineType: 'standard',
  client: 'ABC',
  clientTreeId: 't',
  results: [
    {
      id: 'EXC.1001',
      title: 'Auto-forwarding is off',
      description: 'Remote domains do not auto-forward',
      category: 'Exchange Security',
      severity: 'high',
      rationale: 'why',
      controlReference: 'ref',
      expected: 'False',
      current: 'True',
      pass: false,
      evaluated: true,
    },
  ],
  total: 1,
  passed: 0,
  failed: 1,
  percentage: 0,
  evaluatedCount: 1,
};

function ndjson(events: ComparisonEvent[]) {
  return new HttpResponse(events.map((e) => `${JSON.stringify(e)}\n`).join(''), {
    headers: { 'content-type': 'application/x-ndjson' },
  });
}

function serve(events: ComparisonEvent[]) {
  mockServer.use(
    http.get('*/api/comparison/clients', () => HttpResponse.json(CLIENTS)),
    http.post('*/api/comparison/runs', () => ndjson(events)),
  );
}

describe('Configuration Comparison page', () => {
  it('needs a client, then runs and shows the score, tiles and Complete!', async () => {
    serve([
      { type: 'progress', percent: 0 },
      { type: 'progress', percent: 30 },
      { type: 'progress', percent: 100 },
      { type: 'result', result: RESULT },
    ]);
    renderApp('/fetch-json-files');
    const run = await screen.findByRole('button', { name: 'Run Comparison' }, { timeout: 10_000 });
    expect(run).toBeDisabled();
    expect(screen.getByRole('option', { name: 'Choose a client...' })).toBeInTheDocument();
    await screen.findByRole('option', { name: 'ABC' });
    await userEvent.selectOptions(screen.getByLabelText('Client'), 'ABC');
    expect(run).toBeEnabled();
    await userEvent.click(run);
    expect(await screen.findByText('Complete!')).toBeInTheDocument();
    expect(screen.getByLabelText('Overall score')).toHaveTextContent('0.0%');
    expect(screen.getByLabelText('Total fails')).toHaveTextContent('1');
    expect(screen.getByLabelText('Exchange Security area')).toHaveTextContent('Needs Attention');
  });

  it("shows the server's message when the comparison fails", async () => {
    serve([
      { type: 'progress', percent: 0 },
      { type: 'error', statusCode: 502, message: 'Error comparing files: VS402371: down' },
    ]);
    renderApp('/tenant-baseline-options');
    expect(
      await screen.findByRole('heading', { name: 'Options - Aegis' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await screen.findByRole('option', { name: 'CON' });
    await userEvent.selectOptions(screen.getByLabelText('Client'), 'CON');
    await userEvent.click(screen.getByRole('button', { name: 'Run Comparison' }));
    expect(await screen.findByText('Error comparing files: VS402371: down')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run Comparison' })).toBeEnabled();
  });
});
