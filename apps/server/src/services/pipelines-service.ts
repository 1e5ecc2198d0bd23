import type { DevOpsApi, Pipeline as DevOpsPipeline } from '@aegis/connectors/devops';
import type { Pipeline, PipelineRun, Project, RunLog, StartRunBody } from '@aegis/contracts';
import { isClientPipelineFolder, NotFoundError, stripFolder } from '@aegis/domain';

/** Projects, client pipelines and runs (spec 1 §2, §7). */
export class PipelinesService {
  constructor(private readonly devops: DevOpsApi) {}

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

  async startRun(project: string, pipelineId: number, body: StartRunBody): Promise<PipelineRun> {
    const run = await this.devops.runPipeline(project, pipelineId, {
      refName: 'refs/heads/main',
      stagesToSkip: [],
      // Spec 1 §2: the chosen app travels as a single-item list.
      ...(body.appList ? { templateParameters: { AppList: JSON.stringify(body.appList) } } : {}),
    });
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
    const run = await this.devops.getRun(project, pipelineId, runId);
    if (!run) throw new NotFoundError(`Run ${runId} of pipeline ${pipelineId} not found`);
    return toRun(run);
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

function toRun(run: { id: number; state: PipelineRun['state']; result?: string }): PipelineRun {
  const result = run.result as PipelineRun['result'] | undefined;
  return { id: run.id, state: run.state, result: result ?? null };
}

function byFolderThenName(a: Pipeline, b: Pipeline): number {
  return a.folder.localeCompare(b.folder) || a.name.localeCompare(b.name);
}
