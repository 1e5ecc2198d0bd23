import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import type * as ClientTenantAuth from '../../lib/client-tenant-auth/client-tenant-auth';
import * as Auth from '../../lib/client-tenant-auth/client-tenant-auth';
import { GlobalAdminSignInError } from '../../lib/client-tenant-auth/client-tenant-session';
import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

import {
  AEGIS_APP_ID,
  clientTenantsAuthConfig,
  findEnabledButton,
  globalAdminSession,
} from './testing/onboarding-fixtures';

const TENANT = '2d18732e-2d49-4a3e-ba51-85152d10e11e';
const GLOBAL_ADMIN = globalAdminSession(TENANT, 'lena.fischer@adventure-works.de', 'Lena Fischer');

// The popup itself is MSAL's; the flow after it is what these tests are about.
vi.mock('../../lib/client-tenant-auth/client-tenant-auth', async (importOriginal) => {
  const original = await importOriginal<typeof ClientTenantAuth>();
  return {
    ...original,
    signInGlobalAdmin: vi.fn(
      (await import('./testing/onboarding-fixtures')).signsInAs(() => GLOBAL_ADMIN),
    ),
  };
});

const started: { url: string; body: unknown }[] = [];

beforeEach(() => {
  started.length = 0;
  const start =
    (pipelineId: number) =>
    async ({ request }: { request: Request }) => {
      started.push({ url: new URL(request.url).pathname, body: await request.json() });
      return HttpResponse.json(
        {
          id: 7,
          pipelineId,
          project: 'Aegis Tenant Management',
          state: 'inProgress',
          result: null,
        },
        { status: 201 },
      );
    };
  mockServer.use(
    clientTenantsAuthConfig(),
    // ABC was onboarded as a tenant, WGB for app deployment only (ADR 055)
    http.get('*/api/onboarding/app-deploy/pipelines', () =>
      HttpResponse.json({
        pipelines: [
          { id: 240, name: 'ABC Tenant Configuration', folder: 'Tenants\\ABC' },
          { id: 109, name: 'WGB - Workstation App Deployment', folder: 'WGB' },
          { id: 110, name: 'CON - Printer Drivers', folder: 'ADW' },
        ],
      }),
    ),
    http.get('*/api/app-tables', () =>
      HttpResponse.json({
        tables: ['ABCWorkstationApps', 'ADWWorkstationApps', 'WGBWorkstationApps'],
      }),
    ),
    http.get('*/api/onboarding/enterprise-app', () =>
      HttpResponse.json({
        status: 'found',
        servicePrincipal: {
          id: 'sp-1',
          appId: AEGIS_APP_ID,
          displayName: 'Aegis - Deploy - Monitor - Fix',
        },
      }),
    ),
    http.post('*/api/onboarding/app-deploy-new/runs', start(191)),
    http.post('*/api/onboarding/app-deploy/runs', start(55)),
    http.get('*/api/projects/:project/pipelines/:pipelineId/runs/:id', () =>
      HttpResponse.json({ id: 7, state: 'inProgress', result: null }),
    ),
  );
});

