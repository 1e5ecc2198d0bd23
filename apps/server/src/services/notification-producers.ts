// The notification producers besides drift (issue 28 §4, ADR 070). Every fact they say is written
// somewhere else (a pipeline run, a backup tag, the accepted-deviations file, an open pull request),
// and some only become true with time (a backup grows old, an acceptance nears its last day), so
// they are read on a schedule: one instance at a time takes the pass (a claim in AegisSharedState),
// reads the facts with the Aegis app's own DevOps identity, and raises what they say. Raising is
// idempotent (ADR 065/066): two passes at once, or a pass repeated, send nothing twice.
import type { CustomerReportStore } from '@aegis/connectors/customer-reports';
import type { DevOpsApi } from '@aegis/connectors/devops';
import type { ConfigRepository } from '@aegis/connectors/repository';
import type { SharedRows } from '@aegis/connectors/tables';
import type { NotificationEvent } from '@aegis/contracts';
import {
  acceptedDeviationsPath,
  approvalWaitingEvent,
  backupMissedEvent,
  backupTagDate,
  customerReportOutcomeEvent,
  DEFAULT_APPROVAL_WAITING_HOURS,
  DEFAULT_DEVIATION_EXPIRING_DAYS,
  deviationExpiryEvents,
  duePeriod,
  findRunLogFindings,
  MAIN_REF,
  parseCaptureBranch,
  PIPELINE_CATALOGUE,
  resolutionsOfVanished,
  runOutcomeEvents,
  shortTagName,
  thresholdFor,
  type AcceptedDeviationsConfig,
  type FinishedRunFacts,
  type NewestBackup,
  type NotificationEventInput,
  type NotificationRoutingRule,
  type ReportedPipeline,
  type WaitingApproval,
} from '@aegis/domain';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';

import type { NotificationService } from './notification-service';
import type { PipelineRuns } from './pipeline-runs';

/** The facts the producers read; the DevOps one below in the app, others in tests. */
export interface ProducerFacts {
  /** the latest finished run of each client of a pipeline, with what its log says */
  latestFinishedRuns(pipeline: ReportedPipeline): Promise<FinishedRunFacts[]>;
  /** each client's newest backup (clients without a backup are absent) */
  newestBackups(): Promise<Map<string, NewestBackup>>;
  /** every client's accepted deviations on main; `read`: the clients whose file was read */
  acceptedDeviations(): Promise<{ configs: AcceptedDeviationsConfig[]; read: Set<string> }>;
  /** capture reviews (pull requests of capture branches into main) still open */
  openCaptureReviews(): Promise<WaitingApproval[]>;
}

/**
 * Runs finished longer ago than this are not looked at: their outcome was said when they were new
 * (the pass runs every few minutes). It bounds a first pass, which reads each run's client and log
 * once: 200 clients' daily backups are 600 runs.
 */
const RUN_LOOKBACK_MS = 3 * 86_400_000;
/** Runs, logs and files read at once. */
const READ_CONCURRENCY = 4;

const PIPELINE_KEY: Readonly<
  Record<ReportedPipeline, 'capture' | 'backup' | 'deployBaseline' | 'removeBaseline'>
> = {
  capture: 'capture',
  backup: 'backup',
  deploy: 'deployBaseline',
  offboard: 'removeBaseline',
};

interface RunRecord {
  readonly clientCode: string | undefined;
  readonly findings: ReturnType<typeof findRunLogFindings>;
}

/**
 * The facts as Azure DevOps holds them, read with the app's own identity. A finished run's client
 * and log never change, and a client's accepted deviations only with its folder's tree: both are
 * kept (bounded), so a pass reads only the runs and folders it has not seen.
 */
export class DevOpsProducerFacts implements ProducerFacts {
  private readonly runs = new LRUCache<string, RunRecord>({ max: 5_000 });
  /** by client and folder tree id; `config` absent: the client has no accepted deviations file */
  private readonly deviations = new LRUCache<string, { config?: AcceptedDeviationsConfig }>({
    max: 2_000,
  });

  constructor(
    private readonly devops: DevOpsApi,
    private readonly repository: ConfigRepository,
    private readonly pipelineRuns: PipelineRuns,
    private readonly project: string,
    private readonly now: () => Date,
  ) {}

  async latestFinishedRuns(pipeline: ReportedPipeline): Promise<FinishedRunFacts[]> {
    const key = PIPELINE_KEY[pipeline];
    const pipelineId = await this.pipelineRuns.resolve(this.project, PIPELINE_CATALOGUE[key], key);
    const since = this.now().getTime() - RUN_LOOKBACK_MS;
    const finished = (await this.pipelineRuns.list(this.project, pipelineId)).filter(
      (run) =>
        run.state === 'completed' &&
        run.finishedDate !== null &&
        Date.parse(run.finishedDate) >= since,
    );
    const limit = pLimit(READ_CONCURRENCY);
    const records = await Promise.all(
      finished.map((run) => limit(() => this.recordOf(pipelineId, run.id))),
    );
    // newest first: the first run seen of a client is its latest
    const latest = new Map<string, FinishedRunFacts>();
    finished.forEach((run, i) => {
      const { clientCode, findings } = records[i] ?? {};
      if (!clientCode || latest.has(clientCode) || !run.finishedDate) return;
      latest.set(clientCode, {
        pipeline,
        clientCode,
        runId: run.id,
        result: run.result ?? 'unknown',
        finishedAt: run.finishedDate,
        ...(findings?.partial ? { partial: true } : {}),
        ...(findings?.failure ? { failure: findings.failure } : {}),
        ...(findings?.pendingApproval ? { pendingApproval: findings.pendingApproval } : {}),
      });
    });
    return [...latest.values()];
  }

