// What a rollout's deploy would do in one tenant (issue 30 §3, ADR 074): the client's effective
// baseline against a fresh read of its tenant, policy by policy, as the deploy task decides it.
import { comparePolicy } from '../comparison/compare-trees';
import { toResourcePath } from '../comparison/paths';
import type { ConfigFile } from '../comparison/types';
import { hasPublicApi, workloadFor } from '../tenant-workloads';

import type { RolloutTenantPlan } from './rollout';

/**
 * The plan of one tenant: a baseline policy the read lacks is created, one that deviates is
 * updated, the rest is left. Only what the deploy writes counts: a `Category/Kind/Policy.json` of a
 * workload with a public API. The deploy never deletes, so `deletes` is 0.
 */
export function tenantDeployPlan(
  client: string,
  baseline: readonly ConfigFile[],
  tenant: readonly ConfigFile[],
): RolloutTenantPlan {
  const read = new Map(tenant.map((f) => [toResourcePath(f.path).toLowerCase(), f]));
  const creates: string[] = [];
  const updates: string[] = [];
  for (const file of baseline) {
    const path = toResourcePath(file.path);
    const [category = '', kind = '', name, ...rest] = path.split('/');
    const workload = workloadFor(category, kind);
    if (!name?.endsWith('.json') || rest.length > 0 || !workload || !hasPublicApi(workload)) {
      continue;
    }
    const live = read.get(path.toLowerCase());
    if (!live) creates.push(path);
    else if (comparePolicy(file, live)) updates.push(path);
  }
  return {
    client,
    creates: creates.length,
    updates: updates.length,
    deletes: 0,
    policies: [...creates, ...updates].sort((a, b) => a.localeCompare(b)),
  };
}
