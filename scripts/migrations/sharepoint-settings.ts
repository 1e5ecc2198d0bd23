// Moves a configuration repository's SharePoint exports to Graph's sharepointSettings (ADR 048 §6),
// in a checkout: for the company baseline and every client, what Graph covers goes into
// SharePoint/SharePointSettings/SharePoint Settings.json in Graph's names, what no public API covers
// stays in the SPOTenant and SPOAccessControl files, and the idle sign-out export goes. The mapping
// is the domain's (migrateSharePointExports); the change is then committed and reviewed as a pull
// request like any other.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import {
  migrateSharePointExports,
  RESOURCES_FOLDER,
  type SharePointExportKind,
  type SharePointExports,
} from '@aegis/domain';

const KINDS: readonly SharePointExportKind[] = [
  'SPOTenant',
  'SPOAccessControl',
  'SPOBrowserIdleSignOut',
];
const SETTINGS_FILE = 'SharePoint/SharePointSettings/SharePoint Settings.json';
const CONTEXT = 'https://graph.microsoft.com/v1.0/$metadata#admin/sharepoint/settings/$entity';

const render = (object: unknown): string => `${JSON.stringify(object, null, 2)}\n`;

/** The resources roots of a checkout: the company baseline's and each client's. */
async function resourcesRoots(checkout: string): Promise<string[]> {
  const roots = [join(checkout, RESOURCES_FOLDER)];
  const clients = join(checkout, 'Clients');
  if (existsSync(clients)) {
    for (const entry of await readdir(clients, { withFileTypes: true })) {
      if (entry.isDirectory()) roots.push(join(clients, entry.name, RESOURCES_FOLDER));
    }
  }
  return roots.filter((root) => existsSync(root));
}

/** The one export file of a tenant-wide kind, if the folder has one. */
async function exportFile(root: string, kind: SharePointExportKind): Promise<string | undefined> {
  const folder = join(root, 'SharePoint', kind);
  if (!existsSync(folder)) return undefined;
  const name = (await readdir(folder)).filter((f) => f.endsWith('.json')).sort()[0];
  return name ? join(folder, name) : undefined;
}

export interface SharePointMigration {
  /** files written (relative to the checkout) */
  written: string[];
  /** files removed */
  removed: string[];
}

/**
 * Migrates every resources root of a checkout; a root already migrated (its SPO exports hold
 * nothing Graph covers) is left as it is. An existing Graph file is kept: what the exports said
 * moves into it only where it is silent.
 */
export async function migrateSharePointCheckout(checkout: string): Promise<SharePointMigration> {
  const written: string[] = [];
  const removed: string[] = [];
  const relative = (path: string) => path.slice(checkout.length + 1);
  for (const root of await resourcesRoots(checkout)) {
    const files = new Map<SharePointExportKind, string>();
    const exports: SharePointExports = {};
    for (const kind of KINDS) {
      const file = await exportFile(root, kind);
      if (!file) continue;
      files.set(kind, file);
      exports[kind] = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    }
    const { settings, remaining } = migrateSharePointExports(exports);
    if (Object.keys(settings).length === 0) continue;
    const target = join(root, SETTINGS_FILE);
    const merged = existsSync(target)
      ? { ...settings, ...(JSON.parse(await readFile(target, 'utf8')) as Record<string, unknown>) }
      : { '@odata.context': CONTEXT, ...settings };
    await mkdir(join(target, '..'), { recursive: true });
    await writeFile(target, render(merged));
    written.push(relative(target));
    for (const [kind, file] of files) {
      const rest = remaining[kind];
      if (rest) {
        await writeFile(file, render(rest));
        written.push(relative(file));
      } else {
        await rm(file);
        removed.push(relative(file));
      }
    }
  }
  return { written, removed };
}
