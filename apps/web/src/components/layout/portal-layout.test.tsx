import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

describe('portal layout', () => {
  it('shows the three sidebar sections and the signed-in user', async () => {
    mockServer.use(http.get('*/api/projects', () => HttpResponse.json({ projects: [] })));
    renderApp('/azure-ado-projects');
    expect(await screen.findByText('Logged in user: Alex Morgan')).toBeInTheDocument();
    for (const section of ['Main Navigation', 'Deployment', 'Onboarding']) {
      expect(screen.getByRole('region', { name: section })).toBeInTheDocument();
    }
    expect(screen.getByRole('img', { name: 'Profile' })).toBeInTheDocument();
  });

  it('offers a skip link past the sidebar as the first stop of the keyboard, and names the tab', async () => {
    mockServer.use(http.get('*/api/projects', () => HttpResponse.json({ projects: [] })));
    renderApp('/azure-ado-projects');
    await screen.findByText('Logged in user: Alex Morgan');
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    await userEvent.click(skip);
    expect(screen.getByRole('main')).toHaveFocus();
    await waitFor(() => expect(document.title).toBe('Projects - Aegis'));
  });

  it('links the onboarding screens from the Onboarding section (issue 14)', async () => {
    mockServer.use(http.get('*/api/projects', () => HttpResponse.json({ projects: [] })));
    renderApp('/azure-ado-projects');
    const onboarding = await screen.findByRole('region', { name: 'Onboarding' });
    expect(
      within(onboarding)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Tenant Onboarding', '/tenant-baseline-options'],
      ['App Deploy Onboarding', '/AppDeploy-Onboarding-New'],
      ['App Deploy Onboarding (Old)', '/AppDeploy-Onboarding'],
      ['Global Admin Onboarding', '/global-admin-onboard'],
    ]);
  });

  it('keeps only one Deployment dropdown open at a time', async () => {
    mockServer.use(http.get('*/api/projects', () => HttpResponse.json({ projects: [] })));
    renderApp('/azure-ado-projects');
    const appDeploy = await screen.findByRole('button', { name: 'App Deploy' });
    const tenantManagement = screen.getByRole('button', { name: 'Tenant Management' });

    await userEvent.click(appDeploy);
    expect(appDeploy).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Client Table Viewer' })).toBeInTheDocument();

    await userEvent.click(tenantManagement);
    expect(tenantManagement).toHaveAttribute('aria-expanded', 'true');
    expect(appDeploy).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('link', { name: 'Client Table Viewer' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Tenant Backups' })).toBeInTheDocument();

    await userEvent.click(tenantManagement);
    expect(screen.queryByRole('link', { name: 'Tenant Backups' })).not.toBeInTheDocument();
  });

  it('logs out: clears the session and returns to the landing page', async () => {
    mockServer.use(http.get('*/api/projects', () => HttpResponse.json({ projects: [] })));
    const { router } = renderApp('/azure-ado-projects');
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(localStorage.getItem('isLoggedIn')).toBeNull();
    expect(localStorage.getItem('loggedInUser')).toBeNull();
  });

  it('shows an unknown address inside the layout, with a link back, when signed in', async () => {
    mockServer.use(http.get('*/api/projects', () => HttpResponse.json({ projects: [] })));
    const { router } = renderApp('/no-such-screen');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('Logged in user: Alex Morgan')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Main Navigation' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Back to Projects' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/azure-ado-projects'));
  });

  it('shows an unknown address on its own, without asking to sign in, when signed out', async () => {
    const { router } = renderApp('/no-such-screen', { user: null });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/no-such-screen');
    expect(screen.queryByText(/Logged in user/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toBeInTheDocument();
  });
});
