import type { AppTableEntityDto } from '@aegis/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const TABLES = ['ABCWorkstationApps', 'abdWorkstationApps', 'GENWorkstationApps'];

function app(rowKey: string, AppName: string, Version: string, Status = 'Enabled') {
  return {
    PartitionKey: 'appinfo-pk1',
    RowKey: rowKey,
    AppName,
    Version,
    Status,
    etag: `W/"${rowKey}"`,
  } satisfies AppTableEntityDto;
}

const GEN = [
  app('0001', 'VLC', '3.0.21'),
  app('0002', '7-Zip', '24.09'),
  app('0003', 'Slack', '4.41', 'Disabled'),
];

function serve(options: { tables?: string[]; rows?: Record<string, AppTableEntityDto[]> } = {}) {
  const rows: Record<string, AppTableEntityDto[]> = options.rows ?? {
    GENWorkstationApps: GEN,
    ABCWorkstationApps: GEN.slice(0, 1),
  };
  mockServer.use(
    http.get('*/api/app-tables', () => HttpResponse.json({ tables: options.tables ?? TABLES })),
    http.get('*/api/app-tables/:table/rows', ({ params }) =>
      HttpResponse.json({ table: params.table, rows: rows[String(params.table)] ?? [] }),
    ),
  );
}

/** Opens Update Existing App Deploy Table on ABCWorkstationApps with an update type. */
async function openUpdate(user: ReturnType<typeof userEvent.setup>, type: string) {
  renderApp('/update-existing-table');
  const table = await screen.findByLabelText('Table');
  await waitFor(() => expect(within(table).getAllByRole('option')).toHaveLength(4));
  await user.selectOptions(table, 'ABCWorkstationApps');
  await user.selectOptions(screen.getByLabelText('Update type'), type);
}

