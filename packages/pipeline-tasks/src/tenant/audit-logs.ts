// Who changed what in a client tenant (issue 28 §2-3, ADR 064): each audit log's own records, as
// Microsoft's services answer them, normalised to the domain's TenantAuditEntry (service, time,
// actor, operation, the objects and workloads touched, modified properties), and a log that could
// not be read turned into why (not licensed, not permitted, failed).
import {
  TENANT_AUDIT_LOG_PERMISSIONS,
  auditEntryWorkloads,
  type AuditLogRead,
  type TenantAuditEntry,
  type TenantAuditLog,
  type TenantAuditPropertyChange,
  type TenantAuditTarget,
} from '@aegis/domain';

import { namesLicence, type TenantObject } from './gateway';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const objectsIn = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter(isObject) : [];
const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const optionalText = (value: unknown): string | undefined =>
  value === undefined || value === null
    ? undefined
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

function propertyChanges(
  items: readonly Record<string, unknown>[],
  names: { name: string; oldValue: string; newValue: string },
): TenantAuditPropertyChange[] {
  return items.flatMap((item) => {
    const name = textOf(item[names.name]);
    if (!name) return [];
    const oldValue = optionalText(item[names.oldValue]);
    const newValue = optionalText(item[names.newValue]);
    return [
      {
        name,
        ...(oldValue !== undefined ? { oldValue } : {}),
        ...(newValue !== undefined ? { newValue } : {}),
      },
    ];
  });
}

function target(id: string | undefined, name: string | undefined): TenantAuditTarget {
  return { ...(id ? { id } : {}), ...(name ? { name } : {}) };
}

/** An Entra directoryAudit; undefined when it lacks what makes an entry (id, time). */
export function entraAuditEntry(audit: TenantObject): TenantAuditEntry | undefined {
  const id = textOf(audit['id']);
  const time = textOf(audit['activityDateTime']);
  if (!id || !time) return undefined;
  const initiatedBy = isObject(audit['initiatedBy']) ? audit['initiatedBy'] : {};
  const user = isObject(initiatedBy['user']) ? initiatedBy['user'] : undefined;
  const app = isObject(initiatedBy['app']) ? initiatedBy['app'] : undefined;
  const operation = textOf(audit['activityDisplayName']) ?? '';
  const resources = objectsIn(audit['targetResources']);
  return {
    log: 'entraDirectoryAudits',
    id,
    time,
    actor:
      textOf(user?.['userPrincipalName']) ??
      textOf(app?.['displayName']) ??
      textOf(app?.['appId']) ??
      'unknown',
    operation,
    workloads: auditEntryWorkloads({
      log: 'entraDirectoryAudits',
      activityDisplayName: operation,
      category: textOf(audit['category']) ?? '',
    }),
    targets: resources.map((r) =>
      target(textOf(r['id']), textOf(r['displayName']) ?? textOf(r['userPrincipalName'])),
    ),
    modifiedProperties: resources.flatMap((r) =>
      propertyChanges(objectsIn(r['modifiedProperties']), {
        name: 'displayName',
        oldValue: 'oldValue',
        newValue: 'newValue',
      }),
    ),
  };
}

/** An Intune auditEvent (v1.0 names types auditActorType/auditResourceType, beta `type`). */
export function intuneAuditEntry(event: TenantObject): TenantAuditEntry | undefined {
  const id = textOf(event['id']);
  const time = textOf(event['activityDateTime']);
  if (!id || !time) return undefined;
  const actor = isObject(event['actor']) ? event['actor'] : {};
  const operation =
    textOf(event['activityType']) ??
    textOf(event['activity']) ??
    textOf(event['displayName']) ??
    '';
  const resources = objectsIn(event['resources']);
  return {
    log: 'intuneAuditEvents',
    id,
    time,
    actor:
      textOf(actor['userPrincipalName']) ??
      textOf(actor['applicationDisplayName']) ??
      textOf(actor['servicePrincipalName']) ??
      textOf(actor['applicationId']) ??
      'unknown',
    operation,
    workloads: auditEntryWorkloads({
      log: 'intuneAuditEvents',
      activityType: operation,
      resourceTypes: resources.flatMap(
        (r) => textOf(r['auditResourceType']) ?? textOf(r['type']) ?? [],
      ),
    }),
    targets: resources.map((r) => target(textOf(r['resourceId']), textOf(r['displayName']))),
    modifiedProperties: resources.flatMap((r) =>
      propertyChanges(objectsIn(r['modifiedProperties']), {
        name: 'displayName',
        oldValue: 'oldValue',
        newValue: 'newValue',
      }),
    ),
  };
}

