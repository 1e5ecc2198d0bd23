// Rollouts in rings (issue 30 §3, ADR 069): a baseline change goes to a fleet ring by ring, each
// ring a set of deploy runs; a ring whose failures pass its threshold halts the rollout; a rollback
// puts every tenant the rollout deployed to back from the backup its deploy took first. This file
// is the state machine only: which event may happen in which state, by whom, and what follows.
// The server stores the state (Table storage, one conditional write per event) and starts the runs
// that `rolloutWork` names.
import { ConflictError, InputError, NotAllowedError, NotFoundError } from '../errors';
import { hasRole, type AegisRole } from '../roles';

export const ROLLOUT_STATUSES = [
  /** planned, nothing deployed yet */
  'planned',
  /** the current ring's deploys are running */
  'running',
  /** the current ring succeeded; the next one waits for an Approver's go-ahead */
  'awaiting-approval',
  /** the current ring's failures passed its threshold: nothing new starts until resumed */
  'halted',
  /** every ring succeeded */
  'succeeded',
  /** stopped by a person; what ran stays deployed until rolled back */
  'aborted',
  /** the tenants deployed to are being put back */
  'rolling-back',
  /** every tenant deployed to is back to its pre-rollout state */
  'rolled-back',
  /** some tenant could not be put back; the rollback may be retried */
  'rollback-failed',
] as const;
export type RolloutStatus = (typeof ROLLOUT_STATUSES)[number];

/** A tenant's deploy (or restore, in a rollback) in the rollout. */
export type RolloutRunStatus = 'pending' | 'running' | 'succeeded' | 'failed';

/**
 * An instance's claim of a run it is about to start (ADR 078): a lease. A claim older than the
 * lease, still without a run id, belongs to an instance presumed dead and may be taken over.
 */
export interface RolloutClaim {
  /** carried by the pipeline run as its RolloutClaim parameter: how a started run is found again */
  readonly token: string;
  /** the instance holding the claim */
  readonly by: string;
  /** when it claimed (ISO 8601) */
  readonly at: string;
}

export interface RolloutRun {
  readonly status: RolloutRunStatus;
  /** the pipeline run, once started */
  readonly runId?: number;
  /** who started (or is starting) the run, and the token the run carries */
  readonly claim?: RolloutClaim;
  /** the backup the deploy took before changing the tenant: the rollback's source */
  readonly backupTag?: string;
}

/** What the plan found a deploy would do in one tenant, from a fresh read of it. */
export interface RolloutTenantPlan {
  readonly client: string;
  readonly creates: number;
  readonly updates: number;
  readonly deletes: number;
  /** the resource paths the deploy would create or update: what a rollback puts back */
  readonly policies?: readonly string[];
  /**
   * workloads the plan's read of the tenant could not see (ADR 087): the counts above are
   * guesses for them, so the tenant deploys only once an Approver acknowledged it
   */
  readonly unread?: readonly UnreadWorkload[];
}

/** A workload the plan's capture could not read, as the plan shows it (ADR 087). */
export interface UnreadWorkload {
  /** `Category/Kind` */
  readonly workload: string;
  readonly status: 'failed' | 'notPermitted' | 'notLicensed';
  /** 'Not captured: {reason}', with the service's own words */
  readonly text: string;
  /** the baseline policies of the workload the plan counted without knowing the tenant's */
  readonly baselinePolicies: number;
}

/** A person's answer to a tenant's unread workloads: deploy anyway, or leave the tenant out. */
export interface UnreadDecision {
  readonly decision: 'acknowledged' | 'excluded';
  readonly by: string;
  /** ISO 8601 */
  readonly at: string;
}

export interface RolloutRing {
  readonly name: string;
  /** the tenants of the ring that have something to deploy */
  readonly clients: readonly string[];
  /** failures the ring tolerates; one more halts the rollout */
  readonly maxFailures: number;
  /** whether this ring waits for an Approver's go-ahead before it starts (never the first ring) */
  readonly needsApproval: boolean;
}