describe('new app-deploy onboarding (spec 2 §2, §4, §7)', () => {
  it('after consent and the Global Admin: the success card, then pipeline 191 with the four values', async () => {
    sessionStorage.setItem(
      'aegis.onboarding.appDeploy',
      JSON.stringify({ clientCode: 'ADW', domain: 'adventure-works.de', tenantId: '' }),
    );
    renderApp(`/AppDeploy-Onboarding-New?admin_consent=True&tenant=${TENANT}&state=1`);
    const login = await findEnabledButton('Login as Global Admin');
    expect(screen.getByRole('textbox', { name: 'Tenant ID' })).toHaveAttribute('readonly');
    await userEvent.click(login);
    const card = await screen.findByRole('region', { name: 'Authentication successful' });
    expect(within(card).getByText(`Tenant ID: ${TENANT}`)).toBeVisible();
    expect(within(card).getByText(`Enterprise App ID: ${AEGIS_APP_ID}`)).toBeVisible();
    expect(within(card).getByText('Status: Active')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Complete App Deploy Onboarding' }));
    expect(await screen.findByText(/^Pipeline status: inProgress -$/)).toBeVisible();
    expect(started).toEqual([
      {
        url: '/api/onboarding/app-deploy-new/runs',
        body: {
          clientCode: 'ADW',
          domain: 'adventure-works.de',
          clientTenantId: TENANT,
          enterpriseAppId: AEGIS_APP_ID,
        },
      },
    ]);
    expect(sessionStorage.getItem('aegis.onboarding.appDeploy')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Complete App Deploy Onboarding' })).toBeNull();
  });

  it('offers Login as Global Admin only for a validated, not onboarded code and a domain', async () => {
    renderApp('/AppDeploy-Onboarding-New');
    const code = await screen.findByRole('textbox', { name: /Client Code/ });
    const login = screen.getByRole('button', { name: 'Login as Global Admin' });
    await userEvent.type(code, 'ABC');
    expect(await screen.findByText('ABC has already been onboarded.')).toBeVisible();
    await userEvent.type(screen.getByRole('textbox', { name: /Domain/ }), 'abcaccounting.com');
    expect(login).toBeDisabled();
    await userEvent.clear(code);
    await userEvent.type(code, 'XYZ');
    expect(
      await screen.findByText(
        'No tables found starting with XYZ. Please create Client App Table first!',
      ),
    ).toBeVisible();
    expect(login).toBeDisabled();
    await userEvent.clear(code);
    await userEvent.type(code, 'ADW');
    expect(await screen.findByText('Table found for client code ADW.')).toBeVisible();
    expect(login).toBeEnabled();
  });
  it('says why the Global Admin sign-in failed', async () => {
    sessionStorage.setItem(
      'aegis.onboarding.appDeploy',
      JSON.stringify({ clientCode: 'ADW', domain: 'adventure-works.de', tenantId: TENANT }),
    );
    vi.mocked(Auth.signInGlobalAdmin).mockRejectedValueOnce(
      new GlobalAdminSignInError('user_cancelled', 'User cancelled the flow.'),
    );
    renderApp(`/AppDeploy-Onboarding-New?admin_consent=True&tenant=${TENANT}`);
    await userEvent.click(await findEnabledButton('Login as Global Admin'));
    expect(
      await screen.findByText(
        'Failed to authenticate after admin consent. Error code: user_cancelled Details: User cancelled the flow. Please try again.',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Authentication successful' })).toBeNull();
  });
});

describe('old app-deploy onboarding (spec 2 §2, §5, §7)', () => {
  it('reads a client with its app-deployment pipeline as already onboarded, not one with another pipeline in its folder', async () => {
    renderApp('/AppDeploy-Onboarding');
    const code = await screen.findByRole('textbox', { name: /Client Code/ });
    await userEvent.type(code, 'WGB');
    expect(await screen.findByText('WGB has already been onboarded.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    await userEvent.clear(code);
    await userEvent.type(code, 'ADW');
    expect(await screen.findByText('Table found for client code ADW.')).toBeVisible();
  });

  it('blocks when a check cannot be made', async () => {
    mockServer.use(
      http.get('*/api/onboarding/app-deploy/pipelines', () =>
        HttpResponse.json({ message: 'DevOps is unavailable' }, { status: 502 }),
      ),
    );
    renderApp('/AppDeploy-Onboarding');
    await userEvent.type(await screen.findByRole('textbox', { name: /Client Code/ }), 'ADW');
    expect(await screen.findByText('Error checking pipelines.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
  });

  it('says the client is already onboarded when the server finds it onboarded meanwhile', async () => {
    mockServer.use(
      http.post('*/api/onboarding/app-deploy/runs', () =>
        HttpResponse.json(
          { message: 'Client is already onboarded. Please check the existing pipeline.' },
          { status: 409 },
        ),
      ),
    );
    renderApp('/AppDeploy-Onboarding');
    await userEvent.type(await screen.findByRole('textbox', { name: /Client Code/ }), 'ADW');
    expect(await screen.findByText('Table found for client code ADW.')).toBeVisible();
    await userEvent.type(screen.getByRole('textbox', { name: /Domain/ }), 'adventure-works.de');
    await userEvent.type(
      screen.getByRole('textbox', { name: /Username/ }),
      'lena@adventure-works.de',
    );
    await userEvent.type(screen.getByLabelText(/Password/), 'Pw-1');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(
      await screen.findByText('Client is already onboarded. Please check the existing pipeline.'),
    ).toBeVisible();
  });

  it('starts pipeline 55 with the four fields and clears the password', async () => {
    renderApp('/AppDeploy-Onboarding');
    await userEvent.type(await screen.findByRole('textbox', { name: /Client Code/ }), 'ADW');
    expect(await screen.findByText('Table found for client code ADW.')).toBeVisible();
    await userEvent.type(screen.getByRole('textbox', { name: /Domain/ }), 'adventure-works.de');
    await userEvent.type(
      screen.getByRole('textbox', { name: /Username/ }),
      'lena@adventure-works.de',
    );
    const password = screen.getByLabelText(/Password/);
    expect(password).toHaveAttribute('type', 'password');
    await userEvent.type(password, 'Pw-1');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Pipeline triggered successfully!')).toBeVisible();
    expect(started).toEqual([
      {
        url: '/api/onboarding/app-deploy/runs',
        body: {
          clientCode: 'ADW',
          domain: 'adventure-works.de',
          username: 'lena@adventure-works.de',
          password: 'Pw-1',
        },
      },
    ]);
    expect(password).toHaveValue('');
    expect(screen.getByText(/^Pipeline status: inProgress -$/)).toBeVisible();
  });

  it('after a successful run shows no error beside the success and keeps Submit disabled', async () => {
    mockServer.use(
      http.get('*/api/projects/:project/pipelines/:pipelineId/runs/:id', () =>
        HttpResponse.json({ id: 7, state: 'completed', result: 'succeeded' }),
      ),
    );
    renderApp('/AppDeploy-Onboarding');
    await userEvent.type(await screen.findByRole('textbox', { name: /Client Code/ }), 'ADW');
    expect(await screen.findByText('Table found for client code ADW.')).toBeVisible();
    await userEvent.type(screen.getByRole('textbox', { name: /Domain/ }), 'adventure-works.de');
    await userEvent.type(
      screen.getByRole('textbox', { name: /Username/ }),
      'lena@adventure-works.de',
    );
    await userEvent.type(screen.getByLabelText(/Password/), 'Pw-1');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    // the first status read comes after the spec's 3 s wait
    expect(
      await screen.findByText('Pipeline status: completed - succeeded', {}, { timeout: 15_000 }),
    ).toBeVisible();
    expect(screen.getByText('Table found for client code ADW.')).toBeVisible();
    expect(screen.queryByText('ADW has already been onboarded.')).toBeNull();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
  });
});
