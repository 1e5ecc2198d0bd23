// Reads the client tenant and lays its configuration out as the repository holds it
// (Clients/{CODE}/M365Config/Resources/<Category>/<Kind>/<Policy>.json, the sample data's shapes),
// then computes the file changes against the client's copy at a commit. Capture, backup and
// onboarding share it.
import type { FileChange } from '@aegis/connectors/devops';
import type { ConfigRepository } from '@aegis/connectors/repository';
import {
  TENANT_WORKLOADS,
  buildCaptureManifest,
  captureChangeCounts,
  captureManifestPath,
  notCapturedReason,
  notCapturedWorkloads,
  policyFileNameFor,
  policyNameOf,
  propertyChanges,
  renderCaptureManifest,
  workloadKey,
  type CapturedFileChange,
  type CaptureManifest,
  type TenantWorkload,
} from '@aegis/domain';

import { TaskError } from '../log';
import { objectIdOf, type TenantGateway, type TenantObject } from '../tenant/gateway';

import { clientResourcesRoot } from './layout';

export interface SnapshotOptions {
  excludedProperties?: readonly string[];
  /** '/Category' or '/Category/Kind' folders, or property paths (a.b.c) dropped from every file */
  excludedPaths?: readonly string[];
}

export interface TenantSnapshot {
  /** the commit the changes apply to */
  base: string;
  changes: FileChange[];
  /** path → content of every captured file */
  files: Map<string, string>;
  /** path → content of the client's files at `base` (what the changes are against) */
  previous: Map<string, string>;
  /** changed policies to review, counted as the review counts them (captureChangeCounts) */
  changeCount: number;
  /** of those, the ones whose changes include a critical property (capture-review severity) */
  criticalCount: number;
  policyCount: number;
  /** per workload: read (with its count) or why not; its files are left as they are at `base` */
  manifest: CaptureManifest;
}

function workloadFolder(root: string, w: TenantWorkload): string {
  return `${root}/${w.category}/${w.kind}`;
}

function isExcludedFolder(w: TenantWorkload, excludedPaths: readonly string[]): boolean {
  const folder = `/${w.category}/${w.kind}`.toLowerCase();
  return excludedPaths.some((p) => {
    if (!p.startsWith('/')) return false;
    const prefix = p.replace(/\/+$/, '').toLowerCase();
    return folder === prefix || folder.startsWith(`${prefix}/`);
  });
}

/** Removes properties by name (any depth, case-insensitive) and by dotted path. */
export function stripProperties(
  value: unknown,
  names: ReadonlySet<string>,
  paths: readonly string[][],
  at: string[] = [],
): unknown {
  if (Array.isArray(value)) return value.map((item) => stripProperties(item, names, paths, at));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (names.has(key.toLowerCase())) continue;
    const path = [...at, key.toLowerCase()];
    if (paths.some((p) => p.length === path.length && p.every((part, i) => part === path[i])))
      continue;
    out[key] = stripProperties(child, names, paths, path);
  }
  return out;
}

function renderPolicy(object: unknown): string {
  return `${JSON.stringify(object, null, 2)}\n`;
}

function parse(text: string): TenantObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as TenantObject)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Graph items in a collection carry no @odata.context; the exports do (one per entity), always
 * naming the public endpoint, so files stay comparable whichever Graph host answered.
 */
function withEntityContext(w: TenantWorkload, object: TenantObject): TenantObject {
  if (w.transport !== 'graph') return object;
  const metadata = `https://graph.microsoft.com/${w.version ?? 'beta'}/$metadata#`;
  const current = object['@odata.context'];
  if (typeof current === 'string') {
    const at = current.indexOf('$metadata#');
    if (at < 0) return object;
    return { ...object, '@odata.context': `${metadata}${current.slice(at + 10)}` };
  }
  return { '@odata.context': `${metadata}${w.path.replace(/^\//, '')}/$entity`, ...object };
}