export interface RolloutState {
  readonly id: string;
  readonly status: RolloutStatus;
  /** the baseline commit rolled out */
  readonly commitId: string;
  /**
   * main's tip when it was planned, when that was not `commitId` (an earlier baseline commit was
   * chosen): main has moved when its baseline differs from this commit's (ADR 078)
   */
  readonly mainCommitId?: string;
  readonly createdBy: string;
  /** when it was planned (ISO 8601) */
  readonly createdAt?: string;
  readonly rings: readonly RolloutRing[];
  /** index into `rings` of the ring deploying (or last deployed) */
  readonly currentRing: number;
  /** the plan of every target tenant, those with nothing to do included */
  readonly plan: readonly RolloutTenantPlan[];
  /** per client of a ring */
  readonly deploys: Readonly<Record<string, RolloutRun>>;
  /** per client deployed to, once a rollback was asked for */
  readonly rollbacks: Readonly<Record<string, RolloutRun>>;
  /** the go-ahead of each ring that needed one: ring index → Approver */
  readonly approvals: Readonly<Record<number, string>>;
  /**
   * set when main's baseline or layers changed after the plan (ADR 078): the rollout halted
   * rather than deploy a baseline nobody planned, and may only be planned again or aborted
   */
  readonly mainMoved?: { readonly commitId: string; readonly at: string };
  /**
   * per tenant whose plan has unread workloads, the Approver's decision (ADR 087); a rollout with
   * such a tenant undecided does not start
   */
  readonly unreadDecisions?: Readonly<Record<string, UnreadDecision>>;
}

export interface RolloutActor {
  readonly upn: string;
}

export type RolloutEvent =
  | { readonly type: 'start'; readonly by: RolloutActor }
  | { readonly type: 'approve-ring'; readonly by: RolloutActor }
  | { readonly type: 'resume'; readonly by: RolloutActor }
  | { readonly type: 'abort'; readonly by: RolloutActor }
  | { readonly type: 'rollback'; readonly by: RolloutActor }
  /** a tenant's unread workloads acknowledged (it deploys anyway) or the tenant excluded */
  | {
      readonly type: 'decide-unread';
      readonly by: RolloutActor;
      readonly client: string;
      readonly decision: UnreadDecision['decision'];
      readonly at: string;
    }
  /** a deploy claimed by the instance that starts its run (before the run exists) */
  | { readonly type: 'deploy-started'; readonly client: string; readonly claim: RolloutClaim }
  /**
   * a claim older than the lease (made before `staleBefore`) and still without a run, taken over
   * by another instance; the run keeps its token, so a run the dead instance started is found
   */
  | {
      readonly type: 'claim-taken-over';
      readonly phase: 'deploy' | 'rollback';
      readonly client: string;
      readonly by: string;
      readonly at: string;
      readonly staleBefore: string;
    }
  /** the pipeline run of a claimed deploy or restore */
  | {
      readonly type: 'run-recorded';
      readonly phase: 'deploy' | 'rollback';
      readonly client: string;
      readonly runId: number;
    }
  | {
      readonly type: 'deploy-finished';
      readonly client: string;
      readonly result: 'succeeded' | 'failed';
      readonly backupTag?: string;
    }
  | { readonly type: 'rollback-started'; readonly client: string; readonly claim: RolloutClaim }
  /** main's baseline or layers differ from the planned commit's: main is now at `commitId` */
  | { readonly type: 'main-moved'; readonly commitId: string; readonly at: string }
  | {
      readonly type: 'rollback-finished';
      readonly client: string;
      readonly result: 'succeeded' | 'failed';
    };
export type RolloutEventType = RolloutEvent['type'];

/**
 * Who may send each event: a role for the people's events; 'system' for what the server records
 * from the pipeline runs it follows (no route sends those). ADR 069 gives the reasons.
 */
