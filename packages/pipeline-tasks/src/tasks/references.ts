// Tenant-specific values in baseline policies: groups and named locations are referenced by the
// baseline tenant's object ids, users by theirs. A deploy maps each to the target tenant's object
// with the same display name and refuses to write a policy that would point at another tenant's ids.
import { workloadFor, type TenantWorkload } from '@aegis/domain';

import type { TenantObject } from '../tenant/gateway';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const USER_KEYS = new Set(['includeUsers', 'excludeUsers']);

export interface Referenceable {
  /** 'group' or 'named location', as the messages say */
  label: string;
  workload: TenantWorkload;
}

export const REFERENCEABLE: readonly Referenceable[] = [
  { label: 'group', workload: workloadFor('AzureAD', 'Group')! },
  { label: 'named location', workload: workloadFor('ConditionalAccess', 'NamedLocation')! },
];

export interface ReferenceMaps {
  /** baseline object id → what it is and its display name */
  baseline: Map<string, { label: string; displayName: string }>;
  /** `${label}:${displayName}` → the target tenant's object id */
  target: Map<string, string>;
}

export function referenceKey(label: string, displayName: string): string {
  return `${label}:${displayName.toLowerCase()}`;
}

export interface MappedPolicy {
  body: TenantObject;
  /** what the target tenant lacks, e.g. "group 'SG-BreakGlass-Exclude'" */
  missing: string[];
}

/** Replaces baseline ids by the target's; lists what cannot be mapped. */
export function mapReferences(body: TenantObject, maps: ReferenceMaps): MappedPolicy {
  const missing = new Set<string>();
  const visit = (value: unknown, key: string | undefined): unknown => {
    if (Array.isArray(value)) return value.map((item) => visit(item, key));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v, k)]));
    }
    if (typeof value !== 'string' || !GUID.test(value)) return value;
    const known = maps.baseline.get(value.toLowerCase());
    if (known) {
      const target = maps.target.get(referenceKey(known.label, known.displayName));
      if (target) return target;
      missing.add(`${known.label} '${known.displayName}'`);
      return value;
    }
    if (key && USER_KEYS.has(key)) missing.add(`user ${value}`);
    return value;
  };
  return { body: visit(body, undefined) as TenantObject, missing: [...missing] };
}
