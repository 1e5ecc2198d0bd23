import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { clientsHandler, knownClient } from '../../testing/mocks/clients';
import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

import {
  AEGIS_APP_ID,
  clientTenantsAuthConfig,
  findEnabledButton,
  OTHER_TENANT_ID,
  TAILSPIN_FORM,
  TAILSPIN_TENANT_ID,
} from './testing/onboarding-fixtures';

const TENANT = TAILSPIN_TENANT_ID;
const OTHER = OTHER_TENANT_ID;
const FORM = TAILSPIN_FORM;

beforeEach(() => {
  mockServer.use(
    // ABC has a tenant pipeline (the one client list, ADR 054)
    clientsHandler([knownClient('ABC')]),
    clientTenantsAuthConfig(),
    http.get('*/api/onboarding/tenant-pipelines', () =>
      HttpResponse.json({
        pipelines: [{ id: 301, name: 'ABC-Onboarding', folder: 'Tenants\\ABC' }],
      }),
    ),
    http.get('*/api/onboarding/app-deploy/pipelines', () =>
      HttpResponse.json({
        pipelines: [{ id: 301, name: 'ABC-Onboarding', folder: 'Tenants\\ABC' }],
      }),
    ),
    // consent without a tenant asks discovery for a suggestion (spec 2 §4's sources)
    http.get('*/api/onboarding/tenant-id', () =>
      HttpResponse.json({ tenantId: null, resolvedFrom: null }),
    ),
    http.get('*/api/app-tables', () =>
      HttpResponse.json({ tables: ['ABCWorkstationApps', 'TSPWorkstationApps'] }),
    ),
  );
});

function storeForm(resolvedTenantId?: string) {
  sessionStorage.setItem('aegis.onboarding.tenantForm', JSON.stringify(FORM));
  if (resolvedTenantId)
    sessionStorage.setItem('aegis.onboarding.resolvedTenantId', resolvedTenantId);
}

const spPresent = (tenant: string) =>
  encodeURIComponent(
    `AADSTS650051: The service principal cannot be created, updated, or restored because the service principal name ${AEGIS_APP_ID} is already present for tenant ${tenant}.`,
  );

