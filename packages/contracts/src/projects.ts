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

export const projectParamsSchema = z.object({ projectId: z.string().min(1).max(200) });

export const pipelineParamsSchema = projectParamsSchema.extend({
  pipelineId: z.coerce.number().int().positive(),
});

export const runParamsSchema = pipelineParamsSchema.extend({
  runId: z.coerce.number().int().positive(),
});

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
