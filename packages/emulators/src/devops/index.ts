import { seedDevOps, type SeedDevOpsOptions } from '../seed/seed-devops';

import { hasDevOpsState, buildDevOpsServer, listenDevOpsEmulator } from './server';
import type { DevOpsEmulator, DevOpsEmulatorOptions } from './server';

export interface StartDevOpsEmulatorOptions extends DevOpsEmulatorOptions {
  /** 'ifEmpty' (default): seed the sample organization when the data dir has none; 'always'; 'never' */
  seed?: 'ifEmpty' | 'always' | 'never';
  seedOptions?: Omit<SeedDevOpsOptions, 'organization'>;
}

/** Starts the Azure DevOps emulator (seeding the sample data first when asked). */
export async function startDevOpsEmulator(
  options: StartDevOpsEmulatorOptions,
): Promise<DevOpsEmulator> {
  const seed = options.seed ?? 'ifEmpty';
  if (seed === 'always' || (seed === 'ifEmpty' && !hasDevOpsState(options.dataDir))) {
    await seedDevOps(options.dataDir, {
      ...options.seedOptions,
      ...(options.organization ? { organization: options.organization } : {}),
    });
  }
  return listenDevOpsEmulator(buildDevOpsServer(options), options);
}

export { buildDevOpsServer, hasDevOpsState, listenDevOpsEmulator };
export type { DevOpsEmulator, DevOpsEmulatorOptions, DevOpsServer } from './server';
export { PipelineRunner } from './pipeline-runner';
export { EmulatorClock, PipelineScheduler, type ScheduledRun } from './scheduler';
export type {
  PipelineEffect,
  PipelineEffectContext,
  PipelineRunnerOptions,
} from './pipeline-runner';
export {
  BACKUP_PIPELINE_ID,
  backupEffect,
  backupTagMessage,
  backupTagName,
  formatBackupTimestamp,
} from './backup-effect';
export { DevOpsState } from './state';
export type {
  PipelineRecord,
  ProjectRecord,
  PullRequestRecord,
  RepositoryRecord,
  RunRecord,
} from './state';
export { taskEffect, taskOfPipeline, TASK_OF_CATALOGUED_PIPELINE } from './task-effects';
export type { TaskRuntime, TaskEffectOptions } from './task-effects';
export { tenantTaskRuntime } from './tenant-task-runtime';
export type { TenantTaskRuntimeOptions } from './tenant-task-runtime';
