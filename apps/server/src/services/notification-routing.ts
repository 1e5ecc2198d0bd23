// Notification channels and rules (issue 28 §4, ADR 066): kept in Aegis's own Table storage
// account, so that every server instance routes the same way. Webhook secrets are stored with
// their channel and never leave this module except to sign a delivery.
import { randomUUID } from 'node:crypto';

import { isServiceError } from '@aegis/connectors';
import type { AppTables } from '@aegis/connectors/tables';
import type {
  NotificationChannel,
  NotificationChannelInput,
  NotificationEventKind,
  NotificationRule,
  notificationRuleInputSchema,
} from '@aegis/contracts';
import { ConflictError, InputError, NotFoundError, type AppTableEntity } from '@aegis/domain';
import type { z } from 'zod';

/** The table of channels and rules. */
export const NOTIFICATION_ROUTING_TABLE = 'AegisNotificationRouting';
const CHANNELS = 'channel';
const RULES = 'rule';

/** A channel with what delivering to it needs: the webhook's signing secret. */
export type DeliverableChannel = NotificationChannel & { readonly secret?: string };

type RuleInput = z.output<typeof notificationRuleInputSchema>;

/** Where a change came from: the signed-in user's name, for `updatedBy`. */
export interface ChangedBy {
  readonly by: string;
  readonly at: Date;
}

/**
 * The channels and rules of notification routing. Reads and writes go through the one Table
 * storage client; a write of a channel or rule replaces its row whole.
 */
export class NotificationRouting {
  private ready: Promise<unknown> | undefined;

  constructor(private readonly tables: AppTables) {}

  async listChannels(): Promise<NotificationChannel[]> {
    return (await this.rows(CHANNELS)).map((row) => withoutSecret(channelOf(row)));
  }

  /** A channel with its secret, for a delivery; undefined when there is none of that id. */
  async deliverableChannel(id: string): Promise<DeliverableChannel | undefined> {
    const row = await this.row(CHANNELS, id);
    return row && channelOf(row);
  }

  async createChannel(
    input: NotificationChannelInput,
    change: ChangedBy,
  ): Promise<NotificationChannel> {
    if (input.type === 'webhook' && !input.secret) {
      throw new InputError('body.secret: a webhook channel needs a signing secret', 'body.secret');
    }
    const id = newId();
    await this.created();
    await this.tables.upsertEntity(
      NOTIFICATION_ROUTING_TABLE,
      channelRow(id, input, undefined, change),
    );
    return withoutSecret(channelOf(channelRow(id, input, undefined, change)));
  }

  async updateChannel(
    id: string,
    input: NotificationChannelInput,
    change: ChangedBy,
  ): Promise<NotificationChannel> {
    const current = await this.row(CHANNELS, id);
    if (!current) throw new NotFoundError(`There is no notification channel ${id}.`);
    const kept =
      input.type === 'webhook' && current.Type === 'webhook' ? current.Secret : undefined;
    if (input.type === 'webhook' && !input.secret && typeof kept !== 'string') {
      throw new InputError('body.secret: a webhook channel needs a signing secret', 'body.secret');
    }
    const row = channelRow(id, input, typeof kept === 'string' ? kept : undefined, change);
    await this.replace(row, current.etag);
    return withoutSecret(channelOf(row));
  }

  /** Deletes a channel no rule uses; one in use is a conflict naming the rules. */
  async deleteChannel(id: string): Promise<void> {
    const using = (await this.listRules()).filter(
      (rule) => rule.channelIds.includes(id) || rule.escalation?.channelIds.includes(id),
    );
    if (using.length > 0) {
      throw new ConflictError(
        `The channel is used by the rules ${using.map((rule) => `'${rule.name}'`).join(', ')}; change them first.`,
      );
    }
    await this.created();
    await this.tables.deleteEntity(NOTIFICATION_ROUTING_TABLE, {
      partitionKey: CHANNELS,
      rowKey: id,
    });
  }

  async listRules(): Promise<NotificationRule[]> {
    return (await this.rows(RULES)).map(ruleOf);
  }

  async createRule(input: RuleInput, change: ChangedBy): Promise<NotificationRule> {
    await this.checkChannels(input);
    const row = ruleRow(newId(), input, change);
    await this.created();
    await this.tables.upsertEntity(NOTIFICATION_ROUTING_TABLE, row);
    return ruleOf(row);
  }

  async updateRule(id: string, input: RuleInput, change: ChangedBy): Promise<NotificationRule> {
    const current = await this.row(RULES, id);
    if (!current) throw new NotFoundError(`There is no notification rule ${id}.`);
    await this.checkChannels(input);
    const row = ruleRow(id, input, change);
    await this.replace(row, current.etag);
    return ruleOf(row);
  }

  async deleteRule(id: string): Promise<void> {
    await this.created();
    await this.tables.deleteEntity(NOTIFICATION_ROUTING_TABLE, { partitionKey: RULES, rowKey: id });
  }

  /** Every channel with what delivering to it needs (the webhook's secret), by id. */
  async deliverableChannels(): Promise<Map<string, DeliverableChannel>> {
    return new Map((await this.rows(CHANNELS)).map((row) => [row.RowKey, channelOf(row)]));
  }

