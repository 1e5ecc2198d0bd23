import { textOf, type AppTableEntity, type AppTableValue } from '@aegis/domain';
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import {
  TableClient,
  TableServiceClient,
  type TableEntity,
  type TableEntityResult,
  type TableServiceClientOptions,
  type TransactionAction,
} from '@azure/data-tables';
import type { TokenCredential } from '@azure/identity';

import {
  DEFAULT_TIMEOUT_IN_MS,
  parseRetryAfter,
  recordAttempt,
  recordFinalStatus,
  recordRetry,
  retryOnConflict,
  ServiceError,
  timeoutPolicy,
  traceOutgoingCall,
  urlTemplate,
  type ConflictRetryPolicy,
} from '../shared';

import type {
  AppTables,
  BulkResult,
  CreateEntityResult,
  CreateTableResult,
  EntityKeys,
  EntityPage,
  FailedRow,
  QueryEntitiesOptions,
  TablesOperationOptions,
} from './types';

/** Builds an OData filter with every value quoted and escaped: odata`Actor eq ${upn}`. */
export { odata } from '@azure/data-tables';

/** Table storage accepts at most 100 operations in one transaction, all in one partition. */
export const MAX_TRANSACTION_SIZE = 100;

/**
 * How rows that changed (412), vanished (404) or whose key was taken (409, new rows) since they
 * were read are read again and retried. Every round at least one of the racing writers succeeds,
 * so 60 attempts cover dozens of them.
 */
export const TABLE_CONFLICT_RETRY: ConflictRetryPolicy = {
  attempts: 60,
  baseDelayInMs: 10,
  maxDelayInMs: 100,
};

const NOTHING_DONE: BulkResult = { succeeded: 0, failed: [] };

/** A failure that a fresh read may cure: the row changed (412) or went away (404) meanwhile. */
function isStale(row: FailedRow): boolean {
  return row.statusCode === 412 || row.statusCode === 404;
}

const rowId = (row: { partitionKey?: string; rowKey?: string }) =>
  `${row.partitionKey ?? ''}\u0000${row.rowKey ?? ''}`;

export type TablesConnection =
  { connectionString: string } | { accountUrl: string; credential: TokenCredential };

type RawEntity = TableEntityResult<Record<string, unknown>>;

interface RestErrorLike {
  name: string;
  message: string;
  statusCode?: number;
  code?: string;
  response?: {
    headers?: { get(name: string): string | undefined };
    parsedBody?: unknown;
    bodyAsText?: string | null;
  };
}

interface ODataError {
  code?: string;
  message?: { value?: string } | string;
}

function isRestError(error: unknown): error is RestErrorLike {
  return error instanceof Error && error.name === 'RestError';
}

/** The service's own text, without the RequestId/Time trailer Table storage appends. */
export function serviceMessage(message: string): string {
  return message.split(/\r?\nRequestId:/)[0]?.trim() ?? message;
}

/** The odata error of a Table storage response, from the parsed body or the raw text. */
function odataError(error: RestErrorLike): ODataError | undefined {
  const parsed = error.response?.parsedBody as { odataError?: ODataError } | undefined;
  if (parsed?.odataError) return parsed.odataError;
  for (const text of [error.response?.bodyAsText, error.message]) {
    if (!text || !text.trim().startsWith('{')) continue;
    try {
      const body = JSON.parse(text) as { 'odata.error'?: ODataError; odataError?: ODataError };
      const found = body['odata.error'] ?? body.odataError;
      if (found) return found;
    } catch {
      // not JSON: fall back to the message as it is
    }
  }
  return undefined;
}

/** Turns an SDK failure into a ServiceError that keeps the service's message and code. */
export function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  if (isRestError(error)) {
    const odata = odataError(error);
    const text =
      typeof odata?.message === 'string' ? odata.message : (odata?.message?.value ?? error.message);
    const retryAfterInMs = parseRetryAfter(error.response?.headers?.get('retry-after'));
    return new ServiceError(serviceMessage(text), {
      service: 'tables',
      statusCode: error.statusCode,
      code: odata?.code ?? error.code ?? error.response?.headers?.get('x-ms-error-code'),
      requestId: error.response?.headers?.get('x-ms-request-id'),
      retryAfterInMs,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ServiceError(message, { service: 'tables', cause: error });
}

async function call<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toServiceError(error);
  }
}

function toCellValue(value: unknown): AppTableValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  // an Edm-typed value ({ value, type }), e.g. an Int64 as a string
  if (typeof value === 'object' && 'value' in value) return textOf(value.value);
  return textOf(value);
}

