import { ONBOARDING_ROLES } from '@aegis/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type * as ClientTenantAuth from '../../lib/client-tenant-auth/client-tenant-auth';
import {
  goToAdminConsent,
  signInGlobalAdmin,
} from '../../lib/client-tenant-auth/client-tenant-auth';
import { GlobalAdminSignInError } from '../../lib/client-tenant-auth/client-tenant-session';
import { clientsHandler, knownClient } from '../../testing/mocks/clients';
import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

import {
  AEGIS_APP_ID,
  clientTenantsAuthConfig,
  findEnabledButton,
  globalAdminSession,
  OTHER_TENANT_ID,
  signsInAs,
  TAILSPIN_FORM,
  TAILSPIN_TENANT_ID,
} from './testing/onboarding-fixtures';

const TENANT = TAILSPIN_TENANT_ID;
const OTHER = OTHER_TENANT_ID;
const GLOBAL_ADMIN = globalAdminSession(TENANT, 'lucy.harper@tailspintoys.com', 'Lucy Harper');
const FORM = TAILSPIN_FORM;

// Leaving the page and the popup are the browser's; what the flow does around them is tested here.
vi.mock('../../lib/client-tenant-auth/client-tenant-auth', async (importOriginal) => {
  const original = await importOriginal<typeof ClientTenantAuth>();
  return { ...original, goToAdminConsent: vi.fn(), signInGlobalAdmin: vi.fn() };
});

interface Seen {
  tenantIdLookups: string[];
  roleBodies: unknown[];
  runBodies: unknown[];
  pipelineListings: number;
}
let seen: Seen;
let discovered: string | null;
let roleOutcome: (name: string) => { ok: boolean; message: string };
let runAnswer: () => Response;

beforeEach(() => {
  seen = { tenantIdLookups: [], roleBodies: [], runBodies: [], pipelineListings: 0 };
  discovered = TENANT;
  roleOutcome = () => ({ ok: true, message: '' });
  runAnswer = () =>
    HttpResponse.json(
      {
        id: 41,
        pipelineId: 178,
        project: 'Aegis Tenant Management',
        state: 'notStarted',
        result: null,
      },
      { status: 201 },
    );
  vi.mocked(goToAdminConsent).mockReset();
  vi.mocked(signInGlobalAdmin).mockReset();
  vi.mocked(signInGlobalAdmin).mockImplementation(signsInAs(() => GLOBAL_ADMIN));
  mockServer.use(
    // ABC has a tenant pipeline (the one client list, ADR 054)
    clientsHandler([knownClient('ABC')]),
    clientTenantsAuthConfig(),
    http.get('*/api/onboarding/tenant-id', ({ request }) => {
      seen.tenantIdLookups.push(new URL(request.url).searchParams.get('domain') ?? '');
      return HttpResponse.json({
        tenantId: discovered,
        resolvedFrom: discovered ? 'tailspintoys.com' : null,
      });
    }),
    http.get('*/api/onboarding/tenant-pipelines', () => {
      seen.pipelineListings += 1;
      return HttpResponse.json({
        pipelines: [{ id: 243, name: 'NWT Tenant Configuration', folder: 'Tenants\\NWT' }],
      });
    }),
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
    http.post('*/api/onboarding/roles', async ({ request }) => {
      seen.roleBodies.push(await request.json());
      const statuses = ONBOARDING_ROLES.map((role) => ({
        role: role.name,
        ...roleOutcome(role.name),
      }));
      return HttpResponse.json({
        tenantId: TENANT,
        statuses,
        allRolesAssigned: ONBOARDING_ROLES.filter((r) => r.required).every(
          (r) => statuses.find((s) => s.role === r.name)?.ok,
        ),
      });
    }),
    http.post('*/api/onboarding/tenant/runs', async ({ request }) => {
      seen.runBodies.push(await request.json());
      return runAnswer();
    }),
    http.get('*/api/projects/:project/pipelines/178/runs/41', () =>
      HttpResponse.json({ id: 41, state: 'completed', result: 'succeeded' }),
    ),
  );
});

