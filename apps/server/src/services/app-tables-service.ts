import { isServiceError, retryOnConflict, ServiceError, orNotFound } from '@aegis/connectors';
import {
  TABLE_CONFLICT_RETRY,
  type AppTables,
  type BulkResult,
  type EntityKeys,
  type FailedRow,
} from '@aegis/connectors/tables';
import {
  APP_FIELDS,
  APP_TABLE_MESSAGES,
  applyMsiRule,
  clientAppsTableName,
  ConflictError,
  copyAppsToTable,
  emptyNewAppForm,
  entitySizeInBytes,
  InputError,
  invalidSelectFields,
  isAppTableName,
  isProtectedKey,
  MAX_ENTITY_BYTES,
  missingRequiredFields,
  newAppEntity,
  nextRowKey,
  nextRowKeys,
  NotFoundError,
  parseClientCode,
  RowsFailedError,
  type AppField,
  type AppTableEntity,
  type AppTableValue,
} from '@aegis/domain';

import { KeyedLock } from '../lib/keyed-lock';

export interface OperationResult extends BulkResult {
  status: 200;
  message: string;
}

/** A row taken (409) or changed since it was read (412): a conflict, with the service's text. */
function isConflict(row: FailedRow): boolean {
  return row.statusCode === 409 || row.statusCode === 412;
}

/**
 * The outcome of a change to many rows (ADR 012): the success text when every row applied,
 * otherwise a RowsFailedError naming the rows that failed and why, never a 2xx.
 */
function rowIdOf(partitionKey: string, rowKey: string): string {
  return JSON.stringify([partitionKey, rowKey]);
}

function summarise(result: BulkResult, success: string): OperationResult {
  if (result.failed.length === 0) return { status: 200, message: success, ...result };
  const total = result.succeeded + result.failed.length;
  const keys = result.failed.map((row) => row.rowKey).join(', ');
  const first = result.failed.find((row) => !isConflict(row)) ?? result.failed[0]!;
  const message = `${result.failed.length} of ${total} rows failed (${keys}): ${first.message}`;
  const cause = isConflict(first)
    ? new ConflictError(first.message)
    : new ServiceError(first.message, {
        service: 'tables',
        statusCode: first.statusCode,
        code: first.code,
      });
  throw new RowsFailedError(
    message,
    result.succeeded,
    result.failed.map(({ partitionKey, rowKey, message: reason, statusCode }) => ({
      partitionKey,
      rowKey,
      message: reason,
      ...(statusCode !== undefined ? { statusCode } : {}),
    })),
    { cause },
  );
}

/** The operations of the three app deployment table screens, over the AppTables port. */
export class AppTablesService {
  /** Writes to one table run one after another in this server (reads are not held up). */
  private readonly writes = new KeyedLock();

  constructor(private readonly tables: AppTables) {}

  /** The app tables of the account: GENWorkstationApps and every '{CODE}WorkstationApps'. */
  async listTables(): Promise<string[]> {
    return (await this.tables.listTables()).filter(isAppTableName);
  }

  async rows(table: string): Promise<AppTableEntity[]> {
    return orNotFound(this.tables.listEntities(table));
  }

  /** Creates '{ClientCode}WorkstationApps'; an existing table is a ConflictError with the service's message. */
  async createClientTable(clientCode: string): Promise<{ table: string; message: string }> {
    const table = clientAppsTableName(parseClientCode(clientCode, 'clientCode'));
    const result = await this.tables.createTable(table);
    if (result.outcome === 'conflict') throw new ConflictError(result.message);
    return { table, message: APP_TABLE_MESSAGES.tableCreated(table) };
  }

  /** Copies the selected apps of `source` into `table` with fresh RowKeys. */
  async copyApps(
    table: string,
    source: string,
    rowKeys: readonly string[],
  ): Promise<OperationResult> {
    const sourceRows = await this.rows(source);
    const wanted = new Set(rowKeys);
    const selected = sourceRows.filter((row) => wanted.has(row.RowKey));
    const missing = rowKeys.filter((key) => !sourceRows.some((row) => row.RowKey === key));
    if (missing.length > 0) {
      throw new InputError(
        `rowKeys: no app in ${source} with RowKey ${missing.join(', ')}`,
        'rowKeys',
      );
    }
    const { result } = await this.insertWithNextKeys(table, copyAppsToTable(selected, []));
    return summarise(result, APP_TABLE_MESSAGES.tableUpdated);
  }