  /** A finished run's client (its ClientCode parameter) and its log's findings, read once. */
  private async recordOf(pipelineId: number, runId: number): Promise<RunRecord> {
    const key = `${pipelineId}:${runId}`;
    const known = this.runs.get(key);
    if (known) return known;
    const [build, log] = await Promise.all([
      this.devops.getBuild(this.project, runId),
      this.devops.getRunLog(this.project, runId),
    ]);
    const record = {
      clientCode: build?.templateParameters['ClientCode'],
      findings: findRunLogFindings((log ?? []).map((text) => ({ text }))),
    };
    this.runs.set(key, record);
    return record;
  }

  async newestBackups(): Promise<Map<string, NewestBackup>> {
    const newest = new Map<string, NewestBackup>();
    for (const ref of await this.repository.listRefs('tags/backup/')) {
      const tagName = shortTagName(ref.name);
      const clientCode = /^backup\/([A-Z]{3})\//.exec(tagName)?.[1];
      const date = backupTagDate(tagName);
      if (!clientCode || !date) continue;
      const seen = newest.get(clientCode);
      if (!seen || date > seen.date) newest.set(clientCode, { tagName, date });
    }
    return newest;
  }

  async acceptedDeviations(): Promise<{
    configs: AcceptedDeviationsConfig[];
    read: Set<string>;
  }> {
    const { clients } = await this.repository.fleetTreeIds();
    const limit = pLimit(READ_CONCURRENCY);
    const configs: AcceptedDeviationsConfig[] = [];
    const read = new Set<string>();
    await Promise.all(
      [...clients].map(([clientCode, treeId]) =>
        limit(async () => {
          const key = `${clientCode}:${treeId}`;
          let known = this.deviations.get(key);
          if (!known) {
            const parsed = await this.repository
              .readJson<Partial<AcceptedDeviationsConfig>>(acceptedDeviationsPath(clientCode))
              .catch(() => 'unreadable' as const);
            // not read: its notifications are neither raised nor resolved on this pass
            if (parsed === 'unreadable') return;
            known = parsed ? { config: acceptedDeviationsOf(clientCode, parsed) } : {};
            this.deviations.set(key, known);
          }
          read.add(clientCode);
          if (known.config) configs.push(known.config);
        }),
      ),
    );
    return { configs, read };
  }

  async openCaptureReviews(): Promise<WaitingApproval[]> {
    const open = await this.repository.listPullRequests({
      status: 'active',
      targetRefName: MAIN_REF,
    });
    return open.flatMap((pr) => {
      const branch = parseCaptureBranch(pr.sourceRefName);
      if (!branch) return [];
      return [
        {
          clientCode: branch.clientCode,
          subject: `pr-${pr.pullRequestId}`,
          what: `Capture review ${pr.pullRequestId} (run ${branch.runId})`,
          requestedAt: pr.creationDate,
          requestedBy: pr.createdBy.displayName,
          link: `/capture-management/${branch.clientCode}`,
        },
      ];
    });
  }
}

/** The file's entries as the producers need them; a malformed file counts as none. */
function acceptedDeviationsOf(
  clientCode: string,
  parsed: Partial<AcceptedDeviationsConfig>,
): AcceptedDeviationsConfig {
  return {
    version: '1.0',
    clientCode,
    timestamp: typeof parsed.timestamp === 'string' ? parsed.timestamp : '',
    acceptedDeviations: Array.isArray(parsed.acceptedDeviations) ? parsed.acceptedDeviations : [],
    ...(Array.isArray(parsed.pendingAcceptances)
      ? { pendingAcceptances: parsed.pendingAcceptances }
      : {}),
  };
}

/** Critical acceptances waiting for a second Approver (ADR 051), as approvals that wait. */
function pendingAcceptancesOf(config: AcceptedDeviationsConfig): WaitingApproval[] {
  return (config.pendingAcceptances ?? []).map((pending) => ({
    clientCode: config.clientCode,
    subject: `acceptance:${pending.path}`,
    what: `Acceptance of '${pending.policyName}'`,
    requestedAt: pending.requestedAt,
    requestedBy: pending.requestedBy,
    link: '/fetch-json-files',
  }));
}

/** How many events one pass gave the engine, and the producers whose facts could not be read. */
export interface ProducerPassReport {
  readonly events: number;
  readonly failed: string[];
}

/** Where the scheduled customer reports' outcomes are: the period states their run records. */
type CustomerReportOutcomes = Pick<CustomerReportStore, 'schedules' | 'periodState'>;

