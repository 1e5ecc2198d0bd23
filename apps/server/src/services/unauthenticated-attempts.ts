import { createHash } from 'node:crypto';

import type { AuditEvent } from '@aegis/domain';

/** Who an unauthenticated attempt is recorded as: nobody was verified (ADR 043). */
const UNAUTHENTICATED_ACTOR = '(unauthenticated)';

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

/** What a window's attempts of one action add up to. */
interface Tally {
  last: Date;
  attempts: number;
  noToken: number;
  invalidToken: number;
  /** attempts by source, for at most MAX_SOURCES sources */
  readonly sources: Map<string, number>;
  fromOtherSources: number;
}

/**
 * Changes refused with 401, tallied (ADR 043): they have no verified account, and anyone who
 * can reach the server can send them, so each is not a row of its own. Attempts are counted per
 * action over windows of fixed length (one minute by default) that start at multiples of their
 * length, so every server instance has the same windows (ADR 060): when a window closes, each
 * instance adds its counts into the one event of that action and window (`merge`), so there is at
 * most one row per change route a minute, whatever the rate and however many instances. Nothing
 * the request carried (parameters, body, the token's claims) is kept: none of it was verified.
 */
export class UnauthenticatedAttempts {
  /** The open window's start (ms) and its tallies by action. */
  private window: { start: number; tallies: Map<string, Tally> } | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly merge: (events: readonly AuditEvent[]) => Promise<void>,
    private readonly windowMs = 60_000,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Counts an attempt; the window's counts are merged into the trail when it closes. */
  note(attempt: UnauthenticatedAttempt, at = this.now()): void {
    const start = Math.floor(at.getTime() / this.windowMs) * this.windowMs;
    // an attempt of a later window closes the open one (its timer may not have fired yet)
    if (this.window && this.window.start !== start) void this.flush();
    this.window ??= { start, tallies: new Map() };
    let tally = this.window.tallies.get(attempt.action);
    if (!tally) {
      tally = {
        last: at,
        attempts: 0,
        noToken: 0,
        invalidToken: 0,
        sources: new Map(),
        fromOtherSources: 0,
      };
      this.window.tallies.set(attempt.action, tally);
    }
    if (at > tally.last) tally.last = at;
    tally.attempts += 1;
    if (attempt.reason === 'no token') tally.noToken += 1;
    else tally.invalidToken += 1;
    if (tally.sources.has(attempt.source) || tally.sources.size < MAX_SOURCES) {
      tally.sources.set(attempt.source, (tally.sources.get(attempt.source) ?? 0) + 1);
    } else {
      tally.fromOtherSources += 1;
    }
    const closesInMs = Math.max(0, start + this.windowMs - this.now().getTime());
    this.timer ??= setTimeout(() => void this.flush(), closesInMs).unref();
  }

  /** Merges the open window's counts into the trail now (it closed, or the server is stopping). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const window = this.window;
    this.window = undefined;
    if (!window || window.tallies.size === 0) return;
    await this.merge(
      [...window.tallies].map(([action, tally]) => eventOf(action, new Date(window.start), tally)),
    );
  }
}

/**
 * The one event of an action and window: its id, hence its row, follows from the two, so every
 * instance merges into the same row.
 */
function eventOf(action: string, windowStart: Date, tally: Tally): AuditEvent {
  const at = windowStart.toISOString();
  return {
    id: createHash('sha256').update(`${action}\n${at}`).digest('hex').slice(0, 32),
    at,
    actor: { upn: UNAUTHENTICATED_ACTOR, oid: '', roles: [] },
    action,
    parameters: {},
    result: { statusCode: 401, outcome: 'failed' },
    details: {
      attempts: tally.attempts,
      until: tally.last.toISOString(),
      noToken: tally.noToken,
      invalidToken: tally.invalidToken,
      sources: [...tally.sources.keys()],
      attemptsBySource: Object.fromEntries(tally.sources),
      ...(tally.fromOtherSources > 0 ? { fromOtherSources: tally.fromOtherSources } : {}),
    },
  };
}

function count(details: Record<string, unknown> | undefined, name: string): number {
  const value = details?.[name];
  return typeof value === 'number' ? value : 0;
}

function attemptsBySourceOf(details: Record<string, unknown> | undefined): [string, number][] {
  const bySource = details?.attemptsBySource;
  if (!bySource || typeof bySource !== 'object') return [];
  return Object.entries(bySource).filter((e): e is [string, number] => typeof e[1] === 'number');
}

/**
 * Adds the counts of `more` to `stored`, two instances' tallies of one action and window: the
 * attempts add up, the later `until` wins, the 10 sources with most attempts are named and the
 * attempts of the others counted.
 */
export function mergeTallies(stored: AuditEvent, more: AuditEvent): AuditEvent {
  const a = stored.details;
  const b = more.details;
  const bySource = new Map<string, number>();
  for (const [source, attempts] of [...attemptsBySourceOf(a), ...attemptsBySourceOf(b)]) {
    bySource.set(source, (bySource.get(source) ?? 0) + attempts);
  }
  const named = [...bySource].sort((x, y) => y[1] - x[1]).slice(0, MAX_SOURCES);
  const attempts = count(a, 'attempts') + count(b, 'attempts');
  const fromOtherSources = attempts - named.reduce((sum, [, n]) => sum + n, 0);
  const untils = [a?.until, b?.until].filter((u): u is string => typeof u === 'string').sort();
  return {
    ...stored,
    details: {
      attempts,
      ...(untils.length > 0 ? { until: untils[untils.length - 1] } : {}),
      noToken: count(a, 'noToken') + count(b, 'noToken'),
      invalidToken: count(a, 'invalidToken') + count(b, 'invalidToken'),
      sources: named.map(([source]) => source),
      attemptsBySource: Object.fromEntries(named),
      ...(fromOtherSources > 0 ? { fromOtherSources } : {}),
    },
  };
}
