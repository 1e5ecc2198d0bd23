// What the tenant emulator remembers of each change made in a tenant (issue 28 §2, ADR 064): who,
// when, which object and which properties, once, whatever API made it. The audit log routes render
// these records in each of Microsoft's log shapes (Entra directoryAudit, Intune auditEvent, the
// unified audit log's ExchangeAdmin record).
import { randomUUID } from 'node:crypto';

import { textOf } from '@aegis/domain';

import type { Json, JsonObject } from '../seed/policies/types';

import { FIRST_PARTY_APPS } from './catalogue';
import type { TenantPrincipal } from './wire';

export type AuditedOperation = 'create' | 'update' | 'delete';

export type AuditedActor =
  | { kind: 'user'; id: string; userPrincipalName: string; displayName: string }
  | { kind: 'app'; appId: string; displayName: string; servicePrincipalId: string | null };

export interface AuditedPropertyChange {
  name: string;
  oldValue: Json | undefined;
  newValue: Json | undefined;
}

export interface AuditedChange {
  id: string;
  correlationId: string;
  /** ms since the epoch */
  time: number;
  /** `Category/Kind` (AzureAD/User for accounts) */
  workload: string;
  operation: AuditedOperation;
  target: { id: string; name: string };
  actor: AuditedActor;
  changes: AuditedPropertyChange[];
  /** the cmdlet that made it, for changes through the admin command endpoints */
  command?: { name: string; parameters: JsonObject };
}

// bookkeeping the service stamps itself; not a change anyone made
const STAMPS = new Set([
  'lastModifiedDateTime',
  'modifiedDateTime',
  'createdDateTime',
  'WhenChanged',
  'WhenCreated',
  'WhenChangedUTC',
  'WhenCreatedUTC',
  'version',
]);

const same = (a: Json | undefined, b: Json | undefined): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

/** The top-level properties that differ between two versions of an object. */
export function changedProperties(
  before: JsonObject | undefined,
  after: JsonObject | undefined,
): AuditedPropertyChange[] {
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...names]
    .filter((name) => !STAMPS.has(name) && !name.startsWith('@odata.'))
    .filter((name) => !same(before?.[name], after?.[name]))
    .sort()
    .map((name) => ({ name, oldValue: before?.[name], newValue: after?.[name] }));
}

/** The directory objects an actor is looked up in (users and service principals by id). */
export type DirectoryLookup = (
  predicate: (object: JsonObject) => boolean,
) => JsonObject | undefined;

/** Who a request's token says made the change. */
export function actorOf(principal: TenantPrincipal, directory: DirectoryLookup): AuditedActor {
  if (principal.appOnly || !principal.oid) {
    const appId = principal.appId ?? '';
    const sp = directory(
      (o) => o['@odata.type'] === '#microsoft.graph.servicePrincipal' && o['appId'] === appId,
    );
    const firstParty = FIRST_PARTY_APPS.find((a) => a.appId === appId);
    return {
      kind: 'app',
      appId,
      displayName: textOf(sp?.['displayName'] ?? firstParty?.displayName ?? appId),
      servicePrincipalId: typeof sp?.['id'] === 'string' ? sp['id'] : null,
    };
  }
  const user = directory((o) => o['id'] === principal.oid);
  const upn = textOf(user?.['userPrincipalName'] ?? principal.upn ?? principal.oid);
  return {
    kind: 'user',
    id: principal.oid,
    userPrincipalName: upn,
    displayName: textOf(user?.['displayName'] ?? upn),
  };
}

export function auditedChange(
  fields: Omit<AuditedChange, 'id' | 'correlationId' | 'changes'> & {
    before?: JsonObject | undefined;
    after?: JsonObject | undefined;
  },
): AuditedChange {
  const { before, after, ...rest } = fields;
  return {
    id: randomUUID(),
    correlationId: randomUUID(),
    ...rest,
    changes: changedProperties(before, after),
  };
}
