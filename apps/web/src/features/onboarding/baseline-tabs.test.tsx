import { pendingApprovalSummary, rollbackPointLine } from '@aegis/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { findDialog } from '../../testing/find-dialog';
import { clientsHandler, knownClient } from '../../testing/mocks/clients';
import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const PIPELINE = { id: 243, name: 'NWT Tenant Configuration', folder: 'Tenants\\NWT' };
let offboardBodies: unknown[] = [];

beforeEach(() => {
  offboardBodies = [];
  mockServer.use(
    // ABC has a tenant pipeline (the one client list, ADR 054)
    clientsHandler([knownClient('ABC')]),
    http.get('*/api/onboarding/tenant-pipelines', () =>
      HttpResponse.json({ pipelines: [PIPELINE] }),
    ),
    http.get('*/api/baseline/files', ({ request }) => {
      const path = new URL(request.url).searchParams.get('path') ?? '';
      if (path.endsWith('DeviceCompliancePolicy')) {
        return HttpResponse.json({
          path,
          files: ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((n) => ({
            path: `${path}/Policy ${n}.json`,
            name: `Policy ${n}`,
          })),
        });
      }
      return HttpResponse.json(
        { message: 'TF401174: The item could not be found.' },
        { status: 502 },
      );
    }),
    http.get('*/api/baseline/file', ({ request }) => {
      const path = new URL(request.url).searchParams.get('path') ?? '';
      if (path.endsWith('Policy B.json')) {
        return HttpResponse.json({ message: 'boom' }, { status: 500 });
      }
      return HttpResponse.json({
        path,
        content: {
          '@odata.type': '#microsoft.graph.windows10CompliancePolicy',
          id: 'x',
          displayName: path,
          description: 'd'.repeat(70),
          bitLockerEnabled: true,
          passwordRequired: true,
          osMinimumVersion: '10.0.19045',
          secureBootEnabled: true,
          codeIntegrityEnabled: true,
        },
      });
    }),
    http.post('*/api/baseline/offboard/runs', async ({ request }) => {
      offboardBodies.push(await request.json());
      return HttpResponse.json(
        {
          id: 7,
          pipelineId: 231,
          project: 'Aegis Tenant Management',
          clientCode: 'NWT',
          state: 'notStarted',
          result: null,
        },
        { status: 201 },
      );
    }),
  );
});

async function openTab(name: string) {
  renderApp('/tenant-baseline-options');
  await userEvent.click(await screen.findByRole('tab', { name }));
}

