import { TooManyRequestsError } from '@aegis/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { registering } from '../lib/registering';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A request that reads a lot (the fleet, a comparison, a compliance report, the capture
     * lists): each signed-in user has only so many of them running at once (ADR 057).
     */
    heavy?: boolean;
  }
}

export interface HeavyRequestsOptions {
  /** heavy requests one user may have running at once */
  readonly perUser: number;
  /** what a refused request is told to wait */
  readonly retryAfterInSeconds: number;
}

const released = Symbol('heavy-request-released');
type Counted = FastifyRequest & { [released]?: () => void };

/**
 * Limits the heavy requests each signed-in user has in flight (issue 26 §2: twenty fleet
 * requests of one Reader slowed the portal for everyone). One over the limit is refused with 429
 * and Retry-After before it reads anything; other users are not affected. The count is this
 * instance's own: it bounds the work one user puts on this process, which is what it protects,
 * so it needs no shared store (ADR 057).
 */
export const heavyRequestsPlugin = fp<HeavyRequestsOptions>(
  registering((app: FastifyInstance, { perUser, retryAfterInSeconds }) => {
    const inFlight = new Map<string, number>();

    // After authentication and validation: only a request that will really run takes a place.
    app.addHook('preHandler', (request: Counted, _reply, next) => {
      if (!request.routeOptions.config.heavy || !request.user) return next();
      const user = request.user.oid || request.user.upn;
      const running = inFlight.get(user) ?? 0;
      if (running >= perUser) {
        throw new TooManyRequestsError(
          `You already have ${running} large requests running (fleet, comparisons, compliance reports, capture lists). Try again when one of them has finished.`,
          retryAfterInSeconds,
        );
      }
      inFlight.set(user, running + 1);
      let done = false;
      request[released] = () => {
        if (done) return;
        done = true;
        const left = (inFlight.get(user) ?? 1) - 1;
        if (left > 0) inFlight.set(user, left);
        else inFlight.delete(user);
      };
      next();
    });
    // A streamed answer ends in onResponse; a caller who goes away ends it in onRequestAbort.
    app.addHook('onResponse', (request: Counted, _reply, done) => {
      request[released]?.();
      done();
    });
    app.addHook('onRequestAbort', (request: Counted, done) => {
      request[released]?.();
      done();
    });
  }),
  { name: 'heavy-requests', dependencies: ['auth'] },
);
