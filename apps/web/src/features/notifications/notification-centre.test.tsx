import type { Notification, NotificationList } from '@aegis/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

function notification(id: string, overrides: Partial<Notification> = {}): Notification {
  return {
    id,
    kind: 'drift',
    clientCode: 'ABC',
    subject: 'tenant',
    fingerprint: 'f1',
    severity: 'warning',
    title: 'Drift detected in the tenant',
    summary: '2 policies changed',
    link: '/fleet',
    state: 'open',
    raisedAt: '2026-11-27T09:00:00.000Z',
    updatedAt: '2026-11-27T09:00:00.000Z',
    deliveries: [],
    ...overrides,
  };
}

/** A server that keeps the notifications and changes them as the routes do. */
function notificationsServer(initial: Notification[]) {
  let notifications = initial;
  const asked: { url: string; body: unknown }[] = [];
  const list = (): NotificationList => ({
    notifications,
    unread: notifications.filter((n) => n.state === 'open' && !n.acknowledged).length,
  });
  const change = (id: string, to: Partial<Notification>) => {
    notifications = notifications.map((n) => (n.id === id ? { ...n, ...to } : n));
    return notifications.find((n) => n.id === id);
  };
  mockServer.use(
    http.get('*/api/notifications', () => HttpResponse.json(list())),
    http.post('*/api/notifications/:id/acknowledge', ({ params }) => {
      asked.push({ url: `acknowledge ${String(params.id)}`, body: undefined });
      return HttpResponse.json(
        change(String(params.id), {
          state: 'acknowledged',
          acknowledged: { by: 'alex.morgan@aegis-msp.example', at: '2026-11-27T10:00:00.000Z' },
        }),
      );
    }),
    http.post('*/api/notifications/:id/snooze', async ({ params, request }) => {
      const body = (await request.json()) as { reason: string; until: string };
      asked.push({ url: `snooze ${String(params.id)}`, body });
      return HttpResponse.json(
        change(String(params.id), {
          state: 'snoozed',
          snoozed: { by: 'alex', at: '2026-11-27T10:00:00.000Z', ...body },
        }),
      );
    }),
  );
  return asked;
}

describe('the notification centre in the header', () => {
  it('shows the unread count, lists notifications, and acknowledging clears the count', async () => {
    const asked = notificationsServer([
      notification('n1'),
      notification('n2', { clientCode: 'CON', title: 'Backup missed', kind: 'backup-missed' }),
      notification('n3', {
        state: 'resolved',
        title: 'Drift resolved',
        resolvedAt: '2026-11-27T08:00:00.000Z',
      }),
    ]);
    renderApp('/no-such-screen');

    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    await userEvent.click(bell);
    const panel = await screen.findByRole('region', { name: 'Notifications' });
    const items = within(panel).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByText('ABC · Drift detected in the tenant')).toBeInTheDocument();
    // a resolved notification cannot be acknowledged
    expect(within(items[2]!).queryByRole('button', { name: 'Acknowledge' })).toBeNull();

    await userEvent.click(within(items[0]!).getByRole('button', { name: 'Acknowledge' }));
    await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    expect(asked).toEqual([{ url: 'acknowledge n1', body: undefined }]);
    expect(
      within(panel).getByText(/Acknowledged by alex.morgan@aegis-msp.example/),
    ).toBeInTheDocument();
  });

  it('snoozes with a reason and an end, and asks for the reason first', async () => {
    const asked = notificationsServer([notification('n1')]);
    renderApp('/no-such-screen');
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    const panel = await screen.findByRole('region', { name: 'Notifications' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Snooze…' }));

    const form = within(panel).getByRole('form', { name: 'Snooze Drift detected in the tenant' });
    const reason = within(form).getByLabelText(/Reason/);
    expect(reason).toBeRequired();
    // blanks are no reason
    await userEvent.type(reason, '   ');
    await userEvent.click(within(form).getByRole('button', { name: 'Snooze' }));
    expect(within(form).getByText('Say why it is snoozed.')).toBeInTheDocument();
    expect(asked).toEqual([]);

    await userEvent.clear(reason);
    await userEvent.type(reason, 'Client is migrating tonight');
    await userEvent.click(within(form).getByRole('button', { name: 'Snooze' }));
    await screen.findByRole('button', { name: 'Notifications, 0 unread' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      url: 'snooze n1',
      body: { reason: 'Client is migrating tonight' },
    });
    const until = Date.parse((asked[0]!.body as { until: string }).until);
    expect(until).toBeGreaterThan(Date.now());
  });

  it('says when there is nothing, and closes on Escape', async () => {
    renderApp('/no-such-screen');
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 0 unread' }));
    expect(await screen.findByText('No notifications.')).toBeInTheDocument();
    // Escape closes the panel and gives the focus back to the bell
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Notifications' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Notifications, 0 unread' })).toHaveFocus();
  });

  it('shows the server error when the list cannot be read', async () => {
    mockServer.use(
      http.get('*/api/notifications', () =>
        HttpResponse.json({ message: 'Table storage did not answer in time.' }, { status: 504 }),
      ),
    );
    renderApp('/no-such-screen');
    await userEvent.click(await screen.findByRole('button', { name: /^Notifications/ }));
    await waitFor(() =>
      expect(
        screen.getByText(/The notifications could not be read: Table storage did not answer/),
      ).toBeInTheDocument(),
    );
  });
});
