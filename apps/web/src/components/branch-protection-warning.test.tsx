import type { BranchProtection } from '@aegis/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { mockServer } from '../testing/mocks/server';
import { renderApp } from '../testing/render-app';

const UNPROTECTED: BranchProtection = {
  protected: false,
  gaps: ["the creator's own vote counts", 'the last pusher may approve'],
  serviceIdentity: true,
  repository: 'M365Config',
  branch: 'main',
};

function serve(status: BranchProtection, afterSetUp?: BranchProtection) {
  let setUps = 0;
  mockServer.use(
    http.get('*/api/projects', () => HttpResponse.json({ projects: [] })),
    http.get('*/api/branch-protection', () => HttpResponse.json(status)),
    http.post('*/api/branch-protection', () => {
      setUps += 1;
      return HttpResponse.json(afterSetUp ?? status);
    }),
  );
  return { setUps: () => setUps };
}

describe('branch protection warning', () => {
  it('says what main lacks, and an Administrator sets the policy up from it', async () => {
    const server = serve(UNPROTECTED, { ...UNPROTECTED, protected: true, gaps: [] });
    renderApp('/azure-ado-projects', { branchProtection: null });
    expect(
      await screen.findByText('Four eyes is not enforced in Azure DevOps'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        /main of M365Config lacks the branch policy Aegis needs: the creator's own vote counts; the last pusher may approve\./,
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Set up branch policy' }));
    await waitFor(() =>
      expect(
        screen.queryByText('Four eyes is not enforced in Azure DevOps'),
      ).not.toBeInTheDocument(),
    );
    expect(server.setUps()).toBe(1);
  });

  it('offers no set-up to other roles, and says when Aegis has no service identity', async () => {
    serve({ ...UNPROTECTED, serviceIdentity: false });
    renderApp('/azure-ado-projects', { branchProtection: null, roles: ['Operator'] });
    expect(
      await screen.findByText(/Aegis has no service identity for Azure DevOps/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Set up branch policy' })).not.toBeInTheDocument();
  });

  it('shows nothing when main is protected', async () => {
    serve({ ...UNPROTECTED, protected: true, gaps: [] });
    renderApp('/azure-ado-projects', { branchProtection: null });
    expect(await screen.findByText('Logged in user: Alex Morgan')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: /branch policy/ })).toBeNull());
    expect(screen.queryByText('Four eyes is not enforced in Azure DevOps')).not.toBeInTheDocument();
  });

  it('says when the check failed, and checks again on request', async () => {
    let calls = 0;
    mockServer.use(
      http.get('*/api/projects', () => HttpResponse.json({ projects: [] })),
      http.get('*/api/branch-protection', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json(
              { error: 'Bad Gateway', statusCode: 502, message: 'Azure DevOps answered 500' },
              { status: 502 },
            )
          : HttpResponse.json({ ...UNPROTECTED, protected: true, gaps: [] });
      }),
    );
    renderApp('/azure-ado-projects', { branchProtection: null });
    expect(await screen.findByText("Could not check main's branch policy")).toBeInTheDocument();
    expect(screen.getByText('Azure DevOps answered 500')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() =>
      expect(screen.queryByText("Could not check main's branch policy")).not.toBeInTheDocument(),
    );
  });
});
