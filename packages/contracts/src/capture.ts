import { z } from 'zod';

import { clientCodeSchema } from './comparison';
import { notCapturedWorkloadSchema } from './not-captured';
import { numericIdSchema } from './projects';
import { refNameSchema, repositoryPathSchema } from './repository';

/**
 * Configuration capture and its review (spec 3 §2–§8). Branches, overview and analysis are read
 * with a Reader's rights; starting a capture needs an Operator; the pull request an Approver.
 */

export const captureClientParamsSchema = z.object({ client: clientCodeSchema });

/** A capture branch name of the client: `client-{CODE}-capture-{run id or timestamp}`. */
export const captureBranchNameSchema = refNameSchema(200).regex(
  /^client-[A-Z]{3}-capture-[A-Za-z0-9_.-]+$/,
  {
    message: 'must be a capture branch client-{CODE}-capture-{id}',
  },
);

export const captureMetadataSchema = z.object({
  changeCount: z.number().int().nonnegative().optional(),
  criticalCount: z.number().int().nonnegative().optional(),
  baselineVersion: z.string().optional(),
  capturedAt: z.string().optional(),
  /** who started the capture run (four-eyes: they cannot approve its review) */
  triggeredBy: z.string().optional(),
});

/** The pull request of a capture, as DevOps reports it now. */
export const capturePullRequestSchema = z.object({
  pullRequestId: z.number().int(),
  status: z.enum(['active', 'completed', 'abandoned']),
  prUrl: z.string(),
  createdBy: z.string(),
  closedBy: z.string().optional(),
  approvedBy: z.array(z.string()),
});
export type CapturePullRequest = z.infer<typeof capturePullRequestSchema>;

/** A capture branch (spec 3 §3); dates are ISO 8601. */
export const captureBranchSchema = z.object({
  name: z.string(),
  date: z.string().optional(),
  merged: z.boolean(),
  mergedDate: z.string().optional(),
  mergedBy: z.string().optional(),
  /** the branch still exists in the repository (a merged branch is deleted on completion) */
  exists: z.boolean(),
  metadata: captureMetadataSchema.optional(),
  pullRequest: capturePullRequestSchema.optional(),
  /** a workload the tenant has was not read (failed or not permitted): approval must say so */
  partial: z.boolean(),
  /** workloads the capture did not read (from its manifest; empty for captures without one) */
  notCaptured: z.array(notCapturedWorkloadSchema),
});
export type CaptureBranch = z.infer<typeof captureBranchSchema>;

export const captureBranchListSchema = z.object({
  client: z.string(),
  branches: z.array(captureBranchSchema),
});
export type CaptureBranchList = z.infer<typeof captureBranchListSchema>;

export const captureOverviewSchema = z.object({
  lastCapture: z.string().nullable(),
  lastMerge: z.string().nullable(),
  pendingReviews: z.number().int().nonnegative(),
});
export type CaptureOverview = z.infer<typeof captureOverviewSchema>;

const exclusionListSchema = z.array(z.string().trim().min(1).max(400)).max(500);

/** Review analysis of one capture branch: drift against main and compliance against the baseline. */
export const captureAnalysisBodySchema = z
  .object({
    branch: captureBranchNameSchema,
    excludedProperties: exclusionListSchema.default([]),
    excludedPaths: exclusionListSchema.default([]),
  })
  .strict();
export type CaptureAnalysisBody = z.input<typeof captureAnalysisBodySchema>;

export const driftPropertyChangeSchema = z.object({
  property: z.string(),
  // absent for a property added (old) or removed (new): stored JSON keeps no undefined
  oldValue: z.unknown().optional(),
  newValue: z.unknown().optional(),
  changeType: z.enum(['added', 'removed', 'modified']),
});

export const driftChangeSchema = z.object({
  changeType: z.enum(['add', 'edit', 'delete']),
  item: z.object({ path: z.string(), objectId: z.string().optional() }),
  propertyChanges: z.array(driftPropertyChangeSchema).optional(),
  propertyChangeCount: z.number().int().nonnegative().optional(),
});
export type DriftChangeDto = z.infer<typeof driftChangeSchema>;

