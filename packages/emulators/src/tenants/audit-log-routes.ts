// The tenant's audit logs, rendered from its audit trail in Microsoft's shapes (issue 28 §2, ADR 064):
//   GET /{v1.0|beta}/auditLogs/directoryAudits[/{id}]   Entra directoryAudit, newest first
//   GET /{v1.0|beta}/deviceManagement/auditEvents[/{id}] Intune auditEvent, newest first
//   Search-UnifiedAuditLog through the Exchange admin API: the unified audit log's ExchangeAdmin
//   records (Microsoft's reference marks Search-AdminAuditLog deprecated in Exchange Online)
// Each log holds what its retention keeps (Entra 30 days, Intune a year, the unified audit log 180
// days). Lists take $filter (activityDateTime ge/le …), $top and page with @odata.nextLink. The scenario
// switch 'auditLogUnavailable' answers a log as Microsoft does without its licence or permission.
import { randomUUID } from 'node:crypto';

import {
  auditRetentionStart,
  TENANT_AUDIT_LOGS,
  type TenantAuditLog,
  textOf,
  workloadFor,
} from '@aegis/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { Json, JsonObject } from '../seed/policies/types';

import type { AuditedChange, AuditedOperation } from './audit-trail';
import { entity, listPage, notFound, stateOf } from './graph-common';
import { contractPath, type GraphApiVersion } from './graph-contract';
import type { TenantState } from './tenant-state';
import { EmulatorError, principalOf } from './wire';
import type { TenantWorld } from './world';

/** Scenario 'auditLogUnavailable': a log (or every log) the tenant cannot give, and why. */
export interface AuditLogUnavailable {
  log: TenantAuditLog | 'all';
  reason: 'licence' | 'permission';
}

export const AUDIT_LOG_SWITCH_VALUES = [...TENANT_AUDIT_LOGS, 'all'] as const;

function unavailable(world: TenantWorld, tenantId: string, log: TenantAuditLog) {
  const switched = world.scenarios(tenantId).auditLogUnavailable;
  return switched && (switched.log === 'all' || switched.log === log) ? switched.reason : undefined;
}

/** Microsoft's answers when the tenant's licence or the app's permission does not cover a log. */
function refusal(log: TenantAuditLog, reason: 'licence' | 'permission'): EmulatorError {
  switch (log) {
    case 'entraDirectoryAudits':
      return reason === 'permission'
        ? new EmulatorError(
            403,
            'Authorization_RequestDenied',
            'Insufficient privileges to complete the operation.',
          )
        : new EmulatorError(
            403,
            'Authentication_RequestFromNonPremiumTenantOrB2CTenant',
            "Neither tenant is B2C or tenant doesn't have premium license",
          );
    case 'intuneAuditEvents':
      return reason === 'permission'
        ? new EmulatorError(
            403,
            'Forbidden',
            'Application is not authorized to perform this operation. Application must have one of the following scopes: DeviceManagementApps.Read.All, DeviceManagementApps.ReadWrite.All',
          )
        : new EmulatorError(
            403,
            'Forbidden',
            'The Microsoft Graph API for Intune requires an active Intune license for the tenant.',
          );
    case 'exchangeAdminAuditLog':
      // a cmdlet outside the caller's management roles does not exist in its session
      return reason === 'permission'
        ? new EmulatorError(
            400,
            'CommandNotFoundException',
            "The term 'Search-UnifiedAuditLog' is not recognized as a name of a cmdlet, function, script file, or executable program.",
          )
        : new EmulatorError(
            403,
            'Forbidden',
            "The tenant's licence does not include auditing: Search-UnifiedAuditLog needs Microsoft Purview Audit (Standard).",
          );
  }
}

const ENTRA_VERBS: Readonly<Record<AuditedOperation, string>> = {
  create: 'Add',
  update: 'Update',
  delete: 'Delete',
};

interface EntraActivity {
  /** the object in Entra's activity names: 'Update {noun}' */
  noun: string;
  category: string;
  service: string;
  type: string;
  /** Entra's name when it does not follow 'Verb noun' */
  activity?: string;
}

