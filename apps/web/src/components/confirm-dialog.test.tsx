import { Button, Checkbox } from '@fluentui/react-components';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { findDialog } from '../testing/find-dialog';
import { renderWithProviders } from '../testing/render-app';

import { useConfirm, type ConfirmOptions } from './confirm-dialog';

function Asker({ options }: { options: ConfirmOptions }) {
  const confirm = useConfirm();
  const [answer, setAnswer] = useState('none');
  return (
    <>
      <Button onClick={() => void confirm(options).then((yes) => setAnswer(String(yes)))}>
        Ask
      </Button>
      <output>{answer}</output>
    </>
  );
}

const CLEAR: ConfirmOptions = {
  title: 'Clear All Matches',
  body: 'Are you sure you want to clear all 3 confirmed matches?',
  confirmLabel: 'Clear All',
};

async function ask(options: ConfirmOptions) {
  renderWithProviders(<Asker options={options} />);
  const opener = screen.getByRole('button', { name: 'Ask' });
  await userEvent.click(opener);
  return { opener, dialog: await findDialog(options.title) };
}

describe('useConfirm', () => {
  it('resolves true when the user goes ahead, with the prompt as the dialog text', async () => {
    const { dialog } = await ask(CLEAR);
    expect(dialog).toHaveAttribute('role', 'alertdialog');
    expect(
      within(dialog).getByText('Are you sure you want to clear all 3 confirmed matches?'),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Clear All' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('true'));
    expect(screen.queryByText('Clear All Matches')).not.toBeInTheDocument();
  });

  it('resolves false on Cancel and gives focus back to the control that asked', async () => {
    const { opener, dialog } = await ask(CLEAR);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('false'));
    expect(opener).toHaveFocus();
  });

  it('resolves false on Escape and gives focus back to the control that asked', async () => {
    const { opener } = await ask(CLEAR);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('false'));
    expect(screen.queryByText('Clear All Matches')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('shows a rich body and starts on its first control', async () => {
    const { dialog } = await ask({
      title: 'Deploy components',
      body: (
        <>
          <ul aria-label="Components">
            <li>Transport Rules</li>
            <li>Safe Links</li>
          </ul>
          <Checkbox label="Send a summary to the client" />
        </>
      ),
      confirmLabel: 'Deploy',
    });
    expect(within(dialog).getByRole('list', { name: 'Components' })).toHaveTextContent(
      'Transport RulesSafe Links',
    );
    await waitFor(() =>
      expect(
        within(dialog).getByRole('checkbox', { name: 'Send a summary to the client' }),
      ).toHaveFocus(),
    );
  });

  it('starts on Cancel, the safe action, when going ahead cannot be undone', async () => {
    const { dialog } = await ask({
      title: 'Confirm removal',
      body: <Checkbox label="Also remove the pipeline" />,
      confirmLabel: 'Proceed with Removal',
      destructive: true,
    });
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus(),
    );
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('false'));
  });
});