describe('Baseline Deployment tab (spec 2 §2, §4, §9)', () => {
  it('applies a preset, counts and estimates, and keeps Conditional Access with Named Locations', async () => {
    await openTab('Baseline Deployment');
    await userEvent.click(await screen.findByRole('button', { name: 'Essential Security' }));
    const summary = screen.getByText(/components\s*selected/).parentElement!;
    expect(summary).toHaveTextContent('5 of 57 components selected');
    expect(summary).toHaveTextContent('Estimated time: 35m 30s');

    // queries scoped to one group: a role query over all 57 checkboxes is slow on a busy machine
    const group = (legend: RegExp) => screen.getByText(legend).closest('fieldset')!;
    const entra = within(group(/^Entra ID Config/));
    const ca = entra.getByRole('checkbox', { name: 'Conditional Access Policies' });
    await userEvent.click(ca);
    expect(entra.getByRole('checkbox', { name: 'Named Locations' })).toBeChecked();
    await userEvent.click(entra.getByRole('checkbox', { name: 'Named Locations' }));
    expect(ca).not.toBeChecked();

    const intune = within(group(/^Intune/));
    await userEvent.click(intune.getByRole('checkbox', { name: 'Auto Pilot' }));
    expect(screen.getByText(/Auto Pilot requires Device Registration/)).toBeVisible();
    await userEvent.click(intune.getByRole('checkbox', { name: 'Device Registration' }));
    expect(screen.queryByText(/Auto Pilot requires Device Registration/)).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(summary).toHaveTextContent('Estimated time: 0 seconds');
    // nothing to deploy without a pipeline and a selection
    expect(screen.getByText('Deploy Selected Components').closest('button')).toBeDisabled();
  });

  it("shows a component's info, then its configuration with the spec's preview limits", async () => {
    await openTab('Baseline Deployment');
    await userEvent.click(await screen.findByRole('button', { name: 'About Device Compliance' }));
    const info = await findDialog('Device Compliance');
    expect(within(info).getByText('30 seconds')).toBeVisible();
    expect(within(info).getByText('High')).toBeVisible();
    await userEvent.click(within(info).getByRole('button', { name: 'View configuration' }));

    const config = await findDialog('Device Compliance configuration');
    expect(within(config).getByText('Microsoft Intune Configuration')).toBeVisible();
    await userEvent.click(within(config).getByRole('tab', { name: 'Settings Details' }));
    // 5 files of the 7, the second failing on its own; 6 settings per file, values cut at 50
    await waitFor(() => expect(within(config).getAllByRole('table')).toHaveLength(4));
    expect(within(config).getByText('Failed to load')).toBeVisible();
    expect(within(config).getByText('and 2 more files in this folder')).toBeVisible();
    const first = within(config).getByRole('table', {
      name: /Policy A\.json settings|Policy A settings/,
    });
    expect(within(first).getAllByRole('row')).toHaveLength(7);
    expect(within(first).getByText(`${'d'.repeat(50)}...`)).toBeVisible();
    expect(within(config).queryByText('Policy F')).toBeNull();
  });
});

describe('Off-Board Tenant tab (spec 2 §2, §4, §5)', () => {
  it('asks for a component, then a pipeline, confirms, runs and clears the selection', async () => {
    await openTab('Off-Board Tenant');
    const remove = await screen.findByRole('button', { name: 'Remove Selected Components' });
    await userEvent.click(remove);
    expect(screen.getByText('Please select at least one component to remove')).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Minimal Cleanup' }));
    const list = screen.getByRole('region', { name: 'Components to remove' });
    expect(list).toHaveTextContent('Components to remove (4) · Estimated total: 11 minutes');
    expect(list).toHaveTextContent('This cannot be undone.');
    await userEvent.click(remove);
    expect(screen.getByText('Please select a pipeline')).toBeVisible();

    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Pipeline' }),
      String(PIPELINE.id),
    );
    expect(screen.queryByText('Please select a pipeline')).toBeNull();
    await userEvent.click(remove);
    const confirm = await findDialog('Confirm removal');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(offboardBodies).toEqual([]);

    await userEvent.click(remove);
    const again = await findDialog('Confirm removal');
    await userEvent.click(within(again).getByRole('button', { name: 'Proceed with Removal' }));
    await waitFor(() =>
      expect(offboardBodies).toEqual([
        {
          pipelineId: PIPELINE.id,
          components: [
            'Remove Conditional Access Policies and Named Locations',
            'Remove Transport Rules',
            'Remove Safe Links',
            'Remove Required Entra ID Groups',
          ],
        },
      ]),
    );
    expect(await within(list).findByText('Nothing selected yet.')).toBeVisible();
    expect(await screen.findByText('Pipeline status: notStarted -')).toBeVisible();
  });
});