describe('tenant onboarding: the admin consent return (spec 2 §4)', () => {
  it('proceeds with a known tenant to the Global Admin sign-in and removes the query parameters', async () => {
    storeForm(TENANT);
    const { router } = renderApp(
      `/tenant-baseline-options?admin_consent=True&tenant=${TENANT}&state=1732380000000`,
    );
    expect(await screen.findByText(`Admin consent granted for tenant ${TENANT}`)).toBeVisible();
    // usable once the sign-in configuration is there
    await findEnabledButton('Login as Global Admin');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/tenant-baseline-options');
  });

  it('asks for the tenant id when consent came back without one, and validates it', async () => {
    storeForm();
    renderApp('/tenant-baseline-options?admin_consent=True&state=1');
    const input = await screen.findByRole('textbox', { name: 'Tenant ID' });
    await userEvent.type(input, 'not-a-tenant');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Invalid Tenant ID format. Please try again.')).toBeVisible();
    await userEvent.clear(input);
    await userEvent.type(input, OTHER);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(`Admin consent granted for tenant ${OTHER}`)).toBeVisible();
  });

  it('offers a retry 2 s after an error without consent; Cancel returns to the form', async () => {
    storeForm(TENANT);
    renderApp(
      `/tenant-baseline-options?error=access_denied&error_description=${encodeURIComponent('AADSTS65004: User declined to consent to access the app.')}&state=1`,
    );
    expect(await screen.findByText('Admin consent failed')).toBeVisible();
    expect(screen.getByText(/AADSTS65004/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Retry Admin Consent' })).not.toBeInTheDocument();
    expect(
      await screen.findByRole('button', { name: 'Retry Admin Consent' }, { timeout: 4000 }),
    ).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    // The form comes back with what was stored before the redirect.
    expect(await screen.findByRole('textbox', { name: /Client Code/ })).toHaveValue('TSP');
  });

  it('continues when the app already exists in the tenant resolved from the domain', async () => {
    storeForm(TENANT);
    renderApp(
      `/tenant-baseline-options?error=access_denied&error_description=${spPresent(TENANT)}&state=1`,
    );
    expect(await screen.findByText(`Admin consent granted for tenant ${TENANT}`)).toBeVisible();
  });

  it('offers the five recovery choices when the app exists in another tenant', async () => {
    storeForm(TENANT);
    renderApp(
      `/tenant-baseline-options?error=access_denied&error_description=${spPresent(OTHER)}&state=1`,
    );
    const choices = await screen.findByRole('radiogroup', { name: 'Recovery choice' });
    expect(
      within(choices)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['1', '2', '3', '4', '5']);
    expect(screen.getByText(new RegExp(`in tenant ${OTHER}`))).toBeVisible();
    await userEvent.click(within(choices).getByRole('radio', { name: /Enter the tenant ID/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('textbox', { name: 'Tenant ID' })).toBeVisible();
  });

  it('refuses an incomplete form with the spec alert', async () => {
    renderApp('/tenant-baseline-options');
    await userEvent.type(await screen.findByRole('textbox', { name: /Client Code/ }), 'ts');
    expect(screen.getByText('Client code must be exactly 3 uppercase letters.')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Grant Admin Consent' }));
    expect(
      await screen.findByText(
        'Please complete all required fields with valid information before proceeding.',
      ),
    ).toBeVisible();
    // fixed, the form says nothing more of it (issue 27: the alert stayed)
    const code = screen.getByRole('textbox', { name: /Client Code/ });
    await userEvent.clear(code);
    await userEvent.type(code, 'TSP');
    const domain = screen.getByRole('textbox', { name: /Domain/ });
    await userEvent.clear(domain);
    await userEvent.type(domain, 'tailspintoys.com');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /Region/ }), 'uksouth');
    expect(
      screen.queryByText(
        'Please complete all required fields with valid information before proceeding.',
      ),
    ).toBeNull();
  });
});

describe('new app-deploy onboarding: the admin consent return (spec 2 §8)', () => {
  it.each([
    [
      'AADSTS1003031: Misconfigured required resource access',
      'access_denied',
      'Application permissions are not properly configured. Please contact your administrator to configure the required API permissions in the Azure AD app registration.',
    ],
    [
      'AADSTS65004: User declined',
      'access_denied',
      'Admin consent was denied or cancelled. Please try again and accept the required permissions.',
    ],
    [
      'AADSTS90002: Tenant not found',
      'invalid_tenant',
      'Admin consent failed: AADSTS90002: Tenant not found',
    ],
  ])('shows the text for %s and clears the stored values', async (description, error, text) => {
    sessionStorage.setItem(
      'aegis.onboarding.appDeploy',
      JSON.stringify({ clientCode: 'TSP', domain: 'tailspintoys.com', tenantId: TENANT }),
    );
    renderApp(
      `/AppDeploy-Onboarding-New?error=${error}&error_description=${encodeURIComponent(description)}`,
    );
    expect(await screen.findByText(text)).toBeVisible();
    expect(sessionStorage.getItem('aegis.onboarding.appDeploy')).toBeNull();
  });

  it('restores the stored values and asks for the Global Admin after consent', async () => {
    sessionStorage.setItem(
      'aegis.onboarding.appDeploy',
      JSON.stringify({ clientCode: 'TSP', domain: 'tailspintoys.com', tenantId: '' }),
    );
    renderApp(`/AppDeploy-Onboarding-New?admin_consent=True&tenant=${TENANT}`);
    expect(
      await screen.findByText(
        "Admin consent granted. Sign in as the client's Global Administrator.",
      ),
    ).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Tenant ID' })).toHaveValue(TENANT);
    expect(screen.getByRole('textbox', { name: /Client Code/ })).toHaveValue('TSP');
  });

  it('checks the client code in order: format, table, not onboarded', async () => {
    renderApp('/AppDeploy-Onboarding');
    const code = await screen.findByRole('textbox', { name: /Client Code/ });
    await userEvent.type(code, 'XYZ');
    expect(
      await screen.findByText('No tables found starting with XYZ. Please create Client App Table!'),
    ).toBeVisible();
    await userEvent.clear(code);
    await userEvent.type(code, 'ABC');
    expect(await screen.findByText('ABC has already been onboarded.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    await userEvent.clear(code);
    await userEvent.type(code, 'TSP');
    expect(await screen.findByText('Table found for client code TSP.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please fill in all the required fields.')).toBeVisible();
  });
});
