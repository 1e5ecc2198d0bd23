// Fault injection for the emulators: latency, 429 with Retry-After, 5xx and the DevOps "203 sign-in
// page", optionally scoped to a method and a path pattern and to a number of requests. Driven in
// code (`faults.add(...)`) or over HTTP (`POST /_emulator/faults`).
import { randomUUID } from 'node:crypto';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type FaultKind = 'latency' | 'throttle' | 'error' | 'signInPage';

export interface FaultRule {
  kind: FaultKind;
  /** regular expression matched against the request path (without query) */
  pathPattern?: string;
  /** regular expression matched against the query string (without `?`), e.g. `recursionLevel=Full` */
  queryPattern?: string;
  /** HTTP method, case-insensitive; all methods when absent */
  method?: string;
  /** latency: delay before the request is handled */
  latencyInMs?: number;
  /** throttle: Retry-After in seconds (default 1) */
  retryAfterInSeconds?: number;
  /** error: status code (default 500) */
  statusCode?: number;
  /** error/throttle: the message of the error body */
  message?: string;
  /** number of matching requests the rule applies to; unlimited when absent */
  times?: number;
}

export interface ActiveFault extends FaultRule {
  id: string;
  hits: number;
}

export type ErrorBodyFormatter = (statusCode: number, message: string, typeKey: string) => unknown;

const defaultFormatter: ErrorBodyFormatter = (statusCode, message) => ({ statusCode, message });

export const SIGN_IN_PAGE_HTML =
  '<!DOCTYPE html><html><head><title>Azure DevOps Services | Sign In</title></head>' +
  '<body><form id="signin" action="https://login.microsoftonline.com/">Sign in</form></body></html>';

const waitFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class FaultInjector {
  private rules: ActiveFault[] = [];

  constructor(
    private readonly formatError: ErrorBodyFormatter = defaultFormatter,
    /** how a latency fault holds a request (a test holds it until it says so) */
    private readonly wait: (ms: number) => Promise<void> = waitFor,
  ) {}

  add(rule: FaultRule): string {
    const id = randomUUID();
    this.rules.push({ ...rule, id, hits: 0 });
    return id;
  }

  remove(id: string): void {
    this.rules = this.rules.filter((r) => r.id !== id);
  }

  clear(): void {
    this.rules = [];
  }

  list(): ActiveFault[] {
    return this.rules.map((r) => ({ ...r }));
  }

  /** The rules a request triggers (consuming their `times`). */
  take(method: string, urlPath: string, query = ''): ActiveFault[] {
    const matched = this.rules.filter(
      (r) =>
        (!r.method || r.method.toUpperCase() === method.toUpperCase()) &&
        (!r.pathPattern || new RegExp(r.pathPattern, 'i').test(urlPath)) &&
        (!r.queryPattern || new RegExp(r.queryPattern, 'i').test(query)),
    );
    for (const rule of matched) rule.hits += 1;
    this.rules = this.rules.filter((r) => r.times === undefined || r.hits < r.times);
    return matched;
  }

  /** Fastify onRequest hook: applies latency, then answers for the first failing rule. */
  readonly hook = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const [urlPath = request.url, query = ''] = request.url.split('?');
    if (urlPath.startsWith('/_emulator/')) return;
    const rules = this.take(request.method, urlPath, query);
    const delay = rules.reduce(
      (sum, r) => sum + (r.kind === 'latency' ? (r.latencyInMs ?? 0) : 0),
      0,
    );
    if (delay > 0) await this.wait(delay);
    const failing = rules.find((r) => r.kind !== 'latency');
    if (!failing) return;
    if (failing.kind === 'signInPage') {
      await reply.code(203).type('text/html; charset=utf-8').send(SIGN_IN_PAGE_HTML);
      return;
    }
    if (failing.kind === 'throttle') {
      const seconds = failing.retryAfterInSeconds ?? 1;
      await reply
        .code(429)
        .header('Retry-After', String(seconds))
        .header('X-RateLimit-Resource', 'Core')
        .header('X-RateLimit-Remaining', '0')
        .send(
          this.formatError(
            429,
            failing.message ??
              "TF400733: The request has been canceled: Request was blocked due to exceeding usage of resource 'Core' in namespace 'User'.",
            'RequestBlockedException',
          ),
        );
      return;
    }
    const status = failing.statusCode ?? 500;
    await reply
      .code(status)
      .send(
        this.formatError(
          status,
          failing.message ?? 'VS402901: An unexpected error occurred (injected fault).',
          status === 503 ? 'ServiceUnavailableException' : 'VssServiceException',
        ),
      );
  };
}

function isFaultRule(value: unknown): value is FaultRule {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return kind === 'latency' || kind === 'throttle' || kind === 'error' || kind === 'signInPage';
}

/**
 * Admin endpoints (no auth, emulator only):
 * `GET /_emulator/faults`, `POST /_emulator/faults` with a rule or `{faults:[...]}`,
 * `DELETE /_emulator/faults` (all) and `DELETE /_emulator/faults/:id`.
 */
export function registerFaultRoutes(app: FastifyInstance, faults: FaultInjector): void {
  app.get('/_emulator/faults', () => ({ faults: faults.list() }));
  app.post('/_emulator/faults', async (request, reply) => {
    const body = request.body;
    const rules = Array.isArray((body as { faults?: unknown })?.faults)
      ? (body as { faults: unknown[] }).faults
      : [body];
    if (!rules.every(isFaultRule)) {
      return reply.code(400).send({
        message: "each fault needs kind 'latency' | 'throttle' | 'error' | 'signInPage'",
      });
    }
    const ids = rules.map((rule) => faults.add(rule));
    return reply.code(201).send({ ids, faults: faults.list() });
  });
  app.delete('/_emulator/faults', async (_request, reply) => {
    faults.clear();
    return reply.code(204).send();
  });
  app.delete<{ Params: { id: string } }>('/_emulator/faults/:id', async (request, reply) => {
    faults.remove(request.params.id);
    return reply.code(204).send();
  });
}
