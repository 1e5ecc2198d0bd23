import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { ConflictError, InputError, NotAllowedError } from '../errors';

import {
  MAIN_MOVED_MESSAGE,
  ROLLOUT_EVENT_ROLE,
  ROLLOUT_STATUSES,
  failedTenants,
  mayTrigger,
  planRollout,
  rolloutReducer,
  rolloutWork,
  staleClaims,
  type RolloutEvent,
  type RolloutEventType,
  type RolloutState,
  type RolloutStatus,
} from './rollout';

const PLANNER = { upn: 'alex.approver@aegis-msp.example' };
const SECOND = { upn: 'jo.second@aegis-msp.example' };
const OPERATOR = { upn: 'sam.operator@aegis-msp.example' };

const work = (client: string) => ({ client, creates: 1, updates: 1, deletes: 0 });
const idle = (client: string) => ({ client, creates: 0, updates: 0, deletes: 0 });

function planned(options: { needsApproval?: boolean; maxFailures?: number } = {}): RolloutState {
  return planRollout({
    id: 'r1',
    commitId: 'c0ffee',
    createdBy: PLANNER.upn,
    plan: [work('MSP'), work('ABC'), work('NWT'), idle('FAB')],
    rings: [
      { name: 'Our own tenant', clients: ['MSP'] },
      {
        name: 'The rest',
        clients: ['ABC', 'NWT', 'FAB'],
        ...(options.needsApproval !== undefined ? { needsApproval: options.needsApproval } : {}),
        ...(options.maxFailures !== undefined ? { maxFailures: options.maxFailures } : {}),
      },
    ],
  });
}

/** an instance's claim, long past any lease unless told otherwise */
const claimOf = (client: string, at = '2026-11-27T12:00:00.000Z') => ({
  token: `r1.${client}.token`,
  by: 'instance-a',
  at,
});

const AT = '2026-11-27T12:30:00.000Z';

const reduce = (state: RolloutState, ...events: (RolloutEvent | RolloutEvent[])[]) =>
  events.flat().reduce(rolloutReducer, state);
const started = (client: string, runId: number): RolloutEvent[] => [
  { type: 'deploy-started', client, claim: claimOf(client) },
  { type: 'run-recorded', phase: 'deploy', client, runId },
];
const finished = (client: string, result: 'succeeded' | 'failed'): RolloutEvent => ({
  type: 'deploy-finished',
  client,
  result,
  backupTag: `backup/${client}/20261127_120000`,
});

/** A rollout in each status, reached the way a real one gets there. */
function inStatus(status: RolloutStatus): RolloutState {
  const running = reduce(planned(), { type: 'start', by: PLANNER });
  const halted = reduce(running, started('MSP', 1), finished('MSP', 'failed'));
  switch (status) {
    case 'planned':
      return planned();
    case 'running':
      return running;
    case 'awaiting-approval':
      return reduce(
        planned({ needsApproval: true }),
        { type: 'start', by: PLANNER },
        started('MSP', 1),
        finished('MSP', 'succeeded'),
      );
    case 'halted':
      return halted;
    case 'succeeded':
      return reduce(
        running,
        started('MSP', 1),
        finished('MSP', 'succeeded'),
        started('ABC', 2),
        started('NWT', 3),
        finished('ABC', 'succeeded'),
        finished('NWT', 'succeeded'),
      );
    case 'aborted':
      return reduce(
        running,
        started('MSP', 1),
        { type: 'abort', by: OPERATOR },
        finished('MSP', 'succeeded'),
      );
    case 'rolling-back':
      return reduce(halted, { type: 'rollback', by: PLANNER });
    case 'rolled-back':
      return reduce(
        halted,
        { type: 'rollback', by: PLANNER },
        { type: 'rollback-started', client: 'MSP', claim: claimOf('MSP') },
        { type: 'run-recorded', phase: 'rollback', client: 'MSP', runId: 9 },
        { type: 'rollback-finished', client: 'MSP', result: 'succeeded' },
      );
    case 'rollback-failed':
      return reduce(
        halted,
        { type: 'rollback', by: PLANNER },
        { type: 'rollback-started', client: 'MSP', claim: claimOf('MSP') },
        { type: 'run-recorded', phase: 'rollback', client: 'MSP', runId: 9 },
        { type: 'rollback-finished', client: 'MSP', result: 'failed' },
      );
  }
}

