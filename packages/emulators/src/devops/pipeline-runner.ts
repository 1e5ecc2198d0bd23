// Executes pipeline runs: notStarted → inProgress → completed (succeeded | failed). Each pipeline
// id may register an effect (what the pipeline really does); the default just takes its time.
import type { DevOpsState, PipelineRecord, ProjectRecord, RunRecord, RunResult } from './state';

export interface PipelineEffectContext {
  run: RunRecord;
  pipeline: PipelineRecord;
  project: ProjectRecord;
  state: DevOpsState;
  /** templateParameters and variable values, merged (variables win) */
  parameters: Readonly<Record<string, string>>;
  now: () => Date;
  log: (line: string) => void;
}

/** Throw (or return 'failed') to fail the run. */
export type PipelineEffect = (context: PipelineEffectContext) => Promise<RunResult | void>;

export interface PipelineRunnerOptions {
  /** how long a run takes in total (default 3000 ms) */
  durationInMs?: number;
  /** how long a run stays notStarted (default a quarter of the duration, at most 500 ms) */
  queueDelayInMs?: number;
  now?: () => Date;
}

export class PipelineRunner {
  private readonly effects = new Map<number, PipelineEffect>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  /** secret variable values by run id: in memory for the run only, never in the stored state */
  private readonly secrets = new Map<number, Record<string, string>>();
  private closed = false;
  readonly durationInMs: number;
  private readonly queueDelayInMs: number;
  readonly now: () => Date;

  constructor(
    private readonly state: DevOpsState,
    options: PipelineRunnerOptions = {},
  ) {
    this.durationInMs = options.durationInMs ?? 3000;
    this.queueDelayInMs = options.queueDelayInMs ?? Math.min(500, this.durationInMs / 4);
    this.now = options.now ?? (() => new Date());
  }

  private resolver: ((pipeline: PipelineRecord) => PipelineEffect | undefined) | undefined;

  /** Effects for pipelines without a registered one, decided per pipeline (e.g. by name). */
  resolveWith(resolver: (pipeline: PipelineRecord) => PipelineEffect | undefined): void {
    this.resolver = resolver;
  }

  register(pipelineId: number, effect: PipelineEffect): void {
    this.effects.set(pipelineId, effect);
  }

  unregister(pipelineId: number): void {
    this.effects.delete(pipelineId);
  }

  /**
   * Takes a new run's secret variable values out of its record (call before the run is stored):
   * the run's task gets them, the state file and every answer only `isSecret`, as the real
   * service never gives a secret back. A run queued before a restart runs without them.
   */
  holdSecrets(run: RunRecord): void {
    const held: Record<string, string> = {};
    for (const [name, variable] of Object.entries(run.variables)) {
      if (!variable.isSecret) continue;
      held[name] = variable.value;
      run.variables[name] = { value: '', isSecret: true };
    }
    if (Object.keys(held).length > 0) this.secrets.set(run.id, held);
  }

  /** Starts executing a run that is already stored in the state as notStarted. */
  start(run: RunRecord, pipeline: PipelineRecord, project: ProjectRecord): void {
    if (this.closed) return;
    const execution = this.execute(run, pipeline, project).finally(() =>
      this.inFlight.delete(execution),
    );
    this.inFlight.add(execution);
  }

  /** Resolves when every started run has completed. */
  async waitForIdle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    this.closed = true;
    // wake every sleeping run, or close would wait for runs that can never finish
    for (const [timer, wake] of this.timers) {
      clearTimeout(timer);
      wake();
    }
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed || ms <= 0) return resolve();
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.set(timer, resolve);
    });
  }

  private async execute(
    run: RunRecord,
    pipeline: PipelineRecord,
    project: ProjectRecord,
  ): Promise<void> {
    const started = Date.now();
    await this.sleep(this.queueDelayInMs);
    if (this.closed) return;
    run.state = 'inProgress';
    this.state.save();
    const parameters: Record<string, string> = { ...run.templateParameters };
    const secrets = this.secrets.get(run.id) ?? {};
    this.secrets.delete(run.id);
    for (const [name, variable] of Object.entries(run.variables)) {
      parameters[name] = variable.isSecret ? (secrets[name] ?? '') : variable.value;
    }
    const effect = this.effects.get(pipeline.id) ?? this.resolver?.(pipeline);
    const log = (line: string): void => {
      run.log.push(`${this.now().toISOString()} ${line}`);
      this.state.save();
    };
    let result: RunResult = 'succeeded';
    try {
      if (effect) {
        const outcome = await effect({
          run,
          pipeline,
          project,
          state: this.state,
          parameters,
          now: this.now,
          log,
        });
        if (outcome) result = outcome;
      } else {
        logStepsNotRun(run, pipeline, log);
      }
    } catch (error) {
      result = 'failed';
      run.log.push(
        `${this.now().toISOString()} ##[error]${error instanceof Error ? error.message : String(error)}`,
      );
    }
    await this.sleep(this.durationInMs - (Date.now() - started));
    if (this.closed && run.state !== 'inProgress') return;
    run.state = 'completed';
    run.result = result;
    run.finishedDate = this.now().toISOString();
    this.state.save();
  }
}

/**
 * A pipeline the emulator has no effect for (a client's app deployment, whose PowerShell runs on
 * a Windows agent) still writes a log, as every real run does: what it was started with, and that
 * its script steps are not run here, so 'View log' says what happened instead of nothing.
 */
function logStepsNotRun(run: RunRecord, pipeline: PipelineRecord, log: (line: string) => void) {
  log(`##[section]Starting: ${pipeline.name}`);
  for (const [name, value] of Object.entries(run.templateParameters)) log(`${name}: ${value}`);
  for (const [name, variable] of Object.entries(run.variables)) {
    log(`${name}: ${variable.isSecret ? '***' : variable.value}`);
  }
  log(
    "##[warning]The DevOps emulator does not run this pipeline's script steps; an Azure Pipelines agent runs them.",
  );
  log(`##[section]Finishing: ${pipeline.name}`);
}
