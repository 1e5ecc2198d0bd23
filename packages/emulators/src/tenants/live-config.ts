// The live configuration of a simulated tenant: an onboarded client starts from its copy in the
// sample configuration repository (Clients/{code}/M365Config/Resources) PLUS drift since the last
// capture (two policies changed, one added, one removed), so a capture finds real changes. A tenant
// not onboarded yet starts from Microsoft-like defaults (no Conditional Access, no Intune).
// Every object lands where the domain's TENANT_WORKLOADS says the service keeps it.
import { TENANT_WORKLOADS, workloadFor, workloadKey } from '@aegis/domain';

import type { Json, JsonObject } from '../seed/policies/types';
import {
  RESOURCES_ROOT,
  SAMPLE_CLIENTS,
  baselinePolicies,
  generateSampleConfigRepo,
  renderJson,
} from '../seed/sample-config';
import { tenantContext } from '../seed/tenant-context';

import type { SimulatedTenant } from './registry';

interface DriftChange {
  kind: 'change';
  /** `Category/Kind/Name` of the file in the client's copy */
  key: string;
  note: string;
  apply(policy: JsonObject): void;
}
interface DriftAdd {
  kind: 'add';
  workload: string;
  note: string;
  build(tenant: SimulatedTenant, existing: (key: string) => JsonObject[]): JsonObject;
}
interface DriftRemove {
  kind: 'remove';
  key: string;
  note: string;
}
export type Drift = DriftChange | DriftAdd | DriftRemove;

const CA = 'ConditionalAccess/Policy';

/** A report-only copy of a Conditional Access policy under a new name (a client's own addition). */
function addedCaPolicy(displayName: string, change: (p: JsonObject) => void): DriftAdd {
  return {
    kind: 'add',
    workload: CA,
    note: `new Conditional Access policy ${displayName}`,
    build: (tenant, existing) => {
      const template = existing(CA)[0] ?? {};
      const policy = structuredClone(template);
      policy['id'] = tenantContext(tenant.clientCode, tenant.displayName, '').guid(
        `drift:${displayName}`,
      );
      policy['displayName'] = displayName;
      policy['state'] = 'enabledForReportingButNotEnforced';
      policy['createdDateTime'] = '2025-06-20T14:02:11.5532100Z';
      policy['modifiedDateTime'] = '2025-06-20T14:02:11.5532100Z';
      change(policy);
      return policy;
    },
  };
}

const set =
  (path: string, value: Json) =>
  (policy: JsonObject): void => {
    const parts = path.split('.');
    let current: JsonObject = policy;
    for (const part of parts.slice(0, -1)) {
      const next = current[part];
      if (!next || typeof next !== 'object' || Array.isArray(next)) current[part] = {};
      current = current[part] as JsonObject;
    }
    current[parts[parts.length - 1] as string] = value;
  };

