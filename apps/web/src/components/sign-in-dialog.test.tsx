import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { renderApp } from '../testing/render-app';

describe('the sign-in dialog', () => {
  it('starts the keyboard on the first account once the accounts are listed, not on Cancel', async () => {
    renderApp('/login', { user: null });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign In' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in to Aegis' });
    const first = await screen.findByRole('button', { name: /Alex Morgan/ });
    expect(dialog).toContainElement(first);
    await waitFor(() => expect(first).toHaveFocus());
  });
});
