// The one door for email (issue 28 §4, issue 29): Microsoft Graph `sendMail` from a mailbox of the
// MSP's own tenant, with an app-only token that holds Mail.Send (ADR 065). An M365 MSP has such a
// mailbox, so Aegis keeps no SMTP credentials.
// Contract: POST /users/{id | userPrincipalName}/sendMail, body {message, saveToSentItems}, 202
// Accepted and no body (https://learn.microsoft.com/graph/api/user-sendmail).
import { Buffer } from 'node:buffer';

import { ServiceError } from '../shared';

import type { GraphClient } from './graph-client';

/**
 * Graph refuses a request above 4 MB; attachments travel base64-encoded inside it (4/3 of their
 * size), so what the JSON may carry is checked before sending rather than learnt from a 413.
 */
export const SEND_MAIL_REQUEST_LIMIT_IN_BYTES = 4 * 1024 * 1024;

export interface MailAttachment {
  /** the file name the recipient sees, e.g. `ABC-report-2026-11.pdf` */
  readonly name: string;
  /** MIME type, e.g. `application/pdf` */
  readonly contentType: string;
  readonly content: Uint8Array;
}

export interface MailMessage {
  readonly subject: string;
  readonly body: { readonly contentType: 'text' | 'html'; readonly content: string };
  /** addresses; at least one of `to` and `cc` */
  readonly to: readonly string[];
  readonly cc?: readonly string[];
  readonly attachments?: readonly MailAttachment[];
}

export interface SendMailOptions {
  /** keep a copy in the sender's Sent Items (Graph's default: true) */
  readonly saveToSentItems?: boolean;
  readonly abortSignal?: AbortSignal;
}

/** The email port: what notifications and customer reports send through. */
export interface MailSender {
  /** the mailbox messages are sent from */
  readonly sender: string;
  send(message: MailMessage, options?: SendMailOptions): Promise<void>;
}

function recipients(addresses: readonly string[] | undefined) {
  return (addresses ?? []).map((address) => ({ emailAddress: { address } }));
}

/** The request body of `sendMail` for a message (Graph's message, recipient, fileAttachment). */
export function sendMailBody(message: MailMessage, saveToSentItems = true): unknown {
  return {
    message: {
      subject: message.subject,
      body: { contentType: message.body.contentType, content: message.body.content },
      toRecipients: recipients(message.to),
      ...(message.cc?.length ? { ccRecipients: recipients(message.cc) } : {}),
      ...(message.attachments?.length
        ? {
            attachments: message.attachments.map((attachment) => ({
              '@odata.type': '#microsoft.graph.fileAttachment',
              name: attachment.name,
              contentType: attachment.contentType,
              contentBytes: Buffer.from(attachment.content).toString('base64'),
            })),
          }
        : {}),
    },
    saveToSentItems,
  };
}

/** `MailSender` over Graph: one `sendMail` call per message, from one mailbox. */
export class GraphMailSender implements MailSender {
  constructor(
    private readonly graph: GraphClient,
    /** the sending mailbox's user principal name or object id */
    readonly sender: string,
  ) {}

  async send(message: MailMessage, options: SendMailOptions = {}): Promise<void> {
    if (message.to.length + (message.cc?.length ?? 0) === 0) {
      throw new Error('A message needs at least one recipient');
    }
    const body = sendMailBody(message, options.saveToSentItems ?? true);
    const size = Buffer.byteLength(JSON.stringify(body));
    if (size > SEND_MAIL_REQUEST_LIMIT_IN_BYTES) {
      throw new ServiceError(
        `The message is ${size} bytes as JSON; Graph sendMail accepts at most ${SEND_MAIL_REQUEST_LIMIT_IN_BYTES}.`,
        { service: 'graph', statusCode: 413, code: 'RequestEntityTooLarge' },
      );
    }
    await this.graph.send<void>('POST', `/users/${encodeURIComponent(this.sender)}/sendMail`, {
      body,
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
  }
}