afterEach(() => {
  vi.useRealTimers();
});

function storeForm(form: Record<string, string> = FORM, resolvedTenantId?: string) {
  sessionStorage.setItem('aegis.onboarding.tenantForm', JSON.stringify(form));
  if (resolvedTenantId)
    sessionStorage.setItem('aegis.onboarding.resolvedTenantId', resolvedTenantId);
}

function consentUrl(call = 0): URL {
  const url = vi.mocked(goToAdminConsent).mock.calls[call]?.[0];
  if (!url) throw new Error(`no admin consent redirect #${call + 1}`);
  return new URL(url);
}

async function fillForm() {
  await userEvent.type(await screen.findByRole('textbox', { name: /Client Code/ }), 'TSP');
  expect(screen.getByText('Client Code is valid!')).toBeVisible();
  await userEvent.type(screen.getByRole('textbox', { name: /Domain/ }), 'tailspintoys.com');
  const subscription = screen.getByRole('radiogroup', { name: /company subscription/ });
  await userEvent.click(within(subscription).getByRole('radio', { name: 'No' }));
  await userEvent.type(
    screen.getByRole('textbox', { name: /Custom Subscription Name/ }),
    'Tailspin Toys - Pay-As-You-Go',
  );
  await userEvent.selectOptions(screen.getByRole('combobox', { name: /Region/ }), 'uksouth');
}

const spPresent = (tenant: string) =>
  encodeURIComponent(
    `AADSTS650051: The service principal cannot be created, updated, or restored because the service principal name ${AEGIS_APP_ID} is already present for tenant ${tenant}.`,
  );