export const ROLLOUT_EVENT_ROLE: Readonly<Record<RolloutEventType, AegisRole | 'system'>> = {
  start: 'Approver',
  'approve-ring': 'Approver',
  resume: 'Approver',
  abort: 'Operator',
  rollback: 'Approver',
  'decide-unread': 'Approver',
  'deploy-started': 'system',
  'claim-taken-over': 'system',
  'main-moved': 'system',
  'run-recorded': 'system',
  'deploy-finished': 'system',
  'rollback-started': 'system',
  'rollback-finished': 'system',
};

/** The statuses each event may arrive in. */
const ALLOWED: Readonly<Record<RolloutEventType, readonly RolloutStatus[]>> = {
  start: ['planned'],
  'approve-ring': ['awaiting-approval'],
  resume: ['halted'],
  abort: ['planned', 'running', 'awaiting-approval', 'halted'],
  rollback: ['halted', 'aborted', 'succeeded', 'rollback-failed'],
  // decided before anything deploys: a started rollout has deployed on the plan as it was
  'decide-unread': ['planned'],
  // a deploy started before a halt or abort still finishes, and is recorded
  'deploy-started': ['running'],
  'deploy-finished': ['running', 'halted', 'aborted'],
  'run-recorded': ['running', 'halted', 'aborted', 'rolling-back'],
  'claim-taken-over': ['running', 'halted', 'aborted', 'rolling-back'],
  'main-moved': ['running'],
  'rollback-started': ['rolling-back'],
  'rollback-finished': ['rolling-back'],
};

/** Why a rollout halted by main moving cannot resume (ADR 078). */
export const MAIN_MOVED_MESSAGE =
  'The baseline on main changed after this rollout was planned: plan the rollout again or abort it.';

/** Rings as a person asks for them: a name and clients, optionally a threshold and a go-ahead. */
export interface RolloutRingRequest {
  readonly name: string;
  readonly clients: readonly string[];
  readonly maxFailures?: number;
  readonly needsApproval?: boolean;
}

/**
 * A new rollout: the rings keep the tenants with something to do (the others are listed apart,
 * in the plan only). A ring's default threshold is no failure in the first ring and a tenth of the
 * ring, rounded down, in the others. A client in two rings, or a ring client missing from the
 * plan, is refused naming `rings`.
 */
export function planRollout(input: {
  readonly id: string;
  readonly commitId: string;
  readonly mainCommitId?: string;
  readonly createdBy: string;
  readonly createdAt?: string;
  readonly rings: readonly RolloutRingRequest[];
  readonly plan: readonly RolloutTenantPlan[];
}): RolloutState {
  if (input.rings.length === 0) throw new InputError('rings must name at least one ring', 'rings');
  const planned = new Map(input.plan.map((p) => [p.client, p]));
  const seen = new Set<string>();
  for (const ring of input.rings) {
    for (const client of ring.clients) {
      if (seen.has(client)) throw new InputError(`rings name ${client} twice`, 'rings');
      if (!planned.has(client))
        throw new InputError(`rings name ${client}, which has no plan`, 'rings');
      seen.add(client);
    }
  }
  const rings = input.rings
    .map((ring, index) => ({
      name: ring.name,
      clients: ring.clients.filter((c) => hasWork(planned.get(c))),
      maxFailures: ring.maxFailures ?? (index === 0 ? 0 : Math.floor(ring.clients.length / 10)),
      needsApproval: index > 0 && ring.needsApproval === true,
    }))
    .filter((ring) => ring.clients.length > 0);
  const deploys: Record<string, RolloutRun> = {};
  for (const ring of rings)
    for (const client of ring.clients) deploys[client] = { status: 'pending' };
  return {
    id: input.id,
    status: 'planned',
    commitId: input.commitId,
    ...(input.mainCommitId && input.mainCommitId !== input.commitId
      ? { mainCommitId: input.mainCommitId }
      : {}),
    createdBy: input.createdBy,
    ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    rings,
    currentRing: 0,
    plan: input.plan,
    deploys,
    rollbacks: {},
    approvals: {},
  };
}

/** Whether a tenant's plan has anything to deploy. */
export function hasWork(plan: RolloutTenantPlan | undefined): boolean {
  return plan !== undefined && plan.creates + plan.updates + plan.deletes > 0;
}

