// The events the notification engine is given besides drift (issue 28 §4, ADR 070): each is a pure
// function from a fact Aegis reads (a pipeline run's outcome, a client's newest backup, an accepted
// deviation's last day, a request waiting for a second person) to the event it says. The subject
// names the thing, the fingerprint changes exactly when what is said changes, so the engine sends
// each once and says its resolution once (ADR 065).

import { isAcceptanceExpired, type AcceptedDeviationsConfig } from '../accepted-deviations';
import { backupHealth } from '../backups/health';

import { ALL_CLIENTS } from './engine';
import type { NotificationEventInput, NotificationRoutingRule } from './types';

/** An accepted deviation is said to be expiring this many days before its last day, by default. */
export const DEFAULT_DEVIATION_EXPIRING_DAYS = 14;
/** A request for a second person's approval is said to wait too long after this many hours, by default. */
export const DEFAULT_APPROVAL_WAITING_HOURS = 24;

/** The pipelines whose outcome raises an event, as their runs are told apart. */
export type ReportedPipeline = 'capture' | 'backup' | 'deploy' | 'offboard';

const PIPELINE_LABELS: Readonly<Record<ReportedPipeline, string>> = {
  capture: 'Capture',
  backup: 'Backup',
  deploy: 'Deploy',
  offboard: 'Off-board',
};

const FAILURE_KIND: Readonly<Record<ReportedPipeline, string>> = {
  capture: 'capture-failed',
  backup: 'backup-failed',
  deploy: 'deploy-failed',
  offboard: 'deploy-failed',
};

/** A finished run of one of the reported pipelines for one client, and what its log says. */
export interface FinishedRunFacts {
  readonly pipeline: ReportedPipeline;
  readonly clientCode: string;
  readonly runId: number;
  readonly result: 'succeeded' | 'failed' | 'canceled' | 'unknown';
  readonly finishedAt: string;
  /** workloads were not read: the capture or backup is partial (ADR 050) */
  readonly partial?: boolean;
  /** the first error the run logged */
  readonly failure?: string;
  /** the log's line saying changes wait for Multi Admin Approval */
  readonly pendingApproval?: string;
}

function runLinkOf(run: FinishedRunFacts): string {
  switch (run.pipeline) {
    case 'capture':
      return `/capture-management/${run.clientCode}`;
    case 'backup':
      return '/tenant-backup';
    default:
      return `/fleet/${run.clientCode}/drift`;
  }
}

/**
 * What the latest finished run of a pipeline for a client says. Subject: the pipeline, so that a
 * client has one notification per pipeline and kind: a new failing run changes it (said again),
 * a later clean run resolves it. A cancelled run or one of unknown result says nothing.
 */
export function runOutcomeEvents(run: FinishedRunFacts): NotificationEventInput[] {
  const label = PIPELINE_LABELS[run.pipeline];
  const base = {
    clientCode: run.clientCode,
    subject: run.pipeline,
    link: runLinkOf(run),
    occurredAt: run.finishedAt,
  };
  const events: NotificationEventInput[] = [];
  const failureKind = FAILURE_KIND[run.pipeline];
  if (run.result === 'failed') {
    events.push({
      ...base,
      kind: failureKind,
      fingerprint: `run-${run.runId}-failed`,
      severity: 'critical',
      title: `${label} failed: run ${run.runId}`,
      summary: run.failure ?? `${label} run ${run.runId} failed; its log says why.`,
    });
  } else if (run.result === 'succeeded' && run.partial) {
    events.push({
      ...base,
      kind: failureKind,
      fingerprint: `run-${run.runId}-partial`,
      severity: 'warning',
      title: `${label} partial: run ${run.runId}`,
      summary: `${label} run ${run.runId} could not read some workloads; what it left out is as it is on main.`,
    });
  } else if (run.result === 'succeeded') {
    events.push({
      ...base,
      kind: failureKind,
      fingerprint: `run-${run.runId}-succeeded`,
      severity: 'info',
      title: `${label} succeeded again: run ${run.runId}`,
      summary: `${label} run ${run.runId} finished without failing.`,
      resolved: true,
    });
  }
  if (run.pipeline === 'deploy' || run.pipeline === 'offboard') {
    if (run.result === 'succeeded' && run.pendingApproval) {
      events.push({
        ...base,
        kind: 'deploy-awaiting-approval',
        fingerprint: `run-${run.runId}-pending`,
        severity: 'warning',
        title: `${label} waits for Multi Admin Approval: run ${run.runId}`,
        summary: run.pendingApproval,
      });
    } else if (run.result === 'succeeded' || run.result === 'failed') {
      events.push({
        ...base,
        kind: 'deploy-awaiting-approval',
        fingerprint: `run-${run.runId}-nothing-pending`,
        severity: 'info',
        title: `${label} no longer waits for approval: run ${run.runId}`,
        summary: `${label} run ${run.runId} left nothing waiting for Multi Admin Approval.`,
        resolved: true,
      });
    }
  }
  return events;
}

