import type { ClientParametersDto } from '@aegis/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const GROUP_POLICY = 'AzureAD/DirectorySetting/Group.Unified.json';

const CON: ClientParametersDto = {
  client: 'CON',
  commitId: 'c0ffee',
  parameters: [
    {
      name: 'groupCreatorsGroupId',
      value: '11111111-2222-4333-8444-555555555555',
      usedBy: [
        { path: GROUP_POLICY, sourcePath: `/M365Config/Resources/${GROUP_POLICY}`, layer: null },
      ],
    },
    { name: 'hasP2', value: true, usedBy: [] },
  ],
  missing: [
    {
      name: 'breakGlassUpn',
      usedBy: [
        {
          path: 'ConditionalAccess/Policy/CA001.json',
          sourcePath: '/Layers/Healthcare/M365Config/Resources/ConditionalAccess/Policy/CA001.json',
          layer: 'Healthcare',
        },
      ],
    },
  ],
  layers: ['Healthcare'],
  availableLayers: ['Healthcare', 'Kiosk devices'],
  pending: [
    {
      pullRequestId: 41,
      title: 'Change the tenant parameters of CON',
      createdBy: 'Sam Taylor',
      creationDate: '2026-03-10T11:40:00.000Z',
      prUrl: 'http://devops.example/pr/41',
    },
  ],
  droppedLayers: [],
};

const PROPOSED = {
  pullRequestId: 42,
  branch: 'parameters/CON/abc',
  prUrl: 'http://devops.example/pr/42',
};

/** Answers the page's reads, and records each proposal's body. */
function serve(data: ClientParametersDto = CON) {
  const bodies: { url: string; body: unknown }[] = [];
  mockServer.use(
    http.get('*/api/clients/CON/parameters', () => HttpResponse.json(data)),
    http.post('*/api/clients/CON/parameters/changes', async ({ request }) => {
      bodies.push({ url: request.url, body: await request.json() });
      return HttpResponse.json(PROPOSED, { status: 201 });
    }),
    http.post('*/api/clients/CON/layers/changes', async ({ request }) => {
      bodies.push({ url: request.url, body: await request.json() });
      return HttpResponse.json({ ...PROPOSED, pullRequestId: 43 }, { status: 201 });
    }),
  );
  return bodies;
}