/** What changed in each onboarded tenant since its last capture. */
export const TENANT_DRIFT: Readonly<Record<string, readonly Drift[]>> = {
  ABC: [
    {
      kind: 'change',
      key: `${CA}/CA004-Global-IdentityProtection-AnyApp-AnyPlatform-MFA-RiskySignIn`,
      note: 'risky sign-in MFA switched to report-only while testing a new VPN',
      apply: set('state', 'enabledForReportingButNotEnforced'),
    },
    {
      kind: 'change',
      key: 'Exchange/OrganizationConfig/Organization Config',
      note: 'mailbox auditing switched off',
      apply: set('AuditDisabled', true),
    },
    addedCaPolicy('CA900-ABC-Finance-AnyApp-AnyPlatform-BLOCK-Weekend', (p) =>
      set('grantControls.builtInControls', ['block'])(p),
    ),
    {
      kind: 'remove',
      key: 'Intune/DeviceConfiguration/Baseline - iOSiPadOS - Device Restrictions',
      note: 'iOS device restrictions deleted by the client',
    },
  ],
  CON: [
    {
      kind: 'change',
      key: 'Intune/DeviceCompliancePolicy/Baseline - Windows - System Security',
      note: 'BitLocker no longer required',
      apply: set('bitLockerEnabled', false),
    },
    {
      kind: 'change',
      key: 'SharePoint/SharePointSettings/SharePoint Settings',
      note: 'guests may reshare what they do not own',
      apply: set('isResharingByExternalUsersEnabled', true),
    },
    addedCaPolicy('CA901-CON-Contractors-Office365-AnyPlatform-MFA', (p) =>
      set('conditions.clientAppTypes', ['browser', 'mobileAppsAndDesktopClients'])(p),
    ),
    {
      kind: 'remove',
      key: 'Defender/SafeLinksRule/Baseline Safe Links Rule',
      note: 'Safe Links rule deleted',
    },
  ],
  FAB: [
    {
      kind: 'change',
      key: `${CA}/CA002-Global-IdentityProtection-AnyApp-AnyPlatform-Block-LegacyAuthentication`,
      note: 'legacy authentication block disabled',
      apply: set('state', 'disabled'),
    },
    {
      kind: 'change',
      key: 'Teams/MeetingPolicy/Global',
      note: 'anonymous users may start meetings',
      apply: set('AllowAnonymousUsersToStartMeeting', true),
    },
    addedCaPolicy('CA902-FAB-Sales-AnyApp-AnyPlatform-SigninFrequency', (p) =>
      set('grantControls.builtInControls', ['mfa'])(p),
    ),
    {
      kind: 'remove',
      key: 'Intune/DeviceCompliancePolicy/Baseline - macOS - System Security',
      note: 'macOS compliance deleted',
    },
  ],
  NWT: [
    {
      kind: 'change',
      key: 'ConditionalAccess/NamedLocation/ALLOWED COUNTRIES',
      note: 'Portugal added to allowed countries',
      apply: set('countriesAndRegions', ['ES', 'US', 'GB', 'IE', 'DE', 'NL', 'BE', 'FR', 'PT']),
    },
    {
      kind: 'change',
      key: 'AzureAD/AuthorizationPolicy/Authorization Policy',
      note: 'guests may invite other guests',
      apply: set('allowInvitesFrom', 'everyone'),
    },
    addedCaPolicy('CA903-NWT-Warehouse-AnyApp-Android-CompliantDevice', (p) =>
      set('grantControls.builtInControls', ['compliantDevice'])(p),
    ),
    {
      kind: 'remove',
      key: 'Exchange/TransportRule/External Sender Warning',
      note: 'external sender warning rule deleted',
    },
  ],
  WWI: [
    {
      kind: 'change',
      key: `${CA}/CA000-Global-IdentityProtection-AnyApp-AnyPlatform-MFA`,
      note: 'MFA for all users set to report-only',
      apply: set('state', 'enabledForReportingButNotEnforced'),
    },
    {
      kind: 'change',
      key: 'AzureAD/DeviceRegistrationPolicy/Device Registration Policy',
      note: 'device quota raised to 100',
      apply: set('userDeviceQuota', 100),
    },
    addedCaPolicy('CA904-WWI-Drivers-AnyApp-iOS-AppProtection', (p) =>
      set('grantControls.builtInControls', ['compliantApplication'])(p),
    ),
    {
      kind: 'remove',
      key: 'Teams/MessagingPolicy/Global',
      note: 'Teams messaging policy reset to Microsoft defaults (no export)',
    },
  ],
};

let repository: Map<string, string> | undefined;

/** The sample repository (generated once per process). */
function sampleRepository(): Map<string, string> {
  repository ??= generateSampleConfigRepo();
  return repository;
}

function withoutContext(object: JsonObject): JsonObject {
  const { ['@odata.context']: _ignored, ...rest } = object;
  return rest;
}

