import type { PendingAcceptance } from '@aegis/domain';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../../../testing/render-app';

import { PendingAcceptances } from './pending-acceptances';

const request: PendingAcceptance = {
  path: 'Intune/DeviceCompliancePolicy/Baseline.json',
  policyName: 'Baseline - Windows',
  category: 'Intune',
  properties: ['passwordRequired'],
  requestedBy: 'priya.shah@aegis-msp.example',
  requestedAt: '2026-11-27T09:00:00Z',
  reason: 'Client keeps its own policy for now',
};

describe('pending acceptances', () => {
  it('lets another Approver approve or reject, naming the policy', async () => {
    const onDecide = vi.fn();
    renderWithProviders(
      <PendingAcceptances
        requests={[request]}
        me="alex.morgan@aegis-msp.example"
        deciding={undefined}
        error={undefined}
        onDecide={onDecide}
      />,
    );
    expect(
      screen.getByText('Critical acceptances waiting for a second Approver (1)'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/Asked by priya\.shah@aegis-msp\.example on 27\/11\/2026: Client keeps/),
    ).toBeInTheDocument();
    await userEvent.click(
      screen.getByRole('button', { name: 'Approve the acceptance of Baseline - Windows' }),
    );
    await userEvent.click(
      screen.getByRole('button', { name: 'Reject the acceptance of Baseline - Windows' }),
    );
    expect(onDecide.mock.calls).toEqual([
      [request.path, 'approve'],
      [request.path, 'reject'],
    ]);
  });

  it('tells the one who asked that another Approver must decide, without buttons', () => {
    renderWithProviders(
      <PendingAcceptances
        requests={[request]}
        me="Priya.Shah@aegis-msp.example"
        deciding={undefined}
        error={undefined}
        onDecide={vi.fn()}
      />,
    );
    expect(
      screen.getByText(/You asked for this acceptance, so another Approver must approve it/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Approve the acceptance/ })).toBeNull();
  });

  it('shows Readers the waiting request with its actions disabled, and nothing without requests', () => {
    const { unmount } = renderWithProviders(
      <PendingAcceptances
        requests={[request]}
        me="night.shift@aegis-msp.example"
        deciding={undefined}
        error={undefined}
        onDecide={vi.fn()}
      />,
      { roles: ['Reader'] },
    );
    expect(screen.getByText(/Asked by priya/)).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Approve the acceptance of Baseline - Windows' }),
    ).toHaveAttribute('aria-disabled', 'true');
    unmount();
    renderWithProviders(
      <PendingAcceptances
        requests={[]}
        me=""
        deciding={undefined}
        error={undefined}
        onDecide={vi.fn()}
      />,
    );
    expect(screen.queryByText(/Critical acceptances waiting/)).toBeNull();
  });
});
