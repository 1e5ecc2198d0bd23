// A rollout survives an instance that dies between claiming a tenant's deploy and recording its
// run (ADR 078): two instances that die at each point, a third that takes their claims over once
// the lease ran out and finishes the rollout, on one Azurite and the DevOps and tenant emulators.
// Every tenant gets exactly one deploy run.
import { ConfigRepository, createConfigRepositoryShared } from '@aegis/connectors/repository';
import { createTablesClient, SharedRows } from '@aegis/connectors/tables';
import {
  locatorOf,
  MAIN_MOVED_MESSAGE,
  planRollout,
  ROLLOUT_CLAIM_PARAMETER,
  type RolloutState,
} from '@aegis/domain';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS, TenantWorld } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPipelineRunsShared, PipelineRuns } from '../../src/services/pipeline-runs';
import { PipelinesService } from '../../src/services/pipelines-service';
import { RolloutRunner } from '../../src/services/rollout-service';
import { RolloutStore } from '../../src/services/rollout-store';
import { buildWithSeededDevOps, mainWriterOf, type AppWithDevOps } from '../devops-fixture';

const PROJECT = SAMPLE_PROJECTS.tenantManagement;
const REPO = { project: PROJECT, repository: CONFIG_REPOSITORY_NAME };
const PLANNER = { upn: 'priya.shah@aegis-msp.example' };
const LEASE_IN_MS = 60_000;
const quietLog = { warn: () => undefined, info: () => undefined };