/** Maps a Table storage entity to the domain's row shape; rows also expose lower-case partitionKey and rowKey (spec 2 §3). */
export function toAppTableEntity(raw: RawEntity): AppTableEntity {
  const entity: AppTableEntity = {
    PartitionKey: raw.partitionKey ?? '',
    RowKey: raw.rowKey ?? '',
    partitionKey: raw.partitionKey ?? '',
    rowKey: raw.rowKey ?? '',
  };
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'partitionKey' || key === 'rowKey' || key === 'odata.metadata') continue;
    if (key === 'timestamp' || key === 'etag') continue;
    entity[key] = toCellValue(value);
  }
  if (raw.timestamp) entity.timestamp = raw.timestamp;
  if (raw.etag) entity.etag = raw.etag;
  return entity;
}

/** Maps a domain row to a Table storage entity, without service metadata. */
export function toTableEntity(entity: AppTableEntity): TableEntity<Record<string, unknown>> {
  const result: TableEntity<Record<string, unknown>> = {
    partitionKey: entity.PartitionKey,
    rowKey: entity.RowKey,
  };
  for (const [key, value] of Object.entries(entity)) {
    if (['PartitionKey', 'RowKey', 'partitionKey', 'rowKey', 'timestamp', 'etag'].includes(key)) {
      continue;
    }
    if (key.startsWith('odata.') || value === undefined) continue;
    result[key] = value;
  }
  return result;
}

/** Groups actions by partition and cuts them into transactions of at most 100. */
export function transactionChunks<T extends { partitionKey: string }>(items: readonly T[]): T[][] {
  const byPartition = new Map<string, T[]>();
  for (const item of items) {
    const group = byPartition.get(item.partitionKey) ?? [];
    group.push(item);
    byPartition.set(item.partitionKey, group);
  }
  const chunks: T[][] = [];
  for (const group of byPartition.values()) {
    for (let i = 0; i < group.length; i += MAX_TRANSACTION_SIZE) {
      chunks.push(group.slice(i, i + MAX_TRANSACTION_SIZE));
    }
  }
  return chunks;
}

export interface TablesClientOptions extends TableServiceClientOptions {
  /** how long one call (its retries included) may take before it is aborted (default 30 s) */
  timeoutInMs?: number;
}

/**
 * One client span per Table storage call (ADR 061), around the SDK's own retries; a failing
 * answer marks the span, since the SDK returns it rather than throwing here.
 */
function callSpanPolicy(): PipelinePolicy {
  return {
    name: 'aegisCallSpan',
    sendRequest: (request, next) =>
      traceOutgoingCall(
        { service: 'tables', method: request.method, url: request.url },
        async (span) => {
          const response = await next(request);
          recordFinalStatus(span, response.status);
          return response;
        },
      ),
  };
}

interface PreviousAttempt {
  attempt: number;
  endedAt: number;
  statusCode?: number;
  retryAfterInMs?: number;
}

/**
 * Inside the SDK's retry policy: the duration of each attempt, and before each retry the decision
 * the SDK took (the status it retried, the wait, whether it was the service's Retry-After).
 */
function attemptPolicy(): PipelinePolicy {
  const previous = new WeakMap<object, PreviousAttempt>();
  return {
    name: 'aegisAttempts',
    async sendRequest(request, next) {
      const url = new URL(request.url);
      const before = previous.get(request);
      const attempt = before ? before.attempt + 1 : 0;
      const started = performance.now();
      if (before) {
        const delayInMs = started - before.endedAt;
        recordRetry({
          attempt: before.attempt,
          service: 'tables',
          delayInMs,
          retryAfterHonoured:
            before.retryAfterInMs !== undefined && delayInMs >= before.retryAfterInMs,
          ...(before.statusCode !== undefined ? { statusCode: before.statusCode } : {}),
          ...(before.retryAfterInMs !== undefined ? { retryAfterInMs: before.retryAfterInMs } : {}),
        });
      }
      const outcome = {
        service: 'tables' as const,
        method: request.method,
        serverAddress: url.hostname,
        template: urlTemplate(url),
        attempt,
      };
      try {
        const response = await next(request);
        // the headers the SDK's throttling strategy honours, the millisecond one first
        const retryAfterMs = Number(response.headers.get('x-ms-retry-after-ms') ?? Number.NaN);
        const retryAfterInMs = Number.isFinite(retryAfterMs)
          ? retryAfterMs
          : parseRetryAfter(response.headers.get('retry-after'));
        const endedAt = performance.now();
        recordAttempt({ ...outcome, statusCode: response.status, durationInMs: endedAt - started });
        previous.set(request, {
          attempt,
          endedAt,
          statusCode: response.status,
          ...(retryAfterInMs !== undefined ? { retryAfterInMs } : {}),
        });
        return response;
      } catch (error) {
        const endedAt = performance.now();
        recordAttempt({
          ...outcome,
          errorType: error instanceof Error ? error.name : 'Error',
          durationInMs: endedAt - started,
        });
        previous.set(request, { attempt, endedAt });
        throw error;
      }
    },
  };
}