/** The client's newest backup, if it has any. */
export interface NewestBackup {
  readonly tagName: string;
  readonly date: Date;
}

/**
 * Backup missed (spec 3 §4's health): raised when the newest backup is old enough for Warning
 * (24 h) or Critical (48 h), said again when Warning turns Critical, resolved by a newer backup. A
 * client that never had a backup is 'No Backups', a state of its own: nothing is said.
 */
export function backupMissedEvent(
  clientCode: string,
  newest: NewestBackup | undefined,
  now: Date,
): NotificationEventInput | undefined {
  if (!newest) return undefined;
  const health = backupHealth(newest.date, now);
  const base = {
    kind: 'backup-missed',
    clientCode,
    subject: 'backups',
    link: '/tenant-backup',
    occurredAt: now.toISOString(),
  };
  if (health === 'Healthy') {
    return {
      ...base,
      fingerprint: `healthy:${newest.tagName}`,
      severity: 'info',
      title: 'Backups healthy again',
      summary: `The newest backup, ${newest.tagName}, was taken ${newest.date.toISOString()}.`,
      resolved: true,
    };
  }
  if (health !== 'Warning' && health !== 'Critical') return undefined;
  return {
    ...base,
    fingerprint: `${health.toLowerCase()}:${newest.tagName}`,
    severity: health === 'Critical' ? 'critical' : 'warning',
    title: `Backup missed: health ${health}`,
    summary: `No backup since ${newest.date.toISOString()} (${newest.tagName}).`,
    occurredAt: now.toISOString(),
  };
}

const DAY_IN_MS = 86_400_000;

/** An accepted deviation's subject: its policy's path. */
export function deviationSubject(path: string): string {
  return `deviation:${path}`;
}

/**
 * Accepted deviations expiring within `withinDays` days or expired, one notification per accepted
 * policy: 'expiring' then 'expired' (said again), resolved when the acceptance is renewed beyond
 * the window or no longer has a last day. An acceptance revoked altogether is resolved by
 * {@link resolutionsOfVanished}.
 */
export function deviationExpiryEvents(
  config: Pick<AcceptedDeviationsConfig, 'clientCode' | 'acceptedDeviations'>,
  now: Date,
  withinDays: number = DEFAULT_DEVIATION_EXPIRING_DAYS,
): NotificationEventInput[] {
  const lastDayInWindow = new Date(now.getTime() + withinDays * DAY_IN_MS)
    .toISOString()
    .slice(0, 10);
  return config.acceptedDeviations.map((entry) => {
    const base = {
      kind: 'deviation-expiring',
      clientCode: config.clientCode,
      subject: deviationSubject(entry.path),
      link: '/fetch-json-files',
      occurredAt: now.toISOString(),
    };
    const expiresAt = entry.expiresAt?.slice(0, 10);
    if (expiresAt && isAcceptanceExpired(entry, now)) {
      return {
        ...base,
        fingerprint: `expired:${expiresAt}`,
        severity: 'warning',
        title: `Accepted deviation expired: ${entry.policyName}`,
        summary: `The acceptance of ${entry.properties.length} setting(s) of '${entry.policyName}' ended on ${expiresAt}; they count as deviations again.`,
      };
    }
    if (expiresAt && expiresAt <= lastDayInWindow) {
      return {
        ...base,
        fingerprint: `expiring:${expiresAt}`,
        severity: 'info',
        title: `Accepted deviation expiring: ${entry.policyName}`,
        summary: `The acceptance of ${entry.properties.length} setting(s) of '${entry.policyName}' holds until ${expiresAt}.`,
      };
    }
    return {
      ...base,
      fingerprint: `holds:${expiresAt ?? 'no-end'}`,
      severity: 'info',
      title: `Accepted deviation renewed: ${entry.policyName}`,
      summary: expiresAt
        ? `The acceptance of '${entry.policyName}' now holds until ${expiresAt}.`
        : `The acceptance of '${entry.policyName}' no longer has a last day.`,
      resolved: true,
    };
  });
}

