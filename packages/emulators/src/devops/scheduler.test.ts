// Issue 16 §3: schedules are read from each pipeline's YAML as Azure Pipelines reads them, and
// the emulator runs scheduled pipelines at their cron times on a clock the tests move ahead.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { DevOpsClient } from '@aegis/connectors/devops';
import { nextRunOf, withSingleSchedule } from '@aegis/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '../seed/seed-devops';

import type { DevOpsEmulator } from './server';

import { startDevOpsEmulator } from './index';

const PROJECT = SAMPLE_PROJECTS.tenantManagement;
const REPO = { project: PROJECT, repository: CONFIG_REPOSITORY_NAME };
const HOUR = 3_600_000;

let dataDir: string;
let emulator: DevOpsEmulator;
let client: DevOpsClient;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-devops-schedules-'));
  emulator = await startDevOpsEmulator({ dataDir, port: 0, pipelineDurationInMs: 50 });
  client = new DevOpsClient({
    organizationUrl: emulator.url,
    getToken: () => Promise.resolve('token'),
  });
});

afterAll(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('scheduled pipelines', () => {
  it('runs nothing until a schedule time passes, then runs each due schedule once', async () => {
    expect(await emulator.scheduler.tick()).toEqual([]);
    const abc = emulator.state.data.pipelines.find((p) => p.name.startsWith('ABC - Workstation'))!;
    // ABC's client YAML holds one weekly schedule, Sunday 2:00 AM UTC
    const due = nextRunOf('0 2 * * 0', emulator.clock.now())!;
    const justBefore = due.getTime() - emulator.clock.now().getTime() - 60_000;
    expect(
      (await emulator.scheduler.advance(justBefore)).filter((q) => q.run.pipelineId === abc.id),
    ).toEqual([]);
    const queued = await emulator.scheduler.advance(2 * 60_000);
    const abcRuns = queued.filter((q) => q.run.pipelineId === abc.id);
    expect(abcRuns).toHaveLength(1);
    expect(abcRuns[0]).toMatchObject({ cron: '0 2 * * 0', dueAt: due });
    await emulator.runner.waitForIdle();
    const project = emulator.state.data.projects.find((p) => p.id === abc.projectId)!;
    const run = await client.getRun(project.name, abc.id, abcRuns[0]!.run.id);
    expect(run).toMatchObject({ state: 'completed', result: 'succeeded' });
    // a week later it runs again, once, even though the clock jumped two weeks
    const again = await emulator.scheduler.advance(14 * 24 * HOUR);
    expect(again.filter((q) => q.run.pipelineId === abc.id)).toHaveLength(1);
    await emulator.runner.waitForIdle();
  });

  it('a weekly backup scheduled in the YAML creates a scheduled backup tag at its time', async () => {
    const backup = emulator.state.data.pipelines.find((p) => p.id === 212)!;
    const file = backup.yamlPath!.replace(/^\//, '');
    const tip = (await client.listRefs(REPO, 'heads/main'))[0]!.objectId;
    const text = (await client.getFile(REPO, file))!.content;
    const scheduled = withSingleSchedule(text, {
      cron: '30 23 * * 6',
      displayName: 'Weekly 11:30 PM build (Saturday)',
    }).replace(
      '- name: ClientCode\n  type: string',
      '- name: ClientCode\n  type: string\n  default: CON',
    );
    await client.push(REPO, {
      branch: 'main',
      oldObjectId: tip,
      commits: [
        {
          comment: 'Weekly backup of CON',
          changes: [{ changeType: 'edit', path: file, content: scheduled }],
        },
      ],
    });
    const before = (await client.listRefs(REPO, 'tags/backup/CON/')).map((r) => r.name);
    const due = nextRunOf('30 23 * * 6', emulator.clock.now())!;
    const queued = await emulator.scheduler.advance(
      due.getTime() - emulator.clock.now().getTime() + 1000,
    );
    expect(queued.filter((q) => q.run.pipelineId === 212)).toHaveLength(1);
    await emulator.runner.waitForIdle();
    const added = (await client.listRefs(REPO, 'tags/backup/CON/'))
      .map((r) => r.name)
      .filter((name) => !before.includes(name));
    const stamp = due.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(
      new RegExp(`^refs/tags/backup/CON/scheduled_${stamp.slice(0, 13)}\\d{2}$`),
    );
  });

  it('moves the clock over HTTP and lists the runs it queued', async () => {
    const response = await fetch(`${emulator.origin}/_emulator/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ days: 7 }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { now: string; runs: { pipelineId: number }[] };
    // the clock has been moved three weeks and more ahead of real time by now
    expect(Date.parse(body.now)).toBeGreaterThan(Date.now() + 21 * 24 * HOUR);
    expect(body.runs.map((r) => r.pipelineId)).toContain(212);
    await emulator.runner.waitForIdle();
  });
});
