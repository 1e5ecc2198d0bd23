import type { PromotionPreviewDto } from '@aegis/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { mockServer } from '../../../testing/mocks/server';
import { renderWithProviders } from '../../../testing/render-app';

import { PromoteDialog } from './promote-dialog';

const PATH = 'AzureAD/DirectorySetting/Group.Unified.json';
const GROUP = '11111111-2222-4333-8444-555555555555';

const preview = (layer: string | null): PromotionPreviewDto => ({
  sourcePath: `/Clients/CON/M365Config/Resources/${PATH}`,
  targetPath: layer
    ? `/Layers/${layer}/M365Config/Resources/${PATH}`
    : `/M365Config/Resources/${PATH}`,
  replaces: layer === null,
  substitutions: [{ path: 'values[3].value', value: GROUP, name: 'groupCreatorsGroupId' }],
  content: { values: [{ name: 'GroupId', value: '{{aegis:param:groupCreatorsGroupId}}' }] },
});

describe('PromoteDialog', () => {
  it('shows the substitutions before the technician proposes, for the company baseline or a layer', async () => {
    const proposed: unknown[] = [];
    mockServer.use(
      http.get('*/api/clients/CON/promotions', ({ request }) =>
        HttpResponse.json(preview(new URL(request.url).searchParams.get('layer'))),
      ),
      http.post('*/api/clients/CON/promotions', async ({ request }) => {
        proposed.push(await request.json());
        return HttpResponse.json(
          { pullRequestId: 77, branch: 'promote/CON/abc', prUrl: 'http://devops.example/pr/77' },
          { status: 201 },
        );
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(
      <PromoteDialog client="CON" path={PATH} layers={['Healthcare']} onClose={() => {}} />,
      { roles: ['Operator'] },
    );
    const table = await screen.findByRole('table', { name: 'Values replaced by parameters' });
    const row = within(table).getAllByRole('row')[1];
    expect(row).toHaveTextContent('values[3].value');
    expect(row).toHaveTextContent(GROUP);
    expect(row).toHaveTextContent('{{aegis:param:groupCreatorsGroupId}}');
    expect(
      screen.getByText(`It replaces the policy at /M365Config/Resources/${PATH} whole.`),
    ).toBeInTheDocument();
    expect(proposed).toEqual([]);

    await user.click(screen.getByRole('combobox', { name: 'Promote into' }));
    await user.click(await screen.findByRole('option', { name: 'Layer: Healthcare' }));
    expect(
      await screen.findByText(`It adds /Layers/Healthcare/M365Config/Resources/${PATH}.`),
    ).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'their version is right');
    await user.click(screen.getByRole('button', { name: 'Propose promotion' }));
    expect(await screen.findByText('Proposed as pull request #77.')).toBeInTheDocument();
    expect(proposed).toEqual([
      { path: PATH, layer: 'Healthcare', reason: 'their version is right' },
    ]);
  });

  it('says why when the policy cannot be read, and proposes nothing', async () => {
    mockServer.use(
      http.get('*/api/clients/CON/promotions', () =>
        HttpResponse.json({ message: `CON has no policy at ${PATH}` }, { status: 404 }),
      ),
    );
    renderWithProviders(<PromoteDialog client="CON" path={PATH} layers={[]} onClose={() => {}} />);
    expect(await screen.findByText(`CON has no policy at ${PATH}`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Propose promotion' })).toBeDisabled();
  });
});
