import type { AuditEventDto, AuditPage } from '@aegis/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { findDialog } from '../../testing/find-dialog';
import { clientsHandler, knownClient } from '../../testing/mocks/clients';
import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

function event(id: string, overrides: Partial<AuditEventDto> = {}): AuditEventDto {
  return {
    id,
    at: '2026-11-20T10:15:00.000Z',
    actor: { upn: 'sam.taylor@aegis-msp.example', oid: 'oid-sam', roles: ['Operator'] },
    action: 'POST /api/backups/:client/runs',
    clientCode: 'ABC',
    parameters: { params: { client: 'ABC' }, body: { TenantAdminUserPW: '[Redacted]' } },
    result: { statusCode: 202, outcome: 'succeeded' },
    details: { runId: 41, pipelineId: 7 },
    ...overrides,
  };
}

const CLIENTS = clientsHandler([knownClient('ABC'), knownClient('CON')]);

describe('Audit Trail screen', () => {
  it('lists events newest first, expands parameters, pages older events and filters', async () => {
    const asked: URL[] = [];
    mockServer.use(
      CLIENTS,
      http.get('*/api/audit', ({ request }) => {
        const url = new URL(request.url);
        asked.push(url);
        if (url.searchParams.get('continuationToken') === 'older') {
          return HttpResponse.json<AuditPage>({
            events: [event('e3', { action: 'POST /api/schedules/:folder', details: undefined })],
          });
        }
        if (url.searchParams.get('actor')) {
          return HttpResponse.json<AuditPage>({ events: [] });
        }
        return HttpResponse.json<AuditPage>({
          events: [
            event('e1'),
            event('e2', {
              actor: { upn: 'priya.shah@aegis-msp.example', oid: 'o', roles: ['Approver'] },
              action: 'POST /api/backups/:client/restore',
              result: { statusCode: 409, outcome: 'failed' },
              details: { pullRequestId: 7 },
            }),
            event('e0', {
              actor: { upn: '(unauthenticated)', oid: '', roles: [] },
              action: 'POST /api/app-tables',
              clientCode: undefined,
              parameters: {},
              result: { statusCode: 401, outcome: 'failed' },
              details: { attempts: 12, until: '2026-11-20T10:15:59.000Z', noToken: 12 },
            }),
          ],
          continuationToken: 'older',
        });
      }),
    );
    renderApp('/audit');

    const grid = await screen.findByRole('grid');
    const first = within(grid).getByRole('row', {
      name: 'Started a backup by sam.taylor@aegis-msp.example',
    });
    expect(within(first).getByText('Succeeded (202)')).toBeInTheDocument();
    // what happened in words, the route it came through beside it
    expect(within(first).getByText('Started a backup')).toBeInTheDocument();
    expect(within(first).getByText('POST /api/backups/:client/runs')).toBeInTheDocument();
    expect(within(first).getByText('Run 41')).toBeInTheDocument();
    const second = within(grid).getByRole('row', {
      name: 'Proposed restoring a backup (pull request) by priya.shah@aegis-msp.example',
    });
    expect(within(second).getByText('Failed (409)')).toBeInTheDocument();
    expect(within(second).getByText('Pull request 7')).toBeInTheDocument();
    const tallied = within(grid).getByRole('row', {
      name: 'Created an app table by (unauthenticated)',
    });
    expect(within(tallied).getByText('Failed (401)')).toBeInTheDocument();
    expect(
      within(tallied).getByText(/^12 attempts until \d{1,2} Nov 2026 \d{2}:\d{2}$/),
    ).toBeInTheDocument();
    // the portal's one date format (en-GB, as capture management), not the browser's own
    expect(
      within(tallied)
        .getAllByText(/^\d{1,2} Nov 2026 \d{2}:\d{2}$/)
        .some((e) => e.tagName === 'TIME'),
    ).toBe(true);
    // without a range in the address: the current month up to today (UTC)
    expect(asked[0]?.searchParams.get('from')).toMatch(/^\d{4}-\d{2}-01$/);
    expect(asked[0]?.searchParams.get('to')).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const user = userEvent.setup();
    await user.click(within(first).getByRole('button', { name: 'Show parameters' }));
    const parameters = within(first).getByLabelText('Parameters of Started a backup');
    expect(parameters.textContent).toContain('"TenantAdminUserPW": "[Redacted]"');
    expect(parameters.textContent).toContain('"runId": 41');
    expect(
      within(first).getByRole('button', { name: 'Hide parameters', expanded: true }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Load older events' }));
    expect(
      await within(grid).findByRole('row', {
        name: 'POST /api/schedules/:folder by sam.taylor@aegis-msp.example',
      }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load older events' })).not.toBeInTheDocument();
    expect(screen.getByText(/^4 events from .+ \(UTC\), newest first$/)).toBeInTheDocument();

    await user.click(
      within(second).getByRole('button', {
        name: 'Only this action: Proposed restoring a backup (pull request)',
      }),
    );
    await waitFor(() =>
      expect(asked.at(-1)?.searchParams.get('action')).toBe('POST /api/backups/:client/restore'),
    );
    await user.click(await screen.findByRole('button', { name: 'All actions' }));
    await waitFor(() => expect(asked.at(-1)?.searchParams.get('action')).toBeNull());

    const filters = screen.getByRole('form', { name: 'Audit filters' });
    await user.type(within(filters).getByLabelText('Who (UPN)'), 'nobody@aegis-msp.example');
    await user.selectOptions(await within(filters).findByLabelText('Client'), 'CON');
    await user.click(within(filters).getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('No audit events in this range')).toBeInTheDocument();
    const last = asked.at(-1)!;
    expect(last.searchParams.get('actor')).toBe('nobody@aegis-msp.example');
    expect(last.searchParams.get('client')).toBe('CON');
  });

  it('filters on a range of days kept in the address, and refuses To before From', async () => {
    const asked: URL[] = [];
    mockServer.use(
      CLIENTS,
      http.get('*/api/audit', ({ request }) => {
        const url = new URL(request.url);
        asked.push(url);
        return HttpResponse.json<AuditPage>({
          events: url.searchParams.get('to') === '2026-11-20' ? [event('e1')] : [],
        });
      }),
    );
    const { router } = renderApp('/audit?from=2026-11-01&to=2026-11-20&client=CON');
    const grid = await screen.findByRole('grid');
    expect(within(grid).getAllByRole('row')).toHaveLength(2);
    expect(asked[0]?.searchParams.get('from')).toBe('2026-11-01');
    expect(asked[0]?.searchParams.get('to')).toBe('2026-11-20');
    expect(asked[0]?.searchParams.get('client')).toBe('CON');
    expect(
      screen.getByText('1 event from 1 Nov 2026 to 20 Nov 2026 (UTC), newest first'),
    ).toBeInTheDocument();

    // the form starts again from the address once filters apply: find it anew each time
    const form = () => within(screen.getByRole('form', { name: 'Audit filters' }));
    const from = form().getByLabelText('From');
    const to = form().getByLabelText('To');
    expect(from).toHaveValue('2026-11-01');
    expect(to).toHaveValue('2026-11-20');
    expect(await form().findByLabelText('Client')).toHaveValue('CON');

    const user = userEvent.setup();
    await user.clear(to);
    await user.type(to, '2026-10-15');
    expect(form().getByText('To must not be before From.')).toBeInTheDocument();
    expect(to).toHaveAttribute('aria-invalid', 'true');
    // Enter in a field submits the form: refused here, nothing asked, the address unchanged
    await user.type(to, '{Enter}');
    expect(asked).toHaveLength(1);
    expect(router.state.location.search).toBe('?from=2026-11-01&to=2026-11-20&client=CON');

    await user.clear(to);
    await user.type(to, '2026-11-10');
    expect(form().queryByText('To must not be before From.')).not.toBeInTheDocument();
    await user.click(form().getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('No audit events in this range')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Nothing recorded from 1 Nov 2026 to 10 Nov 2026 (UTC) matches these filters.',
      ),
    ).toBeInTheDocument();
    expect(router.state.location.search).toBe('?from=2026-11-01&to=2026-11-10&client=CON');
    expect(asked.at(-1)?.searchParams.get('to')).toBe('2026-11-10');

    // an empty From reads as far back as a query reaches from To (12 months)
    await user.clear(form().getByLabelText('From'));
    await user.click(form().getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?to=2026-11-10&client=CON'));
    expect(
      await screen.findByText(
        'Nothing recorded from 1 Dec 2025 to 10 Nov 2026 (UTC) matches these filters.',
      ),
    ).toBeInTheDocument();
    expect(asked.at(-1)?.searchParams.has('from')).toBe(false);

    // back in history: the previous range, in the fields and the list
    await router.navigate(-1);
    await waitFor(() => expect(form().getByLabelText('From')).toHaveValue('2026-11-01'));
    expect(form().getByLabelText('To')).toHaveValue('2026-11-10');
  });

  it("opens the log of a change's run when the trail knows where the run lives (ADR 042)", async () => {
    mockServer.use(
      CLIENTS,
      http.get('*/api/audit', () =>
        HttpResponse.json<AuditPage>({
          events: [
            event('run', {
              action: 'POST /api/capture/clients/:client/runs',
              details: { runId: 1000, pipelineId: 216, project: 'Aegis' },
            }),
            // an older event without the run's project: no log to open
            event('old'),
          ],
        }),
      ),
      http.get('*/api/projects/Aegis/pipelines/216/runs/1000/log', () =>
        HttpResponse.json({ lines: [{ time: null, text: 'Capture of ABC' }] }),
      ),
    );
    renderApp('/audit');
    const grid = await screen.findByRole('grid');
    const withRun = within(grid).getByRole('row', {
      name: 'Started a capture by sam.taylor@aegis-msp.example',
    });
    const without = within(grid).getByRole('row', {
      name: 'Started a backup by sam.taylor@aegis-msp.example',
    });
    expect(within(without).queryByRole('button', { name: 'View log' })).not.toBeInTheDocument();
    await userEvent.click(within(withRun).getByRole('button', { name: 'View log' }));
    const dialog = await findDialog('Log of run #1000');
    expect(await within(dialog).findByText('Capture of ABC')).toBeInTheDocument();
  });

  it('shows the failure with Try again', async () => {
    let calls = 0;
    mockServer.use(
      CLIENTS,
      http.get('*/api/audit', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json(
              {
                error: 'ServiceError',
                statusCode: 503,
                message: 'The audit trail is not stored: Table storage is not configured.',
              },
              { status: 503 },
            )
          : HttpResponse.json<AuditPage>({ events: [event('e1')] });
      }),
    );
    renderApp('/audit');
    expect(await screen.findByText('Could not load the audit trail')).toBeInTheDocument();
    expect(screen.getByText(/Table storage is not configured/)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('grid')).toBeInTheDocument();
  });

  it('tells other roles who may see it, and asks the server nothing', async () => {
    let asked = false;
    mockServer.use(
      CLIENTS,
      http.get('*/api/audit', () => {
        asked = true;
        return HttpResponse.json<AuditPage>({ events: [] });
      }),
    );
    renderApp('/audit', { roles: ['Approver'] });
    expect(await screen.findByText('No access to the audit trail')).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByText(/needs the Aegis Administrator role/)).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Portal' });
    const item = within(nav).getByRole('link', { name: 'Audit Trail' });
    expect(item).toHaveAttribute('aria-disabled', 'true');
    await waitFor(() => expect(item).toHaveAccessibleDescription(/Administrator role/));
    expect(asked).toBe(false);
  });
});