  /** Every channel a rule names must exist: a 400 naming the field otherwise. */
  private async checkChannels(input: RuleInput): Promise<void> {
    const known = new Set((await this.rows(CHANNELS)).map((row) => row.RowKey));
    const missing = (ids: readonly string[]) => ids.filter((id) => !known.has(id));
    const first = missing(input.channelIds);
    if (first.length > 0) {
      throw new InputError(`body.channelIds: no channel ${first.join(', ')}`, 'body.channelIds');
    }
    const escalation = missing(input.escalation?.channelIds ?? []);
    if (escalation.length > 0) {
      throw new InputError(
        `body.escalation.channelIds: no channel ${escalation.join(', ')}`,
        'body.escalation.channelIds',
      );
    }
  }

  /** Replaces a row only if nobody changed it since it was read (412 → 409, read it again). */
  private async replace(row: AppTableEntity, etag: string | undefined): Promise<void> {
    try {
      await this.tables.updateEntity(NOTIFICATION_ROUTING_TABLE, row, {
        mode: 'Replace',
        ...(etag ? { etag } : {}),
      });
    } catch (error) {
      if (isServiceError(error) && (error.statusCode === 412 || error.statusCode === 404)) {
        throw new ConflictError(
          'Someone changed or deleted it meanwhile; read it again and retry.',
        );
      }
      throw error;
    }
  }

  private async rows(partition: string): Promise<AppTableEntity[]> {
    await this.created();
    const rows: AppTableEntity[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.tables.queryEntities(NOTIFICATION_ROUTING_TABLE, {
        filter: `PartitionKey eq '${partition}'`,
        ...(continuationToken ? { continuationToken } : {}),
      });
      rows.push(...page.entities);
      continuationToken = page.continuationToken;
    } while (continuationToken);
    return rows.sort((a, b) => String(a.Name).localeCompare(String(b.Name)));
  }

  private async row(partition: string, id: string): Promise<AppTableEntity | undefined> {
    await this.created();
    return this.tables.getEntity(NOTIFICATION_ROUTING_TABLE, {
      partitionKey: partition,
      rowKey: id,
    });
  }

  private async created(): Promise<void> {
    this.ready ??= this.tables.createTable(NOTIFICATION_ROUTING_TABLE).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    await this.ready;
  }
}

function newId(): string {
  return randomUUID().replaceAll('-', '');
}

function channelRow(
  id: string,
  input: NotificationChannelInput,
  keptSecret: string | undefined,
  change: ChangedBy,
): AppTableEntity {
  const secret = input.type === 'webhook' ? (input.secret ?? keptSecret) : undefined;
  return {
    PartitionKey: CHANNELS,
    RowKey: id,
    Type: input.type,
    Name: input.name,
    ...(input.type === 'email'
      ? { Recipients: JSON.stringify(input.recipients) }
      : { Url: input.url }),
    ...(secret ? { Secret: secret } : {}),
    UpdatedAt: change.at.toISOString(),
    UpdatedBy: change.by,
  };
}

function channelOf(row: AppTableEntity): DeliverableChannel {
  const type = row.Type as NotificationChannel['type'];
  return {
    id: row.RowKey,
    type,
    name: String(row.Name),
    ...(type === 'email' ? { recipients: JSON.parse(String(row.Recipients)) as string[] } : {}),
    ...(type !== 'email' ? { url: String(row.Url) } : {}),
    ...(type === 'webhook' ? { secretSet: typeof row.Secret === 'string' } : {}),
    ...(typeof row.Secret === 'string' ? { secret: row.Secret } : {}),
    updatedAt: String(row.UpdatedAt),
    updatedBy: String(row.UpdatedBy),
  };
}

function withoutSecret({ secret: _secret, ...channel }: DeliverableChannel): NotificationChannel {
  return channel;
}

function ruleRow(id: string, input: RuleInput, change: ChangedBy): AppTableEntity {
  return {
    PartitionKey: RULES,
    RowKey: id,
    Name: input.name,
    Client: input.client,
    Kinds: JSON.stringify(input.kinds),
    ChannelIds: JSON.stringify(input.channelIds),
    ...(input.escalation
      ? {
          EscalationChannelIds: JSON.stringify(input.escalation.channelIds),
          EscalationAfterHours: input.escalation.afterHours,
        }
      : {}),
    Digest: input.digest,
    Enabled: input.enabled,
    ...(input.deviationExpiringDays !== undefined
      ? { DeviationExpiringDays: input.deviationExpiringDays }
      : {}),
    ...(input.approvalWaitingHours !== undefined
      ? { ApprovalWaitingHours: input.approvalWaitingHours }
      : {}),
    UpdatedAt: change.at.toISOString(),
    UpdatedBy: change.by,
  };
}

function ruleOf(row: AppTableEntity): NotificationRule {
  return {
    id: row.RowKey,
    name: String(row.Name),
    client: String(row.Client),
    kinds: JSON.parse(String(row.Kinds)) as NotificationEventKind[],
    channelIds: JSON.parse(String(row.ChannelIds)) as string[],
    ...(typeof row.EscalationChannelIds === 'string'
      ? {
          escalation: {
            channelIds: JSON.parse(row.EscalationChannelIds) as string[],
            afterHours: Number(row.EscalationAfterHours),
          },
        }
      : {}),
    digest: row.Digest === true,
    enabled: row.Enabled !== false,
    ...(typeof row.DeviationExpiringDays === 'number'
      ? { deviationExpiringDays: row.DeviationExpiringDays }
      : {}),
    ...(typeof row.ApprovalWaitingHours === 'number'
      ? { approvalWaitingHours: row.ApprovalWaitingHours }
      : {}),
    updatedAt: String(row.UpdatedAt),
    updatedBy: String(row.UpdatedBy),
  };
}
