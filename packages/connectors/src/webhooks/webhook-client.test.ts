// The generic webhook's signature checked the way a PSA's receiver checks it: recompute the
// HMAC-SHA256 over `{timestamp}.{raw body}` with node:crypto, compare in constant time, refuse a
// stale timestamp.
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { isServiceError } from '../shared';

import { WebhookClient, verifyWebhookSignature } from './webhook-client';

const SECRET = 'a-shared-secret-of-32-characters';
const NOW = Date.parse('2026-11-27T12:00:00.000Z');

interface Received {
  headers: IncomingHttpHeaders;
  rawBody: string;
}

let server: Server;
let url = '';
let received: Received[] = [];
let answer = 202;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, rawBody: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = answer;
      response.end(answer >= 400 ? 'receiver is down' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/psa`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
  answer = 202;
});

/** A receiver's check, written as a PSA integrator would, independent of the client's code. */
function receiverAccepts(request: Received, secret: string, nowInSeconds: number): boolean {
  const timestamp = String(request.headers['x-aegis-timestamp'] ?? '');
  const signature = String(request.headers['x-aegis-signature'] ?? '');
  if (!/^\d+$/.test(timestamp) || Math.abs(nowInSeconds - Number(timestamp)) > 300) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.rawBody}`).digest('hex')}`;
  const a = Buffer.from(expected);
  const b = Buffer.from(signature);
  return a.length === b.length && timingSafeEqual(a, b);
}

const payload = {
  type: 'notification',
  notifications: [{ clientCode: 'ABC', title: 'Drift – ünïcode' }],
};

describe('signed webhook', () => {
  it('is accepted by a receiver that recomputes the signature over the raw body', async () => {
    const client = new WebhookClient({ now: () => NOW });
    const result = await client.post({
      url,
      payload,
      deliveryId: 'ABC-1.raised.psa',
      secret: SECRET,
    });
    expect(result.status).toBe(202);
    const [request] = received;
    expect(request?.headers['x-aegis-timestamp']).toBe(String(NOW / 1000));
    expect(request?.headers['x-aegis-delivery']).toBe('ABC-1.raised.psa');
    expect(JSON.parse(request!.rawBody)).toEqual(payload);
    expect(receiverAccepts(request!, SECRET, NOW / 1000 + 10)).toBe(true);
    expect(
      verifyWebhookSignature({
        secret: SECRET,
        body: request!.rawBody,
        signature: request!.headers['x-aegis-signature'] as string,
        timestamp: request!.headers['x-aegis-timestamp'] as string,
        nowInSeconds: NOW / 1000,
      }),
    ).toBe(true);
  });

  it('is refused with another secret, a changed body or a stale timestamp', async () => {
    await new WebhookClient({ now: () => NOW }).post({
      url,
      payload,
      deliveryId: 'd',
      secret: SECRET,
    });
    const [request] = received;
    expect(receiverAccepts(request!, 'another-secret-of-32-characters!', NOW / 1000)).toBe(false);
    expect(
      receiverAccepts(
        { ...request!, rawBody: request!.rawBody.replace('ABC', 'CON') },
        SECRET,
        NOW / 1000,
      ),
    ).toBe(false);
    expect(receiverAccepts(request!, SECRET, NOW / 1000 + 301)).toBe(false);
    expect(
      verifyWebhookSignature({
        secret: SECRET,
        body: request!.rawBody,
        signature: request!.headers['x-aegis-signature'] as string,
        timestamp: request!.headers['x-aegis-timestamp'] as string,
        nowInSeconds: NOW / 1000 - 301,
      }),
    ).toBe(false);
  });

  it('sends no signature headers to a Teams Workflows URL (it carries its own)', async () => {
    await new WebhookClient().post({ url, payload, deliveryId: 'd' });
    expect(received[0]?.headers['x-aegis-signature']).toBeUndefined();
    expect(received[0]?.headers['x-aegis-delivery']).toBe('d');
  });

  it("reports the receiver's refusal with its status, once (the outbox retries, not the client)", async () => {
    answer = 503;
    const error: unknown = await new WebhookClient()
      .post({ url, payload, deliveryId: 'd', secret: SECRET })
      .catch((e: unknown) => e);
    expect(isServiceError(error) && error.statusCode).toBe(503);
    expect(received).toHaveLength(1);
  });
});
