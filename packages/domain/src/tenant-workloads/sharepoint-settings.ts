// SharePoint tenant settings moved from the SharePoint admin exports (Get-SPOTenant,
// Get-SPOBrowserIdleSignOut, the unmanaged-device access settings) to Microsoft Graph's
// sharepointSettings (`/admin/sharepoint/settings`, ADR 048 §6). The repository's earlier exports
// are migrated with this one mapping: what Graph covers goes into the Graph file in Graph's names,
// what no public API covers stays in the export's file (captured as 'no public API').

/** The kinds of the earlier SharePoint exports. */
export type SharePointExportKind = 'SPOTenant' | 'SPOAccessControl' | 'SPOBrowserIdleSignOut';

type Value = unknown;

interface CoveredProperty {
  kind: SharePointExportKind;
  /** the export's (PowerShell) property */
  exported: string;
  /** Graph's property of sharepointSettings */
  graph: string;
  toGraph(value: Value): Value;
}

const lowerFirst = (v: Value): Value =>
  typeof v === 'string' && v ? v.charAt(0).toLowerCase() + v.slice(1) : v;
const same = (v: Value): Value => v;
const negated = (v: Value): Value => (typeof v === 'boolean' ? !v : v);
/** a space-separated domain list (PowerShell) → Graph's string collection */
const domainList = (v: Value): Value =>
  Array.isArray(v) ? v : typeof v === 'string' && v.trim() ? v.trim().split(/\s+/) : [];

/** Exported properties Graph's sharepointSettings covers, and how each becomes Graph's. */
export const SHAREPOINT_COVERED_PROPERTIES: readonly CoveredProperty[] = [
  {
    kind: 'SPOTenant',
    exported: 'SharingCapability',
    graph: 'sharingCapability',
    toGraph: lowerFirst,
  },
  {
    kind: 'SPOTenant',
    exported: 'SharingDomainRestrictionMode',
    graph: 'sharingDomainRestrictionMode',
    toGraph: lowerFirst,
  },
  {
    kind: 'SPOTenant',
    exported: 'SharingAllowedDomainList',
    graph: 'sharingAllowedDomainList',
    toGraph: domainList,
  },
  {
    kind: 'SPOTenant',
    exported: 'SharingBlockedDomainList',
    graph: 'sharingBlockedDomainList',
    toGraph: domainList,
  },
  {
    kind: 'SPOTenant',
    exported: 'PreventExternalUsersFromResharing',
    graph: 'isResharingByExternalUsersEnabled',
    toGraph: negated,
  },
  {
    kind: 'SPOTenant',
    exported: 'LegacyAuthProtocolsEnabled',
    graph: 'isLegacyAuthProtocolsEnabled',
    toGraph: same,
  },
  {
    kind: 'SPOAccessControl',
    exported: 'BlockMacSync',
    graph: 'isMacSyncAppEnabled',
    toGraph: negated,
  },
  {
    kind: 'SPOAccessControl',
    exported: 'IsUnmanagedSyncClientForTenantRestricted',
    graph: 'isUnmanagedSyncAppForTenantRestricted',
    toGraph: same,
  },
];

/** `d.hh:mm:ss` (a PowerShell TimeSpan) → seconds; undefined when it is not one. */
export function timeSpanSeconds(span: Value): number | undefined {
  if (typeof span !== 'string') return undefined;
  const match = /^(?:(\d+)\.)?(\d+):(\d+):(\d+)$/.exec(span);
  if (!match) return undefined;
  const [, d = '0', h = '0', m = '0', s = '0'] = match;
  return ((Number(d) * 24 + Number(h)) * 60 + Number(m)) * 60 + Number(s);
}

/** The earlier exports of one resources folder (any may be absent). */
export type SharePointExports = Partial<Record<SharePointExportKind, Record<string, Value>>>;

export interface MigratedSharePointExports {
  /** Graph's sharepointSettings properties the exports held, in Graph's names */
  settings: Record<string, Value>;
  /** the exports without what moved to Graph; a kind left empty is absent (its file goes) */
  remaining: SharePointExports;
}

/**
 * Splits the earlier exports: what Graph covers, in Graph's names, and what stays because no public
 * API covers it. The idle sign-out export is covered whole (`idleSessionSignOut`).
 */
export function migrateSharePointExports(exports: SharePointExports): MigratedSharePointExports {
  const settings: Record<string, Value> = {};
  const moved = new Map<SharePointExportKind, Set<string>>();
  for (const p of SHAREPOINT_COVERED_PROPERTIES) {
    const source = exports[p.kind];
    if (!source || !(p.exported in source)) continue;
    settings[p.graph] = p.toGraph(source[p.exported]);
    moved.set(p.kind, (moved.get(p.kind) ?? new Set()).add(p.exported));
  }
  const idle = exports.SPOBrowserIdleSignOut;
  if (idle) {
    settings['idleSessionSignOut'] = {
      isEnabled: idle['Enabled'] === true,
      warnAfterInSeconds: timeSpanSeconds(idle['WarnAfter']) ?? 0,
      signOutAfterInSeconds: timeSpanSeconds(idle['SignOutAfter']) ?? 0,
    };
  }
  const remaining: SharePointExports = {};
  for (const kind of ['SPOTenant', 'SPOAccessControl'] as const) {
    const source = exports[kind];
    if (!source) continue;
    const rest = Object.fromEntries(
      Object.entries(source).filter(([key]) => !moved.get(kind)?.has(key)),
    );
    if (Object.keys(rest).length > 0) remaining[kind] = rest;
  }
  return { settings, remaining };
}
