// Rollouts in rings (issue 30 §3, ADR 069, 074): the plan from a fresh capture of each target
// tenant, the rollout's row, and the loop that starts and follows its deploy and restore runs.
// Every change of a rollout is an event through the domain's reducer on its shared row, so any
// instance may run the loop and a run is started once.
import { randomUUID } from 'node:crypto';

import type { ConfigRepository } from '@aegis/connectors/repository';
import { readClientBaseline } from '@aegis/connectors/repository';
import type {
  BaselineCommit,
  CreateRolloutBody,
  RolloutCapture,
  RolloutDto,
  RolloutPlanDto,
  RolloutPlanStarted,
  RolloutTenantPlanDto,
  UnreadDecisionBody,
} from '@aegis/contracts';
import {
  BASELINE_ROOT,
  ConflictError,
  LAYERS_FOLDER,
  NotFoundError,
  captureBranchName,
  captureManifestPath,
  captureRun,
  clientResourcesRoot,
  failedTenants,
  findRunLogFindings,
  fullBaselineDeployRun,
  locatorOf,
  planRollout,
  restoreObjectsRun,
  rolloutWork,
  ROLLOUT_CLAIM_PARAMETER,
  staleClaims,
  tenantDeployPlan,
  toCaptureManifest,
  type RolloutEvent,
  type RolloutState,
  type RolloutTenantPlan,
} from '@aegis/domain';

import type { PipelineRuns } from './pipeline-runs';
import type { PipelinesService } from './pipelines-service';
import type { RolloutStore } from './rollout-store';

/** How many baseline commits of main the New rollout picker offers. */
const BASELINE_COMMITS = 30;

interface RolloutServiceDeps {
  readonly project: string;
  readonly repository: ConfigRepository;
  readonly runs: PipelineRuns;
  readonly store: RolloutStore;
  readonly now: () => Date;
  readonly newId: () => string;
}

export class RolloutService {
  constructor(private readonly deps: RolloutServiceDeps) {}

  /**
   * Starts a capture of each target tenant (the plan's fresh read, not the last approved
   * capture); the plan is read from them once they finished. A client without a folder on main is
   * a 404 naming it.
   */
  async startPlan(clients: readonly string[]): Promise<RolloutPlanStarted> {
    const { project, repository, runs } = this.deps;
    const known = (await repository.fleetTreeIds()).clients;
    const unknown = clients.find((c) => !known.has(c));
    if (unknown) throw new NotFoundError(`Client ${unknown} has no configuration on main`);
    const captures: RolloutCapture[] = [];
    for (const client of clients) {
      const run = await runs.start(project, captureRun({ clientCode: client }));
      captures.push({ client, runId: run.id });
    }
    return {
      captures,
      project,
      pipelineId: await runs.resolve(project, locatorOf('capture'), 'capture'),
    };
  }

  /**
   * Per tenant, what the deploy would create and update: the client's effective baseline on main
   * against the tenant as its plan capture read it. A capture still running or failed has no plan.
   */
  async readPlan(captures: readonly RolloutCapture[], commit?: string): Promise<RolloutPlanDto> {
    const { commitId, tenants } = await this.plan(captures, commit);
    return { commitId, tenants };
  }

  /**
   * The commits of main that changed the company baseline or a layer, newest first, at most
   * BASELINE_COMMITS: what a rollout may roll out.
   */
  async baselineCommits(): Promise<BaselineCommit[]> {
    const { repository } = this.deps;
    const touching = (path: string) =>
      repository.listCommits({ path, top: BASELINE_COMMITS, firstParent: true }).catch((error) => {
        // a repository without layers has no history for their folder
        if (error instanceof NotFoundError) return [];
        throw error;
      });
    const [company, layers] = await Promise.all([touching(BASELINE_ROOT), touching(LAYERS_FOLDER)]);
    const byId = new Map([...company, ...layers].map((c) => [c.commitId, c]));
    return [...byId.values()]
      .sort((a, b) => Date.parse(b.committer.date) - Date.parse(a.committer.date))
      .slice(0, BASELINE_COMMITS)
      .map((c) => ({
        commitId: c.commitId,
        subject: c.comment.split('\n', 1)[0] ?? '',
        author: c.author.name,
        date: c.author.date,
      }));
  }