/** One event of each type, fitting the rollouts of `inStatus` where it is allowed. */
function eventOf(type: RolloutEventType, state: RolloutState): RolloutEvent {
  const pendingDeploy =
    Object.entries(state.deploys).find(
      ([c, r]) => r.status === 'pending' && state.rings[state.currentRing]?.clients.includes(c),
    )?.[0] ?? 'MSP';
  const runningDeploy =
    Object.entries(state.deploys).find(([, r]) => r.status === 'running')?.[0] ?? 'MSP';
  const rollback = (status: string) =>
    Object.entries(state.rollbacks).find(([, r]) => r.status === status)?.[0] ?? 'MSP';
  switch (type) {
    case 'start':
    case 'resume':
    case 'rollback':
      return { type, by: PLANNER };
    case 'approve-ring':
      return { type, by: SECOND };
    case 'abort':
      return { type, by: OPERATOR };
    case 'decide-unread':
      return { type, by: PLANNER, client: 'MSP', decision: 'acknowledged', at: AT };
    case 'deploy-started':
      return { type, client: pendingDeploy, claim: claimOf(pendingDeploy) };
    case 'main-moved':
      return { type, commitId: 'beef', at: '2026-11-27T13:00:00.000Z' };
    case 'claim-taken-over':
      return {
        type,
        phase: 'deploy',
        client: runningDeploy,
        by: 'instance-b',
        at: '2026-11-27T13:00:00.000Z',
        staleBefore: '2026-11-27T12:58:00.000Z',
      };
    case 'run-recorded':
      return { type, phase: 'deploy', client: runningDeploy, runId: 7 };
    case 'deploy-finished':
      return finished(runningDeploy, 'succeeded');
    case 'rollback-started':
      return { type, client: rollback('pending'), claim: claimOf(rollback('pending')) };
    case 'rollback-finished':
      return { type, client: rollback('running'), result: 'succeeded' };
  }
}