// Entra's activity names, categories and logging services for the objects Aegis writes
const ENTRA_ACTIVITIES: Readonly<Record<string, EntraActivity>> = {
  'AzureAD/User': {
    noun: 'user',
    category: 'UserManagement',
    service: 'Core Directory',
    type: 'User',
  },
  'AzureAD/Group': {
    noun: 'group',
    category: 'GroupManagement',
    service: 'Core Directory',
    type: 'Group',
  },
  'ConditionalAccess/Policy': {
    noun: 'conditional access policy',
    category: 'Policy',
    service: 'Conditional Access',
    type: 'Policy',
  },
  'ConditionalAccess/NamedLocation': {
    noun: 'named location',
    category: 'Policy',
    service: 'Conditional Access',
    type: 'Policy',
  },
  'AzureAD/DirectorySetting': {
    noun: 'directory setting',
    category: 'DirectoryManagement',
    service: 'Core Directory',
    type: 'Directory',
  },
  'AzureAD/AuthorizationPolicy': {
    noun: 'authorization policy',
    category: 'Policy',
    service: 'Core Directory',
    type: 'Policy',
  },
  'AzureAD/AuthenticationMethodsPolicy': {
    noun: 'authentication methods policy',
    category: 'Policy',
    service: 'Authentication Methods',
    type: 'Policy',
    activity: 'Authentication Methods Policy Update',
  },
  'AzureAD/AuthenticationMethodConfiguration': {
    noun: 'authentication methods policy',
    category: 'Policy',
    service: 'Authentication Methods',
    type: 'Policy',
    activity: 'Authentication Methods Policy Update',
  },
  'AzureAD/DeviceRegistrationPolicy': {
    noun: 'device registration policy',
    category: 'Policy',
    service: 'Device Registration Service',
    type: 'Policy',
  },
  'AzureAD/AdminConsentRequestPolicy': {
    noun: 'admin consent request policy',
    category: 'Policy',
    service: 'Core Directory',
    type: 'Policy',
  },
  'AzureAD/AppManagementPolicy': {
    noun: 'default app management policy',
    category: 'Policy',
    service: 'Core Directory',
    type: 'Policy',
  },
};

const INTUNE_VERBS: Readonly<Record<AuditedOperation, string>> = {
  create: 'Create',
  update: 'Patch',
  delete: 'Delete',
};

// Intune's audit category and component of each workload
const INTUNE_AREAS: Readonly<Record<string, { category: string; component: string }>> = {
  'Intune/DeviceCompliancePolicy': { category: 'Compliance', component: 'DeviceCompliance' },
  'Intune/DeviceEnrollmentConfiguration': { category: 'Enrollment', component: 'Enrollment' },
  'Intune/WindowsAutopilotDeploymentProfile': { category: 'Enrollment', component: 'Enrollment' },
  'Intune/AppProtectionPolicy': { category: 'Application', component: 'MobileAppManagement' },
  'Intune/MobileApp': { category: 'Application', component: 'MobileAppManagement' },
};

const iso = (ms: number): string => new Date(ms).toISOString();
const text = (value: Json | undefined): string | null =>
  value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value);

function directoryAudit(change: AuditedChange): JsonObject | undefined {
  const activity = ENTRA_ACTIVITIES[change.workload];
  if (!activity) return undefined;
  const actor = change.actor;
  return {
    id: `Directory_${change.correlationId}_${change.id.slice(0, 5).toUpperCase()}`,
    category: activity.category,
    correlationId: change.correlationId,
    result: 'success',
    resultReason: '',
    activityDisplayName: activity.activity ?? `${ENTRA_VERBS[change.operation]} ${activity.noun}`,
    activityDateTime: iso(change.time),
    loggedByService: activity.service,
    operationType: ENTRA_VERBS[change.operation],
    initiatedBy:
      actor.kind === 'user'
        ? {
            app: null,
            user: {
              id: actor.id,
              displayName: actor.displayName,
              userPrincipalName: actor.userPrincipalName,
              ipAddress: '',
            },
          }
        : {
            app: {
              appId: actor.appId,
              displayName: actor.displayName,
              servicePrincipalId: actor.servicePrincipalId,
              servicePrincipalName: null,
            },
            user: null,
          },
    targetResources: [
      {
        id: change.target.id,
        displayName: change.target.name,
        type: activity.type,
        userPrincipalName: activity.type === 'User' ? change.target.name : null,
        groupType: null,
        modifiedProperties: change.changes.map((c) => ({
          displayName: c.name,
          oldValue: text(c.oldValue),
          newValue: text(c.newValue),
        })),
      },
    ],
    additionalDetails: [],
  };
}

/** Graph's entity type of a workload, PascalCase as Intune names it: DeviceConfiguration. */
function intuneEntityName(workload: string): string | undefined {
  const [category = '', kind = ''] = workload.split('/');
  const known = workloadFor(category, kind);
  if (known?.transport !== 'graph' || !known.intune) return undefined;
  const type = contractPath('beta', known.path).entityType?.replace(/^microsoft\.graph\./, '');
  return type ? type.charAt(0).toUpperCase() + type.slice(1) : undefined;
}

