// Posting notifications to webhooks (issue 28 §4, ADR 065): a Teams Workflows webhook (a flow
// 'Post to a channel when a webhook request is received', which takes a message with an Adaptive
// Card) and a generic webhook signed with HMAC-SHA256 for a PSA or any automation.
//
// The generic webhook's signature, for receivers:
//   X-Aegis-Timestamp: <Unix time in seconds when it was sent>
//   X-Aegis-Signature: sha256=<hex HMAC-SHA256 with the shared secret over `{timestamp}.{body}`>
//   X-Aegis-Delivery:  <id of this message; a retry carries the same id>
// A receiver recomputes the HMAC over the timestamp, a dot and the raw body, compares it in
// constant time, and refuses a timestamp more than 5 minutes from its clock (a replay).
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';

import { HttpPipeline } from '../shared';

export const SIGNATURE_HEADER = 'x-aegis-signature';
export const TIMESTAMP_HEADER = 'x-aegis-timestamp';
export const DELIVERY_HEADER = 'x-aegis-delivery';
/** How far a receiver lets a timestamp be from its own clock. */
export const SIGNATURE_TOLERANCE_IN_SECONDS = 300;

/** `sha256=<hex>` over `{timestamp}.{body}`. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  const hmac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `sha256=${hmac}`;
}

/**
 * What a receiver does with a signed request: true only for the right signature over this body
 * with a timestamp within the tolerance of `nowInSeconds`.
 */
export function verifyWebhookSignature(options: {
  secret: string;
  body: string;
  signature: string | undefined;
  timestamp: string | undefined;
  nowInSeconds: number;
  toleranceInSeconds?: number;
}): boolean {
  const timestamp = Number(options.timestamp);
  if (!options.signature || !Number.isInteger(timestamp)) return false;
  const tolerance = options.toleranceInSeconds ?? SIGNATURE_TOLERANCE_IN_SECONDS;
  if (Math.abs(options.nowInSeconds - timestamp) > tolerance) return false;
  const expected = Buffer.from(webhookSignature(options.secret, timestamp, options.body));
  const given = Buffer.from(options.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export interface WebhookPost {
  readonly url: string;
  /** serialised as JSON */
  readonly payload: unknown;
  /** the outbox entry's id: a retry carries the same one */
  readonly deliveryId: string;
  /** signs the request (the generic webhook); Teams Workflows URLs carry their own signature */
  readonly secret?: string;
  readonly abortSignal?: AbortSignal;
}

export interface WebhookClientOptions {
  readonly fetch?: typeof fetch;
  readonly timeoutInMs?: number;
  /** Unix time in ms (tests fix it) */
  readonly now?: () => number;
}

/** The webhook port: one POST, no retries of its own (the outbox retries over time). */
export interface WebhookPoster {
  post(request: WebhookPost): Promise<{ status: number }>;
}

export class WebhookClient implements WebhookPoster {
  private readonly http: HttpPipeline;
  private readonly now: () => number;

  constructor(options: WebhookClientOptions = {}) {
    this.now = options.now ?? Date.now;
    this.http = new HttpPipeline({
      service: 'webhook',
      retry: { maxRetries: 0 },
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.timeoutInMs ? { timeoutInMs: options.timeoutInMs } : {}),
      // a webhook URL carries its secret in the query (Workflows' `sig`): trace the path only
      urlTemplate: (url) => `${url.origin}/…`,
    });
  }

  async post(request: WebhookPost): Promise<{ status: number }> {
    const headers: Record<string, string> = { [DELIVERY_HEADER]: request.deliveryId };
    if (request.secret !== undefined) {
      const timestamp = Math.floor(this.now() / 1000);
      // the pipeline sends JSON.stringify(payload): the signature is over exactly that text
      const body = JSON.stringify(request.payload);
      headers[TIMESTAMP_HEADER] = String(timestamp);
      headers[SIGNATURE_HEADER] = webhookSignature(request.secret, timestamp, body);
    }
    const response = await this.http.send<string>({
      method: 'POST',
      url: request.url,
      headers,
      body: request.payload,
      responseType: 'text',
      ...(request.abortSignal ? { abortSignal: request.abortSignal } : {}),
    });
    return { status: response.status };
  }
}