/** The state after an event; ConflictError when the event may not happen now. */
export function rolloutReducer(state: RolloutState, event: RolloutEvent): RolloutState {
  if (!ALLOWED[event.type].includes(state.status)) {
    throw new ConflictError(`A rollout that is ${state.status} cannot take '${event.type}'.`);
  }
  switch (event.type) {
    case 'start': {
      const undecided = undecidedTenants(state);
      if (undecided.length > 0) {
        throw new ConflictError(
          `The plan could not read some workloads of ${undecided.join(', ')}: acknowledge or exclude each of these tenants before the rollout starts.`,
        );
      }
      return settleRing({ ...state, status: 'running' });
    }
    case 'decide-unread':
      return decideUnread(state, event);
    case 'approve-ring': {
      // four eyes: the go-ahead is a second person's
      if (event.by.upn.toLowerCase() === state.createdBy.toLowerCase()) {
        throw new NotAllowedError(
          'The go-ahead for the next ring must come from an Approver other than the one who planned the rollout.',
        );
      }
      const next = state.currentRing + 1;
      return settleRing({
        ...state,
        status: 'running',
        currentRing: next,
        approvals: { ...state.approvals, [next]: event.by.upn },
      });
    }
    case 'resume': {
      if (state.mainMoved) {
        throw new ConflictError(MAIN_MOVED_MESSAGE);
      }
      // the ring's failed tenants are deployed again (after the fix); the rest carry on
      const deploys = { ...state.deploys };
      for (const client of ringOf(state).clients) {
        if (deploys[client]?.status === 'failed') deploys[client] = { status: 'pending' };
      }
      return settleRing({ ...state, status: 'running', deploys });
    }
    case 'abort':
      return { ...state, status: 'aborted' };
    case 'main-moved':
      return {
        ...state,
        status: 'halted',
        mainMoved: { commitId: event.commitId, at: event.at },
      };
    case 'rollback': {
      const running = Object.entries(state.deploys).filter(([, run]) => run.status === 'running');
      if (running.length > 0) {
        // a deploy still running would change its tenant again after being put back
        throw new ConflictError(
          `Deploys to ${running.map(([client]) => client).join(', ')} are still running: roll back when they have finished.`,
        );
      }
      const touched = rollbackClients(state);
      if (touched.length === 0) {
        throw new ConflictError(
          'Nothing to roll back: no deploy of this rollout has changed a tenant.',
        );
      }
      const rollbacks = { ...state.rollbacks };
      for (const client of touched) {
        if (rollbacks[client]?.status !== 'succeeded') rollbacks[client] = { status: 'pending' };
      }
      return settleRollback({ ...state, status: 'rolling-back', rollbacks });
    }
    case 'deploy-started': {
      if (undecidedTenants(state).includes(event.client)) {
        throw new ConflictError(`${event.client}'s unread workloads are not acknowledged.`);
      }
      const run = deployOf(state, event.client);
      if (run.status !== 'pending' || !ringOf(state).clients.includes(event.client)) {
        throw new ConflictError(`The deploy to ${event.client} is ${run.status}, not pending.`);
      }
      return withDeploy(state, event.client, { status: 'running', claim: event.claim });
    }
    case 'claim-taken-over': {
      const runs = event.phase === 'deploy' ? state.deploys : state.rollbacks;
      const run = runs[event.client];
      if (run?.status !== 'running' || run.runId !== undefined || !run.claim) {
        throw new ConflictError(`The ${event.phase} of ${event.client} has no claim to take over.`);
      }
      if (Date.parse(run.claim.at) >= Date.parse(event.staleBefore)) {
        throw new ConflictError(
          `The ${event.phase} of ${event.client} is claimed by ${run.claim.by} within its lease.`,
        );
      }
      const taken = { ...run, claim: { token: run.claim.token, by: event.by, at: event.at } };
      return event.phase === 'deploy'
        ? withDeploy(state, event.client, taken)
        : { ...state, rollbacks: { ...state.rollbacks, [event.client]: taken } };
    }
    case 'run-recorded': {
      const runs = event.phase === 'deploy' ? state.deploys : state.rollbacks;
      const run = runs[event.client];
      if (run?.status !== 'running' || run.runId !== undefined) {
        throw new ConflictError(`The ${event.phase} of ${event.client} has no run to record.`);
      }
      const recorded = { ...run, runId: event.runId };
      return event.phase === 'deploy'
        ? withDeploy(state, event.client, recorded)
        : { ...state, rollbacks: { ...state.rollbacks, [event.client]: recorded } };
    }
    case 'deploy-finished': {
      const run = deployOf(state, event.client);
      if (run.status !== 'running') {
        throw new ConflictError(`The deploy to ${event.client} is ${run.status}, not running.`);
      }
      const finished = withDeploy(state, event.client, {
        ...run,
        status: event.result,
        ...(event.backupTag ? { backupTag: event.backupTag } : {}),
      });
      return finished.status === 'running' ? settleRing(finished) : finished;
    }
    case 'rollback-started': {
      const run = state.rollbacks[event.client];
      if (run?.status !== 'pending') {
        throw new ConflictError(`The rollback of ${event.client} is not pending.`);
      }
      return settleRollback({
        ...state,
        rollbacks: {
          ...state.rollbacks,
          [event.client]: { status: 'running', claim: event.claim },
        },
      });
    }
    case 'rollback-finished': {
      const run = state.rollbacks[event.client];
      if (run?.status !== 'running') {
        throw new ConflictError(`The rollback of ${event.client} is not running.`);
      }
      return settleRollback({
        ...state,
        rollbacks: { ...state.rollbacks, [event.client]: { ...run, status: event.result } },
      });
    }
    default:
      return assertNever(event);
  }
}