/** A request that waits for a second person: a capture review, a critical acceptance. */
export interface WaitingApproval {
  readonly clientCode: string;
  /** e.g. 'pr-42', 'acceptance:{path}' */
  readonly subject: string;
  /** what waits, as a sentence's subject: "Capture review 'client-ABC-capture-12'" */
  readonly what: string;
  readonly requestedAt: string;
  readonly requestedBy?: string;
  readonly link: string;
}

/**
 * An approval waiting `afterHours` or longer: raised once (its fingerprint is when it was asked
 * for), nothing before. It is resolved when the request is no longer open
 * ({@link resolutionsOfVanished}).
 */
export function approvalWaitingEvent(
  request: WaitingApproval,
  now: Date,
  afterHours: number = DEFAULT_APPROVAL_WAITING_HOURS,
): NotificationEventInput | undefined {
  const waitedInMs = now.getTime() - Date.parse(request.requestedAt);
  if (!(waitedInMs >= afterHours * 3_600_000)) return undefined;
  const hours = Math.floor(waitedInMs / 3_600_000);
  return {
    kind: 'approval-waiting',
    clientCode: request.clientCode,
    subject: request.subject,
    fingerprint: `waiting-since:${request.requestedAt}`,
    severity: 'warning',
    title: `Approval waiting ${hours} hours: ${request.what}`,
    summary: `${request.what} was asked for ${request.requestedAt}${request.requestedBy ? ` by ${request.requestedBy}` : ''} and nobody has approved or rejected it.`,
    link: request.link,
    occurredAt: now.toISOString(),
  };
}

/** An open notification as a producer sees it. */
export interface OpenSubject {
  readonly kind: string;
  readonly clientCode: string;
  readonly subject: string;
  readonly title: string;
  readonly link?: string;
  /** the engine's state: 'resolved' ones are left alone */
  readonly state: string;
}

/**
 * Resolutions for subjects the producer raised before and no longer finds (a request approved or
 * closed, an acceptance revoked): open notifications of `kind` for the clients whose facts were
 * read completely (`readClients`), whose subject is not among `current`.
 */
export function resolutionsOfVanished(
  open: readonly OpenSubject[],
  kind: string,
  readClients: ReadonlySet<string>,
  current: readonly Pick<NotificationEventInput, 'clientCode' | 'subject'>[],
  now: Date,
): NotificationEventInput[] {
  const present = new Set(current.map((e) => `${e.clientCode}\n${e.subject}`));
  return open
    .filter(
      (n) =>
        n.kind === kind &&
        n.state !== 'resolved' &&
        readClients.has(n.clientCode) &&
        !present.has(`${n.clientCode}\n${n.subject}`),
    )
    .map((n) => ({
      kind,
      clientCode: n.clientCode,
      subject: n.subject,
      fingerprint: 'gone',
      severity: 'info',
      title: `No longer open: ${n.title}`,
      summary: 'What this notification was about is no longer there.',
      ...(n.link ? { link: n.link } : {}),
      occurredAt: now.toISOString(),
      resolved: true,
    }));
}

/** The rule settings a polling producer reads. */
export type ThresholdSetting = 'deviationExpiringDays' | 'approvalWaitingHours';

const THRESHOLD_KIND: Readonly<Record<ThresholdSetting, string>> = {
  deviationExpiringDays: 'deviation-expiring',
  approvalWaitingHours: 'approval-waiting',
};

/**
 * The threshold a producer uses for a client: the earliest any enabled rule routing the kind to
 * that client asks for (so no rule hears of it later than it asked), else `fallback`. Deviation
 * days: the largest window is the earliest; approval hours: the smallest.
 */
export function thresholdFor(
  rules: readonly NotificationRoutingRule[],
  setting: ThresholdSetting,
  clientCode: string,
  fallback: number,
): number {
  const asked = rules
    .filter(
      (r) =>
        r.enabled &&
        (r.client === ALL_CLIENTS || r.client === clientCode) &&
        r.kinds.includes(THRESHOLD_KIND[setting]),
    )
    .map((r) => r[setting] ?? fallback);
  if (asked.length === 0) return fallback;
  return setting === 'deviationExpiringDays' ? Math.max(...asked) : Math.min(...asked);
}
