// Notifications in Aegis's own Table storage account (issue 28 §4, ADR 065): one row per client,
// event kind and subject, holding the notification and its outbox. Every change is a conditional
// write through SharedRows, so several server instances never both act on one state.
import { createHash } from 'node:crypto';

import { odata, SharedRows, type AppTables, type EntityKeys } from '@aegis/connectors/tables';
import { nextDueAt, type AppTableEntity, type NotificationRecord } from '@aegis/domain';

export const NOTIFICATIONS_TABLE = 'AegisNotifications';

/** The row of a client's notification about `kind` and `subject`: partition = client. */
export function notificationKeys(clientCode: string, kind: string, subject: string): EntityKeys {
  const rowKey = createHash('sha256').update(`${kind}\n${subject}`).digest('hex').slice(0, 32);
  return { partitionKey: clientCode, rowKey };
}

/** A notification's id names its row and generation: `ABC-<row key>-3`. */
export function notificationId(keys: EntityKeys, generation: number): string {
  return `${keys.partitionKey}-${keys.rowKey}-${generation}`;
}

/** The row and generation an id names, or undefined for an id no notification could have. */
export function parseNotificationId(
  id: string,
): { keys: EntityKeys; generation: number } | undefined {
  const match = /^([A-Z]{3})-([0-9a-f]{32})-(\d{1,9})$/.exec(id);
  if (!match) return undefined;
  return {
    keys: { partitionKey: match[1]!, rowKey: match[2]! },
    generation: Number(match[3]),
  };
}

function recordOf(row: AppTableEntity): NotificationRecord {
  return JSON.parse(String(row.Notification)) as NotificationRecord;
}

function rowOf(record: NotificationRecord): Record<string, string> {
  return {
    Notification: JSON.stringify(record),
    // where the delivery loop looks for work ('' when there is none): ISO strings order as times
    NextDueAt: nextDueAt(record) ?? '',
    UpdatedAt: record.updatedAt,
  };
}

export class NotificationStore {
  private readonly rows: SharedRows;
  private ready: Promise<unknown> | undefined;

  constructor(private readonly tables: AppTables) {
    this.rows = new SharedRows(tables, NOTIFICATIONS_TABLE);
  }

  async read(keys: EntityKeys): Promise<NotificationRecord | undefined> {
    const row = await this.rows.read(keys);
    return row && recordOf(row);
  }

  /**
   * Reads the row, asks `decide` for the next record (undefined: leave it), and writes it only if
   * nobody wrote the row meanwhile; otherwise reads again and asks again.
   */
  async update<T>(
    keys: EntityKeys,
    decide: (current: NotificationRecord | undefined) => {
      next: NotificationRecord | undefined;
      result: T;
    },
  ): Promise<T> {
    return this.rows.update(keys, (row) => {
      const { next, result } = decide(row && recordOf(row));
      return next ? { write: rowOf(next), result } : { result };
    });
  }

  /** The rows with something to do at `now` (a send, a retry, an escalation, a snooze's end). */
  async due(now: Date): Promise<EntityKeys[]> {
    const rows = await this.query(odata`NextDueAt ne ${''} and NextDueAt le ${now.toISOString()}`);
    return rows.map((row) => ({ partitionKey: row.PartitionKey, rowKey: row.RowKey }));
  }

  /** Every notification, or one client's. */
  async list(clientCode?: string): Promise<NotificationRecord[]> {
    const rows = await this.query(clientCode ? odata`PartitionKey eq ${clientCode}` : undefined);
    return rows.map(recordOf);
  }

  private async query(filter: string | undefined): Promise<AppTableEntity[]> {
    this.ready ??= this.tables.createTable(NOTIFICATIONS_TABLE).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    await this.ready;
    const rows: AppTableEntity[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.tables.queryEntities(NOTIFICATIONS_TABLE, {
        ...(filter ? { filter } : {}),
        ...(continuationToken ? { continuationToken } : {}),
      });
      rows.push(...page.entities);
      continuationToken = page.continuationToken;
    } while (continuationToken);
    return rows;
  }
}