describe('the tenant baseline screen (spec 2 §2)', () => {
  it('opens on On-Board Tenant (New) and lists the tenant pipelines again on every tab change', async () => {
    renderApp('/tenant-baseline-options');
    expect(await screen.findByRole('tab', { name: 'On-Board Tenant (New)' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Grant Admin Consent' })).toBeVisible();
    // ADR 021: the comparison variant that used to live here is one link away
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Configuration Comparison' })).toHaveAttribute(
      'href',
      '/fetch-json-files?baseline=options',
    );
    expect(seen.pipelineListings).toBe(0);
    await userEvent.click(screen.getByRole('tab', { name: 'Baseline Deployment' }));
    await waitFor(() => expect(seen.pipelineListings).toBe(1));
    await userEvent.click(screen.getByRole('tab', { name: 'Off-Board Tenant' }));
    await waitFor(() => expect(seen.pipelineListings).toBe(2));
    await userEvent.click(screen.getByRole('tab', { name: 'Baseline Deployment' }));
    await waitFor(() => expect(seen.pipelineListings).toBe(3));
  });
});

describe('the new-client form (spec 2 §3)', () => {
  it('offers the regions grouped by geography, the Recommended ones first', async () => {
    renderApp('/tenant-baseline-options');
    const region = await screen.findByRole('combobox', { name: /Region/ });
    const groups = [...region.querySelectorAll('optgroup')];
    expect(groups.map((g) => g.label)).toEqual([
      'US',
      'Canada',
      'South America',
      'Europe',
      'Middle East',
      'Africa',
      'Asia Pacific',
      'Mexico',
    ]);
    const europe = [...groups[3]!.querySelectorAll('option')].map((o) => o.textContent ?? '');
    const firstOther = europe.findIndex((text) => !text.endsWith(' · Recommended'));
    expect(firstOther).toBeGreaterThan(0);
    expect(europe.slice(firstOther).some((text) => text.endsWith(' · Recommended'))).toBe(false);
    expect(europe).toContain('UK South (uks) - London · Recommended');
  });
});

describe('the client code of the new-client form (spec 2 §5)', () => {
  it('says a code with a tenant pipeline has already been onboarded, and consent waits for another', async () => {
    renderApp('/tenant-baseline-options');
    const code = await screen.findByRole('textbox', { name: /Client Code/ });
    const consent = screen.getByRole('button', { name: 'Grant Admin Consent' });
    await userEvent.type(code, 'ABC');
    expect(await screen.findByText('ABC has already been onboarded.')).toBeVisible();
    expect(screen.queryByText('Client Code is valid!')).toBeNull();
    expect(consent).toBeDisabled();
    await userEvent.clear(code);
    await userEvent.type(code, 'NEW');
    expect(await screen.findByText('Client Code is valid!')).toBeVisible();
    expect(consent).toBeEnabled();
  });
});

describe('tenant onboarding: to admin consent (spec 2 §4)', () => {
  it('keeps the form in session storage and goes to the tenant-specific consent resolved from the domain', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: new Date('2026-11-24T08:00:00Z') });
    renderApp('/tenant-baseline-options');
    await fillForm();
    await userEvent.click(screen.getByRole('button', { name: 'Grant Admin Consent' }));

    await waitFor(() => expect(goToAdminConsent).toHaveBeenCalledTimes(1));
    expect(seen.tenantIdLookups).toEqual(['tailspintoys.com']);
    const url = consentUrl();
    expect(`${url.origin}${url.pathname}`).toBe(`http://idp.test/${TENANT}/adminconsent`);
    expect(url.searchParams.get('client_id')).toBe(AEGIS_APP_ID);
    expect(url.searchParams.get('redirect_uri')).toBe(
      `${window.location.origin}/tenant-baseline-options`,
    );
    const state = Number(url.searchParams.get('state'));
    expect(state).toBeGreaterThanOrEqual(Date.parse('2026-11-24T08:00:00Z'));
    expect(state).toBeLessThan(Date.parse('2026-11-24T08:01:00Z'));
    expect(JSON.parse(sessionStorage.getItem('aegis.onboarding.tenantForm') ?? '{}')).toEqual({
      clientCode: 'TSP',
      domain: 'tailspintoys.com',
      hasOptionsCSP: 'no',
      customSubscriptionName: 'Tailspin Toys - Pay-As-You-Go',
      enrollInPowerSupport: 'no',
      selectedRegion: 'uksouth',
    });
    expect(sessionStorage.getItem('aegis.onboarding.resolvedTenantId')).toBe(TENANT);
  });

  it('goes to the common consent when the domain resolves to no tenant', async () => {
    discovered = null;
    renderApp('/tenant-baseline-options');
    await fillForm();
    await userEvent.click(screen.getByRole('button', { name: 'Grant Admin Consent' }));
    await waitFor(() => expect(goToAdminConsent).toHaveBeenCalledTimes(1));
    expect(consentUrl().pathname).toBe('/common/adminconsent');
    expect(sessionStorage.getItem('aegis.onboarding.resolvedTenantId')).toBeNull();
    expect(sessionStorage.getItem('aegis.onboarding.tenantForm')).toContain('"TSP"');
  });
});

