// Graph `sendMail` (user: sendMail, v1.0 and beta) and where the tenant emulator keeps what it
// received (issue 28 §6):
//   POST /{v1.0|beta}/users/{id | userPrincipalName}/sendMail   202, 400 naming the field, 404
//   GET    /_emulator/mail                       messages received, oldest first
//   DELETE /_emulator/mail
//   POST   /_emulator/webhooks/in/{sink}          a webhook receiver: keeps the request, answers 202
//   GET    /_emulator/webhooks                    requests received, oldest first
//   DELETE /_emulator/webhooks                    forget them (and every sink's failure)
//   PUT    /_emulator/webhooks/sinks/{sink}/failure   {"status":500,"times":2}: the sink fails
//   DELETE /_emulator/webhooks/sinks/{sink}/failure
// The body is checked against the action's parameters in Microsoft's CSDL (Message: graph.message,
// Nullable=false; SaveToSentItems: Edm.Boolean), recipient/emailAddress, itemBody with bodyType
// text|html and fileAttachment (name, contentType, contentBytes Edm.Binary), names matched without
// regard to case as Graph does.
import { randomUUID } from 'node:crypto';

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

import type { EmulatorDeliveries, ReceivedAttachment, ReceivedMail } from './deliveries';
import { EmulatorError, principalOf } from './wire';
import type { TenantWorld } from './world';

/** Graph's limit on a request (attachments included, base64-encoded). */
const REQUEST_LIMIT_IN_BYTES = 4 * 1024 * 1024;

/** The MSP's own tenant as the emulator knows it: only its mailboxes (ADR 065). */
export interface MspTenant {
  readonly tenantId: string;
  /** user principal names whose mailbox may send */
  readonly mailboxes: readonly string[];
}

type JsonRecord = Record<string, unknown>;

function invalid(field: string, message: string): EmulatorError {
  return new EmulatorError(400, 'ErrorInvalidRequest', `${field}: ${message}`);
}

/** The value of `name` in `record`, the name matched without regard to case. */
function property(record: JsonRecord, name: string): unknown {
  const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : record[key];
}

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(record: JsonRecord, name: string, field: string): string | undefined {
  const value = property(record, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  return value;
}

const ADDRESS = z.email();

function addresses(message: JsonRecord, name: string): string[] {
  const value = property(message, name);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`message.${name}`, 'must be an array of recipient');
  return value.map((recipient: unknown, index) => {
    const field = `message.${name}[${index}].emailAddress.address`;
    const emailAddress = isRecord(recipient) ? property(recipient, 'emailAddress') : undefined;
    const address = isRecord(emailAddress) ? property(emailAddress, 'address') : undefined;
    if (typeof address !== 'string' || !ADDRESS.safeParse(address).success) {
      throw invalid(field, 'must be an email address');
    }
    return address;
  });
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function attachments(message: JsonRecord): ReceivedAttachment[] {
  const value = property(message, 'attachments');
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid('message.attachments', 'must be an array');
  return value.map((attachment: unknown, index) => {
    const field = `message.attachments[${index}]`;
    if (!isRecord(attachment)) throw invalid(field, 'must be an object');
    if (attachment['@odata.type'] !== '#microsoft.graph.fileAttachment') {
      throw invalid(
        `${field}.@odata.type`,
        "the emulator keeps '#microsoft.graph.fileAttachment' only",
      );
    }
    const name = optionalString(attachment, 'name', `${field}.name`);
    if (!name) throw invalid(`${field}.name`, 'required');
    const contentBytes = property(attachment, 'contentBytes');
    if (typeof contentBytes !== 'string' || !BASE64.test(contentBytes)) {
      throw invalid(`${field}.contentBytes`, 'must be base64 (Edm.Binary)');
    }
    return {
      name,
      contentType:
        optionalString(attachment, 'contentType', `${field}.contentType`) ??
        'application/octet-stream',
      contentBytes,
    };
  });
}

function parseSendMail(
  body: unknown,
): Omit<ReceivedMail, 'id' | 'from' | 'receivedAt'> & { saveToSentItems: boolean } {
  if (!isRecord(body)) {
    throw new EmulatorError(400, 'BadRequest', 'Empty Payload. JSON content expected.');
  }
  for (const key of Object.keys(body)) {
    if (!['message', 'savetosentitems'].includes(key.toLowerCase())) {
      throw invalid(key, "is not a parameter of 'sendMail'");
    }
  }
  const message = property(body, 'message');
  if (!isRecord(message)) throw invalid('message', 'required (a message object)');
  const saveToSentItems = property(body, 'saveToSentItems');
  if (saveToSentItems !== undefined && saveToSentItems !== null) {
    if (typeof saveToSentItems !== 'boolean') throw invalid('saveToSentItems', 'must be a boolean');
  }
  const itemBody = property(message, 'body');
  let content = '';
  let contentType = 'text';
  if (itemBody !== undefined && itemBody !== null) {
    if (!isRecord(itemBody)) throw invalid('message.body', 'must be an itemBody object');
    content = optionalString(itemBody, 'content', 'message.body.content') ?? '';
    const type = optionalString(itemBody, 'contentType', 'message.body.contentType') ?? 'text';
    if (!['text', 'html'].includes(type.toLowerCase())) {
      throw invalid('message.body.contentType', "must be 'text' or 'html'");
    }
    contentType = type.toLowerCase();
  }
  const to = addresses(message, 'toRecipients');
  const cc = addresses(message, 'ccRecipients');
  const bcc = addresses(message, 'bccRecipients');
  if (to.length + cc.length + bcc.length === 0) {
    throw new EmulatorError(
      400,
      'ErrorInvalidRecipients',
      'message.toRecipients: at least one recipient is required.',
    );
  }
  return {
    to,
    cc,
    subject: optionalString(message, 'subject', 'message.subject') ?? '',
    body: { contentType, content },
    attachments: attachments(message),
    saveToSentItems: saveToSentItems ?? true,
  };
}

/**
 * Whose mailbox the path names, in the caller's tenant: a configured mailbox of the MSP's tenant,
 * or a user of a simulated tenant (its Global Administrator). Undefined when there is none.
 */
function mailboxOf(
  world: TenantWorld,
  msp: MspTenant | undefined,
  tenantId: string,
  user: string,
): string | undefined {
  const key = decodeURIComponent(user).toLowerCase();
  if (msp && tenantId === msp.tenantId) {
    return msp.mailboxes.find((mailbox) => mailbox.toLowerCase() === key);
  }
  const tenant = world.find(tenantId);
  const admin = tenant?.globalAdministrator;
  if (admin && (admin.upn.toLowerCase() === key || admin.oid === key)) return admin.upn;
  return undefined;
}

export function registerMailRoutes(
  app: FastifyInstance,
  world: TenantWorld,
  deliveries: EmulatorDeliveries,
  msp: MspTenant | undefined,
): void {
  for (const version of ['v1.0', 'beta'] as const) {
    app.post<{ Params: { user: string } }>(
      `/${version}/users/:user/sendMail`,
      async (request, reply) => {
        const principal = principalOf(request);
        const length = Number(request.headers['content-length'] ?? 0);
        if (length > REQUEST_LIMIT_IN_BYTES) {
          throw new EmulatorError(
            413,
            'RequestEntityTooLarge',
            `The request is ${length} bytes; the maximum is ${REQUEST_LIMIT_IN_BYTES}.`,
          );
        }
        const from = mailboxOf(world, msp, principal.tenantId, request.params.user);
        if (!from) {
          throw new EmulatorError(
            404,
            'ErrorInvalidUser',
            `The requested user '${decodeURIComponent(request.params.user)}' is invalid.`,
          );
        }
        const parsed = parseSendMail(request.body);
        deliveries.keepMail({
          id: randomUUID(),
          from,
          ...parsed,
          receivedAt: deliveries.receivedAt(),
        });
        return reply.code(202).send();
      },
    );
  }
}

const sinkFailureBody = z
  .object({
    status: z.number().int().min(400).max(599),
    times: z.number().int().min(1).max(1000).nullable().optional(),
  })
  .strict();

function headersOf(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers[name] = value;
    else if (Array.isArray(value)) headers[name] = value.join(', ');
  }
  return headers;
}

