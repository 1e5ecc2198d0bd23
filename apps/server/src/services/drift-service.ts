// A client's drift as the scheduled drift check stored it (ADR 063), for the Fleet's Drift column
// and the client's drift panel, and the per-client check settings an Administrator edits. The
// pipeline task writes the check rows; this reads them and writes only settings rows.
import { isNotFound } from '@aegis/connectors';
import { odata, type AppTables } from '@aegis/connectors/tables';
import type { ClientDriftDto, DriftSettingsDto, DriftSummaryDto } from '@aegis/contracts';
import {
  clientResourcesRoot,
  ConflictError,
  DRIFT_CHECK_PARTITION,
  DRIFT_SETTINGS_PARTITION,
  DRIFT_TABLE,
  driftCheckOfRow,
  driftSettingsOfRow,
  driftSettingsRow,
  notCapturedText,
  pathInsideFolder,
  toResourcePath,
  validateDriftCheckSettings,
  type AppTableEntity,
  type StoredDriftCheck,
} from '@aegis/domain';

function summaryOf(stored: StoredDriftCheck): DriftSummaryDto {
  const { result } = stored;
  const latest = result.objects
    .flatMap((o) => (o.attribution?.status === 'attributed' ? [o.attribution] : []))
    .reduce<{ actor: string; time: string } | null>(
      (best, a) => (!best || Date.parse(a.time) > Date.parse(best.time) ? a : best),
      null,
    );
  return {
    client: result.client,
    status: stored.status,
    kind: result.kind,
    checkedAt: result.checkedAt,
    driftedCount: result.objects.length,
    driftSince: stored.driftSince ?? null,
    resolvedAt: stored.resolvedAt ?? null,
    notRead: result.workloads.flatMap((w) =>
      w.status === 'failed' || w.status === 'notPermitted'
        ? [{ workload: w.workload, status: w.status, text: notCapturedText(w) }]
        : [],
    ),
    lastChange: latest && { actor: latest.actor, time: latest.time },
  };
}

export class DriftService {
  constructor(private readonly tables: AppTables) {}

  /** Rows of a partition; none when the table does not exist yet (no check has run). */
  private async rows(partition: string): Promise<AppTableEntity[]> {
    const rows: AppTableEntity[] = [];
    let continuationToken: string | undefined;
    try {
      do {
        const page = await this.tables.queryEntities(DRIFT_TABLE, {
          filter: odata`PartitionKey eq ${partition}`,
          ...(continuationToken ? { continuationToken } : {}),
        });
        rows.push(...page.entities);
        continuationToken = page.continuationToken;
      } while (continuationToken);
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
    return rows;
  }

  /** Every client's last stored check, as the pipeline task wrote it (the drift notifier reads these). */
  async checks(): Promise<StoredDriftCheck[]> {
    return (await this.rows(DRIFT_CHECK_PARTITION)).flatMap((row) => driftCheckOfRow(row) ?? []);
  }

  async fleet(): Promise<{ clients: DriftSummaryDto[] }> {
    const clients = (await this.rows(DRIFT_CHECK_PARTITION))
      .flatMap((row) => {
        const stored = driftCheckOfRow(row);
        return stored ? [summaryOf(stored)] : [];
      })
      .sort((a, b) => a.client.localeCompare(b.client));
    return { clients };
  }

  async client(client: string): Promise<ClientDriftDto> {
    const [checkRow, settingsRow] = await Promise.all([
      this.tables.getEntity(DRIFT_TABLE, { partitionKey: DRIFT_CHECK_PARTITION, rowKey: client }),
      this.tables.getEntity(DRIFT_TABLE, {
        partitionKey: DRIFT_SETTINGS_PARTITION,
        rowKey: client,
      }),
    ]);
    const stored = checkRow ? driftCheckOfRow(checkRow) : undefined;
    return {
      client,
      check: stored
        ? {
            ...summaryOf(stored),
            mainCommit: stored.result.mainCommit,
            objects: stored.result.objects.map((o) => ({
              path: o.path,
              workload: o.workload,
              name: o.name,
              change: o.change,
              properties: o.properties,
              attribution:
                o.attribution?.status === 'attributed'
                  ? {
                      status: 'attributed',
                      actor: o.attribution.actor,
                      time: o.attribution.time,
                      operation: o.attribution.operation,
                      log: o.attribution.log,
                    }
                  : (o.attribution ?? null),
            })),
          }
        : null,
      settings: driftSettingsOfRow(settingsRow),
      defaultSettings: settingsRow === undefined,
    };
  }

  /**
   * The resource paths of drifted objects to revert (issue 28 §5): each must be a policy of the
   * client (400 naming `objects`) that its last stored check found drifted (409 otherwise: the
   * drift changed since the screen read it, so what was confirmed is no longer what would run).
   */
  async revertablePolicies(client: string, objects: readonly string[]): Promise<string[]> {
    const root = clientResourcesRoot(client);
    const paths = [...new Set(objects.map((o) => pathInsideFolder(root, o, 'objects')))];
    const row = await this.tables.getEntity(DRIFT_TABLE, {
      partitionKey: DRIFT_CHECK_PARTITION,
      rowKey: client,
    });
    const drifted = new Set(
      (row ? driftCheckOfRow(row) : undefined)?.result.objects.map((o) => o.path) ?? [],
    );
    const notDrifted = paths.filter((p) => !drifted.has(p));
    if (notDrifted.length > 0) {
      throw new ConflictError(
        `${notDrifted.map(toResourcePath).join(', ')} ${notDrifted.length === 1 ? 'is' : 'are'} not drifted in the last check of ${client}; refresh the drift and choose again.`,
      );
    }
    return paths.map(toResourcePath);
  }

  /** Stores a client's settings; InputError (400) names a field out of range. */
  async saveSettings(client: string, settings: DriftSettingsDto): Promise<DriftSettingsDto> {
    const valid = validateDriftCheckSettings(settings);
    await this.tables.createTable(DRIFT_TABLE);
    await this.tables.upsertEntity(DRIFT_TABLE, driftSettingsRow(client, valid));
    return valid;
  }
}