/** `Category/Kind/Name` → the object, for the client's copy in git. */
export function gitCopyOf(clientCode: string): Map<string, JsonObject> {
  const prefix = `Clients/${clientCode}/${RESOURCES_ROOT}/`;
  const files = new Map<string, JsonObject>();
  for (const [path, text] of sampleRepository()) {
    if (!path.startsWith(prefix) || !path.endsWith('.json')) continue;
    files.set(path.slice(prefix.length, -'.json'.length), JSON.parse(text) as JsonObject);
  }
  return files;
}

/** Microsoft-like defaults of a tenant nobody configured yet: no Conditional Access, no Intune. */
function defaultsOf(tenant: SimulatedTenant): Map<string, JsonObject> {
  const prefix = tenant.initialDomain.replace(/\.onmicrosoft\.com$/, '');
  const ctx = tenantContext(tenant.clientCode, tenant.displayName, prefix);
  const files = new Map<string, JsonObject>();
  for (const def of baselinePolicies) {
    if (['ConditionalAccess', 'Intune', 'AzurePolicy', 'AzureMaintenance'].includes(def.category))
      continue;
    if (def.kind === 'Group' || def.kind === 'TransportRule' || /Rule$/.test(def.kind)) continue;
    files.set(
      `${def.category}/${def.kind}/${def.name}`,
      JSON.parse(renderJson(def.build(ctx), ctx)) as JsonObject,
    );
  }
  return files;
}

/** One drift as the tenant saw it happen: the object before and after (the audit logs record it). */
export interface DriftApplied {
  drift: Drift;
  /** `Category/Kind` */
  workload: string;
  before?: JsonObject;
  after?: JsonObject;
}

export interface LiveConfiguration {
  /** `Category/Kind` → objects, for every workload of TENANT_WORKLOADS */
  objects: Map<string, JsonObject[]>;
  /** what drifted since the last capture (empty for tenants not onboarded) */
  drift: readonly Drift[];
  /** each drift with the object it changed, in the order of `drift` */
  applied: DriftApplied[];
}

const workloadKeyOfFile = (key: string): string => key.split('/').slice(0, 2).join('/');

/** The live configuration a tenant starts with. */
export function liveConfigurationOf(tenant: SimulatedTenant): LiveConfiguration {
  const onboarded = SAMPLE_CLIENTS.some((c) => c.code === tenant.clientCode) && tenant.onboarded;
  const files = onboarded ? gitCopyOf(tenant.clientCode) : defaultsOf(tenant);
  const drift = onboarded ? (TENANT_DRIFT[tenant.clientCode] ?? []) : [];
  const applied: DriftApplied[] = [];
  for (const d of drift) {
    const policy = d.kind === 'add' ? undefined : files.get(d.key);
    if (d.kind === 'change' && policy) {
      const before = structuredClone(policy);
      d.apply(policy);
      applied.push({ drift: d, workload: workloadKeyOfFile(d.key), before, after: policy });
    } else if (d.kind === 'remove' && policy) {
      files.delete(d.key);
      applied.push({ drift: d, workload: workloadKeyOfFile(d.key), before: policy });
    }
  }
  const objects = new Map<string, JsonObject[]>();
  for (const workload of TENANT_WORKLOADS) objects.set(workloadKey(workload), []);
  for (const [key, object] of files) {
    const [category = '', kind = ''] = key.split('/');
    const workload = workloadFor(category, kind);
    if (!workload) continue;
    objects.get(workloadKey(workload))?.push(withoutContext(object));
  }
  for (const d of drift) {
    if (d.kind !== 'add') continue;
    const added = d.build(tenant, (key) => objects.get(key) ?? []);
    objects.get(d.workload)?.push(added);
    applied.push({ drift: d, workload: d.workload, after: added });
  }
  applied.sort((a, b) => drift.indexOf(a.drift) - drift.indexOf(b.drift));
  return { objects, drift, applied };
}
