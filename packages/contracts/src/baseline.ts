// Baseline deployment and off-boarding (spec 2 §2 Tenant baseline screen, §7): runs of the Aegis
// folder's deploy and remove pipelines for the client a tenant pipeline names, and the company
// baseline's files the configuration preview reads.
import { z } from 'zod';

import { repositoryPathSchema } from './repository';

const componentName = z.string().trim().min(1).max(120);

/** The tenant pipeline (folder Tenants\{CODE}) chosen on the screen names the client. */
const tenantPipelineId = z.number().int().positive();

export const deployRunRequestSchema = z.strictObject({
  pipelineId: tenantPipelineId,
  /** omitted: the full baseline deploy; otherwise at least one catalogue component */
  components: z.array(componentName).min(1, 'must not be empty').max(200).optional(),
});
export type DeployRunRequest = z.infer<typeof deployRunRequestSchema>;

export const offboardRunRequestSchema = z.strictObject({
  pipelineId: tenantPipelineId,
  components: z
    .array(componentName)
    .min(1, 'Please select at least one component to remove')
    .max(200),
});
export type OffboardRunRequest = z.infer<typeof offboardRunRequestSchema>;

export const baselineRunResponseSchema = z.object({
  id: z.number().int(),
  /** the Aegis folder pipeline that runs (follow it at /api/projects/{project}/pipelines/…) */
  pipelineId: z.number().int(),
  project: z.string(),
  clientCode: z.string(),
  state: z.string(),
  result: z.string().nullable(),
});
export type BaselineRunResponse = z.infer<typeof baselineRunResponseSchema>;

/** A repository path inside the company baseline (M365Config/Resources/…). */
export const baselinePathQuerySchema = z.object({
  path: repositoryPathSchema(400),
});

export const baselineItemsResponseSchema = z.object({
  path: z.string(),
  /** the JSON files at or under the path (one entry when the path is a file) */
  files: z.array(z.object({ path: z.string(), name: z.string() })),
});
export type BaselineItemsResponse = z.infer<typeof baselineItemsResponseSchema>;

export const baselineFileResponseSchema = z.object({
  path: z.string(),
  /** the parsed JSON, null when the file is not valid JSON (spec 2 §7) */
  content: z.unknown(),
});
export type BaselineFileResponse = z.infer<typeof baselineFileResponseSchema>;

/** What a deploy would do to one baseline object in the client's tenant (issue 15 item 4). */
export const deployPreviewRequestSchema = z.strictObject({
  pipelineId: tenantPipelineId,
  components: z.array(componentName).min(1, 'must not be empty').max(200),
});
export const deployPreviewResponseSchema = z.object({
  clientCode: z.string(),
  /** the commit of main the client's captured configuration was read at */
  commitId: z.string().nullable(),
  components: z.array(
    z.object({
      name: z.string(),
      items: z.array(
        z.object({
          path: z.string(),
          name: z.string(),
          action: z.enum(['create', 'update', 'unchanged']),
          /** for update: the baseline settings that differ (first few) */
          changes: z.array(z.string()),
        }),
      ),
      /** for components of type function: what the function does instead */
      note: z.string().nullable(),
    }),
  ),
});
export type DeployPreviewResponse = z.infer<typeof deployPreviewResponseSchema>;