/**
 * The AppTables adapter over `@azure/data-tables`: Azurite or an Azure Storage account by
 * connection string, or an account URL with an Entra credential (DefaultAzureCredential).
 */
export class TablesClient implements AppTables {
  private readonly service: TableServiceClient;
  private readonly connection: TablesConnection;
  private readonly clientOptions: TableServiceClientOptions;

  constructor(
    connection: TablesConnection,
    { timeoutInMs = DEFAULT_TIMEOUT_IN_MS, ...clientOptions }: TablesClientOptions = {},
  ) {
    this.connection = connection;
    this.clientOptions = {
      retryOptions: { maxRetries: 3, retryDelayInMs: 300, maxRetryDelayInMs: 4_000 },
      ...clientOptions,
      additionalPolicies: [
        ...(clientOptions.additionalPolicies ?? []),
        { policy: timeoutPolicy('tables', timeoutInMs), position: 'perCall' },
        { policy: callSpanPolicy(), position: 'perCall' },
        { policy: attemptPolicy(), position: 'perRetry' },
      ],
      allowInsecureConnection: clientOptions.allowInsecureConnection ?? isInsecure(connection),
    };
    this.service =
      'connectionString' in connection
        ? TableServiceClient.fromConnectionString(connection.connectionString, this.clientOptions)
        : new TableServiceClient(connection.accountUrl, connection.credential, this.clientOptions);
  }

  private table(name: string): TableClient {
    return 'connectionString' in this.connection
      ? TableClient.fromConnectionString(this.connection.connectionString, name, this.clientOptions)
      : new TableClient(
          this.connection.accountUrl,
          name,
          this.connection.credential,
          this.clientOptions,
        );
  }

  async listTables(options: TablesOperationOptions = {}): Promise<string[]> {
    return call(async () => {
      const names: string[] = [];
      for await (const table of this.service.listTables({ abortSignal: options.abortSignal })) {
        if (table.name) names.push(table.name);
      }
      return names.sort((a, b) => a.localeCompare(b));
    });
  }

  private async listRaw(table: string, options: TablesOperationOptions): Promise<RawEntity[]> {
    return call(async () => {
      const rows: RawEntity[] = [];
      const client = this.table(table);
      for await (const row of client.listEntities<Record<string, unknown>>({
        abortSignal: options.abortSignal,
      })) {
        rows.push(row);
      }
      return rows;
    });
  }

  async listEntities(
    table: string,
    options: TablesOperationOptions = {},
  ): Promise<AppTableEntity[]> {
    return (await this.listRaw(table, options)).map(toAppTableEntity);
  }

  async queryEntities(table: string, options: QueryEntitiesOptions = {}): Promise<EntityPage> {
    return call(async () => {
      const pages = this.table(table)
        .listEntities<Record<string, unknown>>({
          abortSignal: options.abortSignal,
          ...(options.filter ? { queryOptions: { filter: options.filter } } : {}),
        })
        .byPage({
          ...(options.maxPageSize ? { maxPageSize: options.maxPageSize } : {}),
          ...(options.continuationToken ? { continuationToken: options.continuationToken } : {}),
        });
      const first = await pages.next();
      if (first.done) return { entities: [] };
      const page = first.value;
      return {
        entities: page.map(toAppTableEntity),
        ...(page.continuationToken ? { continuationToken: page.continuationToken } : {}),
      };
    });
  }

  async createTable(
    table: string,
    options: TablesOperationOptions = {},
  ): Promise<CreateTableResult> {
    let conflict: { code: string; message: string } | undefined;
    await call(() =>
      this.service.createTable(table, {
        abortSignal: options.abortSignal,
        onResponse: (response) => {
          if (response.status !== 409) return;
          const body = response.parsedBody as
            { odataError?: { code?: string; message?: { value?: string } } } | undefined;
          conflict = {
            code: body?.odataError?.code ?? 'TableAlreadyExists',
            message: serviceMessage(
              body?.odataError?.message?.value ?? 'The table specified already exists.',
            ),
          };
        },
      }),
    );
    return conflict ? { outcome: 'conflict', ...conflict } : { outcome: 'created' };
  }

