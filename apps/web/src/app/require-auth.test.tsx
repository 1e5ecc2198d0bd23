import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { clientsHandler, knownClient } from '../testing/mocks/clients';
import { mockServer } from '../testing/mocks/server';
import { renderApp, TEST_USER } from '../testing/render-app';

const CLIENTS = clientsHandler([knownClient('ABC')]);

describe('RequireAuth and roles', () => {
  it('shows an account without any Aegis role a page saying so, not the portal', async () => {
    mockServer.use(CLIENTS);
    renderApp('/trigger-capture', { roles: [] });
    const heading = await screen.findByRole('heading', { name: 'No access to Aegis' });
    const page = heading.closest('main')!;
    expect(within(page).getByText(/You are signed in as Alex Morgan/)).toBeVisible();
    expect(within(page).getByText('Administrator')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Portal' })).not.toBeInTheDocument();
    expect(screen.queryByText('Trigger Configuration Capture')).not.toBeInTheDocument();
    expect(within(page).getByRole('button', { name: 'Sign out' })).toBeEnabled();
  });

  it('asks the server for the roles and shows the portal to an account holding one', async () => {
    mockServer.use(
      CLIENTS,
      http.get('*/api/me', () =>
        HttpResponse.json({ upn: TEST_USER.upn, displayName: 'Alex Morgan', roles: ['Reader'] }),
      ),
    );
    renderApp('/trigger-capture', { roles: null });
    expect(
      await screen.findByRole('heading', { name: 'Trigger Configuration Capture' }),
    ).toBeInTheDocument();
    const trigger = screen.getByRole('button', { name: 'Trigger Capture' });
    expect(trigger).toHaveAttribute('aria-disabled', 'true');
    expect(trigger).toHaveAccessibleDescription(/needs the Aegis Operator role/);
  });

  it('says when the access check failed and tries again', async () => {
    let calls = 0;
    mockServer.use(
      CLIENTS,
      http.get('*/api/me', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ message: 'Service unavailable' }, { status: 503 })
          : HttpResponse.json({ upn: TEST_USER.upn, displayName: null, roles: ['Operator'] });
      }),
    );
    renderApp('/trigger-capture', { roles: null });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Could not check your access to Aegis')).toBeVisible();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'Trigger Configuration Capture' });
    expect(screen.getByRole('button', { name: 'Trigger Capture' })).not.toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });
});