describe('a deploy asks first, naming the tenant, the components and the estimate (issue 27.4)', () => {
  let deployBodies: unknown[] = [];
  beforeEach(() => {
    deployBodies = [];
    mockServer.use(
      http.post('*/api/baseline/deploy/runs', async ({ request }) => {
        deployBodies.push(await request.json());
        return HttpResponse.json(
          {
            id: 11,
            pipelineId: 230,
            project: 'Aegis Tenant Management',
            clientCode: 'NWT',
            state: 'notStarted',
            result: null,
          },
          { status: 201 },
        );
      }),
    );
  });

  async function choosePipeline() {
    await openTab('Baseline Deployment');
    await userEvent.selectOptions(
      await screen.findByRole('combobox', { name: 'Pipeline' }),
      String(PIPELINE.id),
    );
  }

  it('Deploy Full Baseline: all 57 components to NWT, nothing starts on Cancel', async () => {
    await choosePipeline();
    const full = screen.getByRole('button', { name: 'Deploy Full Baseline' });
    await userEvent.click(full);
    const dialog = await findDialog('Deploy full baseline');
    expect(dialog).toHaveTextContent(
      /Deploy all 57 components of the baseline to NWT \(NWT Tenant Configuration\)\? Estimated time: \d+m \d+s\./,
    );
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(57);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(full).toHaveFocus());
    expect(deployBodies).toEqual([]);
    expect(screen.queryByText('Pipeline triggered successfully!')).toBeNull();
  });

  it('Deploy Selected Components: the five of Essential Security, then the run under the buttons', async () => {
    await choosePipeline();
    await userEvent.click(screen.getByRole('button', { name: 'Essential Security' }));
    await userEvent.click(screen.getByRole('button', { name: 'Deploy Selected Components' }));
    const dialog = await findDialog('Deploy selected components');
    expect(dialog).toHaveTextContent('Deploy 5 components to NWT (NWT Tenant Configuration)?');
    expect(dialog).toHaveTextContent('Estimated time: 35m 30s.');
    expect(
      within(within(dialog).getByRole('list', { name: 'Components to deploy' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toContain('Anti Phishing');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deploy' }));
    expect(await screen.findByText('Pipeline triggered successfully!')).toBeVisible();
    expect(deployBodies).toHaveLength(1);
    expect(deployBodies[0]).toMatchObject({ pipelineId: PIPELINE.id });
    expect((deployBodies[0] as { components: string[] }).components).toHaveLength(5);
  });
});

describe('a finished deploy or off-board says what its log names', () => {
  const run = { id: 9, pipelineId: 230, project: 'Aegis Tenant Management', clientCode: 'NWT' };
  const summary = pendingApprovalSummary(2, 9);

  beforeEach(() => {
    mockServer.use(
      http.post('*/api/baseline/deploy/runs', () =>
        HttpResponse.json({ ...run, state: 'notStarted', result: null }, { status: 201 }),
      ),
      // the run reads 'succeeded': only its log says the changes still wait
      http.get('*/api/projects/:project/pipelines/230/runs/9', () =>
        HttpResponse.json({ id: 9, state: 'completed', result: 'succeeded' }),
      ),
      http.get('*/api/projects/:project/pipelines/230/runs/9/log', () =>
        HttpResponse.json({
          lines: [
            { time: null, text: '##[section]Deploy to NWT' },
            { time: null, text: rollbackPointLine('backup/NWT/20261124_080000') },
            { time: null, text: `##[warning]${summary}` },
          ],
        }),
      ),
    );
  });

  it('names the rollback point and the changes waiting for Multi Admin Approval', async () => {
    await openTab('Baseline Deployment');
    await userEvent.selectOptions(
      await screen.findByRole('combobox', { name: 'Pipeline' }),
      String(PIPELINE.id),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Essential Security' }));
    await userEvent.click(screen.getByRole('button', { name: 'Deploy Selected Components' }));
    await userEvent.click(
      within(await findDialog('Deploy selected components')).getByRole('button', {
        name: 'Deploy',
      }),
    );
    // the first status read comes 3 s after the start (spec 2 §4)
    const waiting = await screen.findByText('Waiting for Multi Admin Approval', undefined, {
      timeout: 10_000,
    });
    expect(waiting.closest('[role="status"]')).toHaveTextContent(summary);
    expect(screen.getByText('backup/NWT/20261124_080000')).toBeVisible();
    expect(screen.getByText('Pipeline status: completed - succeeded')).toBeVisible();
  }, 20_000);
});
