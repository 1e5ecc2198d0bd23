// The emulator's runner runs the pipelines' real work (packages/pipeline-tasks, ADR 023) for the
// catalogue's pipelines: the same `runTask` an Azure Pipelines agent runs through `aegis-task`,
// given the run's parameters, a DevOps client on this emulator with the run's job token, and the
// client tenant the embedder connects (the tenant emulator on the embedded default).
import type { BlobStore } from '@aegis/connectors/blobs';
import { DevOpsClient } from '@aegis/connectors/devops';
import type { MailSender } from '@aegis/connectors/graph';
import { ConfigRepository, createConfigRepositoryShared } from '@aegis/connectors/repository';
import type { AppTables } from '@aegis/connectors/tables';
import { cataloguedPipelineOf, type CataloguedPipelineKey } from '@aegis/domain';
import { runTask, type TaskLog, type TaskName, type TenantGateway } from '@aegis/pipeline-tasks';

import type { PipelineEffect } from './pipeline-runner';
import type { DevOpsState } from './state';

/** How the runner reaches client tenants, storage and the MSP's mailbox (given by the embedder). */
export interface TaskRuntime {
  /** a gateway to the tenant named by a client code or a tenant id */
  tenant(clientCodeOrTenantId: string): Promise<TenantGateway>;
  tables?: AppTables;
  blobs?: BlobStore;
  mail?: MailSender;
}

export interface TaskEffectOptions {
  runtime: TaskRuntime;
  /** the organisation URL of this emulator (known once it listens) */
  organizationUrl(): string;
  /** the token the runner's jobs use (System.AccessToken) */
  jobToken: string;
}

/** What each pipeline of the domain's catalogue runs (found by id, or by folder and name). */
export const TASK_OF_CATALOGUED_PIPELINE: Readonly<Record<CataloguedPipelineKey, TaskName>> = {
  capture: 'capture',
  backup: 'backup',
  tenantOnboarding: 'onboard',
  tenantOnboardingLegacy: 'onboard',
  appDeployOnboarding: 'appdeploy-onboard',
  appDeployOnboardingLegacy: 'appdeploy-onboard',
  deployBaseline: 'deploy',
  removeBaseline: 'offboard',
  driftCheck: 'drift-check',
  fleetRebuild: 'fleet-rebuild',
  customerReports: 'customer-reports',
};

export function taskOfPipeline(pipeline: {
  id: number;
  name: string;
  folder: string;
}): TaskName | undefined {
  const key = cataloguedPipelineOf(pipeline);
  return key ? TASK_OF_CATALOGUED_PIPELINE[key] : undefined;
}

function runLog(write: (line: string) => void): TaskLog {
  return {
    info: (line) => write(line),
    section: (title) => write(`##[section]${title}`),
    warning: (message) => write(`##[warning]${message}`),
    error: (message) => write(`##[error]${message}`),
    // the Pipelines runs API knows no 'partially succeeded': the run succeeds and the log says why
    succeededWithIssues: (message) => write(`##[warning]${message}`),
  };
}

export function taskEffect(
  task: TaskName,
  state: DevOpsState,
  options: TaskEffectOptions,
): PipelineEffect {
  return async ({ run, project, parameters, now, log }) => {
    const devops = new DevOpsClient({
      organizationUrl: options.organizationUrl(),
      getToken: () => Promise.resolve(options.jobToken),
      retry: { maxRetries: 2, baseDelayInMs: 50 },
    });
    const configRepository =
      state.data.repositories.find(
        (r) => r.projectId === project.id && r.name.toLowerCase() === 'm365config',
      ) ?? state.data.repositories.find((r) => r.projectId === project.id);
    if (!configRepository) throw new Error(`Project ${project.name} has no repository`);
    const client = parameters['ClientCode'] ?? '';
    await runTask(task, parameters, {
      log: runLog(log),
      runId: run.id,
      ...(run.requestedBy ? { requestedBy: run.requestedBy.uniqueName } : {}),
      now,
      devops,
      repository: new ConfigRepository(
        devops,
        createConfigRepositoryShared({ project: project.id, repository: configRepository.id }),
      ),
      pipelines: { project: project.id, repository: configRepository.id },
      ...(options.runtime.tables ? { tables: options.runtime.tables } : {}),
      ...(options.runtime.blobs ? { blobs: options.runtime.blobs } : {}),
      ...(options.runtime.mail ? { mail: options.runtime.mail } : {}),
      tenant: (tenantId) => options.runtime.tenant(tenantId || client),
    });
  };
}