export interface ProducerPassOptions {
  readonly facts: ProducerFacts;
  /** the customer report store; absent where customer reports are not configured */
  readonly customerReports?: (() => CustomerReportOutcomes) | undefined;
  readonly notifications: NotificationService;
  readonly rules: () => Promise<readonly NotificationRoutingRule[]>;
  readonly now: () => Date;
  readonly log: Pick<FastifyBaseLogger, 'warn'>;
}

const REPORTED_PIPELINES: readonly ReportedPipeline[] = ['capture', 'backup', 'deploy', 'offboard'];

/**
 * One evaluation of every producer: each reads its facts and raises what they say; a producer
 * whose facts cannot be read is logged and left for the next pass (nothing is resolved on a read
 * that failed), and the others go on.
 */
export async function raiseProducedEvents(
  options: ProducerPassOptions,
): Promise<ProducerPassReport> {
  const { facts, notifications, now, log } = options;
  const at = now();
  const rules = await options.rules();
  let open: Awaited<ReturnType<NotificationService['list']>>['notifications'] | undefined;
  const openNotifications = async () =>
    (open ??= (await notifications.list({ limit: 200_000 })).notifications);
  let events = 0;
  const failed: string[] = [];
  const raise = async (produced: readonly (NotificationEventInput | undefined)[]) => {
    for (const event of produced) {
      if (!event) continue;
      events += 1;
      try {
        await notifications.raise(event as NotificationEvent);
      } catch (error) {
        log.warn(
          { err: error, client: event.clientCode, kind: event.kind },
          'Raising a notification failed',
        );
      }
    }
  };
  const producers: [string, () => Promise<void>][] = [
    ...REPORTED_PIPELINES.map((pipeline): [string, () => Promise<void>] => [
      `${pipeline} runs`,
      async () => {
        for (const run of await facts.latestFinishedRuns(pipeline)) {
          await raise(runOutcomeEvents(run));
        }
      },
    ]),
    [
      'backups',
      async () => {
        const newest = await facts.newestBackups();
        await raise([...newest].map(([client, backup]) => backupMissedEvent(client, backup, at)));
      },
    ],
    [
      'accepted deviations and approvals',
      async () => {
        const [{ configs, read }, reviews] = await Promise.all([
          facts.acceptedDeviations(),
          facts.openCaptureReviews(),
        ]);
        const expiring = configs.flatMap((config) =>
          deviationExpiryEvents(
            config,
            at,
            thresholdFor(
              rules,
              'deviationExpiringDays',
              config.clientCode,
              DEFAULT_DEVIATION_EXPIRING_DAYS,
            ),
          ),
        );
        const waiting = [...reviews, ...configs.flatMap(pendingAcceptancesOf)];
        const approvals = waiting.map((request) =>
          approvalWaitingEvent(
            request,
            at,
            thresholdFor(
              rules,
              'approvalWaitingHours',
              request.clientCode,
              DEFAULT_APPROVAL_WAITING_HOURS,
            ),
          ),
        );
        const current = await openNotifications();
        await raise([
          ...expiring,
          ...resolutionsOfVanished(current, 'deviation-expiring', read, expiring, at),
          ...approvals,
          // a request still open but not yet late is not 'vanished'
          ...resolutionsOfVanished(current, 'approval-waiting', read, waiting, at),
        ]);
      },
    ],
  ];
  const reports = options.customerReports;
  if (reports) {
    // the run (a pipeline task) records each period's outcome; it is said here (ADR 089)
    producers.push([
      'customer reports',
      async () => {
        const store = reports();
        const limit = pLimit(READ_CONCURRENCY);
        const schedules = (await store.schedules()).filter((s) => s.enabled);
        const outcomes = await Promise.all(
          schedules.map((schedule) =>
            limit(async () => {
              const period = duePeriod(schedule.cadence, schedule.dayOfMonth, at);
              const state = await store.periodState(schedule.client, period.id);
              return customerReportOutcomeEvent(schedule.client, period, state, at);
            }),
          ),
        );
        await raise(outcomes);
      },
    ]);
  }
  for (const [name, produce] of producers) {
    try {
      await produce();
    } catch (error) {
      failed.push(name);
      log.warn({ err: error }, `Reading the facts of the ${name} notifications failed`);
    }
  }
  return { events, failed };
}

/** The shared row that says when the producers last ran (AegisSharedState, ADR 060). */
const PASS_KEYS = { partitionKey: 'notification-producers', rowKey: 'pass' };

/**
 * Takes the producers' pass for this interval if no instance took it within `intervalInMs`: a
 * conditional write, so of several instances asking at once exactly one gets it.
 */
export async function claimProducerPass(
  rows: SharedRows,
  instanceId: string,
  at: Date,
  intervalInMs: number,
): Promise<boolean> {
  return rows.update(PASS_KEYS, (current) => {
    const last = typeof current?.StartedAt === 'string' ? Date.parse(current.StartedAt) : NaN;
    if (at.getTime() - last < intervalInMs) return { result: false };
    return { write: { StartedAt: at.toISOString(), StartedBy: instanceId }, result: true };
  });
}
