import { CLIENT_CODE_PATTERN } from '@aegis/domain';
import { z } from 'zod';

/** A client pipeline's folder: the client code (spec 2 §7: Client_Yaml_Files/{folder}-…). */
export const clientFolderParamsSchema = z.object({
  folder: z.string().regex(CLIENT_CODE_PATTERN, 'must be a client code (3 uppercase letters)'),
});

/** A client's app deployment YAML as stored, with the apps it deploys (issue 16 §1). */
export const clientYamlSchema = z.object({
  folder: z.string(),
  path: z.string(),
  content: z.string(),
  /** the commit of main the content was read at: send it back to write on top of it */
  commitId: z.string(),
  apps: z.array(z.string()),
});
export type ClientYaml = z.infer<typeof clientYamlSchema>;

/** What 'Update YAML with Apps' would write: the app list from the table's enabled rows. */
export const clientYamlPreviewSchema = clientYamlSchema.extend({
  table: z.string(),
  nextApps: z.array(z.string()),
  nextContent: z.string(),
  changes: z.object({
    added: z.array(z.string()),
    removed: z.array(z.string()),
    unchanged: z.array(z.string()),
  }),
});
export type ClientYamlPreview = z.infer<typeof clientYamlPreviewSchema>;

export const updateClientYamlAppsSchema = z.strictObject({
  /** the commit the preview was read at; a newer main answers 409 instead of overwriting */
  commitId: z.string().regex(/^[0-9a-f]{40}$/, 'must be a commit id'),
});
export type UpdateClientYamlApps = z.infer<typeof updateClientYamlAppsSchema>;

export const clientYamlUpdatedSchema = z.object({
  message: z.string(),
  commitId: z.string(),
  apps: z.array(z.string()),
});
export type ClientYamlUpdated = z.infer<typeof clientYamlUpdatedSchema>;

/** One schedule of a pipeline (spec 2 §3: Cron, DisplayName), in words and with its next run. */
export const pipelineScheduleSchema = z.object({
  cron: z.string(),
  displayName: z.string(),
  description: z.string(),
  /** ISO time of the next run (UTC), or null when the cron cannot be evaluated */
  nextRun: z.string().nullable(),
});
export type PipelineSchedule = z.infer<typeof pipelineScheduleSchema>;

/** Spec 2 §3: client schedule row (clientCode, pipelineName, schedules). */
export const clientScheduleRowSchema = z.object({
  clientCode: z.string(),
  pipelineId: z.number().int(),
  pipelineName: z.string(),
  project: z.string(),
  schedules: z.array(pipelineScheduleSchema),
});
export type ClientScheduleRow = z.infer<typeof clientScheduleRowSchema>;

export const clientScheduleListSchema = z.object({ rows: z.array(clientScheduleRowSchema) });
export type ClientScheduleList = z.infer<typeof clientScheduleListSchema>;

/** Spec 2 §3: the update request (cronExpression, displayName). */
export const updateScheduleSchema = z.strictObject({
  cronExpression: z.string().min(1),
  displayName: z.string().min(1),
});
export type UpdateSchedule = z.infer<typeof updateScheduleSchema>;

export const scheduleUpdatedSchema = z.object({
  message: z.string(),
  commitId: z.string(),
  schedule: pipelineScheduleSchema,
});
export type ScheduleUpdated = z.infer<typeof scheduleUpdatedSchema>;