  /** The plan at the chosen baseline commit (main's tip by default), and main's tip. */
  private async plan(
    captures: readonly RolloutCapture[],
    commit: string | undefined,
  ): Promise<{ commitId: string; mainCommitId: string; tenants: RolloutPlanDto['tenants'] }> {
    const { project, repository, runs } = this.deps;
    const mainCommitId = await repository.branchTip();
    if (commit && !(await this.baselineCommits()).some((c) => c.commitId === commit)) {
      throw new NotFoundError(
        `Commit ${commit} is not one of main's recent commits that changed the baseline or a layer`,
      );
    }
    const commitId = commit ?? mainCommitId;
    const tenants = await Promise.all(
      captures.map(async ({ client, runId }) => {
        const build = await runs.buildOfCatalogued(project, 'capture', runId);
        if (build?.templateParameters.ClientCode !== client) {
          throw new NotFoundError(`Capture run ${runId} of ${client} not found`);
        }
        const run = await runs.getCatalogued(project, 'capture', runId);
        if (run.state !== 'completed') {
          return { client, runId, status: 'capturing' as const, plan: null };
        }
        if (run.result !== 'succeeded') {
          return { client, runId, status: 'failed' as const, plan: null };
        }
        const branch = captureBranchName(client, runId);
        const [baseline, read, manifest] = await Promise.all([
          readClientBaseline(repository, client, { commit: commitId }),
          repository.readTree(clientResourcesRoot(client), { branch }),
          // what the read could not see (ADR 087): flagged on the tenant's plan
          repository.readJson<unknown>(captureManifestPath(client), { branch }),
        ]);
        if (!read) throw new NotFoundError(`Capture run ${runId} of ${client} wrote no branch`);
        const plan = planDto(
          tenantDeployPlan(client, baseline.files, read.files, toCaptureManifest(manifest)),
        );
        return { client, runId, status: 'planned' as const, plan };
      }),
    );
    return { commitId, mainCommitId, tenants };
  }

  /** A rollout from a finished plan, in rings; 409 while a tenant's capture runs or has failed. */
  async create(body: CreateRolloutBody, createdBy: string): Promise<RolloutDto> {
    const { commitId, mainCommitId, tenants } = await this.plan(body.captures, body.commitId);
    const unplanned = tenants.filter((t) => t.status !== 'planned');
    if (unplanned.length > 0) {
      throw new ConflictError(
        `The plan is not ready: ${unplanned.map((t) => `${t.client} (${t.status})`).join(', ')}.`,
      );
    }
    const state = planRollout({
      id: this.deps.newId(),
      commitId,
      mainCommitId,
      createdBy,
      createdAt: this.deps.now().toISOString(),
      rings: body.rings,
      plan: tenants.flatMap((t) => (t.plan ? [t.plan] : [])),
    });
    return this.toDto(await this.deps.store.create(state));
  }

  /** The rollout with its row's etag, which a decision on it names. */
  async get(id: string): Promise<RolloutDto> {
    const { state, etag } = await this.deps.store.read(id);
    return { ...(await this.toDto(state)), ...(etag ? { etag } : {}) };
  }

  async list(): Promise<RolloutDto[]> {
    const rollouts = await this.deps.store.list();
    return Promise.all(rollouts.map((r) => this.toDto(r)));
  }

  /** A person's event (start, go-ahead, resume, abort, rollback); the route checked the role. */
  async apply(id: string, event: RolloutEvent): Promise<RolloutDto> {
    await this.deps.store.apply(id, event);
    return this.get(id);
  }

  /**
   * An Approver's decision on a tenant whose plan could not read some workloads (ADR 087): on the
   * rollout as they read it (its etag), else 409.
   */
  async decideUnread(id: string, body: UnreadDecisionBody, by: string): Promise<RolloutDto> {
    const event: RolloutEvent = {
      type: 'decide-unread',
      by: { upn: by },
      client: body.client,
      decision: body.decision,
      at: this.deps.now().toISOString(),
    };
    await this.deps.store.apply(id, event, body.etag);
    return this.get(id);
  }

  private async toDto(state: RolloutState): Promise<RolloutDto> {
    const { project, runs } = this.deps;
    return {
      ...state,
      approvals: Object.fromEntries(Object.entries(state.approvals)),
      plan: state.plan.map(planDto),
      rings: state.rings.map((r) => ({ ...r, clients: [...r.clients] })),
      failed: state.rings.length > 0 ? failedTenants(state) : [],
      project,
      pipelineId: await runs.resolve(project, locatorOf('deployBaseline'), 'deployBaseline'),
    };
  }
}

interface RolloutRunnerLog {
  warn(object: Record<string, unknown>, message: string): void;
  info(object: Record<string, unknown>, message: string): void;
}

/**
 * How far before a claim a run it started may have been created by the pipeline service's clock:
 * the search for a dead instance's run reaches back this much further (ADR 078).
 */
const CLOCK_SKEW_IN_MS = 5 * 60_000;

