// Graph's SharePoint tenant settings (`/admin/sharepoint/settings`, sharepointSettings): a view of
// the same objects the SharePoint admin commands read and write (SPOTenant, browser idle sign-out,
// unmanaged device access), under Graph's property names, so both paths see one state.
import type { FastifyInstance } from 'fastify';

import type { Json, JsonObject } from '../seed/policies/types';

import { entity, stateOf } from './graph-common';
import type { TenantState } from './tenant-state';
import { EmulatorError } from './wire';
import type { TenantWorld } from './world';

type Source = 'SPOTenant' | 'SPOBrowserIdleSignOut' | 'SPOAccessControl';

interface Mapping {
  source: Source;
  /** the PowerShell property */
  property: string;
  toGraph(value: Json | undefined): Json;
  fromGraph(value: Json): Json;
}

const lowerFirst = (value: Json | undefined): Json =>
  typeof value === 'string' ? value.charAt(0).toLowerCase() + value.slice(1) : (value ?? null);
const upperFirst = (value: Json): Json =>
  typeof value === 'string' ? value.charAt(0).toUpperCase() + value.slice(1) : value;
const same = (value: Json | undefined): Json => value ?? null;
const not = (value: Json | undefined): Json => (typeof value === 'boolean' ? !value : null);
const list = (value: Json | undefined): Json =>
  Array.isArray(value)
    ? value
    : typeof value === 'string' && value.trim()
      ? value.trim().split(/\s+/)
      : [];
const joined = (value: Json): Json => (Array.isArray(value) ? value.join(' ') : value);

const MAPPINGS: Readonly<Record<string, Mapping>> = {
  sharingCapability: {
    source: 'SPOTenant',
    property: 'SharingCapability',
    toGraph: lowerFirst,
    fromGraph: upperFirst,
  },
  sharingDomainRestrictionMode: {
    source: 'SPOTenant',
    property: 'SharingDomainRestrictionMode',
    toGraph: lowerFirst,
    fromGraph: upperFirst,
  },
  sharingAllowedDomainList: {
    source: 'SPOTenant',
    property: 'SharingAllowedDomainList',
    toGraph: list,
    fromGraph: joined,
  },
  sharingBlockedDomainList: {
    source: 'SPOTenant',
    property: 'SharingBlockedDomainList',
    toGraph: list,
    fromGraph: joined,
  },
  isResharingByExternalUsersEnabled: {
    source: 'SPOTenant',
    property: 'PreventExternalUsersFromResharing',
    toGraph: not,
    fromGraph: (v) => (typeof v === 'boolean' ? !v : v),
  },
  isLegacyAuthProtocolsEnabled: {
    source: 'SPOTenant',
    property: 'LegacyAuthProtocolsEnabled',
    toGraph: same,
    fromGraph: (v) => v,
  },
  isUnmanagedSyncAppForTenantRestricted: {
    source: 'SPOAccessControl',
    property: 'IsUnmanagedSyncClientForTenantRestricted',
    toGraph: same,
    fromGraph: (v) => v,
  },
  isMacSyncAppEnabled: {
    source: 'SPOAccessControl',
    property: 'BlockMacSync',
    toGraph: not,
    fromGraph: (v) => (typeof v === 'boolean' ? !v : v),
  },
};

/** `d.hh:mm:ss` (PowerShell TimeSpan) ↔ seconds. */
function seconds(span: Json | undefined): Json {
  if (typeof span !== 'string') return null;
  const match = /^(?:(\d+)\.)?(\d+):(\d+):(\d+)$/.exec(span);
  if (!match) return null;
  const [, d = '0', h = '0', m = '0', s = '0'] = match;
  return ((Number(d) * 24 + Number(h)) * 60 + Number(m)) * 60 + Number(s);
}
function span(total: number): string {
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d}.${two(h)}:${two(m)}:${two(s)}`;
}

function source(state: TenantState, kind: Source): Map<string, JsonObject> {
  return state.workloadObjects({ category: 'SharePoint', kind });
}

export function sharePointSettings(state: TenantState): JsonObject {
  const objects: Record<Source, JsonObject> = {
    SPOTenant: source(state, 'SPOTenant').get('singleton') ?? {},
    SPOBrowserIdleSignOut: source(state, 'SPOBrowserIdleSignOut').get('singleton') ?? {},
    SPOAccessControl: source(state, 'SPOAccessControl').get('singleton') ?? {},
  };
  const settings: JsonObject = {};
  for (const [name, mapping] of Object.entries(MAPPINGS)) {
    settings[name] = mapping.toGraph(objects[mapping.source][mapping.property]);
  }
  const idle = objects.SPOBrowserIdleSignOut;
  settings['idleSessionSignOut'] = {
    isEnabled: typeof idle['Enabled'] === 'boolean' ? idle['Enabled'] : false,
    warnAfterInSeconds: seconds(idle['WarnAfter']),
    signOutAfterInSeconds: seconds(idle['SignOutAfter']),
  };
  return settings;
}

export function registerSharePointSettingsRoutes(scope: FastifyInstance, world: TenantWorld): void {
  scope.get('/admin/sharepoint/settings', async (request) =>
    entity(
      request,
      sharePointSettings(stateOf(world, request)),
      'admin/sharepoint/settings/$entity',
    ),
  );
  scope.patch('/admin/sharepoint/settings', async (request) => {
    const state = stateOf(world, request);
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new EmulatorError(400, 'BadRequest', 'Empty Payload. JSON content expected.');
    }
    const changes: Partial<Record<Source, JsonObject>> = {};
    for (const [name, value] of Object.entries(body as JsonObject)) {
      if (name.startsWith('@odata')) continue;
      if (
        name === 'idleSessionSignOut' &&
        value &&
        typeof value === 'object' &&
        !Array.isArray(value)
      ) {
        const idle: JsonObject = {};
        if (typeof value['isEnabled'] === 'boolean') idle['Enabled'] = value['isEnabled'];
        if (typeof value['warnAfterInSeconds'] === 'number')
          idle['WarnAfter'] = span(value['warnAfterInSeconds']);
        if (typeof value['signOutAfterInSeconds'] === 'number')
          idle['SignOutAfter'] = span(value['signOutAfterInSeconds']);
        changes.SPOBrowserIdleSignOut = { ...changes.SPOBrowserIdleSignOut, ...idle };
        continue;
      }
      const mapping = MAPPINGS[name];
      if (!mapping) {
        throw new EmulatorError(
          400,
          'BadRequest',
          `Property '${name}' is not supported by the tenant emulator's sharepointSettings.`,
        );
      }
      changes[mapping.source] = {
        ...changes[mapping.source],
        [mapping.property]: mapping.fromGraph(value ?? null),
      };
    }
    for (const [kind, change] of Object.entries(changes) as [Source, JsonObject][]) {
      const items = source(state, kind);
      items.set('singleton', { ...(items.get('singleton') ?? {}), ...change });
    }
    return entity(request, sharePointSettings(state), 'admin/sharepoint/settings/$entity');
  });
}
