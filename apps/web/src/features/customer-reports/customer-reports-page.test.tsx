import type {
  CustomerReportHistory,
  CustomerReportScheduleBody,
  CustomerReportScheduleResponse,
  CustomerReportSend,
} from '@aegis/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { clientsHandler, knownClient } from '../../testing/mocks/clients';
import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const SENT: CustomerReportSend = {
  id: '0001-2026-10',
  client: 'FAB',
  periodId: '2026-10',
  periodLabel: 'October 2026',
  sentAt: '2026-11-05T09:00:00.000Z',
  to: ['it-lead@fabrikam.example'],
  cc: ['alex.morgan@aegis-msp.example'],
  trigger: 'scheduled',
  requestedBy: 'scheduled run',
  sizeInBytes: 120_000,
  compliancePercentage: 83,
  standardPercentage: 71,
};

function serve(options: { schedule?: boolean; sends?: CustomerReportSend[] } = {}) {
  const saved: CustomerReportScheduleBody[] = [];
  let sends = options.sends ?? [];
  mockServer.use(
    clientsHandler([knownClient('FAB'), knownClient('ABC')]),
    http.get('*/api/customer-reports/FAB/schedule', () =>
      HttpResponse.json<CustomerReportScheduleResponse>({
        schedule: options.schedule
          ? {
              client: 'FAB',
              customerName: 'Fabrikam Ltd',
              cadence: 'monthly',
              dayOfMonth: 5,
              contacts: ['it-lead@fabrikam.example'],
              technicians: [],
              introduction: '',
              enabled: true,
              updatedBy: 'alex.morgan@aegis-msp.example',
              updatedAt: '2026-11-01T10:00:00.000Z',
              duePeriod: { id: '2026-10', label: 'October 2026', sent: false },
            }
          : null,
      }),
    ),
    http.put('*/api/customer-reports/FAB/schedule', async ({ request }) => {
      const body = (await request.json()) as CustomerReportScheduleBody;
      if (body.contacts.some((c) => !c.includes('@'))) {
        return HttpResponse.json(
          {
            error: 'Bad Request',
            statusCode: 400,
            message: 'body.contacts.0: must be an email address',
            field: 'body.contacts.0',
          },
          { status: 400 },
        );
      }
      saved.push(body);
      return HttpResponse.json<CustomerReportScheduleResponse>({
        schedule: {
          ...body,
          client: 'FAB',
          updatedBy: 'alex.morgan@aegis-msp.example',
          updatedAt: '2026-11-02T10:00:00.000Z',
          duePeriod: { id: '2026-10', label: 'October 2026', sent: false },
        },
      });
    }),
    http.get('*/api/customer-reports/FAB/sends', () =>
      HttpResponse.json<CustomerReportHistory>({ sends }),
    ),
    http.post('*/api/customer-reports/FAB/sends', () => {
      const sent = {
        ...SENT,
        id: '0000-2026-10',
        trigger: 'manual' as const,
        requestedBy: 'alex.morgan@aegis-msp.example',
      };
      sends = [sent, ...sends];
      return HttpResponse.json(sent, { status: 201 });
    }),
  );
  return { saved };
}

describe('Customer Reports page', () => {
  it('asks for a client first, then says when nothing is scheduled or sent', async () => {
    serve();
    renderApp('/customer-reports');
    expect(
      await screen.findByText('Select a client to see its report schedule and history.'),
    ).toBeInTheDocument();
    // the picker is disabled until the client list has arrived
    await screen.findByRole('option', { name: /^FAB/ });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Client' }), 'FAB');
    expect(
      await screen.findByText(
        'No report is scheduled for FAB yet: fill in the recipients and save.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText('No report has been sent to this client yet.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Send now' })).toBeDisabled();
  });

  it('saves the recipients and shows the field the server refused', async () => {
    const { saved } = serve();
    renderApp('/customer-reports?client=FAB');
    const contacts = await screen.findByRole('textbox', { name: /Customer contacts/ });
    await userEvent.type(contacts, 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText('body.contacts.0: must be an email address')).toBeVisible();

    await userEvent.clear(contacts);
    await userEvent.type(contacts, 'it-lead@fabrikam.example{enter}cfo@fabrikam.example');
    await userEvent.clear(screen.getByRole('textbox', { name: /Customer name/ }));
    await userEvent.type(screen.getByRole('textbox', { name: /Customer name/ }), 'Fabrikam Ltd');
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({
      customerName: 'Fabrikam Ltd',
      cadence: 'monthly',
      dayOfMonth: 1,
      contacts: ['it-lead@fabrikam.example', 'cfo@fabrikam.example'],
      technicians: [],
      enabled: true,
    });
    expect(await screen.findByText(/Next report: October 2026/)).toBeVisible();
  });

  it('sends now after confirming, and lists the report in the history', async () => {
    serve({ schedule: true, sends: [SENT] });
    renderApp('/customer-reports?client=FAB');
    const history = await screen.findByRole('table', { name: 'Reports sent' });
    expect(within(history).getByText('On schedule')).toBeVisible();
    expect(within(history).getByText('83%')).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Send now' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('The October 2026 report goes to it-lead@fabrikam.example.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('The October 2026 report was sent.')).toBeVisible();
    await waitFor(() =>
      expect(within(history).getByText('Sent now by alex.morgan@aegis-msp.example')).toBeVisible(),
    );
  });
});
