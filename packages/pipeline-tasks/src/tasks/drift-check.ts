// Drift check (issue 28 §1, §3, ADR 063): reads a client's live tenant with the capture's reader,
// compares it with the client's approved configuration on main as the capture review does, and
// records the result in Table storage (table AegisDrift). It writes nothing to git. Scheduled
// every 5 minutes without a client: each client whose quick or full check is due by its settings
// is checked; run with a ClientCode, that client is checked now.
import { createHash } from 'node:crypto';

import type { ConfigRepository } from '@aegis/connectors/repository';
import { SharedRows, type AppTables } from '@aegis/connectors/tables';
import {
  attributeDrift,
  CLIENTS_FOLDER,
  DRIFT_CHECK_PARTITION,
  DRIFT_SETTINGS_PARTITION,
  DRIFT_TABLE,
  driftCheckOfRow,
  driftCheckRow,
  driftedObjects,
  driftFingerprintText,
  driftSettingsOfRow,
  driftStatusOf,
  dueDriftCheck,
  isClientCode,
  nextDriftState,
  quickCheckWorkloads,
  TENANT_WORKLOADS,
  unreadWorkloads,
  workloadKey,
  type DriftCheckKind,
  type DriftCheckResult,
  type DriftFileChange,
  type DriftTransition,
  type StoredDriftCheck,
} from '@aegis/domain';

import { TaskError } from '../log';
import type { TaskParameters } from '../parameters';

import type { TaskContext } from './context';
import { notCapturedLines, snapshotTenant } from './snapshot';

export interface ClientDriftCheck {
  client: string;
  kind: DriftCheckKind;
  status: StoredDriftCheck['status'];
  transition: DriftTransition;
  drifted: number;
  /** workloads that could not be read */
  notRead: string[];
  /** requests made to the tenant's services */
  requestCount: number;
}

export interface DriftCheckOutcome {
  checked: ClientDriftCheck[];
  /** clients whose check was not due */
  notDue: string[];
  failed: { client: string; message: string }[];
}

/** The clients with a folder under /Clients on main. */
async function clientsOnMain(repository: ConfigRepository, main: string): Promise<string[]> {
  const items = await repository.listChildren(CLIENTS_FOLDER, { commit: main });
  return items
    .filter((item) => item.isFolder)
    .map((item) => item.path.split('/').at(-1) ?? '')
    .filter(isClientCode)
    .sort();
}

/** How far back a first check looks for who made a change: Entra's free edition keeps 7 days. */
const AUDIT_LOOKBACK_IN_MS = 7 * 24 * 60 * 60 * 1000;

export function driftFingerprint(result: Pick<DriftCheckResult, 'objects'>): string {
  return createHash('sha256').update(driftFingerprintText(result.objects)).digest('hex');
}

async function checkClient(
  context: TaskContext,
  rows: SharedRows,
  client: string,
  kind: DriftCheckKind,
  main: string,
): Promise<ClientDriftCheck> {
  const { log, repository } = context;
  const tenant = await context.tenant(client);
  const checkedAt = context.now();
  const previousRow = await rows.read({ partitionKey: DRIFT_CHECK_PARTITION, rowKey: client });
  const previous = previousRow ? driftCheckOfRow(previousRow) : undefined;
  // A quick check builds on the last check: without one, or when main moved since (the approved
  // configuration changed), only a full read tells the drift.
  const quick = kind === 'quick' && previous !== undefined && previous.result.mainCommit === main;
  const actualKind: DriftCheckKind = quick ? 'quick' : 'full';
  log.section(`${quick ? 'Quick' : 'Full'} drift check of ${client}`);
  // Who changed what: the audit logs since the drift began (or the last check, or a week back)
  const since = new Date(
    previous?.driftSince ??
      previous?.result.checkedAt ??
      checkedAt.getTime() - AUDIT_LOOKBACK_IN_MS,
  );
  const audit = await tenant.readAuditLogs(since, { until: checkedAt });
  const lastCheckedAt = previous ? Date.parse(previous.result.checkedAt) : 0;
  const reread = quick
    ? quickCheckWorkloads(
        audit.entries.filter((e) => Date.parse(e.time) >= lastCheckedAt),
        audit.reads,
      )
    : undefined;
  if (reread) log.info(`Quick check: re-reading ${reread.length} workloads (${reread.join(', ')})`);
  const excludedPaths = reread
    ? TENANT_WORKLOADS.map(workloadKey)
        .filter((key) => !reread.includes(key))
        .map((key) => `/${key}`)
    : [];
  const snapshot = await snapshotTenant(tenant, repository, client, main, checkedAt, {
    excludedPaths,
  });
  for (const line of notCapturedLines(snapshot.manifest)) log.info(line);
  const changes: DriftFileChange[] = snapshot.changes.flatMap((change) => {
    if (change.changeType === 'rename') return [];
    const before = snapshot.previous.get(change.path);
    return [
      {
        changeType: change.changeType,
        path: `/${change.path.replace(/^\//, '')}`,
        ...(before !== undefined ? { before } : {}),
        ...(change.changeType !== 'delete' ? { after: change.content } : {}),
      },
    ];
  });
  const found = driftedObjects(changes);
  const attributions = attributeDrift(found, audit.entries, audit.reads);
  const readNow = new Set(snapshot.manifest.workloads.map((w) => w.workload));
  // what a quick check did not read again stands as the last check found it
  const carried = reread
    ? (previous?.result.objects ?? []).filter((o) => !readNow.has(o.workload))
    : [];
  const workloads = [
    ...snapshot.manifest.workloads,
    ...(reread ? (previous?.result.workloads ?? []).filter((w) => !readNow.has(w.workload)) : []),
  ].sort((a, b) => a.workload.localeCompare(b.workload));
  const result: DriftCheckResult = {
    client,
    kind: actualKind,
    checkedAt: checkedAt.toISOString(),
    mainCommit: main,
    workloads,
    ...(reread ? { workloadsReread: reread } : {}),
    objects: [
      ...found.map((object, i) => ({ ...object, attribution: attributions[i]! })),
      ...carried,
    ].sort((a, b) => a.path.localeCompare(b.path)),
  };
  const status = driftStatusOf(result);
  const fingerprint = status === 'drifted' ? driftFingerprint(result) : undefined;
  const stored = await rows.update(
    { partitionKey: DRIFT_CHECK_PARTITION, rowKey: client },
    (current) => {
      const previous = current ? driftCheckOfRow(current) : undefined;
      // a check that read before the stored one finished late: the stored one stands
      if (previous && previous.result.checkedAt > result.checkedAt) {
        return { result: previous };
      }
      const state = nextDriftState(previous, {
        status,
        ...(fingerprint ? { fingerprint } : {}),
        checkedAt: result.checkedAt,
      });
      const lastFullCheckedAt =
        actualKind === 'full' ? result.checkedAt : previous?.lastFullCheckedAt;
      const next: StoredDriftCheck = {
        ...state,
        result,
        ...(lastFullCheckedAt ? { lastFullCheckedAt } : {}),
      };
      return { write: driftCheckRow(next), result: next };
    },
  );
  const notRead = unreadWorkloads(result);
  for (const object of result.objects) {
    log.info(`${object.change} ${object.path}`);
  }
  log.info(
    `${client}: ${status === 'drifted' ? `${result.objects.length} drifted objects` : 'no drift'} in what was read` +
      (notRead.length > 0 ? `; partial: ${notRead.length} workloads not read` : '') +
      ` (${stored.transition}; ${tenant.requestCount} requests)`,
  );
  return {
    client,
    kind: actualKind,
    status,
    transition: stored.transition,
    drifted: result.objects.length,
    notRead,
    requestCount: tenant.requestCount,
  };
}

