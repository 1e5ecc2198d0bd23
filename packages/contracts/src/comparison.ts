import { z } from 'zod';

import { notCapturedWorkloadSchema } from './not-captured';

/**
 * Configuration Comparison (spec 1 §2, §4, §7, §8). Runs and configuration loads answer with NDJSON: one
 * event per line, `progress` events (percent 0–100 from real work), then one `result` or one `error`.
 */

/** A client is a folder of three capital letters under /Clients (spec 1 §9). */
export const clientCodeSchema = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: 'must be three capital letters (A-Z)' });

export const baselineTypeSchema = z.enum(['standard', 'options']);
export type ComparisonBaselineType = z.infer<typeof baselineTypeSchema>;

export const clientParamsSchema = z.object({ client: clientCodeSchema });

export const runComparisonBodySchema = z
  .object({ client: clientCodeSchema, baselineType: baselineTypeSchema })
  .strict();
export type RunComparisonBody = z.infer<typeof runComparisonBodySchema>;

/** A row of the comparison screen (spec 1 §3): absent values are the string 'Missing'. */
export const comparisonRowSchema = z.object({
  Path: z.string(),
  RefValue: z.unknown(),
  DiffValue: z.unknown(),
  Equal: z.boolean(),
  Description: z.string(),
});

/** category → policy name → rows. */
export const comparisonRowsSchema = z.record(
  z.string(),
  z.record(z.string(), z.array(comparisonRowSchema)),
);

export const optionsComparisonResultSchema = z.object({
  baselineType: z.literal('options'),
  client: z.string(),
  /** Git object ids of the two trees compared (the cache keys). */
  baselineTreeId: z.string(),
  clientTreeId: z.string(),
  rows: comparisonRowsSchema,
  /** category → policy name → resource path of the baseline file (for the configuration info modal). */
  policyPaths: z.record(z.string(), z.record(z.string(), z.string())),
  /** category → policy name → the baseline layer the policy comes from (ADR 068); absent: company */
  policyLayers: z.record(z.string(), z.record(z.string(), z.string())).optional(),
  /** 'Missing content for {a} or {b}' for each pair where a file was not valid JSON. */
  warnings: z.array(z.string()),
  /** workloads the client's capture did not read: left out of the rows (ADR 050) */
  notCaptured: z.array(notCapturedWorkloadSchema),
});
export type OptionsComparisonResult = z.infer<typeof optionsComparisonResultSchema>;

export const standardCheckResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  severity: z.enum(['critical', 'high', 'medium', 'low']),
  rationale: z.string(),
  controlReference: z.string(),
  expected: z.string(),
  current: z.string(),
  pass: z.boolean(),
  evaluated: z.boolean(),
  /** Resource path of the file the check looked at. */
  file: z.string().optional(),
});
export type StandardCheckResultDto = z.infer<typeof standardCheckResultSchema>;

export const standardComparisonResultSchema = z.object({
  baselineType: z.literal('standard'),
  client: z.string(),
  clientTreeId: z.string(),
  results: z.array(standardCheckResultSchema),
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  percentage: z.number(),
  evaluatedCount: z.number().int(),
  /** workloads the client's capture did not read: their files are not evaluated (ADR 050) */
  notCaptured: z.array(notCapturedWorkloadSchema),
});
export type StandardComparisonResult = z.infer<typeof standardComparisonResultSchema>;

export const comparisonResultSchema = z.discriminatedUnion('baselineType', [
  optionsComparisonResultSchema,
  standardComparisonResultSchema,
]);
export type ComparisonResult = z.infer<typeof comparisonResultSchema>;

export const progressEventSchema = z.object({
  type: z.literal('progress'),
  percent: z.number().min(0).max(100),
});

/** The spec's message (spec 1 §8), e.g. 'Error comparing files: {message}'. */
export const errorEventSchema = z.object({
  type: z.literal('error'),
  statusCode: z.number().int(),
  message: z.string(),
});

export const comparisonEventSchema = z.discriminatedUnion('type', [
  progressEventSchema,
  z.object({ type: z.literal('result'), result: comparisonResultSchema }),
  errorEventSchema,
]);
export type ComparisonEvent = z.infer<typeof comparisonEventSchema>;

/** One configuration file: `content` is the parsed JSON, null when invalid (then `text` holds the raw text). */
export const configurationFileSchema = z.object({
  path: z.string(),
  content: z.unknown(),
  text: z.string().optional(),
});
export type ConfigurationFile = z.infer<typeof configurationFileSchema>;

export const configurationsSchema = z.object({
  client: z.string(),
  baseline: z.object({ treeId: z.string(), files: z.array(configurationFileSchema) }),
  clientConfiguration: z.object({ treeId: z.string(), files: z.array(configurationFileSchema) }),
});
export type Configurations = z.infer<typeof configurationsSchema>;

export const configurationsEventSchema = z.discriminatedUnion('type', [
  progressEventSchema,
  z.object({ type: z.literal('result'), result: configurationsSchema }),
  errorEventSchema,
]);
export type ConfigurationsEvent = z.infer<typeof configurationsEventSchema>;

/** A policy of both trees, for the configuration info modal. */
export const policyQuerySchema = z.object({
  path: z
    .string()
    .min(1)
    .max(400)
    .regex(/^[^\\]*\.json$/i, { message: 'must be a .json path under the resources root' })
    .refine((p) => !p.split('/').some((s) => s === '..' || s === '.'), {
      message: 'must not contain . or .. segments',
    }),
});

export const policyFilesSchema = z.object({
  /** Resource path (relative to the resources root). */
  path: z.string(),
  category: z.string(),
  baseline: configurationFileSchema.nullable(),
  clientConfiguration: configurationFileSchema.nullable(),
});
export type PolicyFiles = z.infer<typeof policyFilesSchema>;