  /** Adds an app from the new-app form, as the table's next RowKey under 'appinfo-pk1'. */
  async addNewApp(
    table: string,
    app: Record<AppField, string>,
  ): Promise<OperationResult & { entity: AppTableEntity }> {
    let form = emptyNewAppForm(nextRowKey(await this.rows(table)));
    for (const field of APP_FIELDS) form = { ...form, [field]: app[field] };
    // the msi rule of the form: location cleared, 'autouninstall' unless the user wrote another
    form = applyMsiRule(form);
    const missing = missingRequiredFields(form);
    if (missing.length > 0) {
      throw new InputError(
        `app.${missing[0]}: ${APP_TABLE_MESSAGES.fillRequired}`,
        `app.${missing[0]}`,
      );
    }
    const invalid = invalidSelectFields(form);
    if (invalid.length > 0) {
      throw new InputError(
        `app.${invalid[0]}: '${form[invalid[0]!]}' is not an option`,
        `app.${invalid[0]}`,
      );
    }
    const size = entitySizeInBytes(newAppEntity(form));
    if (size > MAX_ENTITY_BYTES) {
      throw new InputError(
        `app: the app is ${size} bytes, above Table storage's 1 MiB per entity`,
        'app',
      );
    }
    const { result, inserted } = await this.insertWithNextKeys(table, [newAppEntity(form)]);
    const summary = summarise(result, APP_TABLE_MESSAGES.appAdded);
    return { ...summary, entity: inserted[0]! };
  }

  /**
   * Inserts `entities` under the table's next RowKeys. Inserting (not replacing) means a colleague
   * who took the same RowKey a moment earlier makes the batch fail instead of being overwritten;
   * then the rows not yet stored get keys worked out again from a fresh read, until every row is
   * stored with a RowKey of its own or another failure stops it.
   */
  private insertWithNextKeys(
    table: string,
    entities: readonly AppTableEntity[],
  ): Promise<{ result: BulkResult; inserted: AppTableEntity[] }> {
    return this.writes.run(table, async () => {
      // Within this server writes to one table are serialised, so keys collide only with
      // colleagues on other servers; each round takes fresh keys for the rows not yet stored.
      const inserted: AppTableEntity[] = [];
      let pending = [...entities];
      let failed: FailedRow[] = [];
      await retryOnConflict(async () => {
        const keys = nextRowKeys(await this.rows(table), pending.length);
        const keyed = pending.map((entity, i) => ({ ...entity, RowKey: keys[i]! }));
        const result = await this.tables.createEntities(table, keyed);
        const failedKeys = new Set(result.failed.map((row) => row.rowKey));
        inserted.push(...keyed.filter((entity) => !failedKeys.has(entity.RowKey)));
        failed = result.failed;
        pending = keyed.filter((entity) => failedKeys.has(entity.RowKey));
        const taken = failed.length > 0 && failed.every((row) => row.statusCode === 409);
        return taken ? 'conflict' : 'settled';
      }, TABLE_CONFLICT_RETRY);
      return { result: { succeeded: inserted.length, failed }, inserted };
    });
  }

  async updateApp(
    table: string,
    keys: EntityKeys,
    properties: Record<string, AppTableValue>,
    etag?: string,
  ): Promise<OperationResult> {
    const protectedKey = Object.keys(properties).find(isProtectedKey);
    if (protectedKey) {
      throw new InputError(
        `properties.${protectedKey}: cannot be changed`,
        `properties.${protectedKey}`,
      );
    }
    try {
      await orNotFound(
        this.tables.updateEntity(
          table,
          { ...properties, PartitionKey: keys.partitionKey, RowKey: keys.rowKey },
          { mode: 'Merge', etag },
        ),
      );
    } catch (error) {
      // the row changed since it was read: a conflict, never an overwrite
      if (isServiceError(error) && error.statusCode === 412) throw new ConflictError(error.message);
      throw error;
    }
    return { status: 200, message: APP_TABLE_MESSAGES.appUpdated, succeeded: 1, failed: [] };
  }

  /**
   * Deletes the selected rows. A selection of which no row is in the table deleted nothing: a 404
   * naming the rows. Rows a colleague deleted meanwhile count as deleted when others remain.
   */
  async deleteApps(table: string, keys: readonly EntityKeys[]): Promise<OperationResult> {
    const present = new Set(
      (await this.rows(table)).map((row) => rowIdOf(row.PartitionKey, row.RowKey)),
    );
    if (!keys.some((key) => present.has(rowIdOf(key.partitionKey, key.rowKey)))) {
      const named = keys.map((key) => `${key.partitionKey}/${key.rowKey}`).join(', ');
      throw new NotFoundError(`${table} has no rows ${named}; nothing was deleted.`);
    }
    const result = await this.writes.run(table, () => this.tables.deleteEntities(table, keys));
    return summarise(result, APP_TABLE_MESSAGES.appsDeleted);
  }

  async addProperty(table: string, name: string, value: string): Promise<OperationResult> {
    if (isProtectedKey(name)) throw new InputError(`name: ${name} cannot be changed`, 'name');
    const result = await orNotFound(
      this.writes.run(table, () => this.tables.addProperty(table, name, value)),
    );
    return summarise(result, APP_TABLE_MESSAGES.propertyAdded(name));
  }

  async deleteProperty(table: string, name: string): Promise<OperationResult> {
    if (isProtectedKey(name)) {
      throw new InputError(APP_TABLE_MESSAGES.protectedProperty(name), 'name');
    }
    const result = await orNotFound(
      this.writes.run(table, () => this.tables.deleteProperty(table, name)),
    );
    return summarise(result, APP_TABLE_MESSAGES.propertyDeleted(name));
  }
}