/**
 * The ring loop (ADR 074): on each pass, for every rollout, records the end of the runs it
 * follows, takes over claims whose instance died (ADR 078), then claims and starts what
 * `rolloutWork` names. It runs on every instance with the Aegis app's own identity; the row's
 * etag decides which instance claims a run, so a tenant is deployed (or put back) once. The state
 * is the row, so a restarted instance carries on from it.
 */
export class RolloutRunner {
  constructor(
    private readonly deps: {
      readonly project: string;
      readonly runs: PipelineRuns;
      readonly pipelines: PipelinesService;
      readonly store: RolloutStore;
      /** the configuration repository, read to see whether main's baseline moved (ADR 078) */
      readonly repository: ConfigRepository;
      readonly log: RolloutRunnerLog;
      /** this instance, as its claims name it */
      readonly instanceId: string;
      /** how long a claim without a recorded run holds before another instance takes it over */
      readonly claimLeaseInMs: number;
      readonly now: () => Date;
    },
  ) {}

  async pass(): Promise<void> {
    for (const rollout of await this.deps.store.list()) {
      try {
        await this.advance(rollout);
      } catch (error) {
        this.deps.log.warn({ err: error, rollout: rollout.id }, 'a rollout could not advance');
      }
    }
  }

  /** One rollout's step: finished runs recorded, then the work now due started. */
  async advance(rollout: RolloutState): Promise<void> {
    const pipelineId = await this.deployPipelineId();
    for (const [client, run] of Object.entries(rollout.deploys)) {
      if (run.status !== 'running' || run.runId === undefined) continue;
      const finished = await this.finished(pipelineId, run.runId);
      if (!finished) continue;
      await this.record(rollout.id, {
        type: 'deploy-finished',
        client,
        result: finished.result,
        ...(finished.backupTag ? { backupTag: finished.backupTag } : {}),
      });
    }
    for (const [client, run] of Object.entries(rollout.rollbacks)) {
      if (run.status !== 'running' || run.runId === undefined) continue;
      const finished = await this.finished(pipelineId, run.runId);
      if (finished) {
        await this.record(rollout.id, {
          type: 'rollback-finished',
          client,
          result: finished.result,
        });
      }
    }
    const current = await this.deps.store.get(rollout.id);
    await this.takeOverStaleClaims(current, pipelineId);
    const work = rolloutWork(current);
    if (work.deploys.length > 0 && (await this.haltedByMainMoving(current))) return;
    for (const client of work.deploys) {
      await this.claimAndStart(current, 'deploy', client);
    }
    for (const { client } of work.rollbacks) {
      await this.claimAndStart(current, 'rollback', client);
    }
  }

  /**
   * Before deploys start: when main's baseline or layers (their tree ids) differ from those of the
   * planned commit, the rollout halts rather than go on with a baseline that is no longer main's
   * (ADR 078). True when it halted (or another instance changed it meanwhile).
   */
  private async haltedByMainMoving(rollout: RolloutState): Promise<boolean> {
    const { repository, now, log } = this.deps;
    const tip = await repository.branchTip();
    const mainWhenPlanned = rollout.mainCommitId ?? rollout.commitId;
    if (tip === mainWhenPlanned) return false;
    const [planned, onMain] = await Promise.all([
      repository.fleetTreeIds({ commit: mainWhenPlanned }),
      repository.fleetTreeIds({ commit: tip }),
    ]);
    if (planned.baselineTreeId === onMain.baselineTreeId) return false;
    await this.record(rollout.id, { type: 'main-moved', commitId: tip, at: now().toISOString() });
    log.warn(
      { rollout: rollout.id, planned: rollout.commitId, main: tip },
      "a rollout halted: main's baseline changed after its plan",
    );
    return true;
  }

  /**
   * A claim older than the lease without a run id: its instance died (or stalled) between its
   * claim and recording the run. Taking it over is one conditional write (one instance wins);
   * the winner looks for a run carrying the claim's token first, so a run the dead instance did
   * start is recorded rather than started a second time.
   */
  private async takeOverStaleClaims(rollout: RolloutState, pipelineId: number): Promise<void> {
    const { instanceId, claimLeaseInMs, now, project, runs, log } = this.deps;
    const at = now();
    const staleBefore = new Date(at.getTime() - claimLeaseInMs).toISOString();
    for (const { phase, client, claim } of staleClaims(rollout, staleBefore)) {
      const taken = await this.record(rollout.id, {
        type: 'claim-taken-over',
        phase,
        client,
        by: instanceId,
        at: at.toISOString(),
        staleBefore,
      });
      if (!taken) continue;
      log.warn(
        { rollout: rollout.id, client, phase, claimedBy: claim.by, claimedAt: claim.at },
        'a rollout claim past its lease taken over',
      );
      const started = await runs.findByParameter(
        project,
        pipelineId,
        { name: ROLLOUT_CLAIM_PARAMETER, value: claim.token },
        new Date(Date.parse(claim.at) - CLOCK_SKEW_IN_MS),
      );
      if (started) {
        await this.record(rollout.id, { type: 'run-recorded', phase, client, runId: started.id });
        log.info(
          { rollout: rollout.id, client, phase, runId: started.id },
          'the run of a taken-over claim found and recorded',
        );
      } else {
        await this.start(rollout, phase, client, claim.token);
      }
    }
  }