// beta names the actor's and resource's type `type`; v1.0 `auditActorType`, `auditResourceType`
function intuneAuditEvent(version: GraphApiVersion, change: AuditedChange): JsonObject | undefined {
  const entityName = intuneEntityName(change.workload);
  if (!entityName) return undefined;
  const area = INTUNE_AREAS[change.workload] ?? {
    category: 'DeviceConfiguration',
    component: 'DeviceConfiguration',
  };
  const activityType = `${INTUNE_VERBS[change.operation]} ${entityName}`;
  const actor = change.actor;
  const actorType = version === 'beta' ? 'type' : 'auditActorType';
  const resourceType = version === 'beta' ? 'type' : 'auditResourceType';
  return {
    id: change.id,
    displayName: `${activityType} ${change.target.name}`.trim(),
    componentName: area.component,
    activity: activityType,
    activityDateTime: iso(change.time),
    activityType,
    activityOperationType: INTUNE_VERBS[change.operation],
    activityResult: 'Success',
    correlationId: change.correlationId,
    category: area.category,
    actor:
      actor.kind === 'user'
        ? {
            [actorType]: 'ItPro',
            userPermissions: ['*'],
            applicationId: null,
            applicationDisplayName: null,
            userPrincipalName: actor.userPrincipalName,
            servicePrincipalName: null,
            ipAddress: null,
            userId: actor.id,
          }
        : {
            [actorType]: 'Application',
            userPermissions: [],
            applicationId: actor.appId,
            applicationDisplayName: actor.displayName,
            userPrincipalName: null,
            servicePrincipalName: actor.displayName,
            ipAddress: null,
            userId: null,
          },
    resources: [
      {
        displayName: change.target.name,
        [resourceType]: entityName,
        resourceId: change.target.id,
        modifiedProperties: change.changes.map((c) => ({
          displayName: c.name,
          oldValue: text(c.oldValue),
          newValue: text(c.newValue),
        })),
      },
    ],
  };
}

/**
 * What a log still holds, newest first (as both Graph logs list by default): its retention counts
 * back from now; the simulated tenants have Entra ID P1, so Entra keeps 30 days.
 */
function retained(world: TenantWorld, state: TenantState, log: TenantAuditLog): AuditedChange[] {
  const oldest = Date.parse(auditRetentionStart(log, new Date(world.now()), true));
  return state.auditTrail.filter((c) => c.time >= oldest).sort((a, b) => b.time - a.time);
}

/** Registers the two Graph audit logs on a /v1.0 or /beta scope, where the contract has them. */
export function registerGraphAuditLogRoutes(
  scope: FastifyInstance,
  world: TenantWorld,
  version: GraphApiVersion,
  pageSize: number,
): void {
  const logs = [
    {
      log: 'entraDirectoryAudits',
      path: '/auditLogs/directoryAudits',
      fragment: 'auditLogs/directoryAudits',
      render: (change: AuditedChange) => directoryAudit(change),
    },
    {
      log: 'intuneAuditEvents',
      path: '/deviceManagement/auditEvents',
      fragment: 'deviceManagement/auditEvents',
      render: (change: AuditedChange) => intuneAuditEvent(version, change),
    },
  ] as const;
  for (const { log, path, fragment, render } of logs) {
    if (!contractPath(version, path).exists) continue;
    const entries = (request: FastifyRequest): JsonObject[] => {
      const state = stateOf(world, request);
      const reason = unavailable(world, state.tenant.tenantId, log);
      if (reason) throw refusal(log, reason);
      return retained(world, state, log)
        .map((change) => render(change))
        .filter((e): e is JsonObject => e !== undefined);
    };
    scope.get(path, (request) => listPage(request, entries(request), fragment, pageSize));
    scope.get<{ Params: { id: string } }>(`${path}/:id`, (request) => {
      const found = entries(request).find((e) => e['id'] === request.params.id);
      if (!found) throw notFound(request.params.id);
      return entity(request, found, `${fragment}/$entity`);
    });
  }
}

const exchangeDate = (ms: number): string => `/Date(${ms})/`;

