import type { AppTableEntity, AppTableValue } from '@aegis/domain';

export interface TablesOperationOptions {
  abortSignal?: AbortSignal;
}

/** Result of creating a table: the service answered 201 or 409 (table exists, its message kept). */
export type CreateTableResult =
  { outcome: 'created' } | { outcome: 'conflict'; code: string; message: string };

/**
 * Result of creating one row: stored (with the etag a later conditional write names), or the
 * key was taken (409) by someone else first.
 */
export type CreateEntityResult = { outcome: 'created'; etag: string } | { outcome: 'conflict' };

/** A row that an operation on many rows could not change, with the service's message. */
export interface FailedRow {
  partitionKey: string;
  rowKey: string;
  message: string;
  /** the service's status for the failure (409 key taken, 412 row changed meanwhile, …) */
  statusCode?: number;
  /** the service's error code, e.g. EntityAlreadyExists or UpdateConditionNotSatisfied */
  code?: string;
}

/** Outcome of an operation on many rows: each batch of one partition applies whole or not at all. */
export interface BulkResult {
  succeeded: number;
  failed: FailedRow[];
}

export interface EntityKeys {
  partitionKey: string;
  rowKey: string;
}

/** One page of a query: its rows, and the token for the next page when there is one. */
export interface EntityPage {
  entities: AppTableEntity[];
  continuationToken?: string;
}

export interface QueryEntitiesOptions extends TablesOperationOptions {
  /** An OData filter; build it with `odata` so that values are quoted and escaped. */
  filter?: string;
  /** At most this many rows (Table storage answers at most 1,000 per page). */
  maxPageSize?: number;
  /** The token a previous page gave. */
  continuationToken?: string;
}

/** The port to tables in Table storage (ARCHITECTURE §1): app deployment tables, the audit trail. */
export interface AppTables {
  /** Names of every table of the account, sorted. */
  listTables(options?: TablesOperationOptions): Promise<string[]>;
  /** Every row of a table, with timestamp and etag. */
  listEntities(table: string, options?: TablesOperationOptions): Promise<AppTableEntity[]>;
  /** One page of the rows matching a filter, in Table storage's order (PartitionKey, RowKey). */
  queryEntities(table: string, options?: QueryEntitiesOptions): Promise<EntityPage>;
  createTable(table: string, options?: TablesOperationOptions): Promise<CreateTableResult>;
  /** One row with its etag, or undefined when the row (or its table) does not exist. */
  getEntity(
    table: string,
    keys: EntityKeys,
    options?: TablesOperationOptions,
  ): Promise<AppTableEntity | undefined>;
  /** Inserts one row only if its key is free; a taken key is the 'conflict' outcome, not an error. */
  createEntity(
    table: string,
    entity: AppTableEntity,
    options?: TablesOperationOptions,
  ): Promise<CreateEntityResult>;
  /** Inserts or replaces one row. */
  upsertEntity(
    table: string,
    entity: AppTableEntity,
    options?: TablesOperationOptions,
  ): Promise<void>;
  /**
   * Updates an existing row (merge by default); fails with 404 when it does not exist and with
   * 412 when `etag` is given and the row changed since. Returns the row's new etag.
   */
  updateEntity(
    table: string,
    entity: AppTableEntity,
    options?: TablesOperationOptions & { mode?: 'Merge' | 'Replace'; etag?: string },
  ): Promise<{ etag: string }>;
  /** Deletes one row; deleting a missing row succeeds. */
  deleteEntity(table: string, keys: EntityKeys, options?: TablesOperationOptions): Promise<void>;
  /** Inserts or replaces many rows in per-partition transactions of at most 100. */
  upsertEntities(
    table: string,
    entities: readonly AppTableEntity[],
    options?: TablesOperationOptions,
  ): Promise<BulkResult>;
  /**
   * Inserts many new rows in per-partition transactions of at most 100; a batch fails as a whole
   * when one of its rows already exists, so nothing is overwritten.
   */
  createEntities(
    table: string,
    entities: readonly AppTableEntity[],
    options?: TablesOperationOptions,
  ): Promise<BulkResult>;
  /**
   * Deletes many rows in per-partition transactions of at most 100; a row deleted meanwhile by
   * someone else counts as deleted.
   */
  deleteEntities(
    table: string,
    keys: readonly EntityKeys[],
    options?: TablesOperationOptions,
  ): Promise<BulkResult>;
  /**
   * Sets a property on every row of a table. Each row is written only if unchanged since it was
   * read; rows changed meanwhile are read again and retried, rows deleted meanwhile are skipped.
   */
  addProperty(
    table: string,
    name: string,
    value: AppTableValue,
    options?: TablesOperationOptions,
  ): Promise<BulkResult>;
  /** Removes a property from every row that has it, with the same re-read and retry. */
  deleteProperty(
    table: string,
    name: string,
    options?: TablesOperationOptions,
  ): Promise<BulkResult>;
}
