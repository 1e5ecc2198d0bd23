// Starting and following pipeline runs (issue 10 §2, ADR 015). Every feature starts its runs here
// with a body built by the domain's pipeline catalogue; nothing else calls runPipeline. Secret
// variables go to the service with isSecret and never come back: summaries carry no parameters,
// and what is logged is the redacted body.
import type { BuildRecord, DevOpsApi, PipelineRun as DevOpsRun } from '@aegis/connectors/devops';
import {
  matchesLocator,
  NotFoundError,
  redactRunBody,
  FIXED_PIPELINE_IDS,
  type FixedPipelineKey,
  type PipelineIdOverrides,
  type PipelineLocator,
  type PipelineRunRequest,
  type RunState,
} from '@aegis/domain';
import { LRUCache } from 'lru-cache';

/** A run as the API shows it: never its parameters or variables. */
export interface RunSummary {
  id: number;
  pipelineId: number;
  name: string;
  state: RunState;
  result: 'succeeded' | 'failed' | 'canceled' | 'unknown' | null;
  createdDate: string;
  finishedDate: string | null;
}

export interface RunLogger {
  info(object: Record<string, unknown>, message: string): void;
}

/**
 * App-wide: pipelines found by folder and name, by project (ids never change), and the
 * organisation's own ids for the catalogue's fixed pipelines (AEGIS_PIPELINE_IDS).
 */
export interface PipelineRunsShared {
  readonly lookups: LRUCache<string, number>;
  readonly idOverrides: PipelineIdOverrides;
}

export function createPipelineRunsShared(
  idOverrides: PipelineIdOverrides = {},
): PipelineRunsShared {
  return { lookups: new LRUCache({ max: 256 }), idOverrides };
}

/** Spec 2 §8. */
export const PIPELINE_NOT_FOUND_MESSAGE = 'Selected pipeline not found.';

export class PipelineRuns {
  constructor(
    private readonly devops: DevOpsApi,
    private readonly shared: PipelineRunsShared = createPipelineRunsShared(),
    private readonly log?: RunLogger,
  ) {}

  /**
   * The id of a pipeline: its fixed id, or the pipeline of the project found by folder and name
   * (spec 2 §7). NotFoundError 'Selected pipeline not found.' when the project has none.
   */
  async resolve(project: string, locator: PipelineLocator, catalogueKey?: string): Promise<number> {
    const ownId = catalogueKey
      ? this.shared.idOverrides[catalogueKey as FixedPipelineKey]
      : undefined;
    if (ownId !== undefined) return ownId;
    if (locator.id !== undefined) return locator.id;
    const key = `${project}\n${locator.folder.toLowerCase()}\n${locator.name}`;
    const known = this.shared.lookups.get(key);
    if (known !== undefined) return known;
    const pipelines = await this.devops.listPipelines(project);
    const found = pipelines.find((p) => matchesLocator(locator, p));
    if (!found) throw new NotFoundError(PIPELINE_NOT_FOUND_MESSAGE);
    this.shared.lookups.set(key, found.id);
    return found.id;
  }

  /** Starts a run with the catalogue's body; answers the new run (state notStarted or inProgress). */
  async start(project: string, request: PipelineRunRequest): Promise<RunSummary> {
    const pipelineId = await this.resolve(project, request.pipeline, request.catalogueKey);
    const { body } = request;
    const run = await this.devops.runPipeline(project, pipelineId, {
      refName: body.refName,
      stagesToSkip: [...body.stagesToSkip],
      ...(body.templateParameters ? { templateParameters: { ...body.templateParameters } } : {}),
      ...(body.variables
        ? {
            variables: Object.fromEntries(
              Object.entries(body.variables).map(([name, v]) => [name, { ...v }]),
            ),
          }
        : {}),
    });
    this.log?.info(
      {
        project,
        pipelineId,
        runId: run.id,
        catalogueKey: request.catalogueKey,
        body: redactRunBody(body),
      },
      'pipeline run started',
    );
    return toSummary(run, pipelineId);
  }

  /** A run's state and result; NotFoundError when the run does not exist. */
  async get(project: string, pipelineId: number, runId: number): Promise<RunSummary> {
    const run = await this.devops.getRun(project, pipelineId, runId);
    if (!run) throw new NotFoundError(`Run ${runId} of pipeline ${pipelineId} not found`);
    return toSummary(run, pipelineId);
  }

  /** A run of one of the catalogue's fixed pipelines (capture, backup, …) by its run id. */
  async getCatalogued(project: string, key: FixedPipelineKey, runId: number): Promise<RunSummary> {
    return this.get(project, this.shared.idOverrides[key] ?? FIXED_PIPELINE_IDS[key], runId);
  }

  /**
   * A run of a catalogued pipeline as the Build API records it (who requested it and for whom,
   * its parameters): undefined when there is no such run, or it is a run of another pipeline.
   * Upstream failures are thrown as they are: the caller must not read them as 'no run'.
   */
  async buildOfCatalogued(
    project: string,
    key: FixedPipelineKey,
    runId: number,
  ): Promise<BuildRecord | undefined> {
    const pipelineId = this.shared.idOverrides[key] ?? FIXED_PIPELINE_IDS[key];
    const build = await this.devops.getBuild(project, runId);
    return build?.definitionId === pipelineId ? build : undefined;
  }

  /**
   * The newest run of a pipeline created since `since` whose template parameter `name` is
   * `value`: how a run is found again when the one who started it did not record its id
   * (ADR 078). Only runs created since then are read one by one (the Build API holds the
   * parameters); undefined when there is none.
   */
  async findByParameter(
    project: string,
    pipelineId: number,
    parameter: { name: string; value: string },
    since: Date,
  ): Promise<RunSummary | undefined> {
    const recent = (await this.list(project, pipelineId)).filter(
      (run) => Date.parse(run.createdDate) >= since.getTime(),
    );
    for (const run of recent) {
      const build = await this.devops.getBuild(project, run.id);
      if (build?.templateParameters[parameter.name] === parameter.value) return run;
    }
    return undefined;
  }

  /** The runs of a pipeline (by id or locator), newest first. */
  async list(project: string, pipeline: PipelineLocator | number): Promise<RunSummary[]> {
    const pipelineId =
      typeof pipeline === 'number' ? pipeline : await this.resolve(project, pipeline);
    const runs = await this.devops.listRuns(project, pipelineId);
    return runs.map((r) => toSummary(r, pipelineId)).sort((a, b) => b.id - a.id);
  }
}

function toSummary(run: DevOpsRun, pipelineId: number): RunSummary {
  return {
    id: run.id,
    pipelineId: run.pipelineId || pipelineId,
    name: run.name,
    state: run.state,
    result: run.result ?? null,
    createdDate: run.createdDate,
    finishedDate: run.finishedDate ?? null,
  };
}