describe('a claim whose instance died is taken over after its lease (ADR 078)', () => {
  let env: AppWithDevOps;
  const world = new TenantWorld({ propagationDelayInMs: 0 });
  let commitId: string;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ pipelineDurationInMs: 0, world, tables: true });
    const [main] = await mainWriterOf(env.t).listRefs(REPO, 'heads/main');
    commitId = main!.commitId;
  }, 120_000);
  afterAll(() => env?.close());

  /**
   * One server instance: its own Table storage client on the shared table, the Aegis app's
   * DevOps identity, its own clock; `dies` says where it stops for good.
   */
  const instance = (
    name: string,
    options: { now?: () => Date; dies?: 'before-the-run' | 'after-the-run-started' } = {},
  ) => {
    const devops = mainWriterOf(env.t);
    const runs = new PipelineRuns(devops, createPipelineRunsShared());
    const dead = new Promise<never>(() => undefined);
    if (options.dies) {
      const start = runs.start.bind(runs);
      runs.start = async (project, request) => {
        if (options.dies === 'after-the-run-started') await start(project, request);
        return dead;
      };
    }
    const store = new RolloutStore(
      new SharedRows(
        createTablesClient({ connectionString: env.azurite!.connectionString }),
        'AegisRolloutTakeover',
      ),
    );
    const pipelines = new PipelinesService(devops, runs);
    const runner = new RolloutRunner({
      project: PROJECT,
      runs,
      pipelines,
      store,
      repository: new ConfigRepository(devops, createConfigRepositoryShared(REPO)),
      log: quietLog,
      instanceId: name,
      claimLeaseInMs: LEASE_IN_MS,
      now: options.now ?? (() => new Date()),
    });
    return { runner, store, runs, pipelines };
  };

  /** the deploy runs of the deploy pipeline that carry a claim token, per client */
  const rolloutDeploys = async (runs: PipelineRuns, pipelineId: number) => {
    const devops = mainWriterOf(env.t);
    const perClient: Record<string, number[]> = {};
    for (const run of await runs.list(PROJECT, pipelineId)) {
      const build = await devops.getBuild(PROJECT, run.id);
      const client = build?.templateParameters['ClientCode'];
      if (!client || !build.templateParameters[ROLLOUT_CLAIM_PARAMETER]) continue;
      expect(build.templateParameters['Commit']).toBe(commitId);
      (perClient[client] ??= []).push(run.id);
    }
    return perClient;
  };

  it('finishes both rings with one deploy run per tenant', async () => {
    const work = (client: string) => ({ client, creates: 0, updates: 1, deletes: 0 });
    const first = instance('instance-a', { dies: 'before-the-run' });
    const rollout: RolloutState = planRollout({
      id: 'takeover',
      commitId,
      createdBy: PLANNER.upn,
      plan: [work('NWT'), work('CON'), work('FAB')],
      rings: [
        { name: 'Ring 1', clients: ['NWT', 'CON'] },
        { name: 'Ring 2', clients: ['FAB'] },
      ],
    });
    await first.store.create(rollout);
    await first.store.apply(rollout.id, { type: 'start', by: PLANNER });

    // instance A claims NWT and dies before starting its run; B claims CON, starts its run and
    // dies before recording it (neither pass ever returns)
    void first.runner.pass();
    await expect
      .poll(async () => (await first.store.get(rollout.id)).deploys.NWT?.claim?.by)
      .toBe('instance-a');
    const second = instance('instance-b', { dies: 'after-the-run-started' });
    void second.runner.pass();
    await expect
      .poll(async () => (await second.store.get(rollout.id)).deploys.CON?.claim?.by)
      .toBe('instance-b');
    const pipelineId = await second.runs.resolve(
      PROJECT,
      locatorOf('deployBaseline'),
      'deployBaseline',
    );
    await expect
      .poll(async () => (await rolloutDeploys(second.runs, pipelineId)).CON)
      .toHaveLength(1);
    await env.devops.emulator.runner.waitForIdle();

    // C within the lease: both claims hold, nothing is started a second time
    let clock = Date.now();
    const third = instance('instance-c', { now: () => new Date(clock) });
    await third.runner.pass();
    const held = await third.store.get(rollout.id);
    expect(held.deploys.NWT).toMatchObject({ status: 'running', claim: { by: 'instance-a' } });
    expect(held.deploys.CON).toMatchObject({ status: 'running', claim: { by: 'instance-b' } });
    expect(held.deploys.CON?.runId).toBeUndefined();

    // past the lease: C takes both over, starts NWT's run and finds CON's, then finishes the rollout
    clock += LEASE_IN_MS + 1_000;
    for (let i = 0; i < 6 && (await third.store.get(rollout.id)).status === 'running'; i += 1) {
      await third.runner.pass();
      await env.devops.emulator.runner.waitForIdle();
      clock += 1_000;
    }
    const done = await third.store.get(rollout.id);
    expect(done.status).toBe('succeeded');
    expect(done.deploys.NWT).toMatchObject({ status: 'succeeded', claim: { by: 'instance-c' } });
    expect(done.deploys.CON).toMatchObject({ status: 'succeeded', claim: { by: 'instance-c' } });
    expect(done.deploys.FAB).toMatchObject({ status: 'succeeded', claim: { by: 'instance-c' } });

    const deploys = await rolloutDeploys(third.runs, pipelineId);
    expect(Object.keys(deploys).sort()).toEqual(['CON', 'FAB', 'NWT']);
    for (const client of ['NWT', 'CON', 'FAB']) {
      expect(deploys[client]).toEqual([done.deploys[client]?.runId]);
    }
  }, 180_000);

  it("halts before the next ring when main's baseline moved after the plan, not for other changes", async () => {
    const git = mainWriterOf(env.t);
    const tip = async () => (await git.listRefs(REPO, 'heads/main'))[0]!.commitId;
    const push = async (path: string, content: string, changeType: 'add' | 'edit') =>
      git.push(REPO, {
        branch: 'main',
        oldObjectId: await tip(),
        commits: [{ comment: `Change ${path}`, changes: [{ changeType, path, content }] }],
      });
    const planned = await tip();
    const work = (client: string) => ({ client, creates: 0, updates: 1, deletes: 0 });
    const { runner, store, runs, pipelines } = instance('instance-d');
    await store.create(
      planRollout({
        id: 'main-moves',
        commitId: planned,
        createdBy: PLANNER.upn,
        plan: [work('NWT'), work('CON'), work('FAB')],
        rings: [
          { name: 'Ring 1', clients: ['NWT'] },
          { name: 'Ring 2', clients: ['CON'] },
          { name: 'Ring 3', clients: ['FAB'] },
        ],
      }),
    );
    await store.apply('main-moves', { type: 'start', by: PLANNER });
    /** one pass, then the runs it started run to their end */
    const step = async () => {
      await runner.pass();
      await env.devops.emulator.runner.waitForIdle();
    };

    // a change outside the baseline and its layers: ring 2 goes ahead, deploying the planned commit
    await step();
    await push('/Docs/rollout-note.md', 'not the baseline', 'add');
    await step();
    const ring2 = await store.get('main-moves');
    expect(ring2).toMatchObject({ status: 'running', currentRing: 1 });
    expect(ring2.deploys.CON?.runId).toEqual(expect.any(Number));
    const conBuild = await git.getBuild(PROJECT, ring2.deploys.CON!.runId!);
    expect(conBuild?.templateParameters['Commit']).toBe(planned);
    const pipelineId = await runs.resolve(PROJECT, locatorOf('deployBaseline'), 'deployBaseline');
    const conLog = await pipelines.getRunLog(PROJECT, pipelineId, ring2.deploys.CON!.runId!);
    expect(conLog.lines.map((l) => l.text)).toContainEqual(
      expect.stringContaining(`Baseline at commit ${planned}`),
    );

    // a baseline change: ring 3 does not start, the rollout halts naming main's new commit
    const items = await git.listItems(REPO, '/M365Config/Resources', {
      recursion: 'full',
      version: { branch: 'main' },
    });
    const policy = items.find((i) => !i.isFolder && i.path.endsWith('.json'))!;
    const file = await git.getFile(REPO, policy.path, { version: { branch: 'main' } });
    const body = JSON.parse(file?.content ?? '{}') as Record<string, unknown>;
    await push(policy.path, JSON.stringify({ ...body, description: 'moved' }, null, 2), 'edit');
    const moved = await tip();
    const before = (await runs.list(PROJECT, pipelineId)).length;
    await step();
    const halted = await store.get('main-moves');
    expect(halted).toMatchObject({
      status: 'halted',
      mainMoved: { commitId: moved },
      deploys: { FAB: { status: 'pending' } },
    });
    expect((await runs.list(PROJECT, pipelineId)).length).toBe(before);
    await expect(store.apply('main-moves', { type: 'resume', by: PLANNER })).rejects.toThrow(
      MAIN_MOVED_MESSAGE,
    );
    expect((await store.apply('main-moves', { type: 'abort', by: PLANNER })).status).toBe(
      'aborted',
    );
  }, 180_000);
});
