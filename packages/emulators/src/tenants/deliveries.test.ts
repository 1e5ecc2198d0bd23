// The tenant emulator takes Graph sendMail from the MSP's mailbox as Microsoft's contract says and
// keeps what it received at /_emulator/mail; webhook sinks keep what is posted to them and can be
// switched to fail (issue 28 §6).
import { Buffer } from 'node:buffer';

import { GraphClient, GraphMailSender } from '@aegis/connectors/graph';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { EmulatorDeliveries } from './deliveries';
import { SIMULATED_TENANTS } from './registry';
import type { TenantEmulator } from './server';
import { appToken, MSP_MAILBOX, mspAppToken, startTestTenantEmulator } from './test-support';

let emulator: TenantEmulator;

beforeAll(async () => {
  emulator = await startTestTenantEmulator();
});
afterAll(() => emulator.close());
beforeEach(() => emulator.deliveries.clear());

function mailSender(token = mspAppToken, sender = MSP_MAILBOX): GraphMailSender {
  return new GraphMailSender(
    new GraphClient({
      baseUrl: emulator.url,
      getToken: () => Promise.resolve(token),
      retry: { maxRetries: 0 },
    }),
    sender,
  );
}

async function sendRaw(body: unknown, user = MSP_MAILBOX, token = mspAppToken) {
  const response = await fetch(`${emulator.url}/v1.0/users/${user}/sendMail`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    error: text ? (JSON.parse(text) as { error: { code: string; message: string } }).error : null,
  };
}

async function mailbox() {
  const response = await fetch(`${emulator.url}/_emulator/mail`);
  return (await response.json()) as {
    value: {
      from: string;
      to: string[];
      subject: string;
      body: { contentType: string; content: string };
      receivedAt: string;
      attachments: { name: string; contentType: string; contentBytes: string }[];
    }[];
  };
}

const message = {
  subject: 'Drift detected: ABC',
  body: { contentType: 'text', content: 'Conditional Access changed' },
  toRecipients: [{ emailAddress: { address: 'oncall@aegis-msp.example' } }],
};

