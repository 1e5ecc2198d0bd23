import { parseNumericId, projectIdProblem } from '@aegis/domain';
import { z } from 'zod';

export const projectSchema = z.object({ id: z.string(), name: z.string() });
export type Project = z.infer<typeof projectSchema>;

export const projectListSchema = z.object({ projects: z.array(projectSchema) });
export type ProjectList = z.infer<typeof projectListSchema>;

export const pipelineSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The folder without its leading backslash: the client code for client pipelines. */
  folder: z.string(),
  /** The project, read from the 5th path segment of the pipeline's self link. */
  project: z.string(),
});
export type Pipeline = z.infer<typeof pipelineSchema>;

export const pipelineListSchema = z.object({ pipelines: z.array(pipelineSchema) });
export type PipelineList = z.infer<typeof pipelineListSchema>;

/** A project GUID or a valid project name: never a dot segment or a slash (issue 9 §4). */
export const projectIdSchema = z.string().superRefine((value, ctx) => {
  const problem = projectIdProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** A pipeline or run id in a URL: digits only, read as a number (`1e3` and `0x10` are refused). */
export const numericIdSchema = z.string().transform((value, ctx) => {
  const id = parseNumericId(value);
  if (id === undefined) {
    ctx.addIssue({ code: 'custom', message: 'must be a positive whole number in digits' });
    return z.NEVER;
  }
  return id;
});

export const projectParamsSchema = z.object({ projectId: projectIdSchema });

export const pipelineParamsSchema = projectParamsSchema.extend({ pipelineId: numericIdSchema });

export const runParamsSchema = pipelineParamsSchema.extend({ runId: numericIdSchema });

/** Starting a client or app pipeline from the pipeline screens. */
export const startRunBodySchema = z
  .object({
    /** The associated-pipelines screen sends the chosen app as a single-item list (spec 1 §2). */
    appList: z.array(z.string().min(1).max(100)).length(1).optional(),
  })
  .strict();
export type StartRunBody = z.infer<typeof startRunBodySchema>;

export const pipelineRunSchema = z.object({
  id: z.number().int(),
  state: z.enum(['unknown', 'notStarted', 'inProgress', 'canceling', 'completed']),
  result: z.enum(['unknown', 'succeeded', 'failed', 'canceled']).nullable(),
});
export type PipelineRun = z.infer<typeof pipelineRunSchema>;

/** A run's log (the pipeline task's output), one entry per line; time is the agent's timestamp. */
export const runLogSchema = z.object({
  lines: z.array(z.object({ time: z.string().nullable(), text: z.string() })),
});
export type RunLog = z.infer<typeof runLogSchema>;

/** A pipeline's runs, newest first: state and result only, never parameters or variables. */
export const pipelineRunListSchema = z.object({ runs: z.array(pipelineRunSchema) });
export type PipelineRunList = z.infer<typeof pipelineRunListSchema>;
