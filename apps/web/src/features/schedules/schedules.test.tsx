import type { ClientScheduleRow } from '@aegis/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { findDialog } from '../../testing/find-dialog';
import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const ROWS: ClientScheduleRow[] = [
  {
    clientCode: 'ABC',
    pipelineId: 101,
    pipelineName: 'ABC - Workstation App Deployment',
    project: 'p',
    schedules: [
      {
        cron: '0 2 * * 0',
        displayName: 'Weekly 2:00 AM build (Sunday)',
        description: 'At 02:00 AM, only on Sunday (UTC)',
        nextRun: '2026-11-29T02:00:00.000Z',
      },
    ],
  },
  {
    clientCode: 'WWI',
    pipelineId: 105,
    pipelineName: 'WWI - Workstation App Deployment',
    project: 'p',
    schedules: [],
  },
];

function serve(puts: unknown[]) {
  mockServer.use(
    http.get('*/api/schedules', () => {
      const body = [
        JSON.stringify({ type: 'progress', percent: 40 }),
        JSON.stringify({ type: 'result', result: { rows: ROWS } }),
      ].join('\n');
      return new HttpResponse(body, { headers: { 'content-type': 'application/x-ndjson' } });
    }),
    http.put('*/api/schedules/:client', async ({ request, params }) => {
      puts.push({ client: params.client, body: await request.json() });
      return HttpResponse.json({
        message: 'Schedule updated successfully!',
        commitId: 'c',
        schedule: { ...ROWS[0]!.schedules[0]!, cron: '30 23 * * 6' },
      });
    }),
  );
}

describe('Client Pipeline Schedules', () => {
  it('lists both tables, opens the client from ?client=, disables taken slots and saves', async () => {
    const puts: unknown[] = [];
    serve(puts);
    const user = userEvent.setup();
    renderApp('/ClientPipelineSchedules?client=WWI');
    const dialog = await findDialog('Add Schedule');
    await user.selectOptions(within(dialog).getByLabelText('Day'), 'Sunday');
    const taken = within(dialog).getByRole('option', {
      name: '2:00 AM – Time slot in use by - ABC',
    });
    expect(taken).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Add Schedule' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please select both day and time');
    await user.selectOptions(within(dialog).getByLabelText('Day'), 'Saturday');
    await user.selectOptions(within(dialog).getByLabelText('Time'), '23:30');
    await user.click(within(dialog).getByRole('button', { name: 'Add Schedule' }));
    await waitFor(() =>
      expect(puts).toEqual([
        {
          client: 'WWI',
          body: { cronExpression: '30 23 * * 6', displayName: 'Weekly 11:30 PM build (Saturday)' },
        },
      ]),
    );
    expect(await screen.findByText('Schedule updated successfully!')).toBeVisible();

    // both tables; the filter came from ?client= and can be cleared
    await user.clear(screen.getByLabelText('Filter by client'));
    const scheduled = screen.getByRole('table', { name: 'Clients with Scheduled Pipelines' });
    expect(within(scheduled).getByText('Weekly 2:00 AM build (Sunday) (0 2 * * 0)')).toBeVisible();
    const unscheduled = screen.getByRole('table', { name: 'Clients without Scheduled Pipelines' });
    expect(within(unscheduled).getByText('No schedule has been configured')).toBeVisible();

    // update mode prefills day and time from the first schedule
    await user.click(within(scheduled).getByRole('button', { name: 'Update Schedule' }));
    const update = await findDialog('Update Schedule');
    expect(within(update).getByLabelText('Day')).toHaveValue('0');
    expect(within(update).getByLabelText('Time')).toHaveValue('02:00');
  });

  it('opens the modal from a click anywhere on a row (spec 2 §2)', async () => {
    serve([]);
    const user = userEvent.setup();
    renderApp('/ClientPipelineSchedules');
    const scheduled = await screen.findByRole('table', {
      name: 'Clients with Scheduled Pipelines',
    });
    await user.click(await within(scheduled).findByText('ABC - Workstation App Deployment'));
    const update = await findDialog('Update Schedule');
    expect(within(update).getByLabelText('Day')).toHaveValue('0');
    await user.click(within(update).getByRole('button', { name: 'Cancel' }));
    const unscheduled = screen.getByRole('table', { name: 'Clients without Scheduled Pipelines' });
    await user.click(within(unscheduled).getByText('No schedule has been configured'));
    expect(await findDialog('Add Schedule')).toBeVisible();
  });

  it('a Reader clicking a row opens nothing', async () => {
    serve([]);
    const user = userEvent.setup();
    renderApp('/ClientPipelineSchedules', { roles: ['Reader'] });
    const scheduled = await screen.findByRole('table', {
      name: 'Clients with Scheduled Pipelines',
    });
    await user.click(await within(scheduled).findByText('ABC - Workstation App Deployment'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Week at a glance', () => {
  it('shows each day with the slots held and by whom, and flags two builds in one slot', async () => {
    const rows: ClientScheduleRow[] = [
      ...ROWS,
      {
        clientCode: 'FAB',
        pipelineId: 103,
        pipelineName: 'FAB - Workstation App Deployment',
        project: 'p',
        schedules: [
          {
            cron: '0 2 * * 0',
            displayName: 'Weekly 2:00 AM build (Sunday)',
            description: 'At 02:00 AM, only on Sunday (UTC)',
            nextRun: null,
          },
          {
            cron: '30 23 * * 6',
            displayName: 'Weekly 11:30 PM build (Saturday)',
            description: 'At 11:30 PM, only on Saturday (UTC)',
            nextRun: null,
          },
        ],
      },
    ];
    mockServer.use(
      http.get('*/api/schedules', () =>
        HttpResponse.text(JSON.stringify({ type: 'result', result: { rows } }), {
          headers: { 'content-type': 'application/x-ndjson' },
        }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/ClientPipelineSchedules');
    const days = await screen.findByRole('tablist', { name: 'Day of the week' });
    // the first day with a held slot is shown first
    expect(within(days).getByRole('tab', { name: 'Sunday (1)' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const sunday = screen.getByRole('table', { name: 'Slots held on Sunday' });
    expect(within(sunday).getByRole('row', { name: /2:00 AM ABC, FAB/ })).toBeInTheDocument();
    expect(within(sunday).getByText('Conflict: 2 builds start together')).toBeInTheDocument();
    expect(screen.getByText('47 of 48 slots free on Sunday.')).toBeInTheDocument();

    await user.click(within(days).getByRole('tab', { name: 'Saturday (1)' }));
    const saturday = screen.getByRole('table', { name: 'Slots held on Saturday' });
    expect(within(saturday).getByRole('row', { name: /11:30 PM FAB/ })).toBeInTheDocument();
    await user.click(within(days).getByRole('tab', { name: 'Monday (0)' }));
    expect(
      screen.getByText('No pipeline is scheduled on Monday: all 48 slots are free.'),
    ).toBeInTheDocument();
  });
});
