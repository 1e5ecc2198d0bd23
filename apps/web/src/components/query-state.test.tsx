import { useQuery } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '../testing/render-app';

import { QueryState } from './query-state';

function Reader({ read }: { read: () => Promise<string> }) {
  const query = useQuery({ queryKey: ['query-state-test'], queryFn: read });
  return (
    <QueryState
      query={query}
      loading="Loading the report..."
      failed="The report could not be loaded"
    >
      {(text) => <p>{text}</p>}
    </QueryState>
  );
}

describe('QueryState', () => {
  it('shows the spinner, then the failure as an alert with Retry, then the content once Retry reads it', async () => {
    let release: () => void = () => undefined;
    const answers = [
      new Promise<string>((_resolve, reject) => {
        release = () => reject(new Error('The service is unavailable.'));
      }),
      Promise.resolve('March report'),
    ];
    let reads = 0;
    renderWithProviders(<Reader read={() => answers[reads++]!} />);

    expect(await screen.findByText('Loading the report...')).toBeVisible();
    release();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The report could not be loaded');
    expect(alert).toHaveTextContent('The service is unavailable.');
    expect(screen.queryByText('Loading the report...')).toBeNull();

    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('March report')).toBeVisible();
    expect(reads).toBe(2);
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});
