// Scheduled runs (issue 16): the emulator reads each pipeline's `schedules:` from its YAML on the
// default branch, as Azure Pipelines does, and queues a run when a cron time passes on its clock.
// The clock can be moved ahead (tests, `POST /_emulator/clock/advance`), so a weekly schedule can
// be seen firing without waiting a week. Like the real service, missed times are not replayed one
// by one: one run per schedule whose time passed. `always: false` skips a run when the branch has
// not changed since the last scheduled run.
import {
  readParameterDefaults,
  readSchedules,
  runsBetween,
  scheduleIncludesBranch,
} from '@aegis/domain';

import type { PipelineRunner } from './pipeline-runner';
import { newRunRecord, queueRun } from './routes/pipeline-runs';
import type { DevOpsState, RunRecord } from './state';

/** Real time plus an offset the tests (or the admin endpoint) move forward. */
export class EmulatorClock {
  private offsetInMs = 0;

  constructor(private readonly base: () => Date = () => new Date()) {}

  now(): Date {
    return new Date(this.base().getTime() + this.offsetInMs);
  }

  advance(ms: number): Date {
    if (!Number.isFinite(ms) || ms < 0) throw new Error('the clock only moves forward');
    this.offsetInMs += ms;
    return this.now();
  }
}

const SCHEDULER_IDENTITY = {
  id: '00000000-0000-0000-0000-00000000005c',
  displayName: 'Microsoft.VisualStudio.Services.TFS',
  uniqueName: '00000002-0000-8888-8000-000000000000@2c895908-04e0-4952-89fd-54b0046d6288',
};

export interface ScheduledRun {
  run: RunRecord;
  cron: string;
  dueAt: Date;
}

export class PipelineScheduler {
  private lastCheck: Date;
  private readonly lastScheduledVersion = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<ScheduledRun[]> | undefined;

  constructor(
    private readonly state: DevOpsState,
    private readonly runner: PipelineRunner,
    private readonly clock: EmulatorClock,
  ) {
    this.lastCheck = clock.now();
  }

  /** Checks the schedules every `intervalInMs` of real time (npm start); tests call tick(). */
  start(intervalInMs = 30_000): void {
    this.stop();
    this.timer = setInterval(() => void this.tick(), intervalInMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Moves the clock ahead and queues every schedule whose time passed meanwhile. */
  async advance(ms: number): Promise<ScheduledRun[]> {
    this.clock.advance(ms);
    return this.tick();
  }

  /** Queues the runs of every schedule whose cron time passed since the last check. */
  tick(): Promise<ScheduledRun[]> {
    const previous = this.ticking ?? Promise.resolve([]);
    const next = previous.then(() => this.check());
    this.ticking = next.catch(() => []);
    return next;
  }

  private async check(): Promise<ScheduledRun[]> {
    const from = this.lastCheck;
    const to = this.clock.now();
    this.lastCheck = to;
    const queued: ScheduledRun[] = [];
    for (const pipeline of [...this.state.data.pipelines]) {
      if (!pipeline.repositoryId || !pipeline.yamlPath) continue;
      const project = this.state.data.projects.find((p) => p.id === pipeline.projectId);
      if (!project) continue;
      const git = this.state.git(pipeline.repositoryId);
      const branch = 'refs/heads/main';
      const commit = await git.revParse(`${branch}^{commit}`);
      if (!commit) continue;
      let text: string;
      let schedules: ReturnType<typeof readSchedules>;
      let parameters: Record<string, string>;
      try {
        text = (await git.readBlob(commit, pipeline.yamlPath.replace(/^\//, ''))).toString('utf8');
        schedules = readSchedules(text);
        parameters = readParameterDefaults(text);
      } catch {
        continue; // no file or not valid YAML: the service runs nothing either
      }
      for (const schedule of schedules) {
        if (!scheduleIncludesBranch(schedule, branch)) continue;
        const due = runsBetween(schedule.cron, from, to).at(-1);
        if (!due) continue;
        const key = `${pipeline.id} ${schedule.cron}`;
        if (!schedule.always && this.lastScheduledVersion.get(key) === commit) continue;
        this.lastScheduledVersion.set(key, commit);
        const run = newRunRecord(this.state, this.runner, pipeline, {
          refName: branch,
          sourceVersion: commit,
          templateParameters: { ...parameters },
          variables: {},
          stagesToSkip: [],
          requestedBy: SCHEDULER_IDENTITY,
        });
        run.log.push(`Scheduled run: ${schedule.displayName ?? schedule.cron} (${schedule.cron})`);
        queueRun(this.state, this.runner, run, pipeline, project);
        queued.push({ run, cron: schedule.cron, dueAt: due });
      }
    }
    return queued;
  }
}