describe('tenant onboarding: the consent return (spec 2 §4, §8)', () => {
  it('suggests the tenant id from discovery when consent came back without one', async () => {
    storeForm();
    sessionStorage.setItem('aegis.onboarding.tenantId', OTHER);
    renderApp('/tenant-baseline-options?admin_consent=True&state=1');
    // discovery comes before the stored id
    expect(
      await screen.findByText(`Found ${TENANT} (discovery); leave empty to use it.`),
    ).toBeVisible();
    expect(seen.tenantIdLookups).toEqual(['tailspintoys.com']);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(`Admin consent granted for tenant ${TENANT}`)).toBeVisible();
  });

  it('suggests the id resolved before the redirect without asking discovery again', async () => {
    storeForm(FORM, OTHER);
    renderApp('/tenant-baseline-options?admin_consent=True&state=1');
    expect(
      await screen.findByText(`Found ${OTHER} (domain resolution); leave empty to use it.`),
    ).toBeVisible();
    expect(seen.tenantIdLookups).toEqual([]);
  });

  it('resumes at the Global Admin sign-in on a reload after consent, until the technician starts over', async () => {
    storeForm();
    sessionStorage.setItem('aegis.onboarding.tenantId', TENANT);
    renderApp('/tenant-baseline-options');
    expect(await screen.findByText(`Admin consent granted for tenant ${TENANT}`)).toBeVisible();
    await findEnabledButton('Login as Global Admin');
    await userEvent.click(screen.getByRole('button', { name: 'Start Over' }));
    expect(await screen.findByRole('textbox', { name: /Client Code/ })).toHaveValue('');
    expect(sessionStorage.getItem('aegis.onboarding.tenantId')).toBeNull();
    expect(sessionStorage.getItem('aegis.onboarding.tenantForm')).toBeNull();
  });

  it('offers a retry when the enterprise app could not be created, else says to contact support', async () => {
    storeForm(FORM, TENANT);
    renderApp(
      `/tenant-baseline-options?error=access_denied&error_description=${encodeURIComponent(
        'AADSTS650051: The service principal cannot be created, updated, or restored because of a directory quota.',
      )}&state=1`,
    );
    expect(
      await screen.findByText(
        'The enterprise application could not be created in the tenant. Retry admin consent?',
        undefined,
        { timeout: 4000 },
      ),
    ).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Please contact support if the issue persists.')).toBeVisible();
  });

  it('retries admin consent on the tenant resolved from the domain, offered after 2 s', async () => {
    const timeouts = vi.spyOn(window, 'setTimeout');
    storeForm(FORM, TENANT);
    renderApp(
      `/tenant-baseline-options?error=access_denied&error_description=${encodeURIComponent('AADSTS1003031: Misconfigured required resource access')}&state=1`,
    );
    expect(await screen.findByText(/^access_denied: AADSTS1003031/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Retry Admin Consent' })).toBeNull();
    // spec 2 §9: the retry waits 2 s (the clock is not faked: lazy routes and MSW need real time)
    expect(timeouts.mock.calls.some(([, delay]) => delay === 2000)).toBe(true);
    timeouts.mockRestore();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Retry Admin Consent' }, { timeout: 4000 }),
    );
    expect(consentUrl().pathname).toBe(`/${TENANT}/adminconsent`);
  });

  describe('the app already present in another tenant: the five choices', () => {
    async function choose(label: RegExp) {
      storeForm(FORM, TENANT);
      renderApp(
        `/tenant-baseline-options?error=access_denied&error_description=${spPresent(OTHER)}&state=1`,
      );
      const choices = await screen.findByRole('radiogroup', { name: 'Recovery choice' });
      await userEvent.click(within(choices).getByRole('radio', { name: label }));
      await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    }

    it('1 forces consent through the common endpoint', async () => {
      await choose(/^1\. Force consent/);
      expect(consentUrl().pathname).toBe('/common/adminconsent');
    });

    it('2 asks consent of the tenant resolved from the domain', async () => {
      await choose(/^2\. Tenant-specific consent/);
      expect(consentUrl().pathname).toBe(`/${TENANT}/adminconsent`);
    });

    it("3 signs the Global Administrator in first and takes the account's tenant", async () => {
      await choose(/^3\. Alternative flow/);
      expect(signInGlobalAdmin).toHaveBeenCalledWith(expect.anything(), 'organizations');
      const roles = await screen.findByRole('list', { name: 'Role assignment' });
      expect(await within(roles).findByText('✅ Reader role assigned successfully')).toBeVisible();
      expect(screen.getByText(new RegExp(`Role assignment in tenant ${TENANT}`))).toBeVisible();
    });

    it('5 cancels: back to the form, nothing kept for the redirect', async () => {
      await choose(/^5\. Cancel/);
      expect(await screen.findByRole('button', { name: 'Grant Admin Consent' })).toBeVisible();
      expect(sessionStorage.getItem('aegis.onboarding.tenantForm')).toBeNull();
      expect(sessionStorage.getItem('aegis.onboarding.resolvedTenantId')).toBeNull();
      expect(goToAdminConsent).not.toHaveBeenCalled();
    });
  });
});

