import { Button } from '@fluentui/react-components';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { findDialog } from '../testing/find-dialog';
import { renderWithProviders } from '../testing/render-app';

import { useConfirm } from './confirm-dialog';

function ClearMatches() {
  const { confirm, dialog } = useConfirm();
  const [answer, setAnswer] = useState('none');
  const ask = async () => {
    const confirmed = await confirm({
      title: 'Clear All Matches',
      message: 'Are you sure you want to clear all 3 confirmed matches?',
      confirmLabel: 'Clear All',
    });
    setAnswer(String(confirmed));
  };
  return (
    <>
      <Button onClick={() => void ask()}>Clear</Button>
      <output>{answer}</output>
      {dialog}
    </>
  );
}

describe('useConfirm', () => {
  it('resolves true when the user goes ahead, with the prompt as the dialog text', async () => {
    renderWithProviders(<ClearMatches />);
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    const dialog = await findDialog('Clear All Matches');
    expect(dialog).toHaveAttribute('role', 'alertdialog');
    expect(
      within(dialog).getByText('Are you sure you want to clear all 3 confirmed matches?'),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Clear All' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('true'));
    expect(screen.queryByText('Clear All Matches')).not.toBeInTheDocument();
  });

  it('resolves false on Cancel', async () => {
    renderWithProviders(<ClearMatches />);
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await userEvent.click(
      within(await findDialog('Clear All Matches')).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('false'));
  });

  it('resolves false on Escape', async () => {
    renderWithProviders(<ClearMatches />);
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await findDialog('Clear All Matches');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('false'));
    expect(screen.queryByText('Clear All Matches')).not.toBeInTheDocument();
  });
});
