import type {
  ComparisonEvent,
  OptionsComparisonResult,
  PolicyFiles,
  StandardComparisonResult,
} from '@aegis/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, onTestFinished, vi } from 'vitest';

import { clientsHandler, knownClient } from '../../testing/mocks/clients';
import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const CLIENTS = clientsHandler([
  knownClient('ABC'),
  knownClient('CON'),
  // captured never: listed with what it lacks, not comparable
  knownClient('QRS', { configuration: false, lacks: ['configuration'] }),
]);

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
  notCaptured: [],
};

function ndjson(events: ComparisonEvent[]) {
  return new HttpResponse(events.map((e) => `${JSON.stringify(e)}\n`).join(''), {
    headers: { 'content-type': 'application/x-ndjson' },
  });
}

function serve(events: ComparisonEvent[]) {
  mockServer.use(
    CLIENTS,
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
    await screen.findByRole('option', { name: 'ABC - Client ABC' });
    // a code without a configuration on main is listed with what it lacks, not comparable
    expect(
      screen.getByRole('option', { name: 'QRS - Client QRS (no configuration on main)' }),
    ).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText('Client'), 'ABC');
    expect(run).toBeEnabled();
    await userEvent.click(run);
    expect(await screen.findByText('Complete!')).toBeInTheDocument();
    expect(screen.getByLabelText('Overall score')).toHaveTextContent('0.0%');
    expect(screen.getByLabelText('Total fails')).toHaveTextContent('1');
    expect(screen.getByLabelText('Exchange Security area')).toHaveTextContent('Needs Attention');

    // The results scroll with the page: no box with a height and a scroll bar of its own.
    const results = screen.getByRole('table', { name: 'Comparison results' });
    expect(getComputedStyle(results).overflowY).not.toMatch(/auto|scroll/);
    expect(getComputedStyle(results).maxHeight).toMatch(/^(none)?$/);
    await userEvent.click(within(results).getByRole('button', { name: 'Exchange Security' }));
    expect(await within(results).findByText(/Auto-forwarding is off/)).toBeInTheDocument();
  });

  it('keeps the selection, the run and the filters in the address, so a reload shows the results again', async () => {
    serve([
      { type: 'progress', percent: 100 },
      { type: 'result', result: RESULT },
    ]);
    const first = renderApp('/fetch-json-files');
    await screen.findByRole('option', { name: 'ABC - Client ABC' }, { timeout: 10_000 });
    await userEvent.selectOptions(screen.getByLabelText('Client'), 'ABC');
    await userEvent.click(screen.getByRole('button', { name: 'Run Comparison' }));
    expect(await screen.findByLabelText('Overall score')).toHaveTextContent('0.0%');
    await userEvent.click(screen.getByRole('tab', { name: 'Failed' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Show All Results' }));
    const search = first.router.state.location.search;
    expect(new URLSearchParams(search).toString()).toBe('client=ABC&run=1&show=failed&fails=1');
    first.unmount();

    // the same address in a new page (a reload, Back, a shared link): the same results, filtered
    let runs = 0;
    mockServer.use(
      http.post('*/api/comparison/runs', () => {
        runs += 1;
        return ndjson([
          { type: 'progress', percent: 100 },
          { type: 'result', result: RESULT },
        ]);
      }),
    );
    renderApp(`/fetch-json-files${search}`);
    expect(
      await screen.findByLabelText('Overall score', {}, { timeout: 10_000 }),
    ).toHaveTextContent('0.0%');
    expect(runs).toBe(1);
    expect(screen.getByLabelText('Client')).toHaveValue('ABC');
    expect(screen.getByRole('tab', { name: 'Failed' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('switch', { name: 'Show Only Fails' })).toBeChecked();
  });

  it('drops the results of the old selection when the client or baseline type changes', async () => {
    serve([
      { type: 'progress', percent: 100 },
      { type: 'result', result: RESULT },
    ]);
    const { router } = renderApp('/fetch-json-files?client=ABC&run=1');
    expect(await screen.findByLabelText('Overall score', {}, { timeout: 10_000 })).toBeVisible();
    await userEvent.click(screen.getByRole('radio', { name: 'Options Baseline' }));
    expect(screen.queryByLabelText('Overall score')).toBeNull();
    expect(router.state.location.search).toBe('?client=ABC&type=options');
  });

  it('shows every stage the server reports, even when they arrive in one burst', async () => {
    // A fast (or cached) run: the stages of the standard baseline reach the browser together.
    serve([
      ...[0, 30, 35, 40, 55, 70, 85, 95, 100].map((percent) => ({
        type: 'progress' as const,
        percent,
      })),
      { type: 'result', result: RESULT },
    ]);
    renderApp('/fetch-json-files');
    await screen.findByRole('option', { name: 'ABC - Client ABC' }, { timeout: 10_000 });
    await userEvent.selectOptions(screen.getByLabelText('Client'), 'ABC');
    await userEvent.click(screen.getByRole('button', { name: 'Run Comparison' }));
    const status = await screen.findByRole('status', { name: 'Comparison' });
    for (const stage of [
      'Fetching configuration files...',
      'Analysing policies...',
      'Finalising results...',
    ]) {
      await waitFor(() => expect(status).toHaveTextContent(stage), { timeout: 5_000 });
      // The results wait for the bar: they are not shown before Complete!.
      expect(screen.queryByLabelText('Overall score')).toBeNull();
    }
    await waitFor(() => expect(status).toHaveTextContent('Complete!'), { timeout: 5_000 });
    expect(await screen.findByLabelText('Overall score')).toHaveTextContent('0.0%');
  });

  it('scrolls to both configurations when they open below the page', async () => {
    serve([]);
    mockServer.use(
      http.get('*/api/comparison/clients/ABC/configurations', () =>
        ndjson([
          { type: 'progress', percent: 50 },
          {
            type: 'result',
            result: {
              client: 'ABC',
              baseline: {
                treeId: 'b',
                files: [{ path: '/M365Config/Resources/A/x.json', content: {} }],
              },
              clientConfiguration: { treeId: 'c', files: [] },
            },
          } as unknown as ComparisonEvent,
        ]),
      ),
    );
    const scrolled = vi.fn();
    // jsdom has no scrollIntoView: put the spy in and take it out again
    const original = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'scrollIntoView');
    HTMLElement.prototype.scrollIntoView = scrolled;
    onTestFinished(() => {
      if (original) Object.defineProperty(HTMLElement.prototype, 'scrollIntoView', original);
      else Reflect.deleteProperty(HTMLElement.prototype, 'scrollIntoView');
    });
    renderApp('/fetch-json-files');
    await screen.findByRole('option', { name: 'ABC - Client ABC' }, { timeout: 10_000 });
    await userEvent.selectOptions(screen.getByLabelText('Client'), 'ABC');
    await userEvent.click(screen.getByRole('button', { name: 'View Both Configurations' }));
    expect(await screen.findByText('Both configurations')).toBeInTheDocument();
    await waitFor(() => expect(scrolled).toHaveBeenCalled());
  });

  it("shows the server's message when the comparison fails", async () => {
    serve([
      { type: 'progress', percent: 0 },
      { type: 'error', statusCode: 502, message: 'Error comparing files: VS402371: down' },
    ]);
    renderApp('/fetch-json-files?baseline=options');
    expect(
      await screen.findByRole('heading', { name: 'Options - Aegis' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await screen.findByRole('option', { name: 'CON - Client CON' });
    await userEvent.selectOptions(screen.getByLabelText('Client'), 'CON');
    await userEvent.click(screen.getByRole('button', { name: 'Run Comparison' }));
    expect(await screen.findByText('Error comparing files: VS402371: down')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run Comparison' })).toBeEnabled();
  });

  it("shows 'Loading clients...' while the clients load, then the service's message when they fail", async () => {
    let fail: () => void = () => {};
    const failed = new Promise<void>((resolve) => (fail = resolve));
    mockServer.use(
      http.get('*/api/clients', async () => {
        await failed;
        return HttpResponse.json(
          { error: 'ServiceError', message: 'VS402371: down' },
          { status: 502 },
        );
      }),
    );
    renderApp('/fetch-json-files');
    expect(await screen.findByText('Loading clients...', {}, { timeout: 10_000 })).toBeVisible();
    fail();
    expect(await screen.findByText('Error fetching clients: VS402371: down')).toBeInTheDocument();
    expect(screen.queryByText('Loading clients...')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run Comparison' })).toBeDisabled();
  });

  it('refuses a logo whose content is not an image, whatever its name (a text file named .gif)', async () => {
    serve([
      { type: 'progress', percent: 100 },
      { type: 'result', result: RESULT },
    ]);
    renderApp('/fetch-json-files?client=ABC&run=1');
    expect(await screen.findByLabelText('Overall score', {}, { timeout: 10_000 })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Export Report' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    const input = within(dialog).getByLabelText('Custom logo');
    await userEvent.upload(input, new File(['not a picture'], 'logo.gif', { type: 'image/gif' }), {
      applyAccept: false,
    });
    expect(
      await within(dialog).findByText(
        'logo.gif is not a PNG, JPEG or SVG image: its content is not one, whatever its name says.',
      ),
    ).toBeInTheDocument();
    expect(
      within(dialog).queryByRole('img', { name: 'Custom logo preview', hidden: true }),
    ).toBeNull();
    await userEvent.upload(
      input,
      new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.svg', {
        type: 'image/svg+xml',
      }),
    );
    expect(
      await within(dialog).findByRole('img', { name: 'Custom logo preview', hidden: true }),
    ).toBeInTheDocument();
  });

  it('refuses to export a comparison without results', async () => {
    const empty: OptionsComparisonResult = {
      baselineType: 'options',
      client: 'ABC',
      baselineTreeId: 'b',
      clientTreeId: 'c',
      rows: {},
      policyPaths: {},
      warnings: [],
      notCaptured: [],
    };
    serve([
      { type: 'progress', percent: 0 },
      { type: 'result', result: empty },
    ]);
    renderApp('/fetch-json-files?baseline=options');
    await screen.findByRole('option', { name: 'ABC - Client ABC' }, { timeout: 10_000 });
    await userEvent.selectOptions(screen.getByLabelText('Client'), 'ABC');
    await userEvent.click(screen.getByRole('button', { name: 'Run Comparison' }));
    expect(await screen.findByText('Complete!')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Export Report' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Export PDF', hidden: true }));
    expect(
      await within(dialog).findByText(
        'No comparison results found. Please compare files before exporting.',
      ),
    ).toBeInTheDocument();
  });

  it("names the workloads the client's capture did not read above the results", async () => {
    const result: OptionsComparisonResult = {
      baselineType: 'options',
      client: 'ABC',
      baselineTreeId: 'b',
      clientTreeId: 'c',
      rows: {
        AzureAD: {
          'Authorization Policy': [
            {
              Path: 'allowInvites',
              RefValue: 'none',
              DiffValue: 'none',
              Equal: true,
              Description: '',
            },
          ],
        },
      },
      policyPaths: {},
      warnings: [],
      notCaptured: [
        {
          workload: 'ConditionalAccess/Policy',
          status: 'failed',
          text: 'Not captured: the service answered 500: boom',
        },
      ],
    };
    serve([
      { type: 'progress', percent: 0 },
      { type: 'result', result },
    ]);
    const user = userEvent.setup();
    renderApp('/fetch-json-files?baseline=options');
    await screen.findByRole('option', { name: 'ABC - Client ABC' }, { timeout: 10_000 });
    await user.selectOptions(screen.getByLabelText('Client'), 'ABC');
    await user.click(screen.getByRole('button', { name: 'Run Comparison' }));
    await screen.findByText('Complete!');
    expect(screen.getByText('Partial capture: some workloads were not read')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Workloads not captured' })).toHaveTextContent(
      'ConditionalAccess/Policy: Not captured: the service answered 500: boom',
    );
  });

  it('copies the path from the Raw Configuration tab and the raw configuration itself', async () => {
    const path = 'AzureAD/AuthorizationPolicy/Authorization Policy.json';
    const clientPath = `/Clients/ABC/M365Config/Resources/${path}`;
    const result: OptionsComparisonResult = {
      baselineType: 'options',
      client: 'ABC',
      baselineTreeId: 'b',
      clientTreeId: 'c',
      rows: {
        AzureAD: {
          'Authorization Policy': [
            {
              Path: 'allowInvites',
              RefValue: 'none',
              DiffValue: 'all',
              Equal: false,
              Description: '',
            },
          ],
        },
      },
      policyPaths: { AzureAD: { 'Authorization Policy': path } },
      warnings: [],
      notCaptured: [],
    };
    const files: PolicyFiles = {
      path,
      category: 'AzureAD',
      baseline: { path: `/M365Config/Resources/${path}`, content: { allowInvites: 'none' } },
      clientConfiguration: { path: clientPath, content: { allowInvites: 'all' } },
    };
    serve([
      { type: 'progress', percent: 0 },
      { type: 'result', result },
    ]);
    mockServer.use(http.get('*/api/comparison/clients/ABC/policy', () => HttpResponse.json(files)));
    const user = userEvent.setup();
    renderApp('/fetch-json-files');
    await screen.findByRole('option', { name: 'ABC - Client ABC' }, { timeout: 10_000 });
    await user.selectOptions(screen.getByLabelText('Client'), 'ABC');
    await user.click(screen.getByRole('radio', { name: 'Options Baseline' }));
    await user.click(screen.getByRole('button', { name: 'Run Comparison' }));
    await screen.findByText('Complete!');
    await user.click(screen.getByRole('button', { name: 'Expand All' }));
    await user.click(
      await screen.findByRole('button', { name: 'Configuration info for Authorization Policy' }),
    );
    // jsdom cannot run tabster's modalizer to completion, so the surface can stay aria-hidden.
    const dialog = await screen.findByRole('dialog', { hidden: true });
    expect(within(dialog).getByRole('heading', { hidden: true })).toHaveTextContent(
      'Authorization Policy',
    );
    await user.click(
      await within(dialog).findByRole('tab', { name: 'Raw Configuration', hidden: true }),
    );
    const pathButton = await within(dialog).findByRole('button', {
      name: `Path ${clientPath} (click to copy)`,
      hidden: true,
    });
    await user.click(pathButton);
    expect(await within(dialog).findByText('Path copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(clientPath);
    await user.click(
      within(dialog).getByRole('button', { name: 'Copy to Clipboard', hidden: true }),
    );
    expect(
      await within(dialog).findByText('Configuration copied to clipboard'),
    ).toBeInTheDocument();
    expect(JSON.parse(await navigator.clipboard.readText())).toEqual({ allowInvites: 'all' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { hidden: true })).toBeNull());
  });
});