describe('tenant onboarding: Global Administrator, roles and pipeline 178 (spec 2 §4, §7, §8)', () => {
  async function signInAfterConsent(form: Record<string, string> = FORM) {
    storeForm(form, TENANT);
    renderApp(`/tenant-baseline-options?admin_consent=True&tenant=${TENANT}&state=1`);
    await userEvent.click(await findEnabledButton('Login as Global Admin'));
  }

  it('says why the Global Administrator sign-in failed', async () => {
    vi.mocked(signInGlobalAdmin).mockRejectedValue(
      new GlobalAdminSignInError('user_cancelled', 'The popup was closed.'),
    );
    await signInAfterConsent();
    expect(
      await screen.findByText(
        'Failed to authenticate after admin consent. Error code: user_cancelled Details: The popup was closed. Please try again.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Login as Global Admin' })).toBeEnabled();
  });

  it("refuses a Global Administrator of another tenant than the consent's", async () => {
    vi.mocked(signInGlobalAdmin).mockResolvedValue({ ...GLOBAL_ADMIN, tenantId: OTHER });
    await signInAfterConsent();
    expect(
      await screen.findByText(
        `Failed to authenticate after admin consent. Error code: wrong_tenant Details: The account ${GLOBAL_ADMIN.upn} belongs to tenant ${OTHER}, not ${TENANT}. Please try again.`,
      ),
    ).toBeVisible();
    expect(seen.roleBodies).toEqual([]);
  });

  it('one failing required role: its cross and message, no Complete button, a retry', async () => {
    roleOutcome = (name) =>
      name === 'Exchange Administrator'
        ? { ok: false, message: 'Insufficient privileges to complete the operation.' }
        : { ok: true, message: '' };
    await signInAfterConsent();
    const roles = await screen.findByRole('list', { name: 'Role assignment' });
    expect(
      await within(roles).findByText(
        '❌ Error assigning Exchange Administrator role: Insufficient privileges to complete the operation.',
      ),
    ).toBeVisible();
    expect(within(roles).getAllByText(/^✅/)).toHaveLength(7);
    expect(screen.queryByRole('button', { name: 'Complete Onboarding Process' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Retry Role Assignment' })).toBeVisible();
    expect(seen.roleBodies).toEqual([{ subscriptionName: 'Options IT', clientCode: 'TSP' }]);
  });

  it("says 'Error assigning roles' when the assignment itself fails", async () => {
    mockServer.use(
      http.post('*/api/onboarding/roles', () =>
        HttpResponse.json({ message: 'Enterprise App not found' }, { status: 404 }),
      ),
    );
    await signInAfterConsent();
    expect(
      await screen.findByText('Error assigning roles: Enterprise App not found'),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Complete Onboarding Process' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Retry Role Assignment' })).toBeVisible();
  });

  it('the two optional roles failing still completes', async () => {
    roleOutcome = (name) =>
      ONBOARDING_ROLES.find((r) => r.name === name)?.required
        ? { ok: true, message: '' }
        : { ok: false, message: 'x' };
    await signInAfterConsent();
    expect(
      await screen.findByRole('button', { name: 'Complete Onboarding Process' }),
    ).toBeVisible();
  });

  it('assigns on the custom subscription, then triggers 178 with the form and follows the run', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    storeForm(
      {
        ...FORM,
        hasOptionsCSP: 'no',
        customSubscriptionName: 'Tailspin Toys - Pay-As-You-Go',
        enrollInPowerSupport: 'yes',
      },
      TENANT,
    );
    renderApp(`/tenant-baseline-options?admin_consent=True&tenant=${TENANT}&state=1`);
    await user.click(await findEnabledButton('Login as Global Admin'));
    await user.click(await screen.findByRole('button', { name: 'Complete Onboarding Process' }));
    expect(await screen.findByText('Pipeline triggered successfully!')).toBeVisible();
    expect(seen.roleBodies).toEqual([
      { subscriptionName: 'Tailspin Toys - Pay-As-You-Go', clientCode: 'TSP' },
    ]);
    expect(seen.runBodies).toEqual([
      {
        clientCode: 'TSP',
        domain: 'tailspintoys.com',
        subscriptionName: 'Tailspin Toys - Pay-As-You-Go',
        tenantId: TENANT,
        enrollInPowerSupport: true,
        region: 'uksouth',
      },
    ]);
    expect(screen.getByText('Pipeline status: notStarted -')).toBeVisible();
    await vi.advanceTimersByTimeAsync(3000);
    expect(await screen.findByText('Pipeline status: completed - succeeded')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Complete Onboarding Process' })).toBeNull();
    // the flow is over: nothing of it is kept for another redirect
    expect(sessionStorage.getItem('aegis.onboarding.tenantForm')).toBeNull();
  });

  it('says when the onboarding pipeline could not be triggered', async () => {
    runAnswer = () =>
      HttpResponse.json({ message: 'The pipeline 178 is disabled.' }, { status: 502 });
    await signInAfterConsent();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Complete Onboarding Process' }),
    );
    expect(
      await screen.findByText(
        'Failed to trigger the onboarding pipeline. Error: The pipeline 178 is disabled.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Complete Onboarding Process' })).toBeEnabled();
  });
});

