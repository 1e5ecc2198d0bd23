import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface SecurityPluginOptions {
  /** Origins the browser may call besides ours: the identity provider, Graph. */
  readonly connectOrigins: readonly string[];
}

/** Where sign-in popups come back to (a static page of the SPA). */
const POPUP_REDIRECT_PATH = '/auth-popup.html';

/** Security headers with a CSP that allows only our own scripts and the sign-in endpoints. */
export const securityPlugin = fp<SecurityPluginOptions>(
  async (app: FastifyInstance, options) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // Fluent UI (Griffel) inserts style rules at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          connectSrc: ["'self'", ...options.connectOrigins],
          frameSrc: ["'self'", ...options.connectOrigins],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      crossOriginEmbedderPolicy: false,
      // Nobody may frame the portal: X-Frame-Options (for browsers without CSP level 2) says the
      // same as `frame-ancestors 'none'`, not helmet's default SAMEORIGIN (issue 9 §5).
      xFrameOptions: { action: 'deny' },
      // The Global Administrator's sign-in popup (MSAL or the local identity provider) leaves our
      // origin and comes back; 'same-origin' would sever it from the opener (ADR 020).
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    });
    // The popup's redirect page must not switch browsing context groups on its way back from
    // the identity provider, or the opener can no longer read it (MSAL asks the same).
    app.addHook('onSend', async (request, reply) => {
      if (request.url.split('?')[0] === POPUP_REDIRECT_PATH)
        reply.header('cross-origin-opener-policy', 'unsafe-none');
    });
  },
  { name: 'security' },
);