/** Whether `roles` may send the event (the server's check before it reduces). */
export function mayTrigger(type: RolloutEventType, roles: readonly AegisRole[]): boolean {
  const needed = ROLLOUT_EVENT_ROLE[type];
  return needed !== 'system' && hasRole(roles, needed);
}

/** What the server should start now: deploys of the current ring, or restores of the rollback. */
export function rolloutWork(state: RolloutState): {
  deploys: string[];
  rollbacks: { client: string; backupTag: string }[];
} {
  if (state.status === 'running') {
    return {
      deploys: ringOf(state).clients.filter((c) => state.deploys[c]?.status === 'pending'),
      rollbacks: [],
    };
  }
  if (state.status === 'rolling-back') {
    return {
      deploys: [],
      rollbacks: Object.entries(state.rollbacks).flatMap(([client, run]) => {
        const backupTag = state.deploys[client]?.backupTag;
        return run.status === 'pending' && backupTag ? [{ client, backupTag }] : [];
      }),
    };
  }
  return { deploys: [], rollbacks: [] };
}

/**
 * Runs claimed before `staleBefore` that still have no run id: their instance died (or stalled)
 * between its claim and recording the run, so another instance takes them over (ADR 078).
 */
export function staleClaims(
  state: RolloutState,
  staleBefore: string,
): { phase: 'deploy' | 'rollback'; client: string; claim: RolloutClaim }[] {
  const limit = Date.parse(staleBefore);
  const stale = (phase: 'deploy' | 'rollback', runs: Readonly<Record<string, RolloutRun>>) =>
    Object.entries(runs).flatMap(([client, run]) =>
      run.status === 'running' &&
      run.runId === undefined &&
      run.claim &&
      Date.parse(run.claim.at) < limit
        ? [{ phase, client, claim: run.claim }]
        : [],
    );
  return [...stale('deploy', state.deploys), ...stale('rollback', state.rollbacks)];
}

/** Tenants of a ring whose plan has unread workloads and no Approver's decision yet (ADR 087). */
export function undecidedTenants(state: RolloutState): string[] {
  const inRings = new Set(state.rings.flatMap((r) => r.clients));
  return state.plan
    .filter((p) => (p.unread?.length ?? 0) > 0 && inRings.has(p.client))
    .map((p) => p.client)
    .filter((client) => !state.unreadDecisions?.[client]);
}