export function registerDeliveryRoutes(app: FastifyInstance, deliveries: EmulatorDeliveries) {
  app.get('/_emulator/mail', () => ({ value: deliveries.receivedMail() }));
  app.delete('/_emulator/mail', async (_request, reply) => {
    deliveries.clearMail();
    return reply.code(204).send();
  });
  app.get('/_emulator/webhooks', () => ({ value: deliveries.receivedWebhooks() }));
  app.delete('/_emulator/webhooks', async (_request, reply) => {
    deliveries.clearWebhooks();
    return reply.code(204).send();
  });
  app.put<{ Params: { sink: string } }>(
    '/_emulator/webhooks/sinks/:sink/failure',
    async (request, reply) => {
      const parsed = sinkFailureBody.safeParse(request.body ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return reply.code(400).send({
          message: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
        });
      }
      const failure = { status: parsed.data.status, remaining: parsed.data.times ?? null };
      deliveries.failSink(request.params.sink, failure);
      return failure;
    },
  );
  app.delete<{ Params: { sink: string } }>(
    '/_emulator/webhooks/sinks/:sink/failure',
    async (request, reply) => {
      deliveries.healSink(request.params.sink);
      return reply.code(204).send();
    },
  );
  // A receiver takes any body: it is kept as text, so a signature over it can be checked.
  void app.register((scope, _options, registered) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });
    scope.post<{ Params: { sink: string } }>(
      '/_emulator/webhooks/in/:sink',
      async (request, reply) => {
        const failure = deliveries.takeFailure(request.params.sink);
        if (failure !== undefined) {
          return reply
            .code(failure)
            .send({ message: `The sink '${request.params.sink}' is switched to fail.` });
        }
        const rawBody = typeof request.body === 'string' ? request.body : '';
        let body: unknown = rawBody;
        if (/json/i.test(request.headers['content-type'] ?? '')) {
          try {
            body = JSON.parse(rawBody) as unknown;
          } catch {
            return reply.code(400).send({ message: 'body: not valid JSON' });
          }
        }
        deliveries.keepWebhook({
          sink: request.params.sink,
          url: `${request.protocol}://${request.host}${request.url}`,
          headers: headersOf(request),
          body,
          rawBody,
          receivedAt: deliveries.receivedAt(),
        });
        return reply.code(202).send();
      },
    );
    registered();
  });
}