/** The Exchange admin record (RecordType 1) of the unified audit log for a change of a cmdlet. */
function exchangeAdminRecord(state: TenantState, change: AuditedChange): JsonObject | undefined {
  const [category = '', kind = ''] = change.workload.split('/');
  const workload = workloadFor(category, kind);
  if (workload?.transport !== 'adminCommand' || workload.service !== 'exchange') return undefined;
  const noun = workload.noun;
  const verb = { create: 'New', update: 'Set', delete: 'Remove' }[change.operation];
  const operation = change.command?.name ?? `${verb}-${noun}`;
  const actor = change.actor;
  const userId = actor.kind === 'user' ? actor.userPrincipalName : actor.displayName;
  const parameters = Object.entries(change.command?.parameters ?? {}).map(([Name, value]) => ({
    Name,
    Value: text(value) ?? '',
  }));
  const auditData = {
    CreationTime: iso(change.time).replace(/\.\d+Z$/, ''),
    Id: change.id,
    Operation: operation,
    OrganizationId: state.tenant.tenantId,
    RecordType: 1,
    ResultStatus: 'True',
    UserKey: actor.kind === 'user' ? actor.id : actor.appId,
    UserType: actor.kind === 'user' ? 2 : 5,
    Version: 1,
    Workload: 'Exchange',
    ClientIP: '',
    ObjectId: change.target.name,
    UserId: userId,
    ...(actor.kind === 'app' ? { AppId: actor.appId } : {}),
    ExternalAccess: false,
    OrganizationName: state.tenant.initialDomain,
    OriginatingServer: 'AM0PR01MB0001 (15.20.8005.000)',
    Parameters: parameters,
    ModifiedProperties: change.changes.map((c) => ({
      Name: c.name,
      NewValue: text(c.newValue) ?? '',
      OldValue: text(c.oldValue) ?? '',
    })),
  };
  return {
    RecordType: 'ExchangeAdmin',
    CreationDate: exchangeDate(change.time),
    UserIds: userId,
    Operations: operation,
    AuditData: JSON.stringify(auditData),
    Identity: change.id,
    IsValid: true,
    ObjectState: 'Unchanged',
  };
}

/** Parses an ExDateTime parameter as the service does (UTC when no zone is given). */
function exDateTime(name: string, value: unknown): number {
  const raw = typeof value === 'string' ? value.trim() : '';
  const zoned = /[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`;
  const ms = raw ? Date.parse(zoned.replace(' ', 'T')) : NaN;
  if (Number.isNaN(ms)) {
    throw new EmulatorError(
      400,
      'ParameterBindingException',
      `Cannot process argument transformation on parameter '${name}'. Cannot convert value "${String(value)}" to type "Microsoft.Exchange.ExchangeSystem.ExDateTime".`,
    );
  }
  return ms;
}

const MAX_RESULT_SIZE = 5000;
const DEFAULT_RESULT_SIZE = 100;
// a search session's position: the records it has returned so far (SessionId → count)
const sessions = new WeakMap<TenantState, Map<string, number>>();

/**
 * Search-UnifiedAuditLog: the records between StartDate and EndDate, newest first, of RecordType
 * ExchangeAdmin (the only records this tenant's log holds); with a SessionId, each call returns
 * the next ResultSize records until none remain. Each record carries ResultIndex and ResultCount.
 */
export function searchUnifiedAuditLog(
  world: TenantWorld,
  request: FastifyRequest,
  parameters: JsonObject,
): JsonObject[] {
  const principal = principalOf(request);
  const state = world.state(principal.tenantId);
  const reason = unavailable(world, state.tenant.tenantId, 'exchangeAdminAuditLog');
  if (reason) throw refusal('exchangeAdminAuditLog', reason);
  const start = exDateTime('StartDate', parameters['StartDate']);
  const end = exDateTime('EndDate', parameters['EndDate']);
  const size =
    parameters['ResultSize'] === undefined ? DEFAULT_RESULT_SIZE : Number(parameters['ResultSize']);
  if (!Number.isInteger(size) || size < 1 || size > MAX_RESULT_SIZE) {
    throw new EmulatorError(
      400,
      'ParameterBindingException',
      `Cannot validate argument on parameter 'ResultSize'. The ${textOf(parameters['ResultSize'])} argument is greater than the maximum allowed range of ${MAX_RESULT_SIZE}. Supply an argument that is less than or equal to ${MAX_RESULT_SIZE} and then try the command again.`,
    );
  }
  const recordType = parameters['RecordType'];
  const operations = [parameters['Operations']]
    .flat()
    .filter((o): o is string => typeof o === 'string')
    .flatMap((o) => o.split(','))
    .map((o) => o.trim().toLowerCase())
    .filter(Boolean);
  const matching = retained(world, state, 'exchangeAdminAuditLog')
    .filter((change) => change.time >= start && change.time <= end)
    .map((change) => exchangeAdminRecord(state, change))
    .filter((record): record is JsonObject => record !== undefined)
    .filter(
      (record) =>
        (recordType === undefined || textOf(recordType).toLowerCase() === 'exchangeadmin') &&
        (operations.length === 0 ||
          operations.includes(textOf(record['Operations']).toLowerCase())),
    );
  const sessionId = typeof parameters['SessionId'] === 'string' ? parameters['SessionId'] : '';
  const byState = sessions.get(state) ?? new Map<string, number>();
  sessions.set(state, byState);
  const offset = sessionId ? (byState.get(sessionId) ?? 0) : 0;
  const page = matching.slice(offset, offset + size);
  if (sessionId) byState.set(sessionId, offset + page.length);
  return page.map((record, index) => ({
    RunspaceId: randomUUID(),
    ...record,
    ResultIndex: offset + index + 1,
    ResultCount: matching.length,
  }));
}
