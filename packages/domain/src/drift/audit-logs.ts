// Who changed a drifted object, and when (issue 28 §2, ADR 064): the tenant's own audit logs, read
// since a time and normalised to one entry shape, say which workloads changed (so a quick check
// re-reads just those, §3) and, for each drifted object, the actor, time and operation of its
// latest change, or why that cannot be known.
import {
  TENANT_WORKLOADS,
  hasPublicApi,
  workloadFor,
  workloadKey,
  type TenantWorkload,
} from '../tenant-workloads/workloads';

/**
 * The audit logs Aegis reads: Entra directory audits and Intune audit events through Graph; the
 * Exchange admin audit log through the Exchange admin API, as Exchange Online now keeps it: the
 * unified audit log's ExchangeAdmin records (Search-UnifiedAuditLog; Microsoft's reference marks
 * Search-AdminAuditLog deprecated in the cloud, ADR 064).
 */
export type TenantAuditLog = 'entraDirectoryAudits' | 'intuneAuditEvents' | 'exchangeAdminAuditLog';

export const TENANT_AUDIT_LOGS: readonly TenantAuditLog[] = [
  'entraDirectoryAudits',
  'intuneAuditEvents',
  'exchangeAdminAuditLog',
];

/** How each log is named to a technician. */
export const TENANT_AUDIT_LOG_NAMES: Readonly<Record<TenantAuditLog, string>> = {
  entraDirectoryAudits: 'Entra audit log',
  intuneAuditEvents: 'Intune audit log',
  exchangeAdminAuditLog: 'Exchange admin audit log',
};

/**
 * How long each log keeps an entry, in days, from Microsoft's documentation: Entra keeps audit
 * logs 30 days with Entra ID P1/P2 and 7 days on the free edition; Intune keeps audit events one
 * year; the unified audit log keeps records 180 days with Audit (Standard).
 */
export const TENANT_AUDIT_RETENTION_DAYS = {
  entraDirectoryAudits: { premium: 30, free: 7 },
  intuneAuditEvents: 365,
  exchangeAdminAuditLog: 180,
} as const;

/** The application permission each log is read with (Exchange: through its admin API's role). */
export const TENANT_AUDIT_LOG_PERMISSIONS: Readonly<Record<TenantAuditLog, string>> = {
  entraDirectoryAudits: 'AuditLog.Read.All',
  intuneAuditEvents: 'DeviceManagementApps.Read.All',
  exchangeAdminAuditLog: 'Exchange.ManageAsApp and the Exchange Administrator role',
};

export interface TenantAuditTarget {
  id?: string;
  name?: string;
}

export interface TenantAuditPropertyChange {
  name: string;
  oldValue?: string;
  newValue?: string;
}

/** One audit entry, the same shape whichever log it came from. */
export interface TenantAuditEntry {
  log: TenantAuditLog;
  /** the log's own id of the entry */
  id: string;
  /** ISO 8601, UTC */
  time: string;
  /** who made the change: a user's principal name, or an app's display name */
  actor: string;
  /** the log's own words: activityDisplayName, activityType or the cmdlet name */
  operation: string;
  /** `Category/Kind` keys of the workloads the change touched; see auditEntryWorkloads */
  workloads: readonly string[];
  targets: readonly TenantAuditTarget[];
  modifiedProperties: readonly TenantAuditPropertyChange[];
}

const keysOf = (predicate: (w: TenantWorkload) => boolean): string[] =>
  TENANT_WORKLOADS.filter(predicate).map(workloadKey);

/** The workloads whose changes a log records. */
export const AUDITED_WORKLOADS: Readonly<Record<TenantAuditLog, readonly string[]>> = {
  entraDirectoryAudits: keysOf(
    (w) => w.category === 'AzureAD' || w.category === 'ConditionalAccess',
  ),
  intuneAuditEvents: keysOf((w) => w.category === 'Intune'),
  exchangeAdminAuditLog: keysOf((w) => w.transport === 'adminCommand' && w.service === 'exchange'),
};

/** The log that records a workload's changes; undefined when none of the logs Aegis reads does. */
export function auditLogOf(workload: string): TenantAuditLog | undefined {
  return TENANT_AUDIT_LOGS.find((log) => AUDITED_WORKLOADS[log].includes(workload));
}

// Entra's activity names (activityDisplayName) for the objects Aegis captures; a change to other
// directory objects (users, roles, app registrations) is not configuration Aegis keeps.
const ENTRA_ACTIVITIES: readonly [RegExp, readonly string[]][] = [
  [/conditional access policy/i, ['ConditionalAccess/Policy']],
  [/named location/i, ['ConditionalAccess/NamedLocation']],
  [/authorization policy/i, ['AzureAD/AuthorizationPolicy']],
  [
    /authentication methods? policy/i,
    ['AzureAD/AuthenticationMethodsPolicy', 'AzureAD/AuthenticationMethodConfiguration'],
  ],
  [/device registration policy/i, ['AzureAD/DeviceRegistrationPolicy']],
  [/consent request policy/i, ['AzureAD/AdminConsentRequestPolicy']],
  [/app(lication)? management policy/i, ['AzureAD/AppManagementPolicy']],
  [/(directory|group) setting/i, ['AzureAD/DirectorySetting']],
  [/group/i, ['AzureAD/Group']],
];
const ENTRA_NOT_CONFIGURATION = new Set([
  'UserManagement',
  'RoleManagement',
  'ApplicationManagement',
  'Device',
  'Authentication',
  'UserPassword',
]);

