// What a rollout's deploy would do in one tenant (issue 30 §3, ADR 074): the client's effective
// baseline against a fresh read of its tenant, policy by policy, as the deploy task decides it.
import { notCapturedText, type CaptureManifest } from '../capture/manifest';
import { comparePolicy } from '../comparison/compare-trees';
import { toResourcePath } from '../comparison/paths';
import type { ConfigFile } from '../comparison/types';
import { hasPublicApi, workloadFor, workloadKey } from '../tenant-workloads';

import type { RolloutTenantPlan, UnreadWorkload } from './rollout';

/**
 * The plan of one tenant: a baseline policy the read lacks is created, one that deviates is
 * updated, the rest is left. Only what the deploy writes counts: a `Category/Kind/Policy.json` of a
 * workload with a public API. The deploy never deletes, so `deletes` is 0.
 *
 * The read's manifest says which workloads it could not see (ADR 087). Their baseline policies are
 * still counted (the read lacks them, so as creates: the deploy writes them all the same), and the
 * plan lists those workloads as `unread`: every one that failed or was refused, and one the tenant
 * is not licensed for when the baseline has policies in it. A capture without a manifest (older
 * than manifests) read everything, as elsewhere.
 */
export function tenantDeployPlan(
  client: string,
  baseline: readonly ConfigFile[],
  tenant: readonly ConfigFile[],
  manifest?: CaptureManifest,
): RolloutTenantPlan {
  const read = new Map(tenant.map((f) => [toResourcePath(f.path).toLowerCase(), f]));
  const creates: string[] = [];
  const updates: string[] = [];
  const baselinePolicies = new Map<string, number>();
  for (const file of baseline) {
    const path = toResourcePath(file.path);
    const [category = '', kind = '', name, ...rest] = path.split('/');
    const workload = workloadFor(category, kind);
    if (!name?.endsWith('.json') || rest.length > 0 || !workload || !hasPublicApi(workload)) {
      continue;
    }
    const key = workloadKey(workload).toLowerCase();
    baselinePolicies.set(key, (baselinePolicies.get(key) ?? 0) + 1);
    const live = read.get(path.toLowerCase());
    if (!live) creates.push(path);
    else if (comparePolicy(file, live)) updates.push(path);
  }
  const unread = unreadWorkloads(manifest, baselinePolicies);
  return {
    client,
    creates: creates.length,
    updates: updates.length,
    deletes: 0,
    policies: [...creates, ...updates].sort((a, b) => a.localeCompare(b)),
    ...(unread.length > 0 ? { unread } : {}),
  };
}

/** The workloads of the manifest the plan flags, with the baseline policies counted in each. */
function unreadWorkloads(
  manifest: CaptureManifest | undefined,
  baselinePolicies: ReadonlyMap<string, number>,
): UnreadWorkload[] {
  return (manifest?.workloads ?? []).flatMap((entry): UnreadWorkload[] => {
    if (entry.status === 'read' || entry.status === 'noPublicApi') return [];
    const policies = baselinePolicies.get(entry.workload.toLowerCase()) ?? 0;
    // not licensed: the tenant has nothing there, which matters only if the baseline deploys there
    if (entry.status === 'notLicensed' && policies === 0) return [];
    // a refusal's reason names the permission; the service's own words follow it
    const serviceWords =
      entry.status === 'notPermitted' && entry.message ? ` (${entry.message})` : '';
    return [
      {
        workload: entry.workload,
        status: entry.status,
        text: `${notCapturedText(entry)}${serviceWords}`,
        baselinePolicies: policies,
      },
    ];
  });
}
