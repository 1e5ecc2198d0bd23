import type { ChannelTestResult, NotificationChannel, NotificationRule } from '@aegis/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { findDialog } from '../../testing/find-dialog';
import { clientsHandler, knownClient } from '../../testing/mocks/clients';
import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const STAMP = { updatedAt: '2026-11-27T09:00:00.000Z', updatedBy: 'alex.morgan@aegis-msp.example' };

/** Channels and rules kept as the server keeps them, with what each write sent. */
function routingServer(channels: NotificationChannel[] = [], rules: NotificationRule[] = []) {
  const written: { method: string; url: string; body: unknown }[] = [];
  mockServer.use(
    clientsHandler([knownClient('ABC'), knownClient('CON')]),
    http.get('*/api/notifications/channels', () => HttpResponse.json({ channels })),
    http.get('*/api/notifications/rules', () => HttpResponse.json({ rules })),
    http.post('*/api/notifications/channels', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      written.push({ method: 'POST', url: 'channels', body });
      if (body.type === 'webhook' && !body.secret) {
        return HttpResponse.json(
          {
            message: 'body.secret: a webhook channel needs a signing secret',
            field: 'body.secret',
          },
          { status: 400 },
        );
      }
      const { secret, ...rest } = body;
      const channel = {
        id: `c${channels.length + 1}`,
        ...rest,
        ...(body.type === 'webhook' ? { secretSet: Boolean(secret) } : {}),
        ...STAMP,
      } as NotificationChannel;
      channels = [...channels, channel];
      return HttpResponse.json(channel, { status: 201 });
    }),
    http.post('*/api/notifications/rules', async ({ request }) => {
      const body = (await request.json()) as Omit<
        NotificationRule,
        'id' | 'updatedAt' | 'updatedBy'
      >;
      written.push({ method: 'POST', url: 'rules', body });
      const rule = { id: `r${rules.length + 1}`, ...body, ...STAMP };
      rules = [...rules, rule];
      return HttpResponse.json(rule, { status: 201 });
    }),
    http.post('*/api/notifications/channels/:id/test', ({ params }) =>
      HttpResponse.json<ChannelTestResult>({
        channelId: String(params.id),
        outcome: params.id === 'c1' ? 'delivered' : 'failed',
        ...(params.id === 'c1' ? { statusCode: 202 } : { statusCode: 403 }),
        message: params.id === 'c1' ? 'Accepted' : 'The mailbox refused: ErrorAccessDenied',
        at: '2026-11-27T10:00:00.000Z',
      }),
    ),
  );
  return written;
}