// Intune names the changed object by its Graph entity type (activityType 'Patch DeviceConfiguration',
// resources[].type); derived types (windows10GeneralConfiguration) are not listed and fall back to
// every Intune workload.
const INTUNE_ENTITY_TYPES: Readonly<Record<string, string>> = {
  devicecompliancepolicy: 'Intune/DeviceCompliancePolicy',
  deviceconfiguration: 'Intune/DeviceConfiguration',
  devicemanagementconfigurationpolicy: 'Intune/ConfigurationPolicy',
  deviceenrollmentconfiguration: 'Intune/DeviceEnrollmentConfiguration',
  windowsautopilotdeploymentprofile: 'Intune/WindowsAutopilotDeploymentProfile',
  managedapppolicy: 'Intune/AppProtectionPolicy',
  targetedmanagedappprotection: 'Intune/AppProtectionPolicy',
  mobileapp: 'Intune/MobileApp',
  devicehealthscript: 'Intune/DeviceHealthScript',
  devicemanagementscript: 'Intune/DeviceManagementScript',
};
const INTUNE_NOT_CONFIGURATION = new Set(['manageddevice', 'devicemanagementtroubleshootingevent']);

const entityTypeName = (type: string): string =>
  type
    .replace(/^#?microsoft\.graph\./i, '')
    .trim()
    .toLowerCase();

/** What the log says about a change, before normalisation decides its workloads. */
export type AuditActivity =
  | { log: 'entraDirectoryAudits'; activityDisplayName: string; category: string }
  | { log: 'intuneAuditEvents'; activityType: string; resourceTypes: readonly string[] }
  | { log: 'exchangeAdminAuditLog'; cmdletName: string };

/**
 * The workloads an audit entry touches. An entry the log names exactly maps to its workload(s); a
 * change to something Aegis does not capture (a user, a managed device, a mailbox) to none; a
 * change the rules cannot place to every workload of its log, so a quick check never misses it.
 */
export function auditEntryWorkloads(activity: AuditActivity): string[] {
  switch (activity.log) {
    case 'entraDirectoryAudits': {
      const match = ENTRA_ACTIVITIES.find(([pattern]) =>
        pattern.test(activity.activityDisplayName),
      );
      if (match) return [...match[1]];
      if (activity.category === 'GroupManagement') return ['AzureAD/Group'];
      if (ENTRA_NOT_CONFIGURATION.has(activity.category)) return [];
      return [...AUDITED_WORKLOADS.entraDirectoryAudits];
    }
    case 'intuneAuditEvents': {
      const types = [
        ...activity.resourceTypes,
        // 'Patch DeviceConfiguration' → DeviceConfiguration
        activity.activityType.trim().split(/\s+/).slice(1).join(''),
      ]
        .map(entityTypeName)
        .filter(Boolean);
      const known = [...new Set(types.flatMap((t) => INTUNE_ENTITY_TYPES[t] ?? []))];
      if (known.length > 0) return known;
      if (types.length > 0 && types.every((t) => INTUNE_NOT_CONFIGURATION.has(t))) return [];
      return [...AUDITED_WORKLOADS.intuneAuditEvents];
    }
    case 'exchangeAdminAuditLog': {
      // Set-TransportRule → TransportRule; the cmdlet says exactly what changed
      const noun = activity.cmdletName.replace(/^[A-Za-z]+-/, '').toLowerCase();
      return TENANT_WORKLOADS.filter(
        (w) =>
          w.transport === 'adminCommand' &&
          w.service === 'exchange' &&
          w.noun.toLowerCase() === noun,
      ).map(workloadKey);
    }
  }
}

/** `Category/Kind` keys the entries touch, in TENANT_WORKLOADS order. */
export function workloadsTouchedBy(entries: readonly TenantAuditEntry[]): string[] {
  const touched = new Set(entries.flatMap((e) => e.workloads));
  return TENANT_WORKLOADS.map(workloadKey).filter((key) => touched.has(key));
}

/** What reading one audit log gave. */
export type AuditLogRead =
  /** read from `since` to `readAt`; `coveredFrom` is the oldest time the log still holds */
  | { status: 'read'; since: string; readAt: string; coveredFrom: string }
  | { status: 'notLicensed'; message: string }
  | { status: 'notPermitted'; permission: string; message?: string }
  | { status: 'failed'; httpStatus?: number; message: string };

export type AuditLogReads = Partial<Record<TenantAuditLog, AuditLogRead>>;

/**
 * The oldest time a log holds at `now` (ISO), by its retention; Entra's depends on whether the
 * tenant has Entra ID P1/P2.
 */
export function auditRetentionStart(log: TenantAuditLog, now: Date, entraPremium: boolean): string {
  const retention = TENANT_AUDIT_RETENTION_DAYS[log];
  const days =
    typeof retention === 'number' ? retention : entraPremium ? retention.premium : retention.free;
  return new Date(now.getTime() - days * 24 * 60 * 60 * 1000).toISOString();
}

/**
 * The workloads a quick check re-reads: those the entries touch; every workload of a log that was
 * not read (a change there cannot be ruled out); and the workloads no log Aegis reads covers
 * (Teams, SharePoint and Forms settings, Azure), which only a read can tell about.
 */
export function quickCheckWorkloads(
  entries: readonly TenantAuditEntry[],
  reads: AuditLogReads,
): string[] {
  const needed = new Set(workloadsTouchedBy(entries));
  for (const log of TENANT_AUDIT_LOGS) {
    if (reads[log]?.status !== 'read') AUDITED_WORKLOADS[log].forEach((k) => needed.add(k));
  }
  for (const workload of TENANT_WORKLOADS) {
    const key = workloadKey(workload);
    if (hasPublicApi(workload) && !auditLogOf(key)) needed.add(key);
  }
  return TENANT_WORKLOADS.map(workloadKey).filter((key) => needed.has(key));
}

/** A drifted object to attribute: its workload and its identity in the tenant. */
export interface DriftedObjectRef {
  /** `Category/Kind` */
  workload: string;
  /** Graph/ARM `id`, Exchange `Guid` or `Identity` */
  id?: string;
  /** its name (the workload's naming property) */
  name?: string;
}

export type DriftAttribution =
  | {
      status: 'attributed';
      actor: string;
      time: string;
      operation: string;
      log: TenantAuditLog;
      modifiedProperties: readonly TenantAuditPropertyChange[];
    }
  | { status: 'unknown'; reason: string };

export const ATTRIBUTION_REASONS = {
  retention: "not in the audit log's retention window",
  notLicensed: "the tenant's licence does not include audit logs",
  notPermitted: (permission: string) => `Aegis lacks permission ${permission}`,
  notFound: 'no audit entry found',
  failed: (message: string) => `the audit log could not be read: ${message}`,
  notRead: 'the audit log was not read',
  readSince: (since: string) => `the audit log was read only from ${since}`,
  noLog: 'no audit log Aegis reads records this kind of setting',
} as const;

const sameText = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

function entryIsAbout(entry: TenantAuditEntry, object: DriftedObjectRef): boolean {
  if (!entry.workloads.includes(object.workload)) return false;
  const workload = workloadFor(...(object.workload.split('/') as [string, string]));
  // a tenant-wide setting is the only object of its workload
  if (workload && 'fileName' in workload && workload.fileName) return true;
  return entry.targets.some((t) => sameText(t.id, object.id) || sameText(t.name, object.name));
}

/**
 * Who changed each drifted object, and when: the latest entry about it, or why that is unknown.
 * `changedAfter` is when the object was last known as approved (the drift happened after it);
 * without an entry, a window that starts before the log's retention means the entry may have
 * aged out.
 */
export function attributeDrift(
  objects: readonly DriftedObjectRef[],
  entries: readonly TenantAuditEntry[],
  reads: AuditLogReads,
  changedAfter?: string,
): DriftAttribution[] {
  return objects.map((object) => {
    const log = auditLogOf(object.workload);
    if (!log) return { status: 'unknown', reason: ATTRIBUTION_REASONS.noLog };
    const latest = entries
      .filter((e) => e.log === log && entryIsAbout(e, object))
      .reduce<TenantAuditEntry | undefined>(
        (best, e) => (!best || Date.parse(e.time) > Date.parse(best.time) ? e : best),
        undefined,
      );
    if (latest) {
      return {
        status: 'attributed',
        actor: latest.actor,
        time: latest.time,
        operation: latest.operation,
        log,
        modifiedProperties: latest.modifiedProperties,
      };
    }
    const read = reads[log];
    switch (read?.status) {
      case undefined:
        return { status: 'unknown', reason: ATTRIBUTION_REASONS.notRead };
      case 'notLicensed':
        return { status: 'unknown', reason: ATTRIBUTION_REASONS.notLicensed };
      case 'notPermitted':
        return { status: 'unknown', reason: ATTRIBUTION_REASONS.notPermitted(read.permission) };
      case 'failed':
        return { status: 'unknown', reason: ATTRIBUTION_REASONS.failed(read.message) };
      case 'read': {
        const windowStart = Date.parse(changedAfter ?? read.since);
        if (windowStart < Date.parse(read.coveredFrom)) {
          return { status: 'unknown', reason: ATTRIBUTION_REASONS.retention };
        }
        if (windowStart < Date.parse(read.since)) {
          return { status: 'unknown', reason: ATTRIBUTION_REASONS.readSince(read.since) };
        }
        return { status: 'unknown', reason: ATTRIBUTION_REASONS.notFound };
      }
    }
  });
}
