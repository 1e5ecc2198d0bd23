import type { Backup, BackupComparison, BackupList, UnfinishedRestore } from '@aegis/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { findDialog } from '../../testing/find-dialog';
import { findNotice, noticeTitles } from '../../testing/find-notice';
import { clientsHandler, knownClient } from '../../testing/mocks/clients';
import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const HOUR = 3_600_000;

function backup(hoursAgo: number, scheduled = true): Backup {
  const date = new Date(Date.now() - hoursAgo * HOUR);
  date.setMilliseconds(0);
  const stamp = date.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '_');
  return {
    tagName: `backup/ABC/${scheduled ? 'scheduled_' : ''}${stamp}`,
    date: date.toISOString(),
    isScheduled: scheduled,
    size: '105.4 KB',
    sizeInBytes: 107_930,
  };
}

const HISTORY: Backup[] = [
  backup(2, false),
  ...Array.from({ length: 11 }, (_, i) => backup(30 + i * 24)),
];

function serve(
  list: Backup[],
  options: { restore?: 'ok' | 'conflict'; unfinished?: UnfinishedRestore[] } = {},
) {
  const body = (client: string): BackupList => ({
    client,
    backups: client === 'ABC' ? list : [],
    storageUsedInBytes: 1_234_567,
    storageUsed: '1.2 MB',
    unfinishedRestores: client === 'ABC' ? (options.unfinished ?? []) : [],
  });
  const comparison: BackupComparison = {
    tagName: list[0]?.tagName ?? '',
    counts: { changes: 1, additions: 1, deletions: 0 },
    results: {
      AzureAD: {
        'Authorization Policy': [
          { Name: 'state', BackupValue: 'enabled', CurrentValue: 'disabled', Equal: false },
          { Name: 'extra', BackupValue: 'Missing', CurrentValue: { a: 1 }, Equal: false },
          { Name: 'displayName', BackupValue: 'A', CurrentValue: 'A', Equal: true },
        ],
        'Default App Management Policy': [
          {
            Name: 'applicationRestrictions.passwordCredentials',
            BackupValue: 'Missing',
            CurrentValue: [{ restrictionType: 'passwordAddition', state: 'enabled' }],
            Equal: false,
          },
        ],
      },
    },
  };
  mockServer.use(
    clientsHandler([knownClient('ABC'), knownClient('WWI')]),
    http.get('*/api/backups/:client/comparison', () => {
      const lines = [
        { type: 'progress', percent: 40 },
        { type: 'result', result: comparison },
      ];
      return new HttpResponse(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', {
        headers: { 'content-type': 'application/x-ndjson' },
      });
    }),
    http.post('*/api/backups/:client/restore', () =>
      options.restore === 'conflict'
        ? HttpResponse.json(
            {
              error: 'ConflictError',
              statusCode: 409,
              message: 'A restore branch already exists.',
            },
            { status: 409 },
          )
        : HttpResponse.json(
            { pullRequestId: 42, branch: 'restore/ABC/x', prUrl: 'http://x' },
            { status: 201 },
          ),
    ),
    http.get('*/api/backups/:client', ({ params }) =>
      HttpResponse.json(body(String(params['client']))),
    ),
  );
}

afterEach(() => vi.restoreAllMocks());

const confirmText = (tag: string | undefined) =>
  `Are you sure you want to restore from backup ${tag}? This will create a pull request for review.`;

/** Answers the in-page restore confirmation (a Fluent alert dialog, never the browser's confirm()). */
async function answerRestorePrompt(goAhead: boolean, tag = HISTORY[0]?.tagName) {
  const prompt = await findDialog('Restore backup');
  expect(prompt).toHaveAttribute('role', 'alertdialog');
  expect(prompt).toHaveTextContent(confirmText(tag));
  await userEvent.click(
    within(prompt).getByRole('button', { name: goAhead ? 'Restore' : 'Cancel', hidden: true }),
  );
}

async function chooseTenant(code: string) {
  await screen.findByRole('option', { name: `${code} - Client ${code}` });
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Tenant' }), code);
}