describe('sendMail', () => {
  it('keeps a message with a PDF attachment byte for byte', async () => {
    // a PDF header then every byte value: any re-encoding on the way would show
    const pdf = new Uint8Array([
      ...Buffer.from('%PDF-1.7\n', 'latin1'),
      ...Array.from({ length: 3 * 256 }, (_, i) => i % 256),
    ]);
    await mailSender().send({
      subject: 'Monthly report: ABC',
      body: { contentType: 'html', content: '<p>Attached.</p>' },
      to: ['client@abc.example', 'second@abc.example'],
      cc: ['tam@aegis-msp.example'],
      attachments: [{ name: 'ABC-2026-11.pdf', contentType: 'application/pdf', content: pdf }],
    });
    const { value } = await mailbox();
    expect(value).toHaveLength(1);
    const [received] = value;
    expect(received).toMatchObject({
      from: MSP_MAILBOX,
      to: ['client@abc.example', 'second@abc.example'],
      cc: ['tam@aegis-msp.example'],
      subject: 'Monthly report: ABC',
      body: { contentType: 'html', content: '<p>Attached.</p>' },
      attachments: [{ name: 'ABC-2026-11.pdf', contentType: 'application/pdf' }],
    });
    expect(Date.parse(received!.receivedAt)).not.toBeNaN();
    const bytes = Buffer.from(received!.attachments[0]!.contentBytes, 'base64');
    expect(bytes.equals(Buffer.from(pdf))).toBe(true);
  });

  it('answers 202 Accepted with no body, names accepted without regard to case', async () => {
    const result = await sendRaw({ Message: message, SaveToSentItems: false });
    expect(result).toEqual({ status: 202, error: null });
    expect((await mailbox()).value.map((m) => m.subject)).toEqual(['Drift detected: ABC']);
  });

  it.each([
    [{ saveToSentItems: true }, 'message'],
    [{ message, saveToSentItems: 'yes' }, 'saveToSentItems'],
    [{ message, urgent: true }, 'urgent'],
    [
      { message: { ...message, body: { contentType: 'rtf', content: 'x' } } },
      'message.body.contentType',
    ],
    [
      { message: { ...message, toRecipients: [{ emailAddress: { address: 'not an address' } }] } },
      'message.toRecipients[0].emailAddress.address',
    ],
    [
      {
        message: {
          ...message,
          attachments: [
            { '@odata.type': '#microsoft.graph.fileAttachment', name: 'a.pdf', contentBytes: '%%' },
          ],
        },
      },
      'message.attachments[0].contentBytes',
    ],
    [
      { message: { ...message, attachments: [{ name: 'a.pdf', contentBytes: 'QQ==' }] } },
      'message.attachments[0].@odata.type',
    ],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const result = await sendRaw(body);
    expect(result.status).toBe(400);
    expect(result.error?.message.startsWith(`${field}:`)).toBe(true);
    expect((await mailbox()).value).toEqual([]);
  });

  it('refuses a message with no recipient', async () => {
    const result = await sendRaw({ message: { ...message, toRecipients: [] } });
    expect(result.status).toBe(400);
    expect(result.error?.code).toBe('ErrorInvalidRecipients');
  });

  it('answers 404 ErrorInvalidUser for a mailbox the MSP tenant does not have', async () => {
    const result = await sendRaw({ message }, 'nobody@aegis-msp.example');
    expect(result.status).toBe(404);
    expect(result.error?.code).toBe('ErrorInvalidUser');
    await expect(
      mailSender(mspAppToken, 'nobody@aegis-msp.example').send({
        subject: 's',
        body: { contentType: 'text', content: 'b' },
        to: ['a@b.example'],
      }),
    ).rejects.toMatchObject({ statusCode: 404, code: 'ErrorInvalidUser' });
  });

  it("does not let a client tenant's token send from the MSP's mailbox", async () => {
    const abc = SIMULATED_TENANTS.find((t) => t.clientCode === 'ABC')!;
    const result = await sendRaw({ message }, MSP_MAILBOX, appToken(abc));
    expect(result.status).toBe(404);
  });

  it("opens nothing but sendMail to the MSP tenant's token", async () => {
    const response = await fetch(`${emulator.url}/v1.0/users`, {
      headers: { authorization: `Bearer ${mspAppToken}` },
    });
    expect(response.status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    const response = await fetch(`${emulator.url}/v1.0/users/${MSP_MAILBOX}/sendMail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    expect(response.status).toBe(401);
  });
});

describe('what is kept', () => {
  it('drops the oldest messages once their attachments pass 64 MB', () => {
    const deliveries = new EmulatorDeliveries(() => 0);
    const big = 'A'.repeat(25 * 1024 * 1024);
    for (const subject of ['one', 'two', 'three']) {
      deliveries.keepMail({
        id: subject,
        from: MSP_MAILBOX,
        to: ['a@b.example'],
        cc: [],
        subject,
        body: { contentType: 'text', content: '' },
        attachments: [{ name: 'r.pdf', contentType: 'application/pdf', contentBytes: big }],
        saveToSentItems: true,
        receivedAt: deliveries.receivedAt(),
      });
    }
    expect(deliveries.receivedMail().map((m) => m.subject)).toEqual(['two', 'three']);
  });
});

describe('webhook sinks', () => {
  const post = (sink: string, body: string) =>
    fetch(`${emulator.url}/_emulator/webhooks/in/${sink}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-aegis-signature': 'sha256=ab' },
      body,
    });

  it('keeps the body exactly as posted, with its headers and URL', async () => {
    const body = '{"type":"message",  "attachments":[]}';
    expect((await post('teams', body)).status).toBe(202);
    const response = await fetch(`${emulator.url}/_emulator/webhooks`);
    const { value } = (await response.json()) as {
      value: {
        sink: string;
        url: string;
        headers: Record<string, string>;
        body: unknown;
        rawBody: string;
      }[];
    };
    expect(value).toHaveLength(1);
    expect(value[0]).toMatchObject({
      sink: 'teams',
      url: `${emulator.url}/_emulator/webhooks/in/teams`,
      body: { type: 'message', attachments: [] },
      rawBody: body,
    });
    expect(value[0]!.headers['x-aegis-signature']).toBe('sha256=ab');
  });

  it('fails the next posts when switched to, then takes them again', async () => {
    const switched = await fetch(`${emulator.url}/_emulator/webhooks/sinks/psa/failure`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 503, times: 2 }),
    });
    expect(switched.status).toBe(200);
    expect((await post('psa', '{}')).status).toBe(503);
    expect((await post('other', '{}')).status).toBe(202);
    expect((await post('psa', '{}')).status).toBe(503);
    expect((await post('psa', '{}')).status).toBe(202);
    expect(emulator.deliveries.receivedWebhooks().map((w) => w.sink)).toEqual(['other', 'psa']);
  });

  it('refuses a failure switch without a valid status, naming the field', async () => {
    const response = await fetch(`${emulator.url}/_emulator/webhooks/sinks/psa/failure`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 200 }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/^status:/);
  });
});