/** Drift data (spec 3 §3); `item.path` is relative to the resources root. */
export const driftDataSchema = z.object({
  summary: z.object({
    unchanged: z.number().int(),
    modified: z.number().int(),
    added: z.number().int(),
    deleted: z.number().int(),
  }),
  changeCounts: z.object({
    Add: z.number().int(),
    Edit: z.number().int(),
    Delete: z.number().int(),
  }),
  changes: z.array(driftChangeSchema),
  /**
   * Edited policies whose changed properties are critical (capture-review severity): counted as
   * the capture card's metadata counts them (captureChangeCounts), so the two agree.
   */
  criticalCount: z.number().int().nonnegative(),
});
export type DriftData = z.infer<typeof driftDataSchema>;

export const reviewDeviationPropertySchema = z.object({
  property: z.string(),
  baselineValue: z.unknown(),
  clientValue: z.unknown(),
  severity: z.string(),
});

/** A baseline deviation of the capture, with the capture-review severity. */
export const reviewDeviationSchema = z.object({
  path: z.string(),
  policyName: z.string(),
  category: z.string(),
  severity: z.enum(['critical', 'high', 'medium', 'low', 'prerequisite']),
  propertyCount: z.number().int(),
  isMissing: z.boolean(),
  isPrerequisite: z.boolean(),
  deviations: z.array(reviewDeviationPropertySchema),
});
export type ReviewDeviationDto = z.infer<typeof reviewDeviationSchema>;

export const captureAnalysisSchema = z.object({
  client: z.string(),
  branch: z.string(),
  drift: driftDataSchema,
  compliance: z.object({
    totalCount: z.number().int(),
    prerequisiteTotal: z.number().int(),
    acceptedDeviationsCount: z.number().int(),
    deviations: z.array(reviewDeviationSchema),
  }),
  /** workloads the capture did not read: neither drift nor deviations, shown apart */
  notCaptured: z.array(notCapturedWorkloadSchema),
  partial: z.boolean(),
});
export type CaptureAnalysis = z.infer<typeof captureAnalysisSchema>;

export const captureFileQuerySchema = z.object({
  branch: z.union([captureBranchNameSchema, z.literal('main')]),
  path: repositoryPathSchema(600),
});
export const captureFileSchema = z.object({
  path: z.string(),
  branch: z.string(),
  content: z.unknown().nullable(),
});
export type CaptureFile = z.infer<typeof captureFileSchema>;

export const createCapturePullRequestBodySchema = z
  .object({
    branch: captureBranchNameSchema,
    comments: z
      .string()
      .max(4000)
      .refine((s) => s.trim().length >= 50, { message: 'needs at least 50 characters' }),
    acknowledged: z.literal(true, { message: 'the impact acknowledgement must be ticked' }),
    summary: z.strictObject({
      modified: z.number().int().nonnegative(),
      added: z.number().int().nonnegative(),
      deleted: z.number().int().nonnegative(),
    }),
  })
  .strict();
export type CreateCapturePullRequestBody = z.infer<typeof createCapturePullRequestBodySchema>;

/** Merge result (spec 3 §3) with the approval the server recorded. */
export const capturePullRequestCreatedSchema = z.object({
  pullRequestId: z.number().int(),
  prUrl: z.string(),
  createdBy: z.string(),
  status: z.literal('pending'),
  approval: z.object({
    approvedBy: z.string(),
    approvedAt: z.string(),
    comments: z.string(),
    summary: z.object({ modified: z.number(), added: z.number(), deleted: z.number() }),
  }),
});
export type CapturePullRequestCreated = z.infer<typeof capturePullRequestCreatedSchema>;

export const startCaptureBodySchema = z
  .object({
    excludedProperties: exclusionListSchema.default([]),
    excludedPaths: exclusionListSchema.default([]),
    baselineVersion: z.string().trim().min(1).max(50).default('1.0.0'),
  })
  .strict();
export type StartCaptureBody = z.input<typeof startCaptureBodySchema>;

export const captureRunSchema = z.object({
  runId: z.number().int(),
  state: z.enum(['notStarted', 'inProgress', 'canceling', 'completed', 'unknown']),
  result: z.string().nullable(),
  /** the branch the run writes: client-{CODE}-capture-{runId} */
  branch: z.string(),
  /** where the run lives (its log: /api/projects/{project}/pipelines/{pipelineId}/runs/{runId}/log) */
  project: z.string(),
  pipelineId: z.number().int(),
});
export type CaptureRun = z.infer<typeof captureRunSchema>;

export const captureRunParamsSchema = z.object({
  client: clientCodeSchema,
  runId: numericIdSchema,
});
