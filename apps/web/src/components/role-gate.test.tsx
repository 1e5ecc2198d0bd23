import { Button } from '@fluentui/react-components';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { mockServer } from '../testing/mocks/server';
import { renderWithProviders } from '../testing/render-app';

import { RoleGate } from './role-gate';

const NEEDS_APPROVER =
  'This action needs the Aegis Approver role. Ask an Aegis Administrator to assign it to your account.';

describe('RoleGate', () => {
  it('leaves the action alone for an account holding the role or a higher one', async () => {
    const onClick = vi.fn();
    renderWithProviders(
      <RoleGate needs="Approver">
        <Button onClick={onClick}>Restore</Button>
      </RoleGate>,
      { roles: ['Administrator'] },
    );
    const button = screen.getByRole('button', { name: 'Restore' });
    expect(button).not.toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('disables the action for a lower role, keeps it focusable and names the role needed', async () => {
    const onClick = vi.fn();
    renderWithProviders(
      <RoleGate needs="Approver">
        <Button onClick={onClick}>Restore</Button>
      </RoleGate>,
      { roles: ['Operator'] },
    );
    const button = screen.getByRole('button', { name: 'Restore' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(NEEDS_APPROVER);
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
    // focusable (aria-disabled, not disabled), so keyboard users reach it and hear the reason
    expect(button).not.toHaveAttribute('disabled');
    expect(button).toHaveFocus();
  });

  it('disables actions until the roles are known (loading /api/me)', async () => {
    mockServer.use(http.get('*/api/me', () => delay('infinite')));
    renderWithProviders(
      <RoleGate needs="Reader">
        <Button>Export</Button>
      </RoleGate>,
      { roles: null },
    );
    // the roles are not known yet: nothing is enabled by guess
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Export' })).toHaveAttribute(
        'aria-disabled',
        'true',
      ),
    );
  });
});
