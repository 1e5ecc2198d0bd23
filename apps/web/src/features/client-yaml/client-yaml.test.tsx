import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const BEFORE = 'trigger: none\nparameters:\n- name: AppList\n  type: object\n  default:\n  - VLC\n';
const AFTER =
  'trigger: none\nparameters:\n- name: AppList\n  type: object\n  default:\n  - 7-Zip\n';
const base = { folder: 'ABC', path: 'Client_Yaml_Files/ABC-azure-pipelines.yml', commitId: 'c1' };

describe('App deployment pipelines (/ViewAppList)', () => {
  it('asks for a pipeline, shows the YAML, shows the app list changes before writing', async () => {
    const posts: unknown[] = [];
    let content = BEFORE;
    mockServer.use(
      http.get('*/api/pipelines', () =>
        HttpResponse.json({
          pipelines: [
            { id: 101, name: 'ABC - Workstation App Deployment', folder: 'ABC', project: 'p' },
          ],
        }),
      ),
      http.get('*/api/client-yaml/ABC', () =>
        HttpResponse.json({ ...base, content, apps: content === BEFORE ? ['VLC'] : ['7-Zip'] }),
      ),
      http.get('*/api/client-yaml/ABC/apps-preview', () =>
        HttpResponse.json({
          ...base,
          content: BEFORE,
          apps: ['VLC'],
          table: 'ABCWorkstationApps',
          nextApps: ['7-Zip'],
          nextContent: AFTER,
          changes: { added: ['7-Zip'], removed: ['VLC'], unchanged: [] },
        }),
      ),
      http.post('*/api/client-yaml/ABC/apps', async ({ request }) => {
        posts.push(await request.json());
        content = AFTER;
        return HttpResponse.json({
          message: 'YAML updated successfully.',
          commitId: 'c2',
          apps: ['7-Zip'],
        });
      }),
    );
    const user = userEvent.setup();
    renderApp('/ViewAppList');
    await user.click(await screen.findByRole('button', { name: 'View YAML' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Please select a pipeline from the dropdown menu.',
    );
    const select = screen.getByLabelText('Pipeline');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(select, 'ABC - Workstation App Deployment - ABC');
    await user.click(screen.getByRole('button', { name: 'View YAML' }));
    expect(await screen.findByText('App Deploy - Yaml File Contents')).toBeVisible();
    expect(screen.getByRole('region', { name: base.path })).toHaveTextContent('- VLC');

    await user.click(screen.getByRole('button', { name: 'Update YAML with Apps' }));
    const changes = await screen.findByRole('list', { name: 'App list changes' });
    expect(
      within(changes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['+ 7-Zip', '− VLC']);
    await user.click(screen.getByRole('button', { name: 'Write to repository' }));
    expect(await screen.findByText('YAML updated successfully.')).toBeVisible();
    expect(posts).toEqual([{ commitId: 'c1' }]);
    expect(screen.getByRole('region', { name: base.path })).toHaveTextContent('- 7-Zip');
    await user.click(screen.getByRole('button', { name: 'Close Yaml' }));
    expect(screen.queryByText('App Deploy - Yaml File Contents')).toBeNull();
  });

  it('a client without an app table: the YAML stays shown and the warning names the table', async () => {
    const missing =
      'NWT has no app table NWTWorkstationApps: create it (Create New App Deploy Table), then update the YAML with its apps.';
    const nwt = {
      folder: 'NWT',
      path: 'Client_Yaml_Files/NWT-azure-pipelines.yml',
      commitId: 'c1',
    };
    mockServer.use(
      http.get('*/api/pipelines', () =>
        HttpResponse.json({
          pipelines: [
            { id: 103, name: 'NWT - Workstation App Deployment', folder: 'NWT', project: 'p' },
          ],
        }),
      ),
      http.get('*/api/client-yaml/NWT', () =>
        HttpResponse.json({ ...nwt, content: BEFORE, apps: ['VLC'] }),
      ),
      http.get('*/api/client-yaml/NWT/apps-preview', () =>
        HttpResponse.json({ message: missing }, { status: 404 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/ViewAppList');
    const select = await screen.findByLabelText('Pipeline');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(select, 'NWT - Workstation App Deployment - NWT');
    await user.click(screen.getByRole('button', { name: 'View YAML' }));
    expect(await screen.findByRole('region', { name: nwt.path })).toHaveTextContent('- VLC');
    await user.click(screen.getByRole('button', { name: 'Update YAML with Apps' }));
    expect(await screen.findByText(missing)).toBeVisible();
    expect(screen.queryByText(/YAML fetch error/)).toBeNull();
    expect(screen.getByRole('region', { name: nwt.path })).toHaveTextContent('- VLC');
  });
});