describe('Notification Rules screen', () => {
  it('adds an email channel and a rule for one client, then sends a test and shows the answer', async () => {
    const written = routingServer();
    renderApp('/notification-rules');

    expect(await screen.findByText(/No channels yet/)).toBeInTheDocument();
    expect(await screen.findByText(/No rules yet/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Add channel' }));
    const channelDialog = await findDialog('Add a channel');
    await userEvent.type(within(channelDialog).getByLabelText(/^Name/), 'Service desk');
    await userEvent.type(
      within(channelDialog).getByLabelText(/^Recipients/),
      'desk@aegis-msp.example, lead@aegis-msp.example',
    );
    await userEvent.click(within(channelDialog).getByRole('button', { name: 'Add channel' }));
    const channels = await screen.findByRole('table', { name: 'Channels' });
    expect(
      within(channels).getByText('desk@aegis-msp.example, lead@aegis-msp.example'),
    ).toBeInTheDocument();
    expect(written[0]).toEqual({
      method: 'POST',
      url: 'channels',
      body: {
        type: 'email',
        name: 'Service desk',
        recipients: ['desk@aegis-msp.example', 'lead@aegis-msp.example'],
      },
    });

    await userEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    const ruleDialog = await findDialog('Add a rule');
    await userEvent.type(within(ruleDialog).getByLabelText(/^Name/), 'ABC drift');
    await userEvent.selectOptions(within(ruleDialog).getByLabelText('Client'), 'ABC');
    await userEvent.click(
      within(within(ruleDialog).getByRole('group', { name: 'Events' })).getByLabelText(
        'Backup missed',
      ),
    );
    await userEvent.click(
      within(within(ruleDialog).getByRole('group', { name: 'Send to' })).getByLabelText(
        'Service desk',
      ),
    );
    await userEvent.click(within(ruleDialog).getByRole('button', { name: 'Add rule' }));
    const rules = await screen.findByRole('table', { name: 'Rules' });
    expect(within(rules).getByText('ABC drift')).toBeInTheDocument();
    expect(written[1]).toEqual({
      method: 'POST',
      url: 'rules',
      body: {
        name: 'ABC drift',
        client: 'ABC',
        kinds: ['drift', 'backup-missed'],
        channelIds: ['c1'],
        digest: false,
        enabled: true,
      },
    });

    await userEvent.click(within(channels).getByRole('button', { name: 'Send test' }));
    expect(await within(channels).findByText('Test delivered')).toBeInTheDocument();
    expect(within(channels).getByText(/HTTP 202: Accepted/)).toBeInTheDocument();
  });

  it('asks for the days and hours of the kinds that have them, and sends them with the rule', async () => {
    const written = routingServer([
      {
        id: 'c1',
        type: 'email',
        name: 'Service desk',
        recipients: ['desk@aegis-msp.example'],
        ...STAMP,
      },
    ]);
    renderApp('/notification-rules');
    await userEvent.click(await screen.findByRole('button', { name: 'Add rule' }));
    const ruleDialog = await findDialog('Add a rule');
    const events = within(ruleDialog).getByRole('group', { name: 'Events' });
    expect(within(ruleDialog).queryByLabelText(/this many hours/)).not.toBeInTheDocument();
    await userEvent.type(within(ruleDialog).getByLabelText(/^Name/), 'Waiting and expiring');
    await userEvent.click(within(events).getByLabelText('Approval waiting too long'));
    await userEvent.click(within(events).getByLabelText('Accepted deviation expiring or expired'));
    const hours = within(ruleDialog).getByLabelText('Say an approval waiting this many hours');
    expect(hours).toHaveValue(24);
    await userEvent.clear(hours);
    await userEvent.type(hours, '6');
    expect(
      within(ruleDialog).getByLabelText(
        'Say an accepted deviation this many days before it expires',
      ),
    ).toHaveValue(14);
    await userEvent.click(
      within(within(ruleDialog).getByRole('group', { name: 'Send to' })).getByLabelText(
        'Service desk',
      ),
    );
    await userEvent.click(within(ruleDialog).getByRole('button', { name: 'Add rule' }));
    expect(await screen.findByText('Waiting and expiring')).toBeInTheDocument();
    expect(written[0]?.body).toMatchObject({
      kinds: ['drift', 'approval-waiting', 'deviation-expiring'],
      approvalWaitingHours: 6,
      deviationExpiringDays: 14,
    });
  });

  it("shows the server's 400 under the field it names", async () => {
    routingServer();
    renderApp('/notification-rules');
    await userEvent.click(await screen.findByRole('button', { name: 'Add channel' }));
    const dialog = await findDialog('Add a channel');
    await userEvent.selectOptions(
      within(dialog).getByLabelText('Type'),
      'Webhook signed with HMAC-SHA256',
    );
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'PSA');
    await userEvent.type(within(dialog).getByLabelText(/^Webhook URL/), 'https://psa.example/h');
    // the browser would refuse the empty required field; the server's answer is what is tested
    within(dialog)
      .getByLabelText(/^Signing secret/)
      .removeAttribute('required');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add channel' }));
    expect(
      await within(dialog).findByText('body.secret: a webhook channel needs a signing secret'),
    ).toBeInTheDocument();
  });

  it('shows a failed test with what the receiver said', async () => {
    routingServer(
      [
        { id: 'c1', type: 'teams', name: 'Teams', url: 'https://t.example/w', ...STAMP },
        { id: 'c2', type: 'email', name: 'Mail', recipients: ['a@aegis-msp.example'], ...STAMP },
      ],
      [],
    );
    renderApp('/notification-rules');
    const channels = await screen.findByRole('table', { name: 'Channels' });
    const mail = within(channels).getByRole('row', { name: /Mail/ });
    await userEvent.click(within(mail).getByRole('button', { name: 'Send test' }));
    expect(await within(mail).findByText('Test not delivered')).toBeInTheDocument();
    expect(within(mail).getByText(/HTTP 403: The mailbox refused/)).toBeInTheDocument();
  });

  it('tells other roles that the screen needs an Administrator', async () => {
    renderApp('/notification-rules', { roles: ['Operator'] });
    const warning = await screen.findByRole('heading', { name: 'Notification Rules', level: 1 });
    expect(warning).toBeInTheDocument();
    // the screen's own warning (the sidebar's disabled link names the role too)
    expect(
      within(screen.getByRole('main')).getByText(/This action needs the Aegis Administrator role/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add channel' })).toBeNull();
  });
});
