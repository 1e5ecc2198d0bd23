// The repository migration of the SharePoint exports (ADR 048 §6) on a checkout in a temporary
// folder: the company baseline and a client, one already holding a Graph file.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { migrateSharePointCheckout } from './sharepoint-settings';

let checkout: string;

async function put(path: string, object: unknown): Promise<void> {
  await mkdir(join(checkout, path, '..'), { recursive: true });
  await writeFile(join(checkout, path), `${JSON.stringify(object, null, 2)}\n`);
}
const read = async (path: string): Promise<unknown> =>
  JSON.parse(await readFile(join(checkout, path), 'utf8')) as unknown;

const BASE = 'M365Config/Resources/SharePoint';
const CLIENT = 'Clients/ABC/M365Config/Resources/SharePoint';

afterEach(() => rm(checkout, { recursive: true, force: true }));

describe('migrating a checkout to Graph sharepointSettings', () => {
  it('writes the Graph file, keeps what no API covers, removes the idle sign-out export; twice is once', async () => {
    checkout = await mkdtemp(join(tmpdir(), 'aegis-spo-migration-'));
    await put(`${BASE}/SPOTenant/SharePoint Tenant Settings.json`, {
      SharingCapability: 'ExternalUserSharingOnly',
      DefaultSharingLinkType: 'Internal',
    });
    await put(`${BASE}/SPOBrowserIdleSignOut/Browser Idle Sign Out.json`, {
      Enabled: true,
      WarnAfter: '0.00:55:00',
      SignOutAfter: '0.01:00:00',
    });
    await put(`${CLIENT}/SPOAccessControl/Unmanaged Device Access.json`, { BlockMacSync: true });
    // a client already read through Graph: its file wins over what the export said
    await put(`${CLIENT}/SharePointSettings/SharePoint Settings.json`, {
      isMacSyncAppEnabled: true,
      isLoopEnabled: false,
    });

    const first = await migrateSharePointCheckout(checkout);
    expect(first.removed).toEqual([
      `${BASE}/SPOBrowserIdleSignOut/Browser Idle Sign Out.json`,
      `${CLIENT}/SPOAccessControl/Unmanaged Device Access.json`,
    ]);
    expect(await read(`${BASE}/SharePointSettings/SharePoint Settings.json`)).toEqual({
      '@odata.context':
        'https://graph.microsoft.com/v1.0/$metadata#admin/sharepoint/settings/$entity',
      sharingCapability: 'externalUserSharingOnly',
      idleSessionSignOut: {
        isEnabled: true,
        warnAfterInSeconds: 3300,
        signOutAfterInSeconds: 3600,
      },
    });
    expect(await read(`${BASE}/SPOTenant/SharePoint Tenant Settings.json`)).toEqual({
      DefaultSharingLinkType: 'Internal',
    });
    expect(await read(`${CLIENT}/SharePointSettings/SharePoint Settings.json`)).toEqual({
      isMacSyncAppEnabled: true,
      isLoopEnabled: false,
    });
    expect(
      existsSync(join(checkout, `${CLIENT}/SPOAccessControl/Unmanaged Device Access.json`)),
    ).toBe(false);

    expect(await migrateSharePointCheckout(checkout)).toEqual({ written: [], removed: [] });
  });
});