  async upsertEntity(
    table: string,
    entity: AppTableEntity,
    options: TablesOperationOptions = {},
  ): Promise<void> {
    await call(() =>
      this.table(table).upsertEntity(toTableEntity(entity), 'Replace', {
        abortSignal: options.abortSignal,
      }),
    );
  }

  async getEntity(
    table: string,
    keys: EntityKeys,
    options: TablesOperationOptions = {},
  ): Promise<AppTableEntity | undefined> {
    try {
      const row = await this.table(table).getEntity<Record<string, unknown>>(
        keys.partitionKey,
        keys.rowKey,
        { abortSignal: options.abortSignal },
      );
      return toAppTableEntity(row);
    } catch (error) {
      const serviceError = toServiceError(error);
      // ResourceNotFound (no such row) and TableNotFound alike: there is no row
      if (serviceError.statusCode === 404) return undefined;
      throw serviceError;
    }
  }

  async createEntity(
    table: string,
    entity: AppTableEntity,
    options: TablesOperationOptions = {},
  ): Promise<CreateEntityResult> {
    try {
      const created = await this.table(table).createEntity(toTableEntity(entity), {
        abortSignal: options.abortSignal,
      });
      return { outcome: 'created', etag: created.etag ?? '' };
    } catch (error) {
      const serviceError = toServiceError(error);
      if (serviceError.statusCode === 409) return { outcome: 'conflict' };
      throw serviceError;
    }
  }

  async updateEntity(
    table: string,
    entity: AppTableEntity,
    options: TablesOperationOptions & { mode?: 'Merge' | 'Replace'; etag?: string } = {},
  ): Promise<{ etag: string }> {
    const updated = await call(() =>
      this.table(table).updateEntity(toTableEntity(entity), options.mode ?? 'Merge', {
        abortSignal: options.abortSignal,
        etag: options.etag ?? '*',
      }),
    );
    return { etag: updated.etag ?? '' };
  }

  async deleteEntity(
    table: string,
    keys: EntityKeys,
    options: TablesOperationOptions = {},
  ): Promise<void> {
    try {
      await this.table(table).deleteEntity(keys.partitionKey, keys.rowKey, {
        abortSignal: options.abortSignal,
      });
    } catch (error) {
      const serviceError = toServiceError(error);
      if (serviceError.statusCode === 404 && serviceError.code === 'ResourceNotFound') return;
      throw serviceError;
    }
  }

  /** Runs `actions` in per-partition transactions; a failed transaction fails all its rows. */
  private async transact(
    table: string,
    items: readonly { partitionKey: string; rowKey: string; action: TransactionAction }[],
    options: TablesOperationOptions,
  ): Promise<BulkResult> {
    const client = this.table(table);
    const failed: FailedRow[] = [];
    let succeeded = 0;
    for (const chunk of transactionChunks(items)) {
      try {
        await client.submitTransaction(
          chunk.map((item) => item.action),
          { abortSignal: options.abortSignal },
        );
        succeeded += chunk.length;
      } catch (error) {
        const { message, statusCode, code } = toServiceError(error);
        for (const item of chunk) {
          failed.push({
            partitionKey: item.partitionKey,
            rowKey: item.rowKey,
            message,
            ...(statusCode !== undefined ? { statusCode } : {}),
            ...(code !== undefined ? { code } : {}),
          });
        }
      }
    }
    return { succeeded, failed };
  }

  upsertEntities(
    table: string,
    entities: readonly AppTableEntity[],
    options: TablesOperationOptions = {},
  ): Promise<BulkResult> {
    return this.writeEntities(table, entities, (row) => ['upsert', row, 'Replace'], options);
  }

  createEntities(
    table: string,
    entities: readonly AppTableEntity[],
    options: TablesOperationOptions = {},
  ): Promise<BulkResult> {
    return this.writeEntities(table, entities, (row) => ['create', row], options);
  }

  private writeEntities(
    table: string,
    entities: readonly AppTableEntity[],
    action: (row: ReturnType<typeof toTableEntity>) => TransactionAction,
    options: TablesOperationOptions,
  ): Promise<BulkResult> {
    const items = entities.map((entity) => ({
      partitionKey: entity.PartitionKey,
      rowKey: entity.RowKey,
      action: action(toTableEntity(entity)),
    }));
    return this.transact(table, items, options);
  }