describe('App Deploy Table Viewer', () => {
  it('finds tables by prefix, ignoring case, and sorts rows by a header with an arrow', async () => {
    serve();
    const user = userEvent.setup();
    renderApp('/storage-tables-list');
    const list = await screen.findByRole('list', { name: 'Table names' });
    await user.type(screen.getByRole('searchbox', { name: 'Search tables' }), 'AB');
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['ABCWorkstationApps', 'abdWorkstationApps']);
    await user.clear(screen.getByRole('searchbox', { name: 'Search tables' }));
    await user.click(within(list).getByRole('button', { name: 'GENWorkstationApps' }));

    const grid = await screen.findByRole('table', { name: 'Rows of GENWorkstationApps' });
    const headers = within(grid).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual([
      'Status',
      'AppName',
      'PartitionKey',
      'RowKey',
      'Version',
    ]);
    const sortIcons = () => headers.map((h) => h.querySelector('[data-sort-icon]'));
    // before any click every header shows the neutral sort icon, and no header claims a sort
    expect(sortIcons().map((icon) => icon?.getAttribute('data-sort-icon'))).toEqual(
      Array(headers.length).fill('none'),
    );
    for (const icon of sortIcons()) {
      expect(icon).toHaveAttribute('aria-hidden', 'true');
      expect(icon?.querySelector('svg')).not.toBeNull();
    }
    expect(headers.filter((h) => h.hasAttribute('aria-sort'))).toEqual([]);
    const appNames = () =>
      within(grid)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[1]?.textContent);
    const header = within(grid).getByRole('columnheader', { name: 'AppName' });
    await user.click(within(header).getByRole('button', { name: 'AppName' }));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    expect(header.querySelector('[data-sort-icon]')).toHaveAttribute('data-sort-icon', 'ascending');
    // only the sorted header carries aria-sort; the others keep the neutral icon
    expect(headers.filter((h) => h.hasAttribute('aria-sort'))).toEqual([header]);
    expect(headers[0]?.querySelector('[data-sort-icon]')).toHaveAttribute('data-sort-icon', 'none');
    expect(appNames()).toEqual(['7-Zip', 'Slack', 'VLC']);
    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(header.querySelector('[data-sort-icon]')).toHaveAttribute(
      'data-sort-icon',
      'descending',
    );
    expect(appNames()).toEqual(['VLC', 'Slack', '7-Zip']);
    // Status and AppName are the columns kept in view when the table scrolls sideways
    const stickyHeaders = headers.filter((h) => h.hasAttribute('data-sticky'));
    expect(stickyHeaders.map((h) => h.textContent)).toEqual(['Status', 'AppName']);
    for (const row of within(grid).getAllByRole('row').slice(1)) {
      const cells = within(row).getAllByRole('cell');
      expect(cells.map((cell) => cell.hasAttribute('data-sticky'))).toEqual([
        true,
        true,
        false,
        false,
        false,
      ]);
    }
    expect(within(grid).getByRole('cell', { name: 'Disabled' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to Table List' }));
    expect(await screen.findByRole('list', { name: 'Table names' })).toBeInTheDocument();
  });

  it('shows the failure and a retry when the tables cannot be listed', async () => {
    mockServer.use(
      http.get('*/api/app-tables', () =>
        HttpResponse.json(
          { error: 'ServiceError', statusCode: 502, message: 'connect ECONNREFUSED' },
          { status: 502 },
        ),
      ),
    );
    renderApp('/storage-tables-list');
    expect(
      await screen.findByText(/Could not load the tables: connect ECONNREFUSED/),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeEnabled();
  });

  it('sends signed-out users to /login', async () => {
    const { router } = renderApp('/update-existing-table', { user: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});

describe('Create New App Deploy Table', () => {
  it('gives the alerts of the spec, then the 201 and 409 messages', async () => {
    serve();
    let creates = 0;
    mockServer.use(
      http.post('*/api/app-tables', async ({ request }) => {
        const body = (await request.json()) as { clientCode: string };
        creates += 1;
        return creates === 1
          ? HttpResponse.json(
              {
                status: 201,
                table: `${body.clientCode}WorkstationApps`,
                message: `Table ${body.clientCode}WorkstationApps created successfully.`,
              },
              { status: 201 },
            )
          : HttpResponse.json(
              {
                error: 'ConflictError',
                statusCode: 409,
                message: 'The table specified already exists.',
              },
              { status: 409 },
            );
      }),
    );
    const user = userEvent.setup();
    renderApp('/Create-Azure-Storage-Table');
    await user.click(await screen.findByRole('button', { name: 'Create New Client Table' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a client code.');
    await user.click(screen.getByRole('button', { name: 'Add Applications' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select at least one application.');
    await user.click(await screen.findByRole('checkbox', { name: /7-Zip/ }));
    await user.click(screen.getByRole('button', { name: 'Add Applications' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'No table to update. Please create a table first.',
    );
    await user.type(screen.getByLabelText('Client Code'), 'ab1');
    await user.click(screen.getByRole('button', { name: 'Create New Client Table' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Client code must be exactly 3 uppercase letters.',
    );
    await user.clear(screen.getByLabelText('Client Code'));
    await user.type(screen.getByLabelText('Client Code'), 'xyz');
    expect(screen.getByLabelText('Client Code')).toHaveValue('XYZ');
    await user.click(screen.getByRole('button', { name: 'Create New Client Table' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Table XYZWorkstationApps created successfully.',
    );
    await user.click(screen.getByRole('button', { name: 'Create New Client Table' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The table specified already exists.',
    );
  });
});

describe('alerts of the table screens', () => {
  it('clear or update as soon as the user fixes their cause', async () => {
    serve();
    const user = userEvent.setup();
    renderApp('/Create-Azure-Storage-Table');
    const code = await screen.findByLabelText('Client Code');
    await user.click(screen.getByRole('button', { name: 'Create New Client Table' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a client code.');
    await user.type(code, 'a');
    // the cause changed: the alert now says what is wrong with what was typed
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Client code must be exactly 3 uppercase letters.',
    );
    await user.type(code, 'bc');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add Applications' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select at least one application.');
    await user.click(screen.getByRole('checkbox', { name: /7-Zip/ }));
    // one app chosen: the remaining cause is the missing table
    expect(screen.getByRole('alert')).toHaveTextContent(
      'No table to update. Please create a table first.',
    );
    await user.click(screen.getByRole('checkbox', { name: /7-Zip/ }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select at least one application.');
  });

  it('on the update screen, go away once the property, app or selection is given', async () => {
    serve();
    const user = userEvent.setup();
    await openUpdate(user, 'newProperty');
    const type = screen.getByLabelText('Update type');
    await user.click(screen.getByRole('button', { name: 'Add Property' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Please fill in both property name and value.',
    );
    await user.type(screen.getByLabelText('Property Name'), 'Detection');
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Property Value'), 'registry');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.selectOptions(type, 'update');
    await user.click(screen.getByRole('button', { name: 'Update App' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select an app to update.');
    const app = screen.getByLabelText('App');
    await waitFor(() => expect(within(app).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(app, 'appinfo-pk1/0001');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.selectOptions(type, 'deleteProperty');
    await user.click(screen.getByRole('button', { name: 'Delete Property' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select the property name.');
    const property = screen.getByLabelText('Property');
    await waitFor(() => expect(within(property).getAllByRole('option').length).toBeGreaterThan(1));
    await user.selectOptions(property, 'Version');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.selectOptions(type, 'delete');
    await user.click(screen.getByRole('button', { name: 'Delete Selected Apps' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select at least one application.');
    await user.click(await screen.findByRole('checkbox', { name: /VLC/ }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('Update Existing App Deploy Table', () => {
  it('applies the msi rule, highlights required fields and never offers protected keys', async () => {
    serve();
    const user = userEvent.setup();
    await openUpdate(user, 'new');
    expect(await screen.findByLabelText('RowKey')).toHaveValue('0002');
    expect(screen.getByLabelText('PartitionKey')).toHaveValue('appinfo-pk1');
    expect(screen.getByLabelText(/^ExitCode/)).toHaveValue('@(0, 3010, 1605, 1614, 1641)');
    await user.click(screen.getByRole('button', { name: 'Add New App' }));
    expect(screen.getByText('Please fill in all the required fields.')).toBeVisible();
    expect(screen.getAllByText('Required')).toHaveLength(18);

    await user.type(screen.getByLabelText(/^UninstallerLocation/), 'C:\\x\\uninstall.exe');
    await user.selectOptions(screen.getByLabelText(/^UninstallFileType/), 'msi');
    expect(screen.getByLabelText(/^Uninstall$|^Uninstall\s*\*/)).toHaveValue('autouninstall');
    expect(screen.getByLabelText(/^UninstallerLocation/)).toHaveValue('');
    expect(screen.getByLabelText(/^UninstallerLocation/)).toBeDisabled();
    // Uninstall is set, not locked: what the user types there is kept
    const uninstall = screen.getByLabelText(/^Uninstall$|^Uninstall\s*\*/);
    await user.type(uninstall, ' /quiet');
    expect(uninstall).toHaveValue('autouninstall /quiet');
    await user.type(screen.getByLabelText(/^Version/), '1.0');
    expect(uninstall).toHaveValue('autouninstall /quiet');

    // changing the type resets; deleteProperty lists only deletable properties
    await user.selectOptions(screen.getByLabelText('Update type'), 'deleteProperty');
    const property = await screen.findByLabelText('Property');
    await waitFor(() =>
      expect(
        within(property)
          .getAllByRole('option')
          .map((o) => o.getAttribute('value')),
      ).toEqual(['', 'AppName', 'Version', 'Status']),
    );
    await user.click(screen.getByRole('button', { name: 'Delete Property' }));
    expect(screen.getByText('Please select the property name.')).toBeVisible();

    // changing the table resets the type
    await user.selectOptions(screen.getByLabelText('Table'), 'GENWorkstationApps');
    expect(screen.getByLabelText('Update type')).toHaveValue('');
  });

  it('edits an app with the same fields as the new-app form: selects, the msi rule', async () => {
    const chrome = {
      ...app('0002', 'Google Chrome', '131.0'),
      Architecture: 'x64',
      InstallFileType: 'msi',
      UninstallFileType: 'exe',
      DownloadFileType: 'msi',
      InstallExperience: 'system',
      Uninstall: 'uninstall.exe /S',
      UninstallerLocation: 'C:\\Chrome\\uninstall.exe',
      Detection: 'registry',
    } satisfies AppTableEntityDto;
    serve({ rows: { GENWorkstationApps: GEN, ABCWorkstationApps: [GEN[0]!, chrome] } });
    let sent: unknown;
    mockServer.use(
      http.patch('*/api/app-tables/:table/entities/:pk/:rk', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: 'App updated.', succeeded: 1, failed: [] });
      }),
    );
    const user = userEvent.setup();
    await openUpdate(user, 'update');
    const appPicker = screen.getByLabelText('App');
    await waitFor(() => expect(within(appPicker).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(appPicker, 'appinfo-pk1/0002');

    const options = (label: string) =>
      within(screen.getByRole('combobox', { name: label }))
        .getAllByRole('option')
        .map((option) => option.getAttribute('value'));
    expect(options('Architecture')).toEqual(['', 'x64', 'x86']);
    expect(options('InstallFileType')).toEqual(['', 'exe', 'msi']);
    expect(options('UninstallFileType')).toEqual(['', 'exe', 'msi']);
    expect(options('DownloadFileType')).toEqual(['', 'exe', 'msi', 'zip']);
    expect(options('InstallExperience')).toEqual(['', 'system', 'user']);
    expect(options('Status')).toEqual(['Enabled', 'Disabled']);
    expect(screen.getByRole('combobox', { name: 'Architecture' })).toHaveValue('x64');
    // free-text fields and properties outside the spec stay text boxes
    expect(screen.getByRole('textbox', { name: 'Version' })).toHaveValue('131.0');
    expect(screen.getByRole('textbox', { name: 'Detection' })).toHaveValue('registry');
    expect(screen.getByLabelText('RowKey')).toBeDisabled();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Architecture' }), 'x86');
    await user.selectOptions(screen.getByRole('combobox', { name: 'UninstallFileType' }), 'msi');
    expect(screen.getByRole('textbox', { name: 'Uninstall' })).toHaveValue('autouninstall');
    expect(screen.getByRole('textbox', { name: 'UninstallerLocation' })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'UninstallerLocation' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Update App' }));
    await waitFor(() => expect(sent).toBeDefined());
    expect(sent).toMatchObject({
      properties: {
        AppName: 'Google Chrome',
        Architecture: 'x86',
        UninstallFileType: 'msi',
        Uninstall: 'autouninstall',
        UninstallerLocation: '',
        Detection: 'registry',
      },
      etag: 'W/"0002"',
    });
    expect(await screen.findByRole('status')).toHaveTextContent('App updated.');
  });

  it('shows which rows failed when the server refuses part of a delete', async () => {
    serve({ rows: { GENWorkstationApps: GEN, ABCWorkstationApps: GEN } });
    mockServer.use(
      http.post('*/api/app-tables/:table/delete', () =>
        HttpResponse.json(
          {
            error: 'ConflictError',
            statusCode: 409,
            message:
              '1 of 2 rows failed (0002): The update condition specified in the request was not satisfied.',
            succeeded: 1,
            failed: [
              {
                partitionKey: 'appinfo-pk1',
                rowKey: '0002',
                message: 'The update condition specified in the request was not satisfied.',
                statusCode: 412,
              },
            ],
          },
          { status: 409 },
        ),
      ),
    );
    const user = userEvent.setup();
    await openUpdate(user, 'delete');
    await user.click(await screen.findByRole('checkbox', { name: /VLC/ }));
    await user.click(screen.getByRole('checkbox', { name: /7-Zip/ }));
    await user.click(screen.getByRole('button', { name: 'Delete Selected Apps' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Error deleting some entities from table: 1 of 2 rows failed (0002): The update condition specified in the request was not satisfied.',
    );
    const failed = within(alert).getByRole('list', { name: 'Rows that failed' });
    expect(
      within(failed)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'RowKey 0002 (appinfo-pk1): The update condition specified in the request was not satisfied.',
    ]);
  });
});
