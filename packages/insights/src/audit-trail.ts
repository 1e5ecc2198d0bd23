import { isServiceError, ServiceError } from '@aegis/connectors';
import { odata, SharedRows, type AppTables, type EntityPage } from '@aegis/connectors/tables';
import type { AuditPage, AuditQuery } from '@aegis/contracts';
import {
  AUDIT_TABLE,
  auditMonthOf,
  auditMonthsBetween,
  auditRangeOf,
  auditRowKey,
  InputError,
  type AppTableEntity,
  type AuditEvent,
  type AuditOutcome,
} from '@aegis/domain';
import { z } from 'zod';

/** Table storage keeps at most 32K characters in a string property; parameters stay below. */
const MAX_JSON_CHARS = 30_000;

const tokenSchema = z.object({ month: z.string(), token: z.string().optional() });
type Position = z.infer<typeof tokenSchema>;

function json(value: unknown): string {
  const text = JSON.stringify(value ?? null);
  return text.length <= MAX_JSON_CHARS
    ? text
    : JSON.stringify({ summarised: true, characters: text.length });
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The row of an event in AegisAudit: partition the month, RowKey newest first. */
function auditEntity(event: AuditEvent): AppTableEntity {
  const at = new Date(event.at);
  return {
    PartitionKey: auditMonthOf(at),
    RowKey: auditRowKey(at, event.id),
    EventId: event.id,
    At: event.at,
    ActorUpn: event.actor.upn.toLowerCase(),
    ActorOid: event.actor.oid,
    ActorRoles: event.actor.roles.join(','),
    Action: event.action,
    ...(event.clientCode ? { ClientCode: event.clientCode } : {}),
    Parameters: json(event.parameters),
    Outcome: event.result.outcome,
    ...(event.result.statusCode !== undefined ? { StatusCode: event.result.statusCode } : {}),
    ...(event.details ? { Details: json(event.details) } : {}),
  };
}

/** An AegisAudit row back as the event it recorded. */
function auditEventOf(row: AppTableEntity): AuditEvent {
  const roles = typeof row.ActorRoles === 'string' && row.ActorRoles ? row.ActorRoles : '';
  const details = parseJson(row.Details);
  return {
    id: String(row.EventId ?? row.RowKey),
    at: String(row.At ?? ''),
    actor: {
      upn: String(row.ActorUpn ?? ''),
      oid: String(row.ActorOid ?? ''),
      roles: roles ? roles.split(',') : [],
    },
    action: String(row.Action ?? ''),
    ...(typeof row.ClientCode === 'string' && row.ClientCode ? { clientCode: row.ClientCode } : {}),
    parameters: parseJson(row.Parameters) ?? {},
    result: {
      outcome: String(row.Outcome ?? 'started') as AuditOutcome,
      ...(typeof row.StatusCode === 'number' ? { statusCode: row.StatusCode } : {}),
    },
    ...(details && typeof details === 'object'
      ? { details: details as Record<string, unknown> }
      : {}),
  };
}

function encodeToken(position: Position): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function decodeToken(token: string, months: readonly string[]): Position {
  try {
    const position = tokenSchema.parse(JSON.parse(Buffer.from(token, 'base64url').toString()));
    if (months.includes(position.month)) return position;
  } catch {
    // reported below
  }
  throw new InputError('continuationToken: is not a token this query gave', 'continuationToken');
}

/** The day after `day` (yyyy-MM-dd), as the instant it starts. */
function startOfNextDay(day: string): string {
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

/**
 * The audit trail in Table storage (issue 18 §5, ADR 037): one row per change in `AegisAudit`,
 * partitioned by month, newest first. A change is recorded before it runs (`begin`) and its
 * answer merged in afterwards (`complete`); refused attempts are recorded once (`record`).
 * Without Table storage configured, the trail is the structured log alone.
 */
export class AuditTrail {
  private ready: Promise<unknown> | undefined;
  private rows: SharedRows | undefined;

  constructor(private readonly tables: AppTables | undefined) {}

  /** Whether events are stored (Table storage configured), not only logged. */
  get stored(): boolean {
    return this.tables !== undefined;
  }

  private async table(): Promise<AppTables | undefined> {
    if (!this.tables) return undefined;
    const tables = this.tables;
    this.ready ??= tables.createTable(AUDIT_TABLE).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    await this.ready;
    return tables;
  }

  /** Records a change about to run; when this fails the change must not run. */
  async begin(event: AuditEvent): Promise<void> {
    await (await this.table())?.upsertEntity(AUDIT_TABLE, auditEntity(event));
  }

  /** Merges the answer (and details) of a change recorded by `begin`. */
  async complete(event: AuditEvent): Promise<void> {
    const entity = auditEntity(event);
    await (
      await this.table()
    )?.updateEntity(
      AUDIT_TABLE,
      {
        PartitionKey: entity.PartitionKey,
        RowKey: entity.RowKey,
        Outcome: entity.Outcome,
        // the client a deploy or off-board resolved from its pipeline is known only now
        ...(entity.ClientCode !== undefined ? { ClientCode: entity.ClientCode } : {}),
        ...(entity.StatusCode !== undefined ? { StatusCode: entity.StatusCode } : {}),
        ...(entity.Details !== undefined ? { Details: entity.Details } : {}),
      },
      { mode: 'Merge' },
    );
  }

  /**
   * Adds `event` into the row of the same id and time with `merge`, or stores it when there is
   * none yet: the tallies several instances keep of one window become one event (ADR 060).
   */
  async tally(
    event: AuditEvent,
    merge: (stored: AuditEvent, more: AuditEvent) => AuditEvent,
  ): Promise<void> {
    if (!this.tables) return;
    this.rows ??= new SharedRows(this.tables, AUDIT_TABLE);
    const entity = auditEntity(event);
    await this.rows.update({ partitionKey: entity.PartitionKey, rowKey: entity.RowKey }, (row) => ({
      write: auditEntity(row ? merge(auditEventOf(row), event) : event),
      result: undefined,
    }));
  }

  /** Records an attempt refused before it could change anything (403, 400…). */
  async record(event: AuditEvent): Promise<void> {
    await (await this.table())?.upsertEntity(AUDIT_TABLE, auditEntity(event));
  }

  /**
   * One page of events, newest first, month by month from the newest month of the query. 'Who'
   * matches part of the UPN ('morgan' finds alex.morgan@…): Table storage filters have no
   * substring test, so that one condition is applied to the rows read, the others in the query.
   */
  async query(query: AuditQuery, now = new Date()): Promise<AuditPage> {
    if (!this.tables) {
      throw new ServiceError(
        'The audit trail is not stored: Table storage is not configured, so it is in the log only.',
        { service: 'tables', statusCode: 503, code: 'NotConfigured' },
      );
    }
    // a range of days is read month partition by month partition, each filtered on `At`
    const range = query.from || query.to ? auditRangeOf(query, now) : undefined;
    const months = query.month
      ? [query.month]
      : range
        ? auditMonthsBetween(range.from, range.to)
        : [auditMonthOf(now)];
    let position: Position | undefined = query.continuationToken
      ? decodeToken(query.continuationToken, months)
      : { month: months[0]! };
    const events: AuditEvent[] = [];
    while (position && events.length < query.pageSize) {
      const { month, token }: Position = position;
      let page: EntityPage;
      try {
        page = await this.tables.queryEntities(AUDIT_TABLE, {
          filter: this.filter(month, query, range),
          maxPageSize: query.pageSize - events.length,
          ...(token ? { continuationToken: token } : {}),
        });
      } catch (error) {
        // no change was ever audited: the table does not exist yet
        if (isServiceError(error) && error.statusCode === 404) return { events: [] };
        throw error;
      }
      events.push(...page.entities.map(auditEventOf).filter((event) => actorMatches(event, query)));
      const next = months[months.indexOf(month) + 1];
      position = page.continuationToken
        ? { month, token: page.continuationToken }
        : next
          ? { month: next }
          : undefined;
    }
    return {
      events: events.map((event) => ({
        ...event,
        actor: { ...event.actor, roles: [...event.actor.roles] },
      })),
      ...(position ? { continuationToken: encodeToken(position) } : {}),
    };
  }

  private filter(
    month: string,
    query: AuditQuery,
    range: { from: string; to: string } | undefined,
  ): string {
    const conditions = [odata`PartitionKey eq ${month}`];
    if (query.action) conditions.push(odata`Action eq ${query.action}`);
    if (query.client) conditions.push(odata`ClientCode eq ${query.client}`);
    if (range) {
      conditions.push(odata`At ge ${`${range.from}T00:00:00.000Z`}`);
      conditions.push(odata`At lt ${startOfNextDay(range.to)}`);
    }
    return conditions.join(' and ');
  }
}

function actorMatches(event: AuditEvent, query: AuditQuery): boolean {
  return !query.actor || event.actor.upn.toLowerCase().includes(query.actor.toLowerCase());
}
