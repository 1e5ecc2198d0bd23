import type { DevOpsApi, Pipeline as DevOpsPipeline } from '@aegis/connectors/devops';
import type { Pipeline, PipelineRun, Project, RunLog, StartRunBody } from '@aegis/contracts';
import {
  appListRun,
  bareRun,
  isClientPipelineFolder,
  isTenantPipelineFolder,
  NotFoundError,
  stripFolder,
} from '@aegis/domain';

import type { PipelineRuns, RunSummary } from './pipeline-runs';

/** Projects, client pipelines and runs (spec 1 §2, §7). */
export class PipelinesService {
  constructor(
    private readonly devops: DevOpsApi,
    private readonly runs: PipelineRuns,
  ) {}

  async listProjects(): Promise<Project[]> {
    const projects = await this.devops.listProjects();
    return projects
      .map(({ id, name }) => ({ id, name }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The client pipelines of one project: folder without its backslash, exactly 3 characters. */
  async listProjectPipelines(project: string): Promise<Pipeline[]> {
    const pipelines = await this.devops.listPipelines(project);
    return pipelines
      .filter((p) => isClientPipelineFolder(p.folder))
      .map(toPipeline)
      .sort(byFolderThenName);
  }

  /** The cross-project variant: every project's client pipelines. */
  async listClientPipelines(): Promise<Pipeline[]> {
    const projects = await this.devops.listProjects();
    const perProject = await Promise.all(projects.map((p) => this.listProjectPipelines(p.id)));
    return perProject.flat().sort(byFolderThenName);
  }

  /**
   * What the app-deploy flows read as 'already onboarded' (spec 2 §5, ADR 055): every project's
   * pipelines under Tenants and in a client folder, since app-deploy onboarding looks for the
   * client's app pipeline in any project. A project that cannot be listed fails the whole check.
   */
  async listOnboardingPipelines(): Promise<Pipeline[]> {
    const projects = await this.devops.listProjects();
    const perProject = await Promise.all(projects.map((p) => this.devops.listPipelines(p.id)));
    return perProject
      .flat()
      .filter((p) => isTenantPipelineFolder(p.folder) || isClientPipelineFolder(p.folder))
      .map(toPipeline)
      .sort(byFolderThenName);
  }

  /**
   * Runs a client pipeline bare, or with the chosen app as a single-item AppList (spec 1 §2).
   * Only the client app-deployment pipelines this route lists: the deploy, remove and onboarding
   * pipelines start through their own routes, with their own roles.
   */
  async startRun(project: string, pipelineId: number, body: StartRunBody): Promise<PipelineRun> {
    const clientPipelines = await this.listProjectPipelines(project);
    if (!clientPipelines.some((pipeline) => pipeline.id === pipelineId)) {
      throw new NotFoundError(
        `Pipeline ${pipelineId} is not a client app-deployment pipeline of project ${project}.`,
      );
    }
    const app = body.appList?.[0];
    const run = await this.runs.start(
      project,
      app !== undefined ? appListRun(pipelineId, app) : bareRun(pipelineId),
    );
    return toRun(run);
  }

  /** A run's log; the timestamp agents put before each line is split off. */
  async getRunLog(project: string, pipelineId: number, runId: number): Promise<RunLog> {
    await this.getRun(project, pipelineId, runId);
    const lines = (await this.devops.getRunLog(project, runId)) ?? [];
    return {
      lines: lines.map((line) => {
        const match = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z) (.*)$/.exec(line);
        return match
          ? { time: match[1] ?? null, text: match[2] ?? '' }
          : { time: null, text: line };
      }),
    };
  }

  async getRun(project: string, pipelineId: number, runId: number): Promise<PipelineRun> {
    return toRun(await this.runs.get(project, pipelineId, runId));
  }

  async listRuns(project: string, pipelineId: number): Promise<PipelineRun[]> {
    return (await this.runs.list(project, pipelineId)).map(toRun);
  }
}

function toPipeline(pipeline: DevOpsPipeline): Pipeline {
  return {
    id: pipeline.id,
    name: pipeline.name,
    folder: stripFolder(pipeline.folder),
    project: pipeline.projectId,
  };
}

function toRun(run: RunSummary): PipelineRun {
  return { id: run.id, state: run.state, result: run.result };
}

function byFolderThenName(a: Pipeline, b: Pipeline): number {
  return a.folder.localeCompare(b.folder) || a.name.localeCompare(b.name);
}
