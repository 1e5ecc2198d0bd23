// What the tenant emulator received for people to read (issue 28 §6): the messages sent through
// Graph `sendMail` and the webhook requests posted to its sinks, and the switch that makes a sink
// fail (for retry tests and demos). Read at GET /_emulator/mail and GET /_emulator/webhooks.

export interface ReceivedAttachment {
  readonly name: string;
  readonly contentType: string;
  /** base64, as it was sent */
  readonly contentBytes: string;
}

export interface ReceivedMail {
  readonly id: string;
  /** the sending mailbox (the path's user) */
  readonly from: string;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly subject: string;
  readonly body: { readonly contentType: string; readonly content: string };
  readonly attachments: readonly ReceivedAttachment[];
  readonly saveToSentItems: boolean;
  readonly receivedAt: string;
}

export interface ReceivedWebhook {
  /** the sink's name (the last path segment) */
  readonly sink: string;
  /** the full URL it was posted to */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** parsed JSON when it was JSON, the text otherwise */
  readonly body: unknown;
  /** the body exactly as received, for verifying a signature over it */
  readonly rawBody: string;
  readonly receivedAt: string;
}

/** A sink answers `status` to the next `remaining` posts (all of them when null). */
export interface SinkFailure {
  readonly status: number;
  readonly remaining: number | null;
}

/** Messages kept at most, oldest dropped first: a long-running `npm start` stays bounded. */
const KEPT = 500;
/** Attachment text (base64) kept at most across messages: reports carry PDFs of megabytes. */
const KEPT_ATTACHMENT_CHARACTERS = 64 * 1024 * 1024;

const attachmentSize = (message: ReceivedMail): number =>
  message.attachments.reduce((sum, a) => sum + a.contentBytes.length, 0);

export class EmulatorDeliveries {
  private mail: ReceivedMail[] = [];
  private webhooks: ReceivedWebhook[] = [];
  private readonly failures = new Map<string, SinkFailure>();

  constructor(private readonly now: () => number = Date.now) {}

  receivedAt(): string {
    return new Date(this.now()).toISOString();
  }

  keepMail(message: ReceivedMail): void {
    const kept = [...this.mail, message].slice(-KEPT);
    let size = kept.reduce((sum, m) => sum + attachmentSize(m), 0);
    while (size > KEPT_ATTACHMENT_CHARACTERS && kept.length > 1) {
      size -= attachmentSize(kept.shift()!);
    }
    this.mail = kept;
  }

  keepWebhook(webhook: ReceivedWebhook): void {
    this.webhooks = [...this.webhooks, webhook].slice(-KEPT);
  }

  receivedMail(): readonly ReceivedMail[] {
    return this.mail;
  }

  receivedWebhooks(): readonly ReceivedWebhook[] {
    return this.webhooks;
  }

  failSink(sink: string, failure: SinkFailure): void {
    this.failures.set(sink.toLowerCase(), failure);
  }

  healSink(sink: string): void {
    this.failures.delete(sink.toLowerCase());
  }

  sinkFailure(sink: string): SinkFailure | undefined {
    return this.failures.get(sink.toLowerCase());
  }

  /** The status a post to `sink` fails with now (consuming one of its `remaining`), or none. */
  takeFailure(sink: string): number | undefined {
    const failure = this.failures.get(sink.toLowerCase());
    if (!failure) return undefined;
    if (failure.remaining !== null) {
      if (failure.remaining <= 1) this.failures.delete(sink.toLowerCase());
      else this.failures.set(sink.toLowerCase(), { ...failure, remaining: failure.remaining - 1 });
    }
    return failure.status;
  }

  clearMail(): void {
    this.mail = [];
  }

  /** Forgets the webhooks received and every sink's failure. */
  clearWebhooks(): void {
    this.webhooks = [];
    this.failures.clear();
  }

  clear(): void {
    this.clearMail();
    this.clearWebhooks();
  }
}