  async deleteEntities(
    table: string,
    keys: readonly EntityKeys[],
    options: TablesOperationOptions = {},
  ): Promise<BulkResult> {
    const deleteAction = (key: EntityKeys) => ({
      ...key,
      action: [
        'delete',
        { partitionKey: key.partitionKey, rowKey: key.rowKey },
      ] as TransactionAction,
    });
    return this.retryStale(table, keys.map(deleteAction), options, async (stale) => {
      // a row someone else deleted meanwhile is deleted: only the rows still there are retried
      const present = new Set((await this.listRaw(table, options)).map(rowId));
      return stale.filter((key) => present.has(rowId(key))).map(deleteAction);
    });
  }

  /**
   * Runs `items`, then while some rows failed because they changed or vanished since they were
   * read, asks `again` for fresh actions for those rows and runs them. Other failures are final.
   */
  private async retryStale(
    table: string,
    items: readonly { partitionKey: string; rowKey: string; action: TransactionAction }[],
    options: TablesOperationOptions,
    again: (
      stale: FailedRow[],
    ) => Promise<{ partitionKey: string; rowKey: string; action: TransactionAction }[]>,
  ): Promise<BulkResult> {
    let succeeded = 0;
    const failed: FailedRow[] = [];
    let stale: FailedRow[] = [];
    await retryOnConflict(async (attempt) => {
      const pending = attempt === 0 ? items : await again(stale);
      const result =
        pending.length > 0 ? await this.transact(table, pending, options) : NOTHING_DONE;
      succeeded += result.succeeded;
      failed.push(...result.failed.filter((row) => !isStale(row)));
      stale = result.failed.filter(isStale);
      return stale.length === 0 ? 'settled' : 'conflict';
    }, TABLE_CONFLICT_RETRY);
    // still stale when the attempts ran out
    failed.push(...stale);
    return { succeeded, failed };
  }

  /** Re-reads the rows that failed as stale; rows deleted meanwhile drop out. */
  private async freshRows(
    table: string,
    stale: readonly FailedRow[],
    options: TablesOperationOptions,
  ): Promise<RawEntity[]> {
    const wanted = new Set(stale.map(rowId));
    return (await this.listRaw(table, options)).filter((row) => wanted.has(rowId(row)));
  }

  async addProperty(
    table: string,
    name: string,
    value: AppTableValue,
    options: TablesOperationOptions = {},
  ): Promise<BulkResult> {
    const setProperty = (row: RawEntity) => ({
      partitionKey: row.partitionKey ?? '',
      rowKey: row.rowKey ?? '',
      action: [
        'update',
        { partitionKey: row.partitionKey, rowKey: row.rowKey, [name]: value },
        'Merge',
        { etag: row.etag },
      ] as TransactionAction,
    });
    const rows = await this.listRaw(table, options);
    return this.retryStale(table, rows.map(setProperty), options, async (stale) =>
      (await this.freshRows(table, stale, options)).map(setProperty),
    );
  }

  async deleteProperty(
    table: string,
    name: string,
    options: TablesOperationOptions = {},
  ): Promise<BulkResult> {
    const withoutProperty = (rows: readonly RawEntity[]) =>
      rows
        .filter((row) => Object.hasOwn(row, name))
        .map((row) => {
          const entity: Record<string, unknown> = {};
          for (const [key, value] of Object.entries(row)) {
            if (key === name || key === 'etag' || key === 'timestamp' || key.startsWith('odata.')) {
              continue;
            }
            entity[key] = value;
          }
          return {
            partitionKey: row.partitionKey ?? '',
            rowKey: row.rowKey ?? '',
            action: [
              'update',
              entity as TableEntity,
              'Replace',
              { etag: row.etag },
            ] as TransactionAction,
          };
        });
    const rows = await this.listRaw(table, options);
    return this.retryStale(table, withoutProperty(rows), options, async (stale) =>
      withoutProperty(await this.freshRows(table, stale, options)),
    );
  }
}

function isInsecure(connection: TablesConnection): boolean {
  if ('connectionString' in connection) {
    return (
      /UseDevelopmentStorage=true/i.test(connection.connectionString) ||
      /(Table)?Endpoint=http:/i.test(connection.connectionString) ||
      /DefaultEndpointsProtocol=http;/i.test(connection.connectionString)
    );
  }
  return connection.accountUrl.startsWith('http:');
}
