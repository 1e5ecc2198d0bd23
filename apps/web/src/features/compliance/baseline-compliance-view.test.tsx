import type { ComplianceReport, CompliancePreviewBody } from '@aegis/contracts';
import {
  applyMatches,
  complianceSummary,
  emptyAcceptedDeviations,
  emptyMatchingConfig,
  evaluateCompliance,
  findUnmatchedPolicies,
  MATCHING_MESSAGES,
  unmatchedSummary,
} from '@aegis/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { mockServer } from '../../testing/mocks/server';
import { renderWithProviders } from '../../testing/render-app';

import { BaselineComplianceView } from './baseline-compliance-view';
import { ExportComplianceDialog } from './components/export-compliance-dialog';
import { matchingStorageKey } from './utils/matching-storage';

const ca = (name: string, id: string, over: object = {}) => ({
  id,
  displayName: name,
  state: 'enabled',
  conditions: {
    users: { includeUsers: ['All'] },
    applications: { includeApplications: ['All'] },
    clientAppTypes: ['all'],
  },
  grantControls: { operator: 'OR', builtInControls: ['mfa'] },
  ...over,
});

const BASELINE = [
  { path: 'ConditionalAccess/Policy/CA000.json', content: ca('CA000 Require MFA', 'b1') },
  {
    path: 'AzureAD/AuthorizationPolicy/Authorization Policy.json',
    content: {
      displayName: 'Authorization Policy',
      allowInvitesFrom: 'admins',
      blockMsolPowerShell: true,
      guestUserRoleId: 'a',
      permissionGrantPolicy: 'x',
      z1: 1,
      z2: 2,
    },
  },
  {
    path: 'Teams/MeetingPolicy/Global.json',
    content: { Identity: 'Global', AllowRecording: false },
  },
];
const CLIENT = [
  { path: 'ConditionalAccess/Policy/CA000 renamed.json', content: ca('CA000 - Require MFA', 'c1') },
  {
    path: 'AzureAD/AuthorizationPolicy/Authorization Policy.json',
    content: {
      displayName: 'Authorization Policy',
      allowInvitesFrom: 'everyone',
      blockMsolPowerShell: false,
      guestUserRoleId: 'b',
      permissionGrantPolicy: 'y',
      z1: 2,
      z2: 3,
    },
  },
  {
    path: 'Teams/MeetingPolicy/Global.json',
    content: { Identity: 'Global', AllowRecording: false },
  },
];

/** The report as the server sends it: policy documents left out, `matches` applied. */
function reportOf(
  clientFiles = CLIENT,
  matches: CompliancePreviewBody['pendingMatches'] = [],
): ComplianceReport {
  const compliance = applyMatches(evaluateCompliance(BASELINE, clientFiles), matches);
  return {
    client: 'FAB',
    branch: 'main',
    baselineTreeId: 'b',
    clientTreeId: 'c',
    generatedAt: new Date().toISOString(),
    compliance: complianceSummary({ ...compliance, acceptedGroups: [] }),
    unmatched: findUnmatchedPolicies(compliance).map((u) => unmatchedSummary(u, 5)),
    matching: emptyMatchingConfig('FAB'),
    acceptedDeviations: emptyAcceptedDeviations('FAB'),
    warnings: [],
  };
}

function renderView() {
  return renderWithProviders(<BaselineComplianceView client="FAB" />);
}

