import type { AppTableEntity, AppTableValue } from '@aegis/domain';

import { isServiceError, retryOnConflict, ServiceError, type ConflictRetryPolicy } from '../shared';

import { odata, TABLE_CONFLICT_RETRY } from './tables-client';
import type { AppTables, EntityKeys } from './types';

/** What `SharedRows.update` does with a row: write these properties, or leave the row alone. */
export interface RowDecision<T> {
  /** the row's properties after the update (the row is replaced whole); none: nothing is written */
  readonly write?: Readonly<Record<string, AppTableValue | undefined>>;
  /** what the caller learns from the update */
  readonly result: T;
}

/**
 * Rows that several server instances read and change together, in one table of the Table storage
 * account (ADR 060): every change is a conditional write, so no instance overwrites what another
 * wrote since it read. This is the one mechanism for state the instances share: guards, claims
 * with an expiry (leases), tallies.
 */
export class SharedRows {
  private ready: Promise<unknown> | undefined;

  constructor(
    private readonly tables: AppTables,
    readonly table: string,
    private readonly retry: ConflictRetryPolicy = TABLE_CONFLICT_RETRY,
  ) {}

  /** The row with its etag, or undefined. */
  async read(keys: EntityKeys): Promise<AppTableEntity | undefined> {
    await this.created();
    return this.tables.getEntity(this.table, keys);
  }

  /** Every row of a partition (paged through), with their etags. */
  async list(partitionKey: string): Promise<AppTableEntity[]> {
    await this.created();
    const rows: AppTableEntity[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.tables.queryEntities(this.table, {
        filter: odata`PartitionKey eq ${partitionKey}`,
        ...(continuationToken ? { continuationToken } : {}),
      });
      rows.push(...page.entities);
      continuationToken = page.continuationToken;
    } while (continuationToken);
    return rows;
  }

  /**
   * Reads the row, asks `decide` what it should become, and writes that only if nobody wrote the
   * row meanwhile: a missing row is created only while its key is free, an existing one replaced
   * only with the etag read. When another instance wrote first, the row is read again and `decide`
   * asked again, so every decision is taken on the latest row and none is lost.
   */
  async update<T>(
    keys: EntityKeys,
    decide: (current: AppTableEntity | undefined) => RowDecision<T> | Promise<RowDecision<T>>,
  ): Promise<T> {
    let result: { value: T } | undefined;
    await retryOnConflict(async () => {
      const current = await this.read(keys);
      const decision = await decide(current);
      const row: AppTableEntity = {
        ...decision.write,
        PartitionKey: keys.partitionKey,
        RowKey: keys.rowKey,
      };
      const written =
        !decision.write ||
        (current
          ? await this.replaced(row, current.etag)
          : (await this.tables.createEntity(this.table, row)).outcome === 'created');
      if (!written) return 'conflict';
      result = { value: decision.result };
      return 'settled';
    }, this.retry);
    if (result) return result.value;
    throw new ServiceError(
      `${this.table} ${keys.partitionKey}/${keys.rowKey} kept changing under ${this.retry.attempts} attempts to update it; try again.`,
      { service: 'tables', statusCode: 503, code: 'TooManyWriters', retryAfterInMs: 1_000 },
    );
  }

  /** Replaces the row if it still has `etag`; false when another writer changed or removed it. */
  private async replaced(row: AppTableEntity, etag: string | undefined): Promise<boolean> {
    // without an etag the write would be unconditional ('*'): never overwrite blindly
    if (!etag) throw new Error(`${this.table}: a row was read without its etag`);
    try {
      await this.tables.updateEntity(this.table, row, { mode: 'Replace', etag });
      return true;
    } catch (error) {
      if (isServiceError(error) && (error.statusCode === 412 || error.statusCode === 404)) {
        return false;
      }
      throw error;
    }
  }

  private async created(): Promise<void> {
    this.ready ??= this.tables.createTable(this.table).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    await this.ready;
  }
}