describe('Parameters page', () => {
  it('shows each parameter with where the baseline uses it and the layer it comes from, what is missing, and what awaits approval', async () => {
    serve();
    renderApp('/fleet/CON/parameters');
    const table = await screen.findByRole('table', { name: 'Parameters' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('groupCreatorsGroupId');
    expect(rows[0]).toHaveTextContent('11111111-2222-4333-8444-555555555555');
    expect(rows[0]).toHaveTextContent(`${GROUP_POLICY} Company`);
    // the path may wrap after each separator, never inside a name (a word break after every '/')
    const path = within(rows[0]!).getByText((_, el) => el?.textContent === GROUP_POLICY);
    expect([...path.childNodes].map((n) => n.nodeName)).toEqual([
      '#text',
      '#text',
      'WBR',
      '#text',
      '#text',
      'WBR',
      '#text',
    ]);
    expect(rows[1]).toHaveTextContent('hasP2');
    expect(rows[1]).toHaveTextContent('Not used by the baseline');
    expect(
      screen.getByText('The baseline needs parameters CON has no value for'),
    ).toBeInTheDocument();
    expect(screen.getByText(/used by ConditionalAccess\/Policy\/CA001\.json/)).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: '#41 Change the tenant parameters of CON' }),
    ).toHaveAttribute('href', 'http://devops.example/pr/41');
    expect(
      within(screen.getByRole('list', { name: 'Layers in order' })).getByText('Healthcare'),
    ).toBeInTheDocument();
    // no layer was dropped: nothing to offer
    expect(
      screen.queryByRole('region', { name: 'Policies of removed layers' }),
    ).not.toBeInTheDocument();
  });

  it('proposes a changed value as a pull request and says it waits for another person', async () => {
    const bodies = serve();
    const user = userEvent.setup();
    renderApp('/fleet/CON/parameters', { roles: ['Operator'] });
    await user.click(await screen.findByRole('button', { name: 'Change groupCreatorsGroupId' }));
    const dialog = await screen.findByRole('dialog');
    const value = within(dialog).getByRole('textbox', { name: /Value/ });
    await user.clear(value);
    await user.type(value, '99999999-2222-4333-8444-555555555555');
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'group renamed');
    await user.click(within(dialog).getByRole('button', { name: 'Propose change' }));
    expect(await screen.findByText('Proposed as pull request #42.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bodies).toEqual([
      {
        url: expect.stringContaining('/parameters/changes') as string,
        body: {
          set: { groupCreatorsGroupId: '99999999-2222-4333-8444-555555555555' },
          reason: 'group renamed',
        },
      },
    ]);
  });

  it('adds a missing parameter with its type, refusing a name that is not one', async () => {
    const bodies = serve();
    const user = userEvent.setup();
    renderApp('/fleet/CON/parameters', { roles: ['Operator'] });
    await user.click(await screen.findByRole('button', { name: 'Add parameter' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), '1st');
    await user.click(within(dialog).getByRole('radio', { name: 'Number' }));
    await user.type(within(dialog).getByRole('textbox', { name: /Value/ }), '12');
    await user.click(within(dialog).getByRole('button', { name: 'Propose change' }));
    expect(within(dialog).getByText(/must start with a letter/)).toBeInTheDocument();
    expect(bodies).toEqual([]);
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    await user.clear(name);
    await user.type(name, 'maxDevices');
    await user.click(within(dialog).getByRole('button', { name: 'Propose change' }));
    await screen.findByText('Proposed as pull request #42.');
    expect(bodies.map((b) => b.body)).toEqual([{ set: { maxDevices: 12 } }]);
  });

  it("shows the server's refusal in the dialog", async () => {
    serve();
    mockServer.use(
      http.post('*/api/clients/CON/parameters/changes', () =>
        HttpResponse.json(
          { message: 'CON already has these parameter values: nothing to propose.' },
          { status: 409 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderApp('/fleet/CON/parameters', { roles: ['Operator'] });
    await user.click(await screen.findByRole('button', { name: 'Set breakGlassUpn' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveValue('breakGlassUpn');
    await user.type(within(dialog).getByRole('textbox', { name: /Value/ }), 'bg@con.example');
    await user.click(within(dialog).getByRole('button', { name: 'Propose change' }));
    expect(
      await within(dialog).findByText(
        'CON already has these parameter values: nothing to propose.',
      ),
    ).toBeInTheDocument();
  });

  it('proposes a removal only after a confirmation that says deploys will refuse', async () => {
    const bodies = serve();
    const user = userEvent.setup();
    renderApp('/fleet/CON/parameters', { roles: ['Operator'] });
    await user.click(await screen.findByRole('button', { name: 'Remove groupCreatorsGroupId' }));
    const prompt = await screen.findByRole('alertdialog');
    expect(prompt).toHaveTextContent('deploys of CON will refuse until it is set again');
    await user.click(within(prompt).getByRole('button', { name: 'Propose removal' }));
    await screen.findByText('Proposed as pull request #42.');
    expect(bodies.map((b) => b.body)).toEqual([{ remove: ['groupCreatorsGroupId'] }]);
  });

  it('lets an Administrator reorder and add layers and propose them', async () => {
    const bodies = serve();
    const user = userEvent.setup();
    renderApp('/fleet/CON/parameters');
    await user.click(await screen.findByRole('combobox', { name: 'Layer to add' }));
    await user.click(await screen.findByRole('option', { name: 'Kiosk devices' }));
    await user.click(screen.getByRole('button', { name: 'Add layer' }));
    await user.click(screen.getByRole('button', { name: 'Move Kiosk devices up' }));
    const items = within(screen.getByRole('list', { name: 'Layers in order' })).getAllByRole(
      'listitem',
    );
    expect(items.map((i) => i.textContent)).toEqual(['Kiosk devices', 'Healthcare']);
    await user.click(screen.getByRole('button', { name: 'Propose these layers' }));
    await screen.findByText('Proposed as pull request #43.');
    expect(bodies.map((b) => b.body)).toEqual([{ layers: ['Kiosk devices', 'Healthcare'] }]);
  });

  it('shows an Operator the layers without letting them change them', async () => {
    serve();
    renderApp('/fleet/CON/parameters', { roles: ['Operator'] });
    await screen.findByRole('list', { name: 'Layers in order' });
    expect(screen.queryByRole('button', { name: 'Move Healthcare up' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Propose these layers' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });

  it('offers to remove what a dropped layer left in the tenant, listing it before it starts the off-board', async () => {
    const kiosk = 'Intune/DeviceConfiguration/Kiosk lockdown.json';
    serve({
      ...CON,
      droppedLayers: [
        {
          layer: 'Kiosk devices',
          path: kiosk,
          sourcePath: `/Layers/Kiosk devices/M365Config/Resources/${kiosk}`,
        },
      ],
    });
    const bodies: unknown[] = [];
    mockServer.use(
      http.post('*/api/clients/CON/dropped-layers/runs', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          {
            id: 77,
            pipelineId: 231,
            project: 'Tenant Management',
            clientCode: 'CON',
            state: 'inProgress',
            result: null,
          },
          { status: 201 },
        );
      }),
      http.get('*/api/projects/:project/pipelines/231/runs/77', () =>
        HttpResponse.json({ id: 77, state: 'completed', result: 'succeeded' }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/fleet/CON/parameters');
    const section = await screen.findByRole('region', { name: 'Policies of removed layers' });
    expect(section).toHaveTextContent(`${kiosk} (layer Kiosk devices)`);
    await user.click(within(section).getByRole('button', { name: 'Remove layer policies' }));
    const prompt = await screen.findByRole('alertdialog');
    expect(prompt).toHaveTextContent("Remove 1 policy from CON's tenant?");
    // one policy is spoken of in the singular
    expect(prompt).toHaveTextContent(
      "This policy came from 'Kiosk devices', which CON no longer has, and its baseline no longer holds it.",
    );
    expect(prompt).toHaveTextContent(kiosk);
    expect(prompt).toHaveTextContent('The tenant is backed up first');
    await user.click(within(prompt).getByRole('button', { name: 'Cancel' }));
    expect(bodies).toEqual([]);

    await user.click(within(section).getByRole('button', { name: 'Remove layer policies' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Remove from the tenant',
      }),
    );
    expect(await within(section).findByText(/succeeded/)).toBeInTheDocument();
    expect(bodies).toEqual([{ layers: ['Kiosk devices'] }]);
  });

  it('lets only an Administrator remove what a dropped layer left', async () => {
    serve({
      ...CON,
      droppedLayers: [
        { layer: 'Kiosk devices', path: 'Intune/X/Y.json', sourcePath: '/Layers/Kiosk devices/Y' },
        { layer: 'Healthcare', path: 'Intune/X/Z.json', sourcePath: '/Layers/Healthcare/Z' },
      ],
    });
    renderApp('/fleet/CON/parameters', { roles: ['Operator'] });
    const section = await screen.findByRole('region', { name: 'Policies of removed layers' });
    expect(section).toHaveTextContent(
      'CON no longer has these layers, but its last capture still holds policies of them.',
    );
    expect(within(section).getByRole('button', { name: 'Remove layer policies' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });

  it('says so when the parameters cannot be read, and tries again', async () => {
    let calls = 0;
    mockServer.use(
      http.get('*/api/clients/CON/parameters', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ message: 'No configuration found for client CON' }, { status: 404 })
          : HttpResponse.json({ ...CON, parameters: [], missing: [], pending: [] });
      }),
    );
    const user = userEvent.setup();
    renderApp('/fleet/CON/parameters');
    expect(await screen.findByText('No configuration found for client CON')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('CON has no parameters.')).toBeInTheDocument();
  });
});
