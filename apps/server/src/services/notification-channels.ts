// Sending one message to one channel (issue 28 §4, ADR 065): email through the Graph sendMail
// door, Teams through a Workflows webhook with an Adaptive Card, the generic webhook signed with
// HMAC-SHA256. The answer says whether it went, and if not whether trying again may help.
import { isServiceError } from '@aegis/connectors';
import type { MailSender } from '@aegis/connectors/graph';
import type { WebhookPoster } from '@aegis/connectors/webhooks';
import {
  emailFor,
  teamsMessageFor,
  webhookPayloadFor,
  type MessageItem,
  type SendOutcome,
} from '@aegis/domain';

/** A channel with what sending to it needs (the webhook's secret never leaves the server). */
export interface DeliverableChannel {
  readonly id: string;
  readonly type: 'email' | 'teams' | 'webhook';
  readonly name: string;
  readonly recipients?: readonly string[];
  readonly url?: string;
  readonly secret?: string;
}

export interface ChannelSendResult {
  readonly outcome: SendOutcome;
  /** the receiver's HTTP status, when it answered */
  readonly statusCode?: number;
}

/** The receiver's status and text, short; never the URL (a Workflows URL carries its key). */
function describe(error: unknown): { text: string; statusCode?: number; retryable: boolean } {
  if (isServiceError(error)) {
    const status = error.statusCode;
    // no answer, a timeout, throttling or the receiver's own failure may pass; a refusal stays
    const retryable = status === undefined || status === 408 || status === 429 || status >= 500;
    const text = `${status ?? error.code ?? 'no answer'}: ${error.message}`.slice(0, 500);
    return { text, retryable, ...(status !== undefined ? { statusCode: status } : {}) };
  }
  return { text: (error as Error).message.slice(0, 500), retryable: true };
}

export class ChannelSender {
  constructor(
    private readonly ports: {
      /** none when no sending mailbox is configured (AEGIS_MAIL_SENDER) */
      readonly mail: MailSender | undefined;
      readonly webhooks: WebhookPoster;
      /** the portal's address, for links in messages */
      readonly portalUrl: string;
    },
  ) {}

  /** Sends `items` (one notification, or a digest of several) to `channel` as one message. */
  async send(
    channel: DeliverableChannel,
    items: readonly MessageItem[],
    deliveryId: string,
  ): Promise<ChannelSendResult> {
    try {
      const statusCode = await this.sendOnce(channel, items, deliveryId);
      return { outcome: { ok: true }, ...(statusCode !== undefined ? { statusCode } : {}) };
    } catch (error) {
      const { text, statusCode, retryable } = describe(error);
      return {
        outcome: { ok: false, error: text, retryable },
        ...(statusCode !== undefined ? { statusCode } : {}),
      };
    }
  }

  private async sendOnce(
    channel: DeliverableChannel,
    items: readonly MessageItem[],
    deliveryId: string,
  ): Promise<number | undefined> {
    const { portalUrl } = this.ports;
    if (channel.type === 'email') {
      const mail = this.ports.mail;
      if (!mail) {
        throw new Error(
          'No mailbox sends email: set AEGIS_MAIL_SENDER to a mailbox of your tenant',
        );
      }
      const content = emailFor(items, portalUrl);
      await mail.send({
        subject: content.subject,
        body: { contentType: 'html', content: content.html },
        to: channel.recipients ?? [],
      });
      return 202;
    }
    if (!channel.url) throw new Error(`The channel '${channel.name}' has no URL`);
    const payload =
      channel.type === 'teams'
        ? teamsMessageFor(items, portalUrl)
        : webhookPayloadFor(items, portalUrl);
    const answer = await this.ports.webhooks.post({
      url: channel.url,
      payload,
      deliveryId,
      ...(channel.type === 'webhook' && channel.secret ? { secret: channel.secret } : {}),
    });
    return answer.status;
  }
}