export async function snapshotTenant(
  tenant: TenantGateway,
  repository: ConfigRepository,
  client: string,
  base: string,
  now: Date,
  options: SnapshotOptions = {},
): Promise<TenantSnapshot> {
  const excludedPaths = options.excludedPaths ?? [];
  const workloads = TENANT_WORKLOADS.filter((w) => !isExcludedFolder(w, excludedPaths));
  const root = clientResourcesRoot(client);
  const [live, existing] = await Promise.all([
    tenant.readAll(workloads),
    repository.readFolderTexts(root, { commit: base }),
  ]);
  const readWorkloads = workloads.filter((w) => live.get(w)?.status === 'read');
  // Reads failed and nothing at all came back (an empty ARM list without a subscription is no
  // sign of a working read): a capture of nothing is no capture.
  const reasons = workloads.flatMap((w) => {
    const outcome = live.get(w);
    return outcome?.status === 'failed' || outcome?.status === 'notPermitted'
      ? [`${workloadKey(w)}: ${notCapturedReason(outcome)}`]
      : [];
  });
  const anything = readWorkloads.some((w) => {
    const outcome = live.get(w);
    return outcome?.status === 'read' && outcome.objects.length > 0;
  });
  if (reasons.length > 0 && !anything) {
    throw new TaskError(`No workload of the tenant could be read. ${reasons.join('; ')}`);
  }
  const names = new Set((options.excludedProperties ?? []).map((n) => n.toLowerCase()));
  const propertyPaths = excludedPaths
    .filter((p) => !p.startsWith('/') && p.trim())
    .map((p) => p.toLowerCase().split('.'));

  const files = new Map<string, string>();
  for (const workload of readWorkloads) {
    const outcome = live.get(workload);
    const objects = outcome?.status === 'read' ? outcome.objects : [];
    const folder = workloadFolder(root, workload);
    // Existing files of this kind, by object id and by name, so a renamed export keeps its file.
    const byId = new Map<string, string>();
    const byName = new Map<string, string>();
    for (const [path, text] of existing) {
      if (!path.startsWith(`${folder}/`) || path.slice(folder.length + 1).includes('/')) continue;
      const object = parse(text);
      if (!object) continue;
      const id = objectIdOf(workload, object);
      if (id) byId.set(id, path);
      const name = policyNameOf(workload, object);
      if (name && !byName.has(name)) byName.set(name, path);
    }
    for (const object of objects) {
      const id = objectIdOf(workload, object);
      const name = policyNameOf(workload, object) ?? id ?? 'Unnamed';
      let path = (id && byId.get(id)) ?? byName.get(name) ?? `${folder}/${policyFileNameFor(name)}`;
      for (let n = 2; files.has(path); n += 1) {
        path = `${folder}/${policyFileNameFor(`${name} (${n})`)}`;
      }
      const cleaned = stripProperties(withEntityContext(workload, object), names, propertyPaths);
      files.set(path, renderPolicy(cleaned));
    }
  }

  // Only the folders of workloads that were read: a workload that was not read keeps its files
  // as they are at base, so nothing not read looks deleted.
  const captured = new Set(readWorkloads.map((w) => workloadFolder(root, w)));
  const inCapturedFolder = (path: string) => captured.has(path.slice(0, path.lastIndexOf('/')));
  const changes: FileChange[] = [];
  const counted: CapturedFileChange[] = [];
  for (const [path, content] of files) {
    const previous = existing.get(path);
    if (previous === content) continue;
    if (previous === undefined) {
      changes.push({ changeType: 'add', path, content });
      counted.push({ changeType: 'add' });
      continue;
    }
    changes.push({ changeType: 'edit', path, content });
    // the review's default exclusions (timestamps…); the capture's own are stripped already
    const before = parse(previous);
    const changed = before && propertyChanges(before, parse(content) ?? {});
    counted.push({
      changeType: 'edit',
      ...(changed ? { changedProperties: changed.map((c) => c.property) } : {}),
    });
  }
  for (const path of existing.keys()) {
    if (inCapturedFolder(path) && !files.has(path)) {
      changes.push({ changeType: 'delete', path });
      counted.push({ changeType: 'delete' });
    }
  }
  const counts = captureChangeCounts(counted);
  const manifest = buildCaptureManifest(
    now,
    workloads.map((w) => {
      const outcome = live.get(w) ?? { status: 'read', objects: [] };
      return [
        workloadKey(w),
        outcome.status === 'read' ? { status: 'read', count: outcome.objects.length } : outcome,
      ] as const;
    }),
  );
  return {
    base,
    changes,
    files,
    previous: existing,
    changeCount: counts.changes,
    criticalCount: counts.critical,
    policyCount: files.size,
    manifest,
  };
}

/** The manifest as the file change that commits it beside the captured files (ADR 050). */
export async function manifestFileChange(
  repository: ConfigRepository,
  client: string,
  base: string,
  manifest: CaptureManifest,
): Promise<FileChange> {
  const path = captureManifestPath(client);
  return {
    changeType: (await repository.fileExists(path, { commit: base })) ? 'edit' : 'add',
    path: path.replace(/^\//, ''),
    content: renderCaptureManifest(manifest),
  };
}

/** One log line per workload that was not read, for the run's log. */
export function notCapturedLines(manifest: CaptureManifest): string[] {
  return notCapturedWorkloads(manifest).map((w) => `${w.workload}: ${w.text}`);
}
