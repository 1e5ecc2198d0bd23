import type { ProjectList } from '@aegis/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const PROJECTS: ProjectList = {
  projects: [
    { id: '6ce954b1-ce1f-45d1-b94d-e6bf2464ba2c', name: 'Aegis' },
    { id: '1a2b3c4d-0000-4000-8000-000000000001', name: 'Client Operations' },
    { id: '9f8e7d6c-0000-4000-8000-000000000002', name: 'Workstation Apps' },
  ],
};

function serveProjects(body: ProjectList | null, status = 200) {
  mockServer.use(
    http.get('*/api/projects', ({ request }) => {
      if (request.headers.get('authorization') !== 'Bearer test-token')
        return new HttpResponse(null, { status: 401 });
      return body
        ? HttpResponse.json(body)
        : HttpResponse.json({ message: 'boom', statusCode: status, error: 'x' }, { status });
    }),
  );
}

describe('Projects page', () => {
  it('shows counters, cards with the short id, and filters case-insensitively by name or id', async () => {
    serveProjects(PROJECTS);
    renderApp('/azure-ado-projects');
    expect(await screen.findByRole('link', { name: /^Aegis ID:/ })).toHaveAttribute(
      'href',
      '/associated-pipelines/Aegis/6ce954b1-ce1f-45d1-b94d-e6bf2464ba2c',
    );
    expect(screen.getByText('ID: 6ce954b1...')).toBeInTheDocument();
    expect(screen.getByLabelText('Total Projects count')).toHaveTextContent('3');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search projects' }), 'CLIENT');
    expect(screen.getByLabelText('Showing count')).toHaveTextContent('1');
    expect(sessionStorage.getItem('aegis.projects.search')).toBe('CLIENT');

    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search projects' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search projects' }), '9f8e7d');
    expect(screen.getByRole('link', { name: /^Workstation Apps ID:/ })).toBeInTheDocument();

    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search projects' }));
    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Search projects' }),
      'nothing-like-this',
    );
    expect(screen.getByText('No projects match your search')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search criteria')).toBeInTheDocument();
  });

  it('shows no count in the tiles until the projects have loaded, nor after a failure', async () => {
    let answer: (() => void) | undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    mockServer.use(
      http.get('*/api/projects', async () => {
        await answered;
        return HttpResponse.json({ message: 'boom', statusCode: 502, error: 'x' }, { status: 502 });
      }),
    );
    renderApp('/azure-ado-projects');
    const total = await screen.findByLabelText('Total Projects count');
    expect(total).not.toHaveTextContent('0');
    expect(total).toContainElement(screen.getAllByLabelText('Loading')[0] ?? null);
    answer?.();
    expect(await screen.findByText('Error Loading Projects')).toBeVisible();
    expect(screen.getByLabelText('Total Projects count')).toHaveTextContent('–');
    expect(screen.getByLabelText('Showing count')).toHaveTextContent('–');
  });

  it('remembers the search for the browser session and Refresh clears it', async () => {
    sessionStorage.setItem('aegis.projects.search', 'work');
    serveProjects(PROJECTS);
    renderApp('/azure-ado-projects');
    await screen.findByRole('link', { name: /^Workstation Apps ID:/ });
    expect(screen.getByLabelText('Showing count')).toHaveTextContent('1');
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(screen.getByRole('searchbox', { name: 'Search projects' })).toHaveValue('');
    await waitFor(() => expect(screen.getByLabelText('Showing count')).toHaveTextContent('3'));
  });

  it('shows the empty state when no project is available', async () => {
    serveProjects({ projects: [] });
    renderApp('/azure-ado-projects');
    expect(await screen.findByText('No Projects Found')).toBeInTheDocument();
    expect(
      screen.getByText(
        'No projects available. Make sure you have access to Azure DevOps projects.',
      ),
    ).toBeInTheDocument();
  });

  it('shows the error panel with Try Again when loading fails', async () => {
    serveProjects(null, 502);
    renderApp('/azure-ado-projects');
    expect(await screen.findByText('Error Loading Projects')).toBeInTheDocument();
    expect(
      screen.getByText('Failed to load projects. Please try refreshing the page.'),
    ).toBeInTheDocument();
    serveProjects(PROJECTS);
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('link', { name: /^Aegis ID:/ })).toBeInTheDocument();
  });

  it('sends a signed-out user to /login with the page to return to', async () => {
    const { router } = renderApp('/azure-ado-projects', { user: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?returnTo=%2Fazure-ado-projects');
  });
});
