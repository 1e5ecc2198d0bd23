import { Button } from '@fluentui/react-components';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { findNotice, noticeTitles } from '../testing/find-notice';
import { renderWithProviders } from '../testing/render-app';

import { useNotify, type Notice } from './notifier';

function Teller({ notice }: { notice: Notice }) {
  const notify = useNotify();
  return <Button onClick={() => notify(notice)}>Tell</Button>;
}

describe('useNotify', () => {
  it('shows the notice with its title and body until it is dismissed (an alert)', async () => {
    renderWithProviders(
      <Teller
        notice={{
          intent: 'error',
          title: 'Failed to restore backup. Please try again.',
          body: 'A restore branch already exists.',
        }}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Tell' }));
    const notice = await findNotice('Failed to restore backup. Please try again.');
    expect(notice).toHaveTextContent('A restore branch already exists.');
    await userEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(noticeTitles()).toEqual([]));
  });

  it('gives a toast a timer of its own time', async () => {
    renderWithProviders(
      <Teller
        notice={{ intent: 'success', title: 'Review completed successfully', timeoutInMs: 4000 }}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Tell' }));
    const notice = await findNotice('Review completed successfully');
    // Fluent runs the timer as a CSS animation of this length and closes the toast at its end
    const timer = notice.querySelector<HTMLElement>('[data-timer-status]');
    expect(timer?.style.animationDuration).toBe('4000ms');
  });

  it('gives an alert no timer: it waits for the technician', async () => {
    renderWithProviders(
      <Teller
        notice={{
          intent: 'warning',
          title: 'Please review all policies before proceeding to approval.',
        }}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Tell' }));
    const notice = await findNotice('Please review all policies before proceeding to approval.');
    expect(notice.querySelector('[data-timer-status]')).toBeNull();
  });

  it('keeps every notice of a burst, newest on top', async () => {
    renderWithProviders(
      <>
        <Teller notice={{ intent: 'error', title: 'Failed to load clients' }} />
        <Teller notice={{ intent: 'error', title: 'Failed to load capture branches' }} />
      </>,
    );
    const [first, second] = screen.getAllByRole('button', { name: 'Tell' });
    await userEvent.click(first!);
    await userEvent.click(second!);
    await findNotice('Failed to load capture branches');
    expect(noticeTitles()).toEqual(['Failed to load capture branches', 'Failed to load clients']);
  });
});