/**
 * Records an Approver's decision on a tenant's unread workloads. An excluded tenant leaves its ring
 * (a ring left empty goes); its plan stays, so the page still says why it was left out.
 */
function decideUnread(
  state: RolloutState,
  event: Extract<RolloutEvent, { type: 'decide-unread' }>,
): RolloutState {
  const plan = state.plan.find((p) => p.client === event.client);
  if (!plan) throw new NotFoundError(`${event.client} is not a tenant of this rollout.`);
  if (!plan.unread?.length) {
    throw new ConflictError(`The plan read every workload of ${event.client}: nothing to decide.`);
  }
  const decided = state.unreadDecisions?.[event.client];
  if (decided) {
    throw new ConflictError(
      `${event.client}'s unread workloads were already ${decided.decision} by ${decided.by}.`,
    );
  }
  const unreadDecisions = {
    ...state.unreadDecisions,
    [event.client]: { decision: event.decision, by: event.by.upn, at: event.at },
  };
  if (event.decision === 'acknowledged') return { ...state, unreadDecisions };
  const deploys = Object.fromEntries(
    Object.entries(state.deploys).filter(([client]) => client !== event.client),
  );
  const rings = state.rings
    .map((ring) => ({ ...ring, clients: ring.clients.filter((c) => c !== event.client) }))
    .filter((ring) => ring.clients.length > 0);
  return { ...state, rings, deploys, unreadDecisions };
}

/** The current ring's failed tenants (what a halt shows). */
export function failedTenants(state: RolloutState): string[] {
  return ringOf(state).clients.filter((c) => state.deploys[c]?.status === 'failed');
}

/** Tenants a deploy changed or may have changed, whose pre-rollout backup is known. */
function rollbackClients(state: RolloutState): string[] {
  return Object.entries(state.deploys)
    .filter(([, run]) => (run.status === 'succeeded' || run.status === 'failed') && run.backupTag)
    .map(([client]) => client);
}

function ringOf(state: RolloutState): RolloutRing {
  const ring = state.rings[state.currentRing];
  if (!ring) throw new ConflictError('The rollout has no ring to deploy.');
  return ring;
}

function deployOf(state: RolloutState, client: string): RolloutRun {
  const run = state.deploys[client];
  if (!run) throw new ConflictError(`${client} is not a tenant of this rollout.`);
  return run;
}

function withDeploy(state: RolloutState, client: string, run: RolloutRun): RolloutState {
  return { ...state, deploys: { ...state.deploys, [client]: run } };
}

/**
 * A running rollout after its ring's latest news: halted once failures pass the threshold; when
 * every deploy of the ring finished, the next ring starts (or waits for its go-ahead), or the
 * rollout succeeded.
 */
function settleRing(state: RolloutState): RolloutState {
  if (state.rings.length === 0) return { ...state, status: 'succeeded' };
  const ring = ringOf(state);
  const runs = ring.clients.map((c) => state.deploys[c]?.status ?? 'pending');
  if (runs.filter((s) => s === 'failed').length > ring.maxFailures) {
    return { ...state, status: 'halted' };
  }
  if (!runs.every((s) => s === 'succeeded' || s === 'failed')) return state;
  const next = state.currentRing + 1;
  const nextRing = state.rings[next];
  if (!nextRing) return { ...state, status: 'succeeded' };
  if (nextRing.needsApproval && !state.approvals[next]) {
    return { ...state, status: 'awaiting-approval' };
  }
  return settleRing({ ...state, currentRing: next });
}

function settleRollback(state: RolloutState): RolloutState {
  const runs = Object.values(state.rollbacks).map((r) => r.status);
  if (!runs.every((s) => s === 'succeeded' || s === 'failed')) return state;
  return { ...state, status: runs.includes('failed') ? 'rollback-failed' : 'rolled-back' };
}

function assertNever(event: never): never {
  throw new InputError(`Unknown rollout event ${JSON.stringify(event)}`, 'type');
}