/**
 * A record of Search-UnifiedAuditLog (RecordType ExchangeAdmin): its AuditData, in the Management
 * Activity API's Exchange admin schema, says who ran which cmdlet on which object.
 */
export function exchangeAdminAuditEntry(record: TenantObject): TenantAuditEntry | undefined {
  let data: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(textOf(record['AuditData']) ?? '');
    if (!isObject(parsed)) return undefined;
    data = parsed;
  } catch {
    return undefined;
  }
  const id = textOf(data['Id']) ?? textOf(record['Identity']);
  const created = textOf(data['CreationTime']);
  if (!id || !created) return undefined;
  // CreationTime is UTC without a zone
  const time = /Z$|[+-]\d\d:\d\d$/.test(created) ? created : `${created}Z`;
  const operation = textOf(data['Operation']) ?? textOf(record['Operations']) ?? '';
  const objectId = textOf(data['ObjectId']);
  // an object may be named by its path in the directory: …/contoso.onmicrosoft.com/Rule name
  const name = objectId?.split(/[\\/]/).pop();
  const modified = propertyChanges(objectsIn(data['ModifiedProperties']), {
    name: 'Name',
    oldValue: 'OldValue',
    newValue: 'NewValue',
  });
  const parameters = propertyChanges(
    objectsIn(data['Parameters']).filter((p) => p['Name'] !== 'Identity'),
    { name: 'Name', oldValue: 'OldValue', newValue: 'Value' },
  );
  return {
    log: 'exchangeAdminAuditLog',
    id,
    time,
    actor: textOf(data['UserId']) ?? textOf(record['UserIds']) ?? 'unknown',
    operation,
    workloads: auditEntryWorkloads({ log: 'exchangeAdminAuditLog', cmdletName: operation }),
    targets: objectId ? [target(objectId, name)] : [],
    modifiedProperties: modified.length > 0 ? modified : parameters,
  };
}

/**
 * Why a log was not read, from the service's answer: a licence named in a refusal is 'not
 * licensed'; 403, Authorization_RequestDenied and (Exchange) a cmdlet outside the app's roles
 * are 'not permitted', naming what the log is read with; anything else 'failed'.
 */
export function auditLogNotRead(
  log: TenantAuditLog,
  httpStatus: number | undefined,
  code: string | undefined,
  message: string,
): Exclude<AuditLogRead, { status: 'read' }> {
  const text = [code, message].filter(Boolean).join(': ');
  if (httpStatus === 403 && namesLicence(text)) return { status: 'notLicensed', message: text };
  if (
    httpStatus === 403 ||
    code === 'Authorization_RequestDenied' ||
    (log === 'exchangeAdminAuditLog' && code === 'CommandNotFoundException')
  ) {
    return {
      status: 'notPermitted',
      permission: TENANT_AUDIT_LOG_PERMISSIONS[log],
      ...(text ? { message: text } : {}),
    };
  }
  return { status: 'failed', ...(httpStatus ? { httpStatus } : {}), message: text || 'no answer' };
}

/** Entries of every log, newest first, each once (logs may overlap their windows). */
export function newestFirst(entries: readonly TenantAuditEntry[]): TenantAuditEntry[] {
  const seen = new Set<string>();
  return [...entries]
    .filter((e) => {
      const key = `${e.log}:${e.id}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
}
