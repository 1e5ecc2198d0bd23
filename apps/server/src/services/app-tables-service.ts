import { isServiceError } from '@aegis/connectors';
import type { AppTables, BulkResult, EntityKeys } from '@aegis/connectors/tables';
import {
  APP_FIELDS,
  APP_TABLE_MESSAGES,
  applyMsiRule,
  clientAppsTableName,
  ConflictError,
  copyAppsToTable,
  emptyNewAppForm,
  InputError,
  invalidSelectFields,
  isProtectedKey,
  missingRequiredFields,
  newAppEntity,
  nextRowKey,
  NotFoundError,
  parseClientCode,
  type AppField,
  type AppTableEntity,
  type AppTableValue,
} from '@aegis/domain';

/** Fresh reads before giving up when colleagues keep taking the same RowKeys. */
const INSERT_ATTEMPTS = 3;

export interface OperationResult extends BulkResult {
  status: 200;
  message: string;
}

/** A 404 from the service becomes the domain's NotFoundError, keeping the service's text. */
function notFoundAsDomain(error: unknown): never {
  if (isServiceError(error) && error.statusCode === 404) {
    throw new NotFoundError(error.message);
  }
  throw error;
}

/** The summary of a change to many rows: the success text, or which rows failed and why. */
function summarise(result: BulkResult, success: string): OperationResult {
  if (result.failed.length === 0) return { status: 200, message: success, ...result };
  const total = result.succeeded + result.failed.length;
  const keys = result.failed.map((row) => row.rowKey).join(', ');
  const reason = result.failed[0]?.message ?? '';
  return {
    status: 200,
    message: `${result.failed.length} of ${total} rows failed (${keys}): ${reason}`,
    ...result,
  };
}

/** The operations of the three app deployment table screens, over the AppTables port. */
export class AppTablesService {
  constructor(private readonly tables: AppTables) {}

  listTables(): Promise<string[]> {
    return this.tables.listTables();
  }

  async rows(table: string): Promise<AppTableEntity[]> {
    try {
      return await this.tables.listEntities(table);
    } catch (error) {
      return notFoundAsDomain(error);
    }
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
    const result = await this.insertWithNextKeys(table, (target) =>
      copyAppsToTable(selected, target),
    );
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
    let entity = newAppEntity(form);
    const result = await this.insertWithNextKeys(table, (existing) => {
      entity = { ...entity, RowKey: nextRowKey(existing) };
      return [entity];
    });
    return { ...summarise(result, APP_TABLE_MESSAGES.appAdded), entity };
  }

  /**
   * Inserts rows keyed after the table's current rows. Inserting (not replacing) means a colleague
   * who took the same RowKey a moment earlier makes the batch fail instead of being overwritten;
   * then the keys are worked out again from a fresh read.
   */
  private async insertWithNextKeys(
    table: string,
    build: (existing: AppTableEntity[]) => AppTableEntity[],
  ): Promise<BulkResult> {
    let result: BulkResult = { succeeded: 0, failed: [] };
    for (let attempt = 0; attempt < INSERT_ATTEMPTS; attempt++) {
      result = await this.tables.createEntities(table, build(await this.rows(table)));
      if (result.failed.length === 0 || result.succeeded > 0) return result;
    }
    return result;
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
      await this.tables.updateEntity(
        table,
        { ...properties, PartitionKey: keys.partitionKey, RowKey: keys.rowKey },
        { mode: 'Merge', etag },
      );
    } catch (error) {
      notFoundAsDomain(error);
    }
    return { status: 200, message: APP_TABLE_MESSAGES.appUpdated, succeeded: 1, failed: [] };
  }

  async deleteApps(table: string, keys: readonly EntityKeys[]): Promise<OperationResult> {
    await this.rows(table);
    return summarise(await this.tables.deleteEntities(table, keys), APP_TABLE_MESSAGES.appsDeleted);
  }

  async addProperty(table: string, name: string, value: string): Promise<OperationResult> {
    if (isProtectedKey(name)) throw new InputError(`name: ${name} cannot be changed`, 'name');
    try {
      const result = await this.tables.addProperty(table, name, value);
      return summarise(result, APP_TABLE_MESSAGES.propertyAdded(name));
    } catch (error) {
      return notFoundAsDomain(error);
    }
  }

  async deleteProperty(table: string, name: string): Promise<OperationResult> {
    if (isProtectedKey(name)) {
      throw new InputError(APP_TABLE_MESSAGES.protectedProperty(name), 'name');
    }
    try {
      const result = await this.tables.deleteProperty(table, name);
      return summarise(result, APP_TABLE_MESSAGES.propertyDeleted(name));
    } catch (error) {
      return notFoundAsDomain(error);
    }
  }
}
