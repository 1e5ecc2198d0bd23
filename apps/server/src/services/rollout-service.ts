// Rollouts in rings (issue 30 §3, ADR 069, 074): the plan from a fresh capture of each target
// tenant, the rollout's row, and the loop that starts and follows its deploy and restore runs.
// Every change of a rollout is an event through the domain's reducer on its shared row, so any
// instance may run the loop and a run is started once.
import type { ConfigRepository } from '@aegis/connectors/repository';
import { readClientBaseline } from '@aegis/connectors/repository';
import type {
  CreateRolloutBody,
  RolloutCapture,
  RolloutDto,
  RolloutPlanDto,
  RolloutPlanStarted,
  RolloutTenantPlanDto,
} from '@aegis/contracts';
import {
  ConflictError,
  NotFoundError,
  captureBranchName,
  captureRun,
  clientResourcesRoot,
  failedTenants,
  findRunLogFindings,
  fullBaselineDeployRun,
  locatorOf,
  planRollout,
  restoreObjectsRun,
  rolloutWork,
  tenantDeployPlan,
  type RolloutEvent,
  type RolloutState,
  type RolloutTenantPlan,
} from '@aegis/domain';

import type { PipelineRuns } from './pipeline-runs';
import type { PipelinesService } from './pipelines-service';
import type { RolloutStore } from './rollout-store';

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
  async readPlan(captures: readonly RolloutCapture[]): Promise<RolloutPlanDto> {
    const { project, repository, runs } = this.deps;
    const commitId = await repository.branchTip();
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
        const [baseline, read] = await Promise.all([
          readClientBaseline(repository, client, { commit: commitId }),
          repository.readTree(clientResourcesRoot(client), {
            branch: captureBranchName(client, runId),
          }),
        ]);
        if (!read) throw new NotFoundError(`Capture run ${runId} of ${client} wrote no branch`);
        const plan = planDto(tenantDeployPlan(client, baseline.files, read.files));
        return { client, runId, status: 'planned' as const, plan };
      }),
    );
    return { commitId, tenants };
  }

  /** A rollout from a finished plan, in rings; 409 while a tenant's capture runs or has failed. */
  async create(body: CreateRolloutBody, createdBy: string): Promise<RolloutDto> {
    const { commitId, tenants } = await this.readPlan(body.captures);
    const unplanned = tenants.filter((t) => t.status !== 'planned');
    if (unplanned.length > 0) {
      throw new ConflictError(
        `The plan is not ready: ${unplanned.map((t) => `${t.client} (${t.status})`).join(', ')}.`,
      );
    }
    const state = planRollout({
      id: this.deps.newId(),
      commitId,
      createdBy,
      createdAt: this.deps.now().toISOString(),
      rings: body.rings,
      plan: tenants.flatMap((t) => (t.plan ? [t.plan] : [])),
    });
    return this.toDto(await this.deps.store.create(state));
  }

  async get(id: string): Promise<RolloutDto> {
    return this.toDto(await this.deps.store.get(id));
  }

  async list(): Promise<RolloutDto[]> {
    const rollouts = await this.deps.store.list();
    return Promise.all(rollouts.map((r) => this.toDto(r)));
  }

  /** A person's event (start, go-ahead, resume, abort, rollback); the route checked the role. */
  async apply(id: string, event: RolloutEvent): Promise<RolloutDto> {
    return this.toDto(await this.deps.store.apply(id, event));
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
 * The ring loop (ADR 074): on each pass, for every rollout, records the end of the runs it
 * follows, then claims and starts what `rolloutWork` names. It runs on every instance with the
 * Aegis app's own identity; the row's etag decides which instance claims a run, so a tenant is
 * deployed (or put back) once. The state is the row, so a restarted instance carries on from it.
 */
export class RolloutRunner {
  constructor(
    private readonly deps: {
      readonly project: string;
      readonly runs: PipelineRuns;
      readonly pipelines: PipelinesService;
      readonly store: RolloutStore;
      readonly log: RolloutRunnerLog;
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
    const work = rolloutWork(current);
    for (const client of work.deploys) {
      await this.claimAndStart(current.id, 'deploy', client, () =>
        fullBaselineDeployRun({ clientCode: client }),
      );
    }
    for (const { client, backupTag } of work.rollbacks) {
      const policies = planOf(current, client)?.policies ?? [];
      await this.claimAndStart(current.id, 'rollback', client, () =>
        restoreObjectsRun({ clientCode: client, backupTag, policies }),
      );
    }
  }

  /**
   * Claims the run on the row first (the conditional write another instance loses), then starts
   * it and records its id. A run that cannot be started is recorded as failed: for a deploy that
   * counts against the ring's threshold, for a restore it fails the rollback (which may be retried).
   */
  private async claimAndStart(
    id: string,
    phase: 'deploy' | 'rollback',
    client: string,
    request: () => Parameters<PipelineRuns['start']>[1],
  ): Promise<void> {
    const claimed = await this.record(
      id,
      phase === 'deploy'
        ? { type: 'deploy-started', client }
        : { type: 'rollback-started', client },
    );
    if (!claimed) return;
    try {
      const run = await this.deps.runs.start(this.deps.project, request());
      await this.record(id, { type: 'run-recorded', phase, client, runId: run.id });
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
  const { policies, ...counts } = plan;
  return { ...counts, ...(policies ? { policies: [...policies] } : {}) };
}

function planOf(state: RolloutState, client: string): RolloutTenantPlan | undefined {
  return state.plan.find((p) => p.client === client);
}