describe('legacy tenant onboarding, pipeline 75 (spec 2 §3, §5, §7)', () => {
  it('lists the missing fields, checks the code and the custom subscription, then starts 75', async () => {
    const bodies: unknown[] = [];
    mockServer.use(
      http.post('*/api/onboarding/tenant-legacy/runs', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          {
            id: 9,
            pipelineId: 75,
            project: 'Aegis Tenant Management',
            state: 'notStarted',
            result: null,
          },
          { status: 201 },
        );
      }),
    );
    renderApp('/tenant-baseline-options');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Legacy onboarding (administrator credentials)' }),
    );
    const form = screen.getByRole('button', { name: 'Start Legacy Onboarding' }).closest('form')!;
    const legacy = within(form);
    await userEvent.type(legacy.getByRole('textbox', { name: /Domain/ }), 'litware.com');
    await userEvent.click(legacy.getByRole('button', { name: 'Start Legacy Onboarding' }));
    expect(
      await legacy.findByText('Please fill in: Client Code, Username, Password'),
    ).toBeVisible();

    await userEvent.type(legacy.getByRole('textbox', { name: /Client Code/ }), 'Lit');
    // what was missing no longer holds once the form changes
    expect(legacy.queryByText(/^Please fill in:/)).toBeNull();
    await userEvent.type(
      legacy.getByRole('textbox', { name: /Username/ }),
      'marcus.reed@litware.com',
    );
    await userEvent.type(legacy.getByLabelText(/Password/), 'Legacy-S3cret!');
    await userEvent.click(legacy.getByRole('button', { name: 'Start Legacy Onboarding' }));
    expect(
      await legacy.findByText('Client code must be exactly 3 uppercase letters.'),
    ).toBeVisible();

    await userEvent.clear(legacy.getByRole('textbox', { name: /Client Code/ }));
    await userEvent.type(legacy.getByRole('textbox', { name: /Client Code/ }), 'LIT');
    const subscription = legacy.getByRole('radiogroup', { name: /company subscription/ });
    await userEvent.click(within(subscription).getByRole('radio', { name: 'No' }));
    await userEvent.click(legacy.getByRole('button', { name: 'Start Legacy Onboarding' }));
    expect(await legacy.findByText('Please enter the custom subscription name.')).toBeVisible();
    expect(bodies).toEqual([]);

    await userEvent.type(
      legacy.getByRole('textbox', { name: /Custom Subscription Name/ }),
      'Litware Production',
    );
    await userEvent.click(legacy.getByRole('button', { name: 'Start Legacy Onboarding' }));
    expect(await legacy.findByText('Pipeline triggered successfully!')).toBeVisible();
    expect(bodies).toEqual([
      {
        clientCode: 'LIT',
        domain: 'litware.com',
        username: 'marcus.reed@litware.com',
        password: 'Legacy-S3cret!',
        subscriptionName: 'Litware Production',
      },
    ]);
    // the password is not kept on the screen once sent
    expect(legacy.getByLabelText(/Password/)).toHaveValue('');
  });
});