  /**
   * Claims the run on the row first (the conditional write another instance loses), with a token
   * the run will carry, then starts it and records its id.
   */
  private async claimAndStart(
    rollout: RolloutState,
    phase: 'deploy' | 'rollback',
    client: string,
  ): Promise<void> {
    const claim = {
      token: randomUUID(),
      by: this.deps.instanceId,
      at: this.deps.now().toISOString(),
    };
    const claimed = await this.record(
      rollout.id,
      phase === 'deploy'
        ? { type: 'deploy-started', client, claim }
        : { type: 'rollback-started', client, claim },
    );
    if (claimed) await this.start(rollout, phase, client, claim.token);
  }

  /**
   * Starts a claimed run carrying the claim's token and records its id. A run that cannot be
   * started is recorded as failed: for a deploy that counts against the ring's threshold, for a
   * restore it fails the rollback (which may be retried).
   */
  private async start(
    rollout: RolloutState,
    phase: 'deploy' | 'rollback',
    client: string,
    token: string,
  ): Promise<void> {
    const id = rollout.id;
    try {
      const run = await this.deps.runs.start(
        this.deps.project,
        phase === 'deploy'
          ? fullBaselineDeployRun({
              clientCode: client,
              rollout: { commitId: rollout.commitId, claim: token },
            })
          : restoreObjectsRun({
              clientCode: client,
              backupTag: rollout.deploys[client]?.backupTag ?? '',
              policies: planOf(rollout, client)?.policies ?? [],
              rolloutClaim: token,
            }),
      );
      if (!(await this.record(id, { type: 'run-recorded', phase, client, runId: run.id }))) {
        // another instance took the claim over meanwhile and recorded a run of its own
        this.deps.log.warn(
          { rollout: id, client, phase, runId: run.id },
          'a rollout run started after its claim was taken over',
        );
        return;
      }
      this.deps.log.info({ rollout: id, client, phase, runId: run.id }, 'rollout run started');
    } catch (error) {
      this.deps.log.warn({ err: error, rollout: id, client, phase }, 'a rollout run did not start');
      await this.record(
        id,
        phase === 'deploy'
          ? { type: 'deploy-finished', client, result: 'failed' }
          : { type: 'rollback-finished', client, result: 'failed' },
      );
    }
  }

  /** The event applied; false when the row had moved on (another instance recorded it first). */
  private async record(id: string, event: RolloutEvent): Promise<boolean> {
    try {
      await this.deps.store.apply(id, event);
      return true;
    } catch (error) {
      if (error instanceof ConflictError) return false;
      throw error;
    }
  }

  /** A completed run's result and the rollback point its log names; undefined while it runs. */
  private async finished(
    pipelineId: number,
    runId: number,
  ): Promise<{ result: 'succeeded' | 'failed'; backupTag?: string } | undefined> {
    const { project, runs, pipelines } = this.deps;
    const run = await runs.get(project, pipelineId, runId);
    if (run.state !== 'completed') return undefined;
    const log = await pipelines.getRunLog(project, pipelineId, runId);
    const { rollbackTag } = findRunLogFindings(log.lines);
    return {
      result: run.result === 'succeeded' ? 'succeeded' : 'failed',
      ...(rollbackTag ? { backupTag: rollbackTag } : {}),
    };
  }

  private deployPipelineId(): Promise<number> {
    return this.deps.runs.resolve(this.deps.project, locatorOf('deployBaseline'), 'deployBaseline');
  }
}

function planDto(plan: RolloutTenantPlan): RolloutTenantPlanDto {
  const { policies, unread, ...counts } = plan;
  return {
    ...counts,
    ...(policies ? { policies: [...policies] } : {}),
    ...(unread ? { unread: unread.map((u) => ({ ...u })) } : {}),
  };
}

function planOf(state: RolloutState, client: string): RolloutTenantPlan | undefined {
  return state.plan.find((p) => p.client === client);
}