describe('Tenant Backups page', () => {
  it('says a restore whose branch has no pull request is not finished', async () => {
    const tag = HISTORY[3]?.tagName ?? '';
    serve(HISTORY, { unfinished: [{ branch: 'restore/ABC/x', tagName: tag }] });
    renderApp('/tenant-backup');
    await chooseTenant('ABC');
    expect(await screen.findByText('Restore not finished')).toBeInTheDocument();
    expect(
      screen.getByText(
        `The restore of backup ${tag} has no pull request yet (branch restore/ABC/x), so nothing is restored. An Approver opening this screen opens it; if this message stays, delete the branch in Azure DevOps and restore again.`,
      ),
    ).toBeInTheDocument();
  });

  it('shows stats, health, the history in pages of 10, search and the date filter', async () => {
    serve(HISTORY);
    renderApp('/tenant-backup');
    await chooseTenant('ABC');
    const table = await screen.findByRole('table', { name: 'Backup history' });
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Total Backups' })).toHaveTextContent('12');
    expect(screen.getByRole('group', { name: 'Storage Used' })).toHaveTextContent('1.2 MB');
    expect(screen.getByRole('group', { name: 'Status' })).toHaveTextContent('Healthy');
    expect(within(table).getAllByText('Manual')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(
      within(screen.getByRole('table', { name: 'Backup history' })).getAllByRole('row'),
    ).toHaveLength(3);

    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Date filter' }),
      'Past Week',
    );
    expect(screen.queryByText(/^Page \d+ of \d+$/)).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('table', { name: 'Backup history' })).getAllByRole('row'),
    ).toHaveLength(8); // the header row and the 7 backups of the last 7 days

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search backups' }), 'NO-SUCH');
    expect(screen.getByText('No backups match "NO-SUCH"')).toBeInTheDocument();
    expect(screen.getByText(/hidden by the search and date filter/)).toBeInTheDocument();
  });

  it('shows No Backups for a tenant without backups', async () => {
    serve(HISTORY);
    renderApp('/tenant-backup');
    await chooseTenant('WWI');
    expect(await screen.findByText('No backups found for this tenant')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Status' })).toHaveTextContent('No Backups');
    expect(screen.queryByText(/^Page/)).not.toBeInTheDocument();
  });

  it('compares a backup: counts, Missing as N/A, objects as JSON', async () => {
    serve(HISTORY);
    renderApp('/tenant-backup');
    await chooseTenant('ABC');
    const table = await screen.findByRole('table', { name: 'Backup history' });
    await userEvent.click(within(table).getAllByRole('button', { name: 'Compare' })[0]!);
    // jsdom cannot run tabster's modalizer to completion, so the surface can stay aria-hidden
    // here; the Chromium journey (e2e/tests/tenant-backups.spec.ts) asserts the accessible dialog.
    const dialog = await screen.findByRole('dialog', { hidden: true });
    expect(within(dialog).getByText('Configuration Comparison')).toBeInTheDocument();
    expect(await within(dialog).findByText('Changes: 1', {})).toBeInTheDocument();
    expect(within(dialog).getByText('Additions: 1')).toBeInTheDocument();
    expect(within(dialog).getByText('Deletions: 0')).toBeInTheDocument();
    expect(within(dialog).getAllByText('N/A')).toHaveLength(2);
    expect(within(dialog).getAllByRole('img', { name: 'No match', hidden: true })).toHaveLength(3);
    expect(within(dialog).getAllByRole('img', { name: 'Match', hidden: true })).toHaveLength(1);

    // One table, one set of columns, for every file: the columns line up from file to file.
    const tables = within(dialog).getAllByRole('table', { hidden: true });
    expect(tables).toHaveLength(1);
    const differences = tables[0]!;
    expect(within(differences).getAllByRole('columnheader', { hidden: true })).toHaveLength(4);
    for (const file of ['Authorization Policy', 'Default App Management Policy']) {
      expect(
        within(differences).getByRole('rowgroup', { name: `AzureAD ${file}`, hidden: true }),
      ).toBeInTheDocument();
    }

    // Names wrap at their dots and camelCase words only, never as displayNam|e.
    const longName = within(differences).getByText(/^applicationRestrictions\./);
    expect(longName.innerHTML).toBe('applicationRestrictions.<wbr>passwordCredentials');
    expect(within(differences).getByText('displayName').innerHTML).toBe('displayName');

    // Objects: JSON on one line, opening to the pretty-printed JSON.
    const object = within(differences).getByText('{"a":1}').closest('details')!;
    expect(object).not.toHaveAttribute('open');
    const lines = (details: Element) =>
      [...(details.querySelector('code')?.children ?? [])].map((line) => [
        (line as HTMLElement).style.paddingLeft,
        line.textContent,
      ]);
    expect(lines(object)).toEqual([
      ['2ch', '{'],
      ['4ch', '"a": 1'],
      ['2ch', '}'],
    ]);
    const array = within(differences)
      .getByText(/^\[\{"restrictionType"/)
      .closest('details')!;
    await userEvent.click(within(array).getByText(/^\[\{"restrictionType"/));
    expect(array).toHaveAttribute('open');
    expect(lines(array)).toContainEqual(['6ch', '"restrictionType": "passwordAddition",']);
  });

  it('restores after confirmation and alerts the pull request number', async () => {
    serve(HISTORY);
    const nativeConfirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderApp('/tenant-backup');
    await chooseTenant('ABC');
    const table = await screen.findByRole('table', { name: 'Backup history' });
    await userEvent.click(within(table).getAllByRole('button', { name: 'Restore' })[0]!);
    await answerRestorePrompt(true);
    expect(nativeConfirm).not.toHaveBeenCalled();
    expect(await findNotice('Pull request #42 has been created for review.')).toBeInTheDocument();
  });

  it('alerts the failure and shows why when the restore is refused', async () => {
    serve(HISTORY, { restore: 'conflict' });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/tenant-backup');
    await chooseTenant('ABC');
    const table = await screen.findByRole('table', { name: 'Backup history' });
    await userEvent.click(within(table).getAllByRole('button', { name: 'Restore' })[0]!);
    await answerRestorePrompt(true);
    // A refusal with a reason shows the reason; 'Please try again.' could never succeed.
    expect(
      await findNotice('Failed to create PR: A restore branch already exists.'),
    ).toBeInTheDocument();
    expect(noticeTitles()).not.toContain('Failed to restore backup. Please try again.');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to create PR: A restore branch already exists.',
    );
  });

  it('says when a search matches none of the backups, and clears it', async () => {
    serve(HISTORY);
    renderApp('/tenant-backup');
    await chooseTenant('ABC');
    await screen.findByRole('table', { name: 'Backup history' });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search backups' }), 'zzz-none');
    expect(await screen.findByText('No backups match "zzz-none"')).toBeInTheDocument();
    expect(screen.queryByText('No backups found for this tenant')).not.toBeInTheDocument();
    expect(screen.getByText('12 backups are hidden by the search.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await screen.findByRole('table', { name: 'Backup history' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search backups' })).toHaveValue('');
  });

  it('does nothing when the restore is not confirmed', async () => {
    serve(HISTORY);
    const restores: unknown[] = [];
    mockServer.use(
      http.post('*/api/backups/:client/restore', () => {
        restores.push(1);
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    renderApp('/tenant-backup');
    await chooseTenant('ABC');
    const table = await screen.findByRole('table', { name: 'Backup history' });
    const restore = within(table).getAllByRole('button', { name: 'Restore' })[0]!;
    await userEvent.click(restore);
    await answerRestorePrompt(false);
    await waitFor(() => expect(screen.queryByText('Restore backup')).not.toBeInTheDocument());
    // focus goes back to the button that opened the prompt
    expect(restore).toHaveFocus();
    expect(noticeTitles()).toEqual([]);
    expect(restores).toHaveLength(0);
  });
  it('runs one restore at a time: Restore This Backup is disabled while a restore runs', async () => {
    serve(HISTORY);
    let release: () => void = () => {};
    const restores: string[] = [];
    mockServer.use(
      http.get('*/api/backups/:client/content', () =>
        HttpResponse.json({ ...HISTORY[0], content: { 'settings.json': { a: 1 } } }),
      ),
      http.post('*/api/backups/:client/restore', async ({ request }) => {
        restores.push(((await request.json()) as { tag: string }).tag);
        await new Promise<void>((resolve) => (release = resolve));
        return HttpResponse.json(
          { pullRequestId: 7, branch: 'restore/ABC/x', prUrl: 'http://x' },
          { status: 201 },
        );
      }),
    );
    renderApp('/tenant-backup');
    await chooseTenant('ABC');
    const table = await screen.findByRole('table', { name: 'Backup history' });
    await userEvent.click(within(table).getAllByRole('button', { name: 'View' })[0]!);
    const dialog = await screen.findByRole('dialog', { hidden: true });
    const restoreThis = within(dialog).getByRole('button', {
      name: 'Restore This Backup',
      hidden: true,
    });
    await userEvent.click(restoreThis);
    await answerRestorePrompt(true);
    await waitFor(() => expect(restores).toHaveLength(1));
    expect(restoreThis).toBeDisabled();
    for (const button of within(table).getAllByRole('button', { name: 'Restore', hidden: true })) {
      expect(button).toBeDisabled();
    }
    await userEvent.click(restoreThis);
    // disabled while the restore runs: no second prompt
    expect(screen.queryByText('Restore backup', { selector: 'h2' })).not.toBeInTheDocument();
    release();
    expect(await findNotice('Pull request #7 has been created for review.')).toBeInTheDocument();
    expect(restores).toEqual([HISTORY[0]?.tagName]);
    expect(noticeTitles()).toEqual(['Pull request #7 has been created for review.']);
  });

  it('restores only the policies chosen in Backup Details, after confirmation', async () => {
    serve(HISTORY);
    const bodies: unknown[] = [];
    mockServer.use(
      http.get('*/api/backups/:client/content', () =>
        HttpResponse.json({
          ...HISTORY[0],
          content: {
            '.capture-manifest.json': {},
            'M365Config/Resources/ConditionalAccess/Policy/CA001.json': { state: 'enabled' },
            'M365Config/Resources/ConditionalAccess/Policy/CA002.json': { state: 'enabled' },
            'M365Config/Resources/Intune/DeviceConfiguration/Kiosk.json': { a: 1 },
          },
        }),
      ),
      http.post('*/api/backups/:client/restore', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          { pullRequestId: 8, branch: 'restore/ABC/x-objects-1', prUrl: 'http://x' },
          { status: 201 },
        );
      }),
    );
    renderApp('/tenant-backup');
    await chooseTenant('ABC');
    const table = await screen.findByRole('table', { name: 'Backup history' });
    await userEvent.click(within(table).getAllByRole('button', { name: 'View' })[0]!);
    const dialog = await screen.findByRole('dialog', { hidden: true });
    const restoreChosen = await within(dialog).findByRole('button', {
      name: 'Restore Selected Policies (0)',
      hidden: true,
    });
    expect(restoreChosen).toBeDisabled();
    // Aegis's own records are not policies
    const policies = within(dialog).getByRole('group', { name: /Policies/, hidden: true });
    expect(within(policies).getAllByRole('checkbox', { hidden: true })).toHaveLength(3);
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Filter policies', hidden: true }),
      'ca002',
    );
    expect(within(policies).getAllByRole('checkbox', { hidden: true })).toHaveLength(1);
    await userEvent.click(
      within(policies).getByRole('checkbox', {
        name: 'ConditionalAccess/Policy/CA002.json',
        hidden: true,
      }),
    );
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Restore Selected Policies (1)', hidden: true }),
    );
    const prompt = await findDialog('Restore policies');
    expect(prompt).toHaveTextContent(
      `Are you sure you want to restore 1 policy from backup ${HISTORY[0]?.tagName}? This will create a pull request for review.`,
    );
    await userEvent.click(within(prompt).getByRole('button', { name: 'Restore', hidden: true }));
    expect(await findNotice('Pull request #8 has been created for review.')).toBeInTheDocument();
    expect(bodies).toEqual([
      { tag: HISTORY[0]?.tagName, policies: ['ConditionalAccess/Policy/CA002.json'] },
    ]);
  });

  it('restores chosen policies straight into the tenant after confirmation, and follows the run', async () => {
    serve(HISTORY);
    const bodies: unknown[] = [];
    mockServer.use(
      http.get('*/api/backups/:client/content', () =>
        HttpResponse.json({
          ...HISTORY[0],
          content: {
            'M365Config/Resources/ConditionalAccess/Policy/CA001.json': { state: 'enabled' },
            'M365Config/Resources/ConditionalAccess/Policy/CA002.json': { state: 'enabled' },
          },
        }),
      ),
      http.post('*/api/backups/:client/restore-runs', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          { runId: 77, state: 'inProgress', project: 'Aegis', pipelineId: 230 },
          { status: 201 },
        );
      }),
      http.get('*/api/backups/:client/restore-runs/:runId', () =>
        HttpResponse.json({
          runId: 77,
          state: 'inProgress',
          result: null,
          project: 'Aegis',
          pipelineId: 230,
        }),
      ),
    );
    renderApp('/tenant-backup');
    await chooseTenant('ABC');
    const table = await screen.findByRole('table', { name: 'Backup history' });
    await userEvent.click(within(table).getAllByRole('button', { name: 'View' })[0]!);
    const dialog = await screen.findByRole('dialog', { hidden: true });
    const toTenant = await within(dialog).findByRole('button', {
      name: 'Restore Selected Policies to Tenant (0)',
      hidden: true,
    });
    expect(toTenant).toBeDisabled();
    await userEvent.click(
      within(dialog).getByRole('checkbox', {
        name: 'ConditionalAccess/Policy/CA001.json',
        hidden: true,
      }),
    );
    await userEvent.click(
      within(dialog).getByRole('button', {
        name: 'Restore Selected Policies to Tenant (1)',
        hidden: true,
      }),
    );
    const prompt = await findDialog('Restore policies into the tenant');
    expect(prompt).toHaveTextContent(
      `Are you sure you want to restore 1 policy from backup ${HISTORY[0]?.tagName} straight into the tenant ABC? This changes the tenant now; a backup of it is taken first.`,
    );
    await userEvent.click(
      within(prompt).getByRole('button', { name: 'Restore into tenant', hidden: true }),
    );
    expect(
      await screen.findByText(
        `Restoring 1 policy of ABC from backup ${HISTORY[0]?.tagName} into the tenant (run #77)...`,
      ),
    ).toBeInTheDocument();
    expect(bodies).toEqual([
      { tag: HISTORY[0]?.tagName, policies: ['ConditionalAccess/Policy/CA001.json'] },
    ]);
  });

  it('says so in Backup Details when the configuration cannot be loaded', async () => {
    serve(HISTORY);
    mockServer.use(
      http.get('*/api/backups/:client/content', async () => {
        await delay(20);
        return HttpResponse.json(
          { error: 'ServiceError', statusCode: 502, message: 'TF400898' },
          { status: 502 },
        );
      }),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/tenant-backup');
    await chooseTenant('ABC');
    const table = await screen.findByRole('table', { name: 'Backup history' });
    await userEvent.click(within(table).getAllByRole('button', { name: 'View' })[0]!);
    const dialog = await screen.findByRole('dialog', { hidden: true });
    expect(within(dialog).getByText('Backup Details')).toBeInTheDocument();
    expect(
      await within(dialog).findByText(
        'The configuration could not be loaded. Close and try again.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText('Loading configuration...')).not.toBeInTheDocument();
  });

  it('shows a Reader Manual Backup and Restore disabled, naming the role each needs', async () => {
    serve(HISTORY);
    const restores: unknown[] = [];
    mockServer.use(
      http.post('*/api/backups/:client/restore', () => {
        restores.push(1);
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    renderApp('/tenant-backup', { roles: ['Reader'] });
    await chooseTenant('ABC');
    const table = await screen.findByRole('table', { name: 'Backup history' });
    const manual = screen.getByRole('button', { name: 'Manual Backup' });
    expect(manual).toHaveAttribute('aria-disabled', 'true');
    expect(manual).toHaveAccessibleDescription(/needs the Aegis Operator role/);
    const restore = within(table).getAllByRole('button', { name: 'Restore' })[0]!;
    expect(restore).toHaveAttribute('aria-disabled', 'true');
    expect(restore).toHaveAccessibleDescription(/needs the Aegis Approver role/);
    await userEvent.click(restore);
    expect(screen.queryByText('Restore backup', { selector: 'h2' })).not.toBeInTheDocument();
    expect(restores).toHaveLength(0);
    // viewing and comparing stay open to a Reader
    expect(within(table).getAllByRole('button', { name: 'View' })[0]).not.toHaveAttribute(
      'aria-disabled',
    );
  });

  it('lets an Operator back up but not restore', async () => {
    serve(HISTORY);
    renderApp('/tenant-backup', { roles: ['Operator'] });
    await chooseTenant('ABC');
    const table = await screen.findByRole('table', { name: 'Backup history' });
    expect(screen.getByRole('button', { name: 'Manual Backup' })).not.toHaveAttribute(
      'aria-disabled',
    );
    expect(within(table).getAllByRole('button', { name: 'Restore' })[0]).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });
});
