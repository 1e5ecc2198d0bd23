// How a client's drift is kept in Table storage (ADR 063), read by every server instance and by the
// notification engine: table AegisDrift, partition 'check' with one row per client (the last
// check, its state and transition), partition 'settings' with one row per client that has its own
// settings. The pipeline task writes check rows, the server writes settings rows.
import type { AppTableEntity } from '../app-tables/types';
import type { CaptureManifestEntry } from '../capture/manifest';

import {
  DEFAULT_DRIFT_CHECK_SETTINGS,
  DRIFT_CHECK_KINDS,
  type DriftCheckKind,
  type DriftCheckResult,
  type DriftCheckSettings,
  type DriftedObject,
  type DriftState,
  type DriftTransition,
} from './drift-check';

export const DRIFT_TABLE = 'AegisDrift';
export const DRIFT_CHECK_PARTITION = 'check';
export const DRIFT_SETTINGS_PARTITION = 'settings';

/** A string property holds 32K characters, an entity 1 MiB: the result is split into parts. */
const PART_LENGTH = 30_000;
const MAX_PARTS = 30;

/** A client's stored drift: its last check and the state that check left. */
export interface StoredDriftCheck extends DriftState {
  result: DriftCheckResult;
  /** what the last check changed (notifications are raised from it) */
  transition: DriftTransition;
  /** the last full check's time (quick checks keep it) */
  lastFullCheckedAt?: string;
}

export function driftCheckRow(stored: StoredDriftCheck): AppTableEntity {
  const { result } = stored;
  let text = JSON.stringify({
    workloads: result.workloads,
    objects: result.objects,
    ...(result.workloadsReread ? { workloadsReread: result.workloadsReread } : {}),
  });
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += PART_LENGTH) parts.push(text.slice(i, i + PART_LENGTH));
  if (parts.length > MAX_PARTS) {
    // keep the row writable: the figures and fingerprint stay, the object list says it was cut
    text = JSON.stringify({ workloads: result.workloads, objects: [], truncated: true });
    parts.splice(0, parts.length, text);
  }
  return {
    PartitionKey: DRIFT_CHECK_PARTITION,
    RowKey: result.client,
    Kind: result.kind,
    CheckedAt: result.checkedAt,
    MainCommit: result.mainCommit,
    Status: stored.status,
    Transition: stored.transition,
    Fingerprint: stored.fingerprint ?? null,
    DriftSince: stored.driftSince ?? null,
    ResolvedAt: stored.resolvedAt ?? null,
    LastFullCheckedAt: stored.lastFullCheckedAt ?? null,
    DriftedCount: result.objects.length,
    ResultParts: parts.length,
    ...Object.fromEntries(parts.map((part, i) => [`Result${i}`, part])),
  };
}

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** A stored row back as a check, or undefined when it is not one this code wrote. */
export function driftCheckOfRow(row: AppTableEntity): StoredDriftCheck | undefined {
  const kind = row['Kind'];
  const status = row['Status'];
  const checkedAt = str(row['CheckedAt']);
  const parts = typeof row['ResultParts'] === 'number' ? row['ResultParts'] : 0;
  if (!DRIFT_CHECK_KINDS.includes(kind as DriftCheckKind) || !checkedAt) return undefined;
  if (status !== 'drifted' && status !== 'inSync') return undefined;
  let body: {
    workloads?: CaptureManifestEntry[];
    objects?: DriftedObject[];
    workloadsReread?: string[];
  };
  try {
    body = JSON.parse(
      Array.from({ length: parts }, (_, i) => row[`Result${i}`] ?? '').join(''),
    ) as typeof body;
  } catch {
    return undefined;
  }
  const fingerprint = str(row['Fingerprint']);
  const driftSince = str(row['DriftSince']);
  const resolvedAt = str(row['ResolvedAt']);
  const lastFullCheckedAt = str(row['LastFullCheckedAt']);
  const transition = str(row['Transition']) as DriftTransition | undefined;
  return {
    status,
    transition: transition ?? 'unchanged',
    ...(fingerprint ? { fingerprint } : {}),
    ...(driftSince ? { driftSince } : {}),
    ...(resolvedAt ? { resolvedAt } : {}),
    ...(lastFullCheckedAt ? { lastFullCheckedAt } : {}),
    result: {
      client: row.RowKey,
      kind: kind as DriftCheckKind,
      checkedAt,
      mainCommit: str(row['MainCommit']) ?? '',
      workloads: body.workloads ?? [],
      objects: body.objects ?? [],
      ...(body.workloadsReread ? { workloadsReread: body.workloadsReread } : {}),
    },
  };
}

export function driftSettingsRow(client: string, settings: DriftCheckSettings): AppTableEntity {
  return {
    PartitionKey: DRIFT_SETTINGS_PARTITION,
    RowKey: client,
    Enabled: settings.enabled,
    QuickIntervalInMinutes: settings.quickIntervalInMinutes,
    FullIntervalInMinutes: settings.fullIntervalInMinutes,
  };
}

/** A client's settings: its row's, with the defaults for anything missing. */
export function driftSettingsOfRow(row: AppTableEntity | undefined): DriftCheckSettings {
  const num = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
  return {
    enabled:
      typeof row?.['Enabled'] === 'boolean' ? row['Enabled'] : DEFAULT_DRIFT_CHECK_SETTINGS.enabled,
    quickIntervalInMinutes: num(
      row?.['QuickIntervalInMinutes'],
      DEFAULT_DRIFT_CHECK_SETTINGS.quickIntervalInMinutes,
    ),
    fullIntervalInMinutes: num(
      row?.['FullIntervalInMinutes'],
      DEFAULT_DRIFT_CHECK_SETTINGS.fullIntervalInMinutes,
    ),
  };
}
