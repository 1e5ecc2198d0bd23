import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters whose values are credentials (OAuth, SAS, API keys). */
const SECRET_QUERY_PARAMS =
  /^(access_token|id_token|refresh_token|token|code|client_secret|client_assertion|password|sig|signature|api[-_]?key|key|secret|assertion|session_state|session|sessionid|authorization|auth|bearer|jwt|credential|credentials)$/i;

/**
 * A JSON Web Token (three base64url parts, the header starting `eyJ`): a credential under any
 * name, in a path segment, a query value or free text.
 */
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

/** `scheme://user:secret@host`: the part after the colon is a password or token. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#:@]*):[^\s/?#@]+@/gi;

/**
 * Object keys whose values are never written to the logs, at any depth. A user name is one half
 * of a credential where it is sent (the legacy onboarding forms' Global Administrator, the secret
 * variable TenantAdminUserName); the signed-in user is logged by UPN, never under this key.
 */
const SECRET_KEY =
  /^(authorization|cookie|set-cookie|code|sig|connectionstring)$|password|passwd|pw$|username$|secret|token|apikey|api_key|accountkey|credential/i;

const REDACTED = '[Redacted]';

/**
 * A URL with every credential replaced by [Redacted]: credential-like query values, any value or
 * path segment shaped like a JWT, and the password of `user:password@host`.
 */
export function redactUrl(url: string): string {
  return redactQuery(redactCredentialShapes(url));
}

function redactCredentialShapes(text: string): string {
  return text.replace(JWT, REDACTED).replace(URL_USERINFO, `$1:${REDACTED}@`);
}

function redactQuery(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const hashStart = url.indexOf('#', start);
  const query = url.slice(start + 1, hashStart < 0 ? undefined : hashStart);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        // keep the raw name
      }
      return eq >= 0 && SECRET_QUERY_PARAMS.test(name.trim()) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, start)}?${redacted}`;
}

/**
 * A copy of a log object with secrets replaced at any depth: values under credential-like keys,
 * bearer tokens and credential query strings inside strings. Cycles and depth are bounded.
 */
export function redactDeep(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactString(value);
  if (typeof value !== 'object' || value === null || depth > 12) return value;
  if (seen.has(value)) return '[Circular]';
  if (value instanceof Error) return value; // the err serializer writes message and stack
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, depth + 1, seen));
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] =
      SECRET_KEY.test(key) && item !== undefined && item !== null
        ? REDACTED
        : redactDeep(item, depth + 1, seen);
  }
  return copy;
}

function redactString(text: string): string {
  let out = redactCredentialShapes(
    text.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`),
  );
  if (out.includes('?') && out.includes('=')) {
    out = out.replace(/\S*\?\S*/g, (candidate) => redactQuery(candidate));
  }
  return out;
}

/** The request as logged: no headers, and a URL whose query carries no credentials. */
function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  // Something else logged under `req` (a plain object): redacted like any other value.
  if (typeof request?.url !== 'string' || typeof request.method !== 'string') {
    return redactDeep(request) as Record<string, unknown>;
  }
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Pino options for the Aegis server: level, redaction at any depth, safe request lines. */
export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: { req: serializeRequest },
    formatters: { log: (object) => redactDeep(object) as Record<string, unknown> },
  };
}
