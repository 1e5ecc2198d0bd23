import { randomUUID } from 'node:crypto';

import type { AuditEvent } from '@aegis/domain';

/** Who an unauthenticated attempt is recorded as: nobody was verified (ADR 043). */
export const UNAUTHENTICATED_ACTOR = '(unauthenticated)';

/** The most request sources one tally row names; the rest are counted. */
const MAX_SOURCES = 10;

/** One change refused with 401: no token, or one that did not verify. */
export interface UnauthenticatedAttempt {
  /** `METHOD /route/:template`, as audited changes name it. */
  readonly action: string;
  readonly reason: 'no token' | 'invalid token';
  /** The address the request came from (what the server saw). */
  readonly source: string;
}

interface Tally {
  readonly first: Date;
  last: Date;
  attempts: number;
  noToken: number;
  invalidToken: number;
  readonly sources: Set<string>;
  fromOtherSources: number;
}

/**
 * Changes refused with 401, tallied (ADR 043): they have no verified account, and anyone who
 * can reach the server can send them, so each is not a row of its own. Attempts are counted per
 * action over a window (one minute by default) and written as one audit event per action and
 * window: at most one row per change route a minute, whatever the rate. Nothing the request
 * carried (parameters, body, the token's claims) is kept: none of it was verified.
 */
export class UnauthenticatedAttempts {
  private tallies = new Map<string, Tally>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (events: readonly AuditEvent[]) => Promise<void>,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts an attempt; the window's events are written when it closes. */
  note(attempt: UnauthenticatedAttempt, at = new Date()): void {
    let tally = this.tallies.get(attempt.action);
    if (!tally) {
      tally = {
        first: at,
        last: at,
        attempts: 0,
        noToken: 0,
        invalidToken: 0,
        sources: new Set(),
        fromOtherSources: 0,
      };
      this.tallies.set(attempt.action, tally);
    }
    tally.last = at;
    tally.attempts += 1;
    if (attempt.reason === 'no token') tally.noToken += 1;
    else tally.invalidToken += 1;
    if (tally.sources.has(attempt.source) || tally.sources.size < MAX_SOURCES) {
      tally.sources.add(attempt.source);
    } else {
      tally.fromOtherSources += 1;
    }
    this.timer ??= setTimeout(() => void this.flush(), this.windowMs).unref();
  }

  /** Writes the open window's events now (the window closed, or the server is stopping). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const tallies = this.tallies;
    this.tallies = new Map();
    if (tallies.size === 0) return;
    await this.write([...tallies].map(([action, tally]) => eventOf(action, tally)));
  }
}

function eventOf(action: string, tally: Tally): AuditEvent {
  return {
    id: randomUUID(),
    at: tally.first.toISOString(),
    actor: { upn: UNAUTHENTICATED_ACTOR, oid: '', roles: [] },
    action,
    parameters: {},
    result: { statusCode: 401, outcome: 'failed' },
    details: {
      attempts: tally.attempts,
      until: tally.last.toISOString(),
      noToken: tally.noToken,
      invalidToken: tally.invalidToken,
      sources: [...tally.sources],
      ...(tally.fromOtherSources > 0 ? { fromOtherSources: tally.fromOtherSources } : {}),
    },
  };
}
