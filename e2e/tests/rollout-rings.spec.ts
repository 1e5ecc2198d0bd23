// Issue 30 done-when bullet 2: a rollout of the baseline to sample clients in two rings runs the
// plan, deploys ring 1, halts when a tenant of ring 1 fails (a failure switched on in the tenant
// emulator), resumes after the fix, finishes ring 2, and a rollback returns each tenant's objects
// to their pre-rollout values, checked by the next capture against the plan's own capture.
import { expect, test } from '@playwright/test';

import { expectAccessible } from '../fixtures/a11y';
import { signIn } from '../fixtures/auth';
import { devopsGet, E2E_PORT, TENANTS_URL, tokenFor } from '../fixtures/emulators';
import { screenshotsFolder } from '../fixtures/paths';

const SHOTS = screenshotsFolder('rollout-rings');
const API = `http://localhost:${E2E_PORT}/api`;

async function apiCall<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${API}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${await tokenFor()}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.ok, `${method} ${path}`).toBe(true);
  return (await response.json()) as T;
}

async function switchFailure(code: string, on: boolean): Promise<void> {
  const response = await fetch(`${TENANTS_URL}/${code}/scenarios`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      failingWorkload: on ? { workload: 'ConditionalAccess', status: 503 } : null,
    }),
  });
  expect(response.ok).toBe(true);
}

/** What the service stamps on every write: not configuration, so not compared. */
const WRITE_STAMPS = new Set(['modifiedDateTime', 'lastModifiedDateTime', 'WhenChanged']);

/** The tenant's policies on a capture branch, without write stamps (absent ones as null). */
async function capturedFiles(code: string, branch: string, policies: readonly string[]) {
  const items = await devopsGet<{ value: { path: string; isFolder?: boolean }[] }>(
    `/items?scopePath=${encodeURIComponent(`/Clients/${code}/M365Config/Resources`)}&recursionLevel=Full&versionDescriptor.version=${encodeURIComponent(branch)}&api-version=7.1`,
  );
  const present = new Set(items.value.map((i) => i.path));
  const files: Record<string, unknown> = {};
  for (const policy of policies) {
    const path = `/Clients/${code}/M365Config/Resources/${policy}`;
    files[policy] = present.has(path)
      ? (JSON.parse(
          (
            await devopsGet<{ content: string }>(
              `/items?path=${encodeURIComponent(path)}&includeContent=true&versionDescriptor.version=${encodeURIComponent(branch)}&api-version=7.1`,
            )
          ).content.replace(/^\uFEFF/, ''),
          (key, value: unknown) => (WRITE_STAMPS.has(key) ? undefined : value),
        ) as unknown)
      : null;
  }
  return files;
}

test('a rollout in two rings halts on a failing tenant, resumes, and rolls back', async ({
  page,
}) => {
  test.setTimeout(480_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, '/rollouts/new');
  for (const code of ['NWT', 'FAB']) {
    await page.getByRole('checkbox', { name: new RegExp(`^${code}`) }).check();
  }
  const planStarted = page.waitForResponse(
    (r) => r.url().endsWith('/api/rollouts/plans') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Plan' }).click();
  const { captures } = (await (await planStarted).json()) as {
    captures: { client: string; runId: number }[];
  };
  const plan = page.getByRole('table', { name: 'Plan per tenant' });
  for (const code of ['NWT', 'FAB']) {
    await expect(plan.getByRole('row', { name: new RegExp(code) })).toContainText('Planned', {
      timeout: 120_000,
    });
  }
  await page.getByRole('combobox', { name: 'Ring of FAB' }).selectOption('Ring 2');
  await page.getByRole('button', { name: 'Create rollout' }).click();
  await expect(page.getByRole('button', { name: 'Start rollout' })).toBeVisible();
  const id = /\/rollouts\/([0-9a-f-]{36})$/.exec(page.url())?.[1] ?? '';
  expect(id).not.toBe('');

  // ring 1 fails in NWT (NWT and FAB: tenants whose backups no later journey counts on)
  await switchFailure('NWT', true);
  await page.getByRole('button', { name: 'Start rollout' }).click();
  const halt = page.getByText(/Ring 1 failed in NWT\./);
  await expect(halt).toBeVisible({ timeout: 120_000 });
  const ring1 = page.getByRole('table', { name: 'Tenants of Ring 1' });
  await expect(ring1.getByRole('row', { name: /NWT/ })).toContainText('Failed');
  await expect(
    page.getByRole('table', { name: 'Tenants of Ring 2' }).getByRole('row', { name: /FAB/ }),
  ).toContainText('Waiting');
  await page.screenshot({ path: `${SHOTS}/01-halted-1400x900.png`, fullPage: true });
  await expectAccessible(page, 'rollout-rings 01-halted');
  await ring1.getByRole('row', { name: /NWT/ }).getByRole('button').click();
  const log = page.getByRole('dialog');
  await expect(log).toContainText(/Error: ConditionalAccess\/\w+ could not be read/, {
    timeout: 30_000,
  });
  await page.keyboard.press('Escape');

  // the fix, then resume: NWT again, then ring 2
  await switchFailure('NWT', false);
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(halt).toBeHidden();
  await expect(
    page.getByRole('table', { name: 'Tenants of Ring 2' }).getByRole('row', { name: /FAB/ }),
  ).toContainText('Succeeded', { timeout: 180_000 });
  await expect(page.getByRole('button', { name: 'Roll back' })).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: `${SHOTS}/02-succeeded-1400x900.png`, fullPage: true });

  // roll back, with confirmation
  await page.getByRole('button', { name: 'Roll back' }).click();
  await page
    .getByRole('alertdialog', { name: 'Roll back this rollout?' })
    .getByRole('button', { name: 'Roll back' })
    .click();
  await expect(page.getByText('Rolled back', { exact: true })).toBeVisible({ timeout: 180_000 });
  await page.screenshot({ path: `${SHOTS}/03-rolled-back-1400x900.png`, fullPage: true });
  await expectAccessible(page, 'rollout-rings 03-rolled-back');

  // the next capture of NWT holds the plan's policies as the plan's own capture read them
  const rollout = await apiCall<{ plan: { client: string; policies?: string[] }[] }>(
    'GET',
    `/rollouts/${id}`,
  );
  const policies = rollout.plan.find((p) => p.client === 'NWT')?.policies ?? [];
  expect(policies.length).toBeGreaterThan(0);
  const next = await apiCall<{ runId: number; branch: string }>(
    'POST',
    '/capture/clients/NWT/runs',
    {},
  );
  await expect
    .poll(
      async () =>
        (await apiCall<{ state: string }>('GET', `/capture/clients/NWT/runs/${next.runId}`)).state,
      { timeout: 120_000 },
    )
    .toBe('completed');
  const planRun = captures.find((c) => c.client === 'NWT')!.runId;
  expect(await capturedFiles('NWT', next.branch, policies)).toEqual(
    await capturedFiles('NWT', `client-NWT-capture-${planRun}`, policies),
  );
});