/** The status an event leads to, or the refusal as 'ErrorName: message'. */
function outcome(state: RolloutState, event: RolloutEvent): string {
  try {
    return rolloutReducer(state, event).status;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}

/** The transition table of ADR 069: every status × event, the status it leads to, or refused. */
const TABLE: Record<RolloutStatus, Partial<Record<RolloutEventType, RolloutStatus>>> = {
  planned: { start: 'running', abort: 'aborted' },
  running: { abort: 'aborted', 'deploy-started': 'running', 'main-moved': 'halted' },
  'awaiting-approval': { 'approve-ring': 'running', abort: 'aborted' },
  halted: { resume: 'running', abort: 'aborted', rollback: 'rolling-back' },
  succeeded: { rollback: 'rolling-back' },
  aborted: { rollback: 'rolling-back' },
  'rolling-back': { 'rollback-started': 'rolling-back' },
  'rolled-back': {},
  'rollback-failed': { rollback: 'rolling-back' },
};

describe('rollout state machine (ADR 069)', () => {
  const types = Object.keys(ROLLOUT_EVENT_ROLE) as RolloutEventType[];

  describe.each(ROLLOUT_STATUSES)('in %s', (status) => {
    const state = inStatus(status);
    it('is reached', () => {
      expect(state.status).toBe(status);
    });
    it.each(types)('takes or refuses %s as the table says', (type) => {
      const next = TABLE[status][type];
      // run news about a run that is not at that step is refused too (tested below), so the
      // table names only the run news that these states take
      const aboutARun = [
        // refused in 'planned' too when the tenant's plan read everything (tested below)
        'decide-unread',
        'deploy-finished',
        'rollback-finished',
        'run-recorded',
        'claim-taken-over',
      ].includes(type);
      const actual = outcome(state, eventOf(type, state));
      const expected =
        next ??
        (aboutARun
          ? 'ConflictError'
          : `ConflictError: A rollout that is ${status} cannot take '${type}'.`);
      expect(next === undefined && aboutARun ? actual.split(':')[0] : actual).toBe(expected);
    });
  });

  it('records a deploy that finishes after a halt or an abort, and refuses one in other states', () => {
    const halted = reduce(
      planned({ maxFailures: 0 }),
      { type: 'start', by: PLANNER },
      started('MSP', 1),
      finished('MSP', 'succeeded'),
      started('ABC', 2),
      started('NWT', 3),
      finished('ABC', 'failed'),
    );
    expect(halted.status).toBe('halted');
    const late = rolloutReducer(halted, finished('NWT', 'succeeded'));
    expect(late.status).toBe('halted');
    expect(late.deploys.NWT).toMatchObject({ status: 'succeeded', runId: 3 });
    const aborted = reduce(
      planned(),
      { type: 'start', by: PLANNER },
      started('MSP', 1),
      { type: 'abort', by: OPERATOR },
      finished('MSP', 'succeeded'),
    );
    expect(aborted).toMatchObject({ status: 'aborted', deploys: { MSP: { status: 'succeeded' } } });
    for (const status of ['planned', 'awaiting-approval', 'succeeded', 'rolled-back'] as const) {
      expect(() => rolloutReducer(inStatus(status), finished('MSP', 'succeeded'))).toThrow(
        ConflictError,
      );
    }
  });

  it('plans: tenants with nothing to do are left out of the rings, defaults per ring', () => {
    const state = planned();
    expect(state.rings.map((r) => r.clients)).toEqual([['MSP'], ['ABC', 'NWT']]);
    expect(state.plan.find((p) => p.client === 'FAB')).toEqual(idle('FAB'));
    expect(state.deploys.FAB).toBeUndefined();
    // the first ring halts on any failure; the others tolerate a tenth of their tenants
    expect(state.rings.map((r) => r.maxFailures)).toEqual([0, 0]);
    const big = planRollout({
      id: 'r2',
      commitId: 'c',
      createdBy: PLANNER.upn,
      plan: Array.from({ length: 25 }, (_, i) => work(`C${String.fromCharCode(65 + i)}X`)),
      rings: [
        { name: 'first', clients: ['CAX'], needsApproval: true },
        {
          name: 'rest',
          clients: Array.from({ length: 24 }, (_, i) => `C${String.fromCharCode(66 + i)}X`),
        },
      ],
    });
    expect(big.rings.map((r) => [r.maxFailures, r.needsApproval])).toEqual([
      [0, false],
      [2, false],
    ]);
  });

  it('refuses rings that repeat a client, name one without a plan, or are missing', () => {
    const base = { id: 'r', commitId: 'c', createdBy: PLANNER.upn, plan: [work('ABC')] };
    const twice = {
      ...base,
      rings: [
        { name: 'a', clients: ['ABC'] },
        { name: 'b', clients: ['ABC'] },
      ],
    };
    expect(() => planRollout(twice)).toThrow(new InputError('rings name ABC twice', 'rings'));
    expect(() => planRollout({ ...base, rings: [{ name: 'a', clients: ['NWT'] }] })).toThrow(
      InputError,
    );
    expect(() => planRollout({ ...base, rings: [] })).toThrow(InputError);
  });

  it('a rollout with nothing to do anywhere succeeds when started', () => {
    const state = planRollout({
      id: 'r',
      commitId: 'c',
      createdBy: PLANNER.upn,
      plan: [idle('ABC')],
      rings: [{ name: 'a', clients: ['ABC'] }],
    });
    expect(state.rings).toEqual([]);
    expect(rolloutReducer(state, { type: 'start', by: PLANNER }).status).toBe('succeeded');
  });

  it('deploys ring by ring: the next ring only after every deploy of the previous succeeded', () => {
    let state = reduce(planned(), { type: 'start', by: PLANNER });
    expect(rolloutWork(state)).toEqual({ deploys: ['MSP'], rollbacks: [] });
    state = reduce(state, started('MSP', 1));
    expect(rolloutWork(state).deploys).toEqual([]);
    expect(() => reduce(state, started('ABC', 2))).toThrow(ConflictError);
    state = reduce(state, finished('MSP', 'succeeded'));
    expect(state.currentRing).toBe(1);
    expect(rolloutWork(state).deploys).toEqual(['ABC', 'NWT']);
  });

  it('halts on the first failure of ring 1, shows the failing tenants, and resumes them after the fix', () => {
    let state = reduce(
      planned(),
      { type: 'start', by: PLANNER },
      started('MSP', 1),
      finished('MSP', 'failed'),
    );
    expect(state.status).toBe('halted');
    expect(failedTenants(state)).toEqual(['MSP']);
    expect(rolloutWork(state).deploys).toEqual([]);
    state = rolloutReducer(state, { type: 'resume', by: PLANNER });
    expect(state.status).toBe('running');
    expect(rolloutWork(state).deploys).toEqual(['MSP']);
    state = reduce(state, started('MSP', 4), finished('MSP', 'succeeded'));
    expect(state).toMatchObject({ status: 'running', currentRing: 1 });
  });

  it('halts a ring only when its failures pass its threshold', () => {
    const tolerant = reduce(
      planned({ maxFailures: 1 }),
      { type: 'start', by: PLANNER },
      started('MSP', 1),
      finished('MSP', 'succeeded'),
      started('ABC', 2),
      started('NWT', 3),
      finished('ABC', 'failed'),
    );
    expect(tolerant.status).toBe('running');
    expect(rolloutReducer(tolerant, finished('NWT', 'succeeded')).status).toBe('succeeded');
    expect(rolloutReducer(tolerant, finished('NWT', 'failed')).status).toBe('halted');
  });

  it("waits for a second person's go-ahead where a ring needs one", () => {
    const waiting = inStatus('awaiting-approval');
    expect(rolloutWork(waiting).deploys).toEqual([]);
    expect(() => rolloutReducer(waiting, { type: 'approve-ring', by: PLANNER })).toThrow(
      NotAllowedError,
    );
    const approved = rolloutReducer(waiting, { type: 'approve-ring', by: SECOND });
    expect(approved).toMatchObject({
      status: 'running',
      currentRing: 1,
      approvals: { 1: SECOND.upn },
    });
    expect(rolloutWork(approved).deploys).toEqual(['ABC', 'NWT']);
  });

  it('rolls back every tenant a deploy touched, from the backup that deploy took first', () => {
    const afterRing2Failure = reduce(
      planned(),
      { type: 'start', by: PLANNER },
      started('MSP', 1),
      finished('MSP', 'succeeded'),
      started('ABC', 2),
      started('NWT', 3),
      finished('ABC', 'failed'),
    );
    expect(() => rolloutReducer(afterRing2Failure, { type: 'rollback', by: PLANNER })).toThrow(
      new ConflictError('Deploys to NWT are still running: roll back when they have finished.'),
    );
    let state = reduce(afterRing2Failure, finished('NWT', 'succeeded'), {
      type: 'rollback',
      by: PLANNER,
    });
    expect(rolloutWork(state).rollbacks).toEqual([
      { client: 'MSP', backupTag: 'backup/MSP/20261127_120000' },
      { client: 'ABC', backupTag: 'backup/ABC/20261127_120000' },
      { client: 'NWT', backupTag: 'backup/NWT/20261127_120000' },
    ]);
    state = reduce(
      state,
      { type: 'rollback-started', client: 'MSP', claim: claimOf('MSP') },
      { type: 'run-recorded', phase: 'rollback', client: 'MSP', runId: 11 },
      { type: 'rollback-started', client: 'ABC', claim: claimOf('ABC') },
      { type: 'run-recorded', phase: 'rollback', client: 'ABC', runId: 12 },
      { type: 'rollback-started', client: 'NWT', claim: claimOf('NWT') },
      { type: 'run-recorded', phase: 'rollback', client: 'NWT', runId: 13 },
      { type: 'rollback-finished', client: 'MSP', result: 'succeeded' },
      { type: 'rollback-finished', client: 'ABC', result: 'failed' },
    );
    expect(state.status).toBe('rolling-back');
    state = rolloutReducer(state, {
      type: 'rollback-finished',
      client: 'NWT',
      result: 'succeeded',
    });
    expect(state.status).toBe('rollback-failed');
    // a retry restores only what is not back yet
    state = rolloutReducer(state, { type: 'rollback', by: PLANNER });
    expect(rolloutWork(state).rollbacks.map((r) => r.client)).toEqual(['ABC']);
    state = reduce(
      state,
      { type: 'rollback-started', client: 'ABC', claim: claimOf('ABC') },
      { type: 'run-recorded', phase: 'rollback', client: 'ABC', runId: 14 },
      { type: 'rollback-finished', client: 'ABC', result: 'succeeded' },
    );
    expect(state.status).toBe('rolled-back');
  });

  it('has nothing to roll back when no deploy ran', () => {
    const aborted = reduce(
      planned(),
      { type: 'start', by: PLANNER },
      { type: 'abort', by: OPERATOR },
    );
    expect(() => rolloutReducer(aborted, { type: 'rollback', by: PLANNER })).toThrow(
      new ConflictError('Nothing to roll back: no deploy of this rollout has changed a tenant.'),
    );
  });

  it('refuses run news about a tenant that is not in the rollout or not at that step', () => {
    const running = inStatus('running');
    expect(() => reduce(running, started('XYZ', 1))).toThrow(ConflictError);
    expect(() =>
      reduce(running, started('MSP', 1), {
        type: 'run-recorded',
        phase: 'deploy',
        client: 'MSP',
        runId: 2,
      }),
    ).toThrow(ConflictError);
    expect(() => rolloutReducer(running, finished('MSP', 'succeeded'))).toThrow(ConflictError);
    const rollingBack = inStatus('rolling-back');
    expect(() =>
      rolloutReducer(rollingBack, { type: 'rollback-finished', client: 'MSP', result: 'failed' }),
    ).toThrow(ConflictError);
  });

  it('halts when main moved after the plan; such a rollout is planned again or aborted, not resumed', () => {
    const running = reduce(planned(), { type: 'start', by: PLANNER }, started('MSP', 1));
    const moved = rolloutReducer(running, {
      type: 'main-moved',
      commitId: 'beef',
      at: '2026-11-27T13:00:00.000Z',
    });
    expect(moved).toMatchObject({
      status: 'halted',
      mainMoved: { commitId: 'beef', at: '2026-11-27T13:00:00.000Z' },
    });
    expect(rolloutWork(moved).deploys).toEqual([]);
    expect(() => rolloutReducer(moved, { type: 'resume', by: PLANNER })).toThrow(
      MAIN_MOVED_MESSAGE,
    );
    // the deploy already running still reports, and the rollout may be aborted and rolled back
    const reported = rolloutReducer(moved, finished('MSP', 'succeeded'));
    expect(rolloutReducer(reported, { type: 'abort', by: OPERATOR }).status).toBe('aborted');
    expect(rolloutReducer(reported, { type: 'rollback', by: PLANNER }).status).toBe('rolling-back');
  });

  it('lets another instance take over a claim only once its lease ran out and no run was recorded', () => {
    const claimedAt = '2026-11-27T12:00:00.000Z';
    const claimed = reduce(
      planned(),
      { type: 'start', by: PLANNER },
      { type: 'deploy-started', client: 'MSP', claim: claimOf('MSP', claimedAt) },
    );
    const takeOver = (staleBefore: string): RolloutEvent => ({
      type: 'claim-taken-over',
      phase: 'deploy',
      client: 'MSP',
      by: 'instance-b',
      at: '2026-11-27T12:05:00.000Z',
      staleBefore,
    });
    // within the lease: the claim holds, and it is not listed as stale
    expect(staleClaims(claimed, claimedAt)).toEqual([]);
    expect(() => rolloutReducer(claimed, takeOver(claimedAt))).toThrow(ConflictError);
    // past it: listed, and taken over with the same token (so the dead instance's run is found)
    expect(staleClaims(claimed, '2026-11-27T12:03:00.000Z')).toEqual([
      { phase: 'deploy', client: 'MSP', claim: claimOf('MSP', claimedAt) },
    ]);
    const taken = rolloutReducer(claimed, takeOver('2026-11-27T12:03:00.000Z'));
    expect(taken.deploys.MSP).toEqual({
      status: 'running',
      claim: { token: 'r1.MSP.token', by: 'instance-b', at: '2026-11-27T12:05:00.000Z' },
    });
    // a second instance taking over with the same view loses: the claim is fresh again
    expect(() => rolloutReducer(taken, takeOver('2026-11-27T12:03:00.000Z'))).toThrow(
      ConflictError,
    );
    // a claim whose run was recorded is never stale
    const recorded = rolloutReducer(taken, {
      type: 'run-recorded',
      phase: 'deploy',
      client: 'MSP',
      runId: 9,
    });
    expect(staleClaims(recorded, '2026-11-28T00:00:00.000Z')).toEqual([]);
    expect(() => rolloutReducer(recorded, takeOver('2026-11-28T00:00:00.000Z'))).toThrow(
      ConflictError,
    );
  });

  describe('tenants whose plan could not read a workload (ADR 087)', () => {
    const unread = [
      {
        workload: 'Intune/DeviceConfiguration',
        status: 'notPermitted' as const,
        text: 'Not captured: the Aegis app lacks DeviceManagementConfiguration.Read.All',
        baselinePolicies: 2,
      },
    ];
    const flagged = (): RolloutState =>
      planRollout({
        id: 'r1',
        commitId: 'c0ffee',
        createdBy: PLANNER.upn,
        plan: [work('MSP'), { ...work('ABC'), unread }, { ...work('NWT'), unread }, idle('FAB')],
        rings: [
          { name: 'Our own tenant', clients: ['MSP'] },
          { name: 'The rest', clients: ['ABC', 'NWT', 'FAB'] },
        ],
      });
    const decide = (client: string, decision: 'acknowledged' | 'excluded'): RolloutEvent => ({
      type: 'decide-unread',
      by: SECOND,
      client,
      decision,
      at: AT,
    });

    it('does not start until each such tenant is acknowledged or excluded', () => {
      expect(() => reduce(flagged(), { type: 'start', by: PLANNER })).toThrow(
        new ConflictError(
          'The plan could not read some workloads of ABC, NWT: acknowledge or exclude each of these tenants before the rollout starts.',
        ),
      );
      const oneLeft = reduce(flagged(), decide('ABC', 'acknowledged'));
      expect(() => reduce(oneLeft, { type: 'start', by: PLANNER })).toThrow(/of NWT:/);
      const decided = reduce(oneLeft, decide('NWT', 'excluded'));
      expect(decided.unreadDecisions).toEqual({
        ABC: { decision: 'acknowledged', by: SECOND.upn, at: AT },
        NWT: { decision: 'excluded', by: SECOND.upn, at: AT },
      });
      const running = reduce(decided, { type: 'start', by: PLANNER });
      expect(running.status).toBe('running');
      expect(rolloutWork(running).deploys).toEqual(['MSP']);
    });

    it('leaves an excluded tenant out of its ring and its deploys, and keeps its plan', () => {
      const state = reduce(flagged(), decide('ABC', 'excluded'), decide('NWT', 'excluded'));
      expect(state.rings.map((r) => r.clients)).toEqual([['MSP']]);
      expect(Object.keys(state.deploys)).toEqual(['MSP']);
      expect(state.plan.map((p) => p.client)).toEqual(['MSP', 'ABC', 'NWT', 'FAB']);
      const done = reduce(
        state,
        { type: 'start', by: PLANNER },
        started('MSP', 1),
        finished('MSP', 'succeeded'),
      );
      expect(done.status).toBe('succeeded');
    });

    it('drops a ring its exclusions leave empty', () => {
      const state = planRollout({
        id: 'r1',
        commitId: 'c0ffee',
        createdBy: PLANNER.upn,
        plan: [work('MSP'), { ...work('ABC'), unread }],
        rings: [
          { name: 'Ring A', clients: ['ABC'] },
          { name: 'Ring B', clients: ['MSP'] },
        ],
      });
      expect(reduce(state, decide('ABC', 'excluded')).rings.map((r) => r.name)).toEqual(['Ring B']);
    });

    it('refuses a second decision, a tenant that read everything or is not planned, and after the start', () => {
      const once = reduce(flagged(), decide('ABC', 'acknowledged'));
      expect(() => reduce(once, decide('ABC', 'excluded'))).toThrow(
        new ConflictError(`ABC's unread workloads were already acknowledged by ${SECOND.upn}.`),
      );
      expect(() => reduce(flagged(), decide('MSP', 'acknowledged'))).toThrow(
        new ConflictError('The plan read every workload of MSP: nothing to decide.'),
      );
      expect(() => reduce(flagged(), decide('XYZ', 'acknowledged'))).toThrow(
        'XYZ is not a tenant of this rollout.',
      );
      const running = reduce(
        flagged(),
        decide('ABC', 'acknowledged'),
        decide('NWT', 'acknowledged'),
        { type: 'start', by: PLANNER },
      );
      expect(() => reduce(running, decide('ABC', 'excluded'))).toThrow(
        "A rollout that is running cannot take 'decide-unread'.",
      );
    });
  });

  it('says who may trigger each event: people by role, run news by the server only', () => {
    expect(mayTrigger('abort', ['Operator'])).toBe(true);
    expect(mayTrigger('abort', ['Reader'])).toBe(false);
    for (const type of ['start', 'approve-ring', 'resume', 'rollback', 'decide-unread'] as const) {
      expect(mayTrigger(type, ['Operator'])).toBe(false);
      expect(mayTrigger(type, ['Approver'])).toBe(true);
      expect(mayTrigger(type, ['Administrator'])).toBe(true);
    }
    for (const type of [
      'deploy-started',
      'claim-taken-over',
      'main-moved',
      'run-recorded',
      'deploy-finished',
      'rollback-started',
      'rollback-finished',
    ] as const) {
      expect(mayTrigger(type, ['Administrator'])).toBe(false);
    }
  });

  it('never starts a ring before the previous one finished without passing its threshold', () => {
    const clients = ['MSP', 'ABC', 'NWT'];
    const anyEvent = fc.oneof(
      fc.constantFrom<RolloutEvent>(
        { type: 'start', by: PLANNER },
        { type: 'resume', by: PLANNER },
        { type: 'approve-ring', by: SECOND },
        { type: 'abort', by: OPERATOR },
        { type: 'rollback', by: PLANNER },
      ),
      fc.constantFrom(...clients).map((client): RolloutEvent => ({
        type: 'deploy-started',
        client,
        claim: claimOf(client),
      })),
      fc.record({
        type: fc.constant('run-recorded' as const),
        phase: fc.constant('deploy' as const),
        client: fc.constantFrom(...clients),
        runId: fc.nat(),
      }),
      fc.record({
        type: fc.constant('deploy-finished' as const),
        client: fc.constantFrom(...clients),
        result: fc.constantFrom('succeeded' as const, 'failed' as const),
        backupTag: fc.constant('backup/X/20261127_120000'),
      }),
    );
    fc.assert(
      fc.property(fc.boolean(), fc.array(anyEvent, { maxLength: 40 }), (approval, events) => {
        let state = planned({ needsApproval: approval });
        const refusals: string[] = [];
        const violations: string[] = [];
        for (const event of events) {
          const result = outcome(state, event);
          if (result.includes(':')) {
            refusals.push(result);
            continue;
          }
          state = rolloutReducer(state, event);
          // ring 2 deploys only once ring 1 has no failure and no run left
          const ring2Started = ['ABC', 'NWT'].some((c) => state.deploys[c]?.status !== 'pending');
          if (ring2Started && state.deploys.MSP?.status !== 'succeeded') {
            violations.push(`ring 2 started with MSP ${state.deploys.MSP?.status}`);
          }
          if (approval && ring2Started && state.approvals[1] !== SECOND.upn) {
            violations.push('ring 2 started without its go-ahead');
          }
        }
        expect(violations).toEqual([]);
        expect(refusals.filter((r) => !/^(ConflictError|NotAllowedError): /.test(r))).toEqual([]);
      }),
    );
  });
});
