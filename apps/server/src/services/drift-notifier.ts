// Drift events (issue 28 §4, ADR 066): the drift check pipeline writes each client's state to
// Table storage; this reads it and raises 'drift' through the notification engine. Raising is
// idempotent (the engine keeps one notification per client, kind and subject, and ignores a
// fingerprint it has), so every instance may run the pass: two raising the same state write once.
import type { NotificationEvent } from '@aegis/contracts';
import { countOf, type StoredDriftCheck } from '@aegis/domain';
import type { FastifyBaseLogger } from 'fastify';

import type { DriftService } from './drift-service';
import type { NotificationService } from './notification-service';

/** Drift is about the whole tenant: one notification per client, changed as its drift changes. */
const DRIFT_SUBJECT = 'tenant';
/** At most this many drifted objects are named in a message; the link shows them all. */
const NAMED_OBJECTS = 5;

/** The event a client's stored drift says: drift with its fingerprint, or drift resolved. */
export function driftEventOf(stored: StoredDriftCheck): NotificationEvent | undefined {
  const { result } = stored;
  const link = `/fleet/${result.client}/drift`;
  if (stored.status === 'inSync') {
    return {
      kind: 'drift',
      clientCode: result.client,
      subject: DRIFT_SUBJECT,
      fingerprint: 'in-sync',
      severity: 'info',
      title: 'Drift resolved: the tenant matches its approved configuration',
      summary: `Checked ${result.checkedAt}.`,
      link,
      occurredAt: stored.resolvedAt ?? result.checkedAt,
      resolved: true,
    };
  }
  if (!stored.fingerprint) return undefined;
  const named = result.objects.slice(0, NAMED_OBJECTS).map((object) => {
    const who =
      object.attribution?.status === 'attributed'
        ? ` by ${object.attribution.actor} at ${object.attribution.time}`
        : '';
    return `${object.change}: ${object.workload} '${object.name}'${who}`;
  });
  const more = result.objects.length - named.length;
  return {
    kind: 'drift',
    clientCode: result.client,
    subject: DRIFT_SUBJECT,
    fingerprint: stored.fingerprint,
    severity: 'warning',
    title: `Drift detected: ${countOf(result.objects.length, 'object')} ${result.objects.length === 1 ? 'differs' : 'differ'} from main`,
    summary: [...named, ...(more > 0 ? [`and ${more} more`] : [])].join('\n'),
    link,
    occurredAt: stored.driftSince ?? result.checkedAt,
  };
}

/** One pass over every client's stored drift; a client whose raise fails does not stop the rest. */
export async function raiseDriftEvents(
  drift: DriftService,
  notifications: NotificationService,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<void> {
  for (const stored of await drift.checks()) {
    const event = driftEventOf(stored);
    if (!event) continue;
    try {
      await notifications.raise(event);
    } catch (error) {
      log.warn({ err: error, client: event.clientCode }, 'Raising a drift notification failed');
    }
  }
}
