import type { AcceptedDeviationGroup } from '@aegis/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { findDialog } from '../../../testing/find-dialog';
import { mockServer } from '../../../testing/mocks/server';
import { renderWithProviders } from '../../../testing/render-app';

import { AcceptedSection } from './accepted-section';

const group: AcceptedDeviationGroup = {
  path: 'Intune/DeviceCompliancePolicy/Baseline.json',
  policyName: 'Baseline - Windows',
  category: 'Intune',
  acceptedBy: 'priya.shah@aegis-msp.example',
  acceptedAt: '2026-11-20T09:00:00Z',
  reason: 'Client keeps its own policy',
  deviations: [
    {
      property: 'passwordRequired',
      baselineValue: true,
      clientValue: false,
      severity: 'high',
      isMissing: false,
      isPrerequisite: false,
      policyType: 'windows10CompliancePolicy',
      change: 'modified',
      isArrayChange: false,
    },
  ],
};

/** The revocations asked of the server; the first `failures` answer 502. */
function serveRevocations(failures = 0) {
  const revoked: (string | null)[] = [];
  mockServer.use(
    http.delete('*/api/compliance/ABC/accepted-deviations', ({ request }) => {
      revoked.push(new URL(request.url).searchParams.get('path'));
      return revoked.length <= failures
        ? HttpResponse.json(
            { error: 'ServiceError', statusCode: 502, message: 'TF400898' },
            { status: 502 },
          )
        : new HttpResponse(null, { status: 204 });
    }),
  );
  return revoked;
}

const expand = () =>
  userEvent.click(screen.getByRole('button', { name: /Accepted Deviations \(1 in 1 policy\)/ }));

/** Opens the revocation prompt of the (expanded) section. */
async function askToRevoke() {
  await userEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
  return findDialog('Revoke accepted deviations');
}

describe('accepted deviations', () => {
  it("revokes a policy's acceptances only after the prompt, and says so", async () => {
    const revoked = serveRevocations();
    renderWithProviders(<AcceptedSection client="ABC" groups={[group]} />);
    await expand();
    let dialog = await askToRevoke();
    expect(
      within(dialog).getByText('Revoke the accepted deviations of Baseline - Windows?'),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(revoked).toEqual([]);

    dialog = await askToRevoke();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(
      await screen.findByRole('listitem', {
        name: 'Accepted deviations of Baseline - Windows revoked.',
      }),
    ).toBeInTheDocument();
    expect(revoked).toEqual([group.path]);
  });

  it('says when the revocation failed', async () => {
    serveRevocations(1);
    renderWithProviders(<AcceptedSection client="ABC" groups={[group]} />);
    await expand();
    const dialog = await askToRevoke();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(
      await screen.findByRole('listitem', {
        name: 'Failed to revoke accepted deviations. Please try again.',
      }),
    ).toBeInTheDocument();
  });

  it('shows Readers the acceptances with Revoke disabled, and nothing without any', async () => {
    const { unmount } = renderWithProviders(<AcceptedSection client="ABC" groups={[group]} />, {
      roles: ['Reader'],
    });
    await expand();
    expect(await screen.findByRole('button', { name: 'Revoke' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    unmount();
    renderWithProviders(<AcceptedSection client="ABC" groups={[]} />);
    expect(screen.queryByText(/Accepted Deviations/)).toBeNull();
  });
});