async function tableOf(tables: AppTables): Promise<SharedRows> {
  const rows = new SharedRows(tables, DRIFT_TABLE);
  await tables.createTable(DRIFT_TABLE);
  return rows;
}

export async function runDriftCheck(
  context: TaskContext,
  parameters: TaskParameters<'drift-check'>,
): Promise<DriftCheckOutcome> {
  const { log, repository } = context;
  if (!context.tables) {
    throw new TaskError(
      'No table storage is configured (AEGIS_TABLES_URL): the drift check records its results there',
    );
  }
  const rows = await tableOf(context.tables);
  const main = await repository.branchTip();
  log.info(`main is at ${main}`);
  const clients = parameters.ClientCode
    ? [parameters.ClientCode]
    : await clientsOnMain(repository, main);
  const outcome: DriftCheckOutcome = { checked: [], notDue: [], failed: [] };
  for (const client of clients) {
    let kind: DriftCheckKind | undefined = parameters.Kind === 'due' ? undefined : parameters.Kind;
    if (!kind) {
      const [settingsRow, checkRow] = await Promise.all([
        rows.read({ partitionKey: DRIFT_SETTINGS_PARTITION, rowKey: client }),
        rows.read({ partitionKey: DRIFT_CHECK_PARTITION, rowKey: client }),
      ]);
      const previous = checkRow ? driftCheckOfRow(checkRow) : undefined;
      kind = dueDriftCheck(
        driftSettingsOfRow(settingsRow),
        {
          ...(previous ? { lastCheckedAt: previous.result.checkedAt } : {}),
          ...(previous?.lastFullCheckedAt ? { lastFullCheckedAt: previous.lastFullCheckedAt } : {}),
        },
        context.now(),
      );
    }
    if (!kind) {
      outcome.notDue.push(client);
      continue;
    }
    try {
      outcome.checked.push(await checkClient(context, rows, client, kind, main));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.warning(`${client}: not checked: ${message}`);
      outcome.failed.push({ client, message });
    }
  }
  if (outcome.notDue.length > 0) log.info(`Not due: ${outcome.notDue.join(', ')}`);
  if (outcome.failed.length > 0 && outcome.checked.length === 0) {
    throw new TaskError(
      `No client could be checked. ${outcome.failed.map((f) => `${f.client}: ${f.message}`).join('; ')}`,
    );
  }
  const partial = outcome.checked.filter((c) => c.notRead.length > 0);
  if (outcome.failed.length > 0 || partial.length > 0) {
    log.succeededWithIssues(
      [
        outcome.failed.length > 0 ? `${outcome.failed.length} clients could not be checked` : '',
        partial.length > 0
          ? `partial check of ${partial.map((c) => c.client).join(', ')}: workloads that were not read are not drift`
          : '',
      ]
        .filter(Boolean)
        .join('; '),
    );
  }
  return outcome;
}