describe('Baseline Compliance view', () => {
  it('shows the header, summary, score, unmatched alert and deviations by service area', async () => {
    mockServer.use(http.get('*/api/compliance/FAB', () => HttpResponse.json(reportOf())));
    renderView();
    expect(
      screen.getByText('Current state of FAB vs company baseline (main branch)'),
    ).toBeInTheDocument();
    expect(screen.getByText('Analysing baseline compliance...')).toBeInTheDocument();
    expect(await screen.findByText('Unmatched Policies Detected')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Overall compliance score' })).toHaveAttribute(
      'aria-valuenow',
      '33',
    );
    expect(screen.getByText('Low compliance. Immediate attention required.')).toBeInTheDocument();
    const list = screen.getByRole('region', { name: 'Policy Deviations by Service Area' });
    await userEvent.click(within(list).getByRole('button', { name: 'Expand All' }));
    const item = await within(list).findByRole('button', { name: /Authorization Policy/ });
    expect(within(item).getByText(/\+3 more properties\.\.\./)).toBeInTheDocument();
    expect(within(item).getByText('6 properties')).toBeInTheDocument();
    // its kind, which tells apart policies of one name (three 'Default's in Exchange)
    expect(within(item).getByText('AuthorizationPolicy')).toBeInTheDocument();
  });

  it('preselects every deviation, counts the selection, and accepts with reason and expiry', async () => {
    let body: unknown;
    mockServer.use(
      http.get('*/api/compliance/FAB', () => HttpResponse.json(reportOf())),
      http.post('*/api/compliance/FAB/accepted-deviations', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({
          message: 'Successfully accepted 5 deviation(s) for Authorization Policy',
          accepted: 5,
          entry: {},
        });
      }),
    );
    renderView();
    await userEvent.click(await screen.findByRole('button', { name: 'Expand All' }));
    await userEvent.click(await screen.findByRole('button', { name: /Authorization Policy/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('6 of 6 selected')).toBeInTheDocument();
    // a reason is required (ADR 056)
    expect(
      within(dialog).getByRole('button', { name: 'Accept All (6) Deviation(s)' }),
    ).toBeDisabled();
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: /^Reason/ }),
      'Agreed with the client',
    );
    expect(
      within(dialog).getByRole('button', { name: 'Accept All (6) Deviation(s)' }),
    ).toBeEnabled();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Select all' }));
    expect(within(dialog).getByText('0 of 6 selected')).toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Accept Selected (0) Deviation(s)' }),
    ).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Select all' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Select z2' }));
    expect(within(dialog).getByText('5 of 6 selected')).toBeInTheDocument();
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Accept Selected (5) Deviation(s)' }),
    );
    expect(
      await screen.findByText('Successfully accepted 5 deviation(s) for Authorization Policy'),
    ).toBeInTheDocument();
    expect(body).toMatchObject({
      path: 'AzureAD/AuthorizationPolicy/Authorization Policy.json',
      policyName: 'Authorization Policy',
      category: 'AzureAD',
      reason: 'Agreed with the client',
    });
    expect((body as { properties: string[] }).properties).toHaveLength(5);
    expect((body as { properties: string[] }).properties).not.toContain('z2');
  });

  it('keeps the modal open with the failure text when the accept fails', async () => {
    mockServer.use(
      http.get('*/api/compliance/FAB', () => HttpResponse.json(reportOf())),
      http.post('*/api/compliance/FAB/accepted-deviations', () =>
        HttpResponse.json({ message: 'boom', statusCode: 502 }, { status: 502 }),
      ),
    );
    renderView();
    await userEvent.click(await screen.findByRole('button', { name: 'Expand All' }));
    await userEvent.click(await screen.findByRole('button', { name: /Authorization Policy/ }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'Agreed');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Accept All (6) Deviation(s)' }),
    );
    expect(
      await within(dialog).findByText('Failed to save accepted deviations. Please try again.'),
    ).toBeInTheDocument();
  });

  it('copies a value on click and resets the indicator after 2 s', async () => {
    mockServer.use(http.get('*/api/compliance/FAB', () => HttpResponse.json(reportOf())));
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    renderView();
    await user.click(await screen.findByRole('button', { name: 'Expand All' }));
    await user.click(await screen.findByRole('button', { name: /Authorization Policy/ }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Client value: everyone. Copy' }));
    expect(writeText).toHaveBeenCalledWith('everyone');
    expect(await within(dialog).findByText('Copied!')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).queryByText('Copied!')).not.toBeInTheDocument(), {
      timeout: 3000,
    });
  });

  it('shows a missing policy without checkboxes and acknowledges it', async () => {
    mockServer.use(http.get('*/api/compliance/FAB', () => HttpResponse.json(reportOf())));
    renderView();
    await userEvent.click(await screen.findByRole('button', { name: 'Expand All' }));
    await userEvent.click(await screen.findByRole('button', { name: /CA000 Require MFA/ }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Policy Missing from Client Configuration'),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Acknowledge Missing Policy' }),
    ).toBeDisabled();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'Not used');
    expect(
      within(dialog).getByRole('button', { name: 'Acknowledge Missing Policy' }),
    ).toBeEnabled();
  });

  it('matches a renamed policy and falls back to this browser when the save fails, saying so', async () => {
    mockServer.use(
      http.get('*/api/compliance/FAB', () => HttpResponse.json(reportOf())),
      http.post('*/api/compliance/FAB/matching/matches', () =>
        HttpResponse.json({ message: 'down', statusCode: 502 }, { status: 502 }),
      ),
      http.post('*/api/compliance/FAB/preview', async ({ request }) => {
        const body = (await request.json()) as CompliancePreviewBody;
        previews.push(body);
        return HttpResponse.json(reportOf(CLIENT, body.pendingMatches));
      }),
    );
    const previews: CompliancePreviewBody[] = [];
    renderView();
    await userEvent.click(await screen.findByRole('button', { name: 'Enable Smart Matching' }));
    const panel = screen.getByRole('region', { name: 'Intelligent Policy Matching' });
    expect(within(panel).getByText('0 of 1 policies matched')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Save & Exit' })).toBeDisabled();
    await userEvent.click(within(panel).getByRole('button', { name: 'Confirm Match' }));
    expect(within(panel).getByText('1 of 1 policies matched')).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Save & Exit' }));
    expect(
      await screen.findByText(/1 confirmed match\(es\) are saved in this browser only/),
    ).toBeInTheDocument();
    const stored = JSON.parse(localStorage.getItem(matchingStorageKey('FAB')) ?? '{}') as {
      pending: { clientName: string }[];
    };
    expect(stored.pending.map((m) => m.clientName)).toEqual(['CA000 - Require MFA']);
    // the server applies the browser's pending match: the policy is compared with its match, no longer missing
    expect(previews.map((p) => p.pendingMatches.map((m) => m.clientName))).toEqual([
      ['CA000 - Require MFA'],
    ]);
    expect(screen.queryByText('Unmatched Policies Detected')).not.toBeInTheDocument();
  });

  it('removes a saved match after the prompt, in the repository and in this browser', async () => {
    const match = {
      baselineName: 'CA000 Require MFA',
      clientName: 'CA000 - Require MFA',
      score: 96,
      scores: { conditions: 100, grantControls: 100, sessionControls: 100 },
      confirmedAt: new Date().toISOString(),
      baselinePath: 'ConditionalAccess/Policy/CA000.json',
    };
    const removed: (string | null)[] = [];
    mockServer.use(
      // the repository's matching: the match until it is removed
      http.get('*/api/compliance/FAB', () => {
        const saved = removed.length > 0 ? [] : [match];
        return HttpResponse.json({
          ...reportOf(CLIENT, saved),
          matching: { ...emptyMatchingConfig('FAB'), matches: saved },
        });
      }),
      http.delete('*/api/compliance/FAB/matching/matches', ({ request }) => {
        removed.push(new URL(request.url).searchParams.get('baselineName'));
        return HttpResponse.json(emptyMatchingConfig('FAB'));
      }),
    );
    renderView();
    await userEvent.click(await screen.findByRole('button', { name: 'Confirmed Matches (1)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove match CA000 Require MFA' }));
    const prompt = await screen.findByRole('alertdialog', { name: 'Remove match' });
    await userEvent.click(within(prompt).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(MATCHING_MESSAGES.removed)).toBeInTheDocument();
    expect(removed).toEqual(['CA000 Require MFA']);
    const stored = JSON.parse(localStorage.getItem(matchingStorageKey('FAB')) ?? '{}') as {
      config: { matches: unknown[] };
    };
    expect(stored.config.matches).toEqual([]);
  });

  it('loads the suggested client policy when View Detailed Comparison opens', async () => {
    const requested: string[] = [];
    mockServer.use(
      http.get('*/api/compliance/FAB', () => HttpResponse.json(reportOf())),
      http.get('*/api/compliance/FAB/policy', ({ request }) => {
        const url = new URL(request.url);
        requested.push(`${url.searchParams.get('side')}:${url.searchParams.get('path')}`);
        return HttpResponse.json({
          path: url.searchParams.get('path'),
          policy: CLIENT[0]!.content,
        });
      }),
    );
    renderView();
    await userEvent.click(await screen.findByRole('button', { name: 'Enable Smart Matching' }));
    const panel = screen.getByRole('region', { name: 'Intelligent Policy Matching' });
    expect(requested).toEqual([]);
    await userEvent.click(within(panel).getByRole('button', { name: 'View Detailed Comparison' }));
    const title = await screen.findByText(/^CA000 Require MFA ↔ CA000 - Require MFA \(\d+%\)$/);
    const dialog = title.closest<HTMLElement>('[role="dialog"]')!;
    const json = await within(dialog).findByRole('region', { name: 'Client policy JSON' });
    expect(json).toHaveTextContent('"id": "c1"');
    expect(requested).toEqual(['client:ConditionalAccess/Policy/CA000 renamed.json']);
  });

  it('says Perfect Compliance! with no deviations, and Failed to Load Comparison with Try Again', async () => {
    mockServer.use(http.get('*/api/compliance/FAB', () => HttpResponse.json(reportOf(BASELINE))));
    const view = renderView();
    expect(await screen.findByText('Perfect Compliance!')).toBeInTheDocument();
    expect(
      screen.getByText('All policies match the company baseline configuration.'),
    ).toBeInTheDocument();
    view.unmount();
    let calls = 0;
    mockServer.use(
      http.get('*/api/compliance/FAB', () => {
        calls++;
        return calls === 1
          ? HttpResponse.json({ message: 'down', statusCode: 502 }, { status: 502 })
          : HttpResponse.json(reportOf());
      }),
    );
    renderView();
    expect(await screen.findByText('Failed to Load Comparison')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Unmatched Policies Detected')).toBeInTheDocument();
  });

  it('says no configuration was captured, not that loading failed, for a client without one on main', async () => {
    mockServer.use(
      http.get('*/api/compliance/FAB', () =>
        HttpResponse.json(
          {
            error: 'NotFoundError',
            statusCode: 404,
            // keyed on the code (ADR 042): a reworded message still means the empty state
            message: 'Client FAB has nothing under M365Config/Resources on main',
            code: 'NoClientConfiguration',
          },
          { status: 404 },
        ),
      ),
    );
    renderView();
    expect(await screen.findByText('No Configuration Captured')).toBeInTheDocument();
    expect(screen.getByText(/FAB has no captured configuration on main yet/)).toBeInTheDocument();
    expect(screen.queryByText('Failed to Load Comparison')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
  });

  it('treats a 404 without the code as a failure to load, whatever its message says', async () => {
    mockServer.use(
      http.get('*/api/compliance/FAB', () =>
        HttpResponse.json(
          {
            error: 'NotFoundError',
            statusCode: 404,
            message: 'No configuration found for client FAB',
          },
          { status: 404 },
        ),
      ),
    );
    renderView();
    expect(await screen.findByText('Failed to Load Comparison')).toBeInTheDocument();
    expect(screen.queryByText('No Configuration Captured')).not.toBeInTheDocument();
  });
});

describe('Export Compliance Report modal', () => {
  async function openExport() {
    renderWithProviders(
      <ExportComplianceDialog
        client="FAB"
        data={reportOf().compliance}
        onClose={() => undefined}
        onExported={() => undefined}
      />,
    );
    return screen.findByRole('dialog');
  }

  it('preselects every category, counts each severity and allows export only with a section and a category or All', async () => {
    const dialog = await openExport();
    for (const c of ['AzureAD', 'ConditionalAccess']) {
      expect(within(dialog).getByRole('checkbox', { name: c })).toBeChecked();
    }
    expect(within(dialog).getByRole('radio', { name: 'All (2)' })).toBeChecked();
    expect(
      within(dialog).getByRole('radio', { name: 'Critical & High Only (2)' }),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'Medium Only (0)' })).toBeInTheDocument();
    const exportButton = within(dialog).getByRole('button', { name: 'Export PDF' });
    expect(exportButton).toBeEnabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deselect All' }));
    expect(exportButton).toBeEnabled(); // severity All
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Critical Only (1)' }));
    expect(exportButton).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Select All' }));
    expect(exportButton).toBeEnabled();
    for (const s of ['Executive Summary', 'Category Breakdown', 'Detailed Deviations']) {
      await userEvent.click(within(dialog).getByRole('checkbox', { name: s }));
    }
    expect(exportButton).toBeDisabled();
  });

  it('refuses a banner that is not PNG or JPG, or over 2 MB, and keeps a good one under companyBanner', async () => {
    const dialog = await openExport();
    const input = within(dialog).getByLabelText('Company banner');
    await userEvent.upload(input, new File(['gif'], 'b.gif', { type: 'image/gif' }), {
      applyAccept: false,
    });
    expect(await within(dialog).findByText('Please upload a PNG or JPG image')).toBeInTheDocument();
    const big = new File([new Uint8Array(2_097_153)], 'b.png', { type: 'image/png' });
    await userEvent.upload(input, big);
    expect(await within(dialog).findByText('Image size must be less than 2MB')).toBeInTheDocument();
    // named and typed PNG, but text: its content decides (issue 27)
    await userEvent.upload(input, new File(['notes'], 'notes.png', { type: 'image/png' }));
    expect(
      await within(dialog).findByText(
        'notes.png is not a PNG or JPEG image: its content is not one, whatever its name says.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('img', { name: 'Company banner preview' })).toBeNull();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    await userEvent.upload(input, new File([png], 'ok.png', { type: 'image/png' }));
    expect(
      await within(dialog).findByRole('img', { name: 'Company banner preview' }),
    ).toBeInTheDocument();
    expect(localStorage.getItem('companyBanner')).toMatch(/^data:image\/png;base64,/);
    // A Fluent button opens the chooser and the chosen file's name is shown (issue 19).
    expect(
      within(dialog).getByRole('button', { name: 'Change company banner...', hidden: true }),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('ok.png')).toBeInTheDocument();
  });
});
