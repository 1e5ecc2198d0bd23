import type { PendingAcceptance } from '@aegis/domain';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { mockServer } from '../../../testing/mocks/server';
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
  it('lets another Approver approve or reject, naming the policy, and saves the decision', async () => {
    const decisions: unknown[] = [];
    mockServer.use(
      http.post('*/api/compliance/ABC/accepted-deviations/decisions', async ({ request }) => {
        decisions.push(await request.json());
        return decisions.length === 1
          ? HttpResponse.json({ accepted: [], pendingAcceptances: [] })
          : HttpResponse.json(
              { error: 'ServiceError', statusCode: 409, message: 'Already decided by Sam Taylor.' },
              { status: 409 },
            );
      }),
    );
    renderWithProviders(
      <PendingAcceptances client="ABC" requests={[request]} me="alex.morgan@aegis-msp.example" />,
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
    expect(
      await screen.findByRole('listitem', { name: 'Acceptance approved.' }),
    ).toBeInTheDocument();
    await userEvent.click(
      screen.getByRole('button', { name: 'Reject the acceptance of Baseline - Windows' }),
    );
    expect(await screen.findByText('Already decided by Sam Taylor.')).toHaveAttribute(
      'role',
      'alert',
    );
    expect(decisions).toEqual([
      { path: request.path, decision: 'approve' },
      { path: request.path, decision: 'reject' },
    ]);
  });

  it('tells the one who asked that another Approver must decide, without buttons', () => {
    renderWithProviders(
      <PendingAcceptances client="ABC" requests={[request]} me="Priya.Shah@aegis-msp.example" />,
    );
    expect(
      screen.getByText(/You asked for this acceptance, so another Approver must approve it/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Approve the acceptance/ })).toBeNull();
  });

  it('shows Readers the waiting request with its actions disabled, and nothing without requests', () => {
    const { unmount } = renderWithProviders(
      <PendingAcceptances client="ABC" requests={[request]} me="night.shift@aegis-msp.example" />,
      { roles: ['Reader'] },
    );
    expect(screen.getByText(/Asked by priya/)).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Approve the acceptance of Baseline - Windows' }),
    ).toHaveAttribute('aria-disabled', 'true');
    unmount();
    renderWithProviders(<PendingAcceptances client="ABC" requests={[]} me="" />);
    expect(screen.queryByText(/Critical acceptances waiting/)).toBeNull();
  });
});
