import { z } from 'zod';

import { numericIdSchema } from './projects';
import { refNameSchema } from './repository';

/** Client codes are three capital letters, on the server too (ARCHITECTURE §5). */
export const backupClientParamsSchema = z.object({
  client: z.string().regex(/^[A-Z]{3}$/, 'must be three capital letters (A-Z)'),
});

export const backupTagQuerySchema = z.object({
  tag: refNameSchema(400),
});

export const backupRestoreBodySchema = z
  .object({
    tag: refNameSchema(400),
    /**
     * Resource paths (`{Category}/{Kind}/{Policy}.json`) of the policies to put back (issue 30 §4);
     * absent: the client's whole folder (spec 3 §4).
     */
    policies: z.array(z.string().min(1).max(400)).min(1).max(200).optional(),
  })
  .strict();
export type BackupRestoreBody = z.infer<typeof backupRestoreBodySchema>;

/** A backup (spec 3 §3); `date` is ISO 8601 (UTC), `size` a text such as '12.5 MB' or 'N/A'. */
export const backupSchema = z.object({
  tagName: z.string(),
  date: z.string(),
  isScheduled: z.boolean(),
  size: z.string(),
  sizeInBytes: z.number().int().nonnegative().nullable(),
});
export type Backup = z.infer<typeof backupSchema>;

/**
 * A restore whose branch is left without a pull request (its creation and the clean-up both
 * failed, issue 26 §2): not done, whatever the branch holds. `tagName` is the backup it restores,
 * null when the branch is not a restore of any backup of the client.
 */
export const unfinishedRestoreSchema = z.object({
  branch: z.string(),
  tagName: z.string().nullable(),
});
export type UnfinishedRestore = z.infer<typeof unfinishedRestoreSchema>;

export const backupListSchema = z.object({
  client: z.string(),
  /** newest first */
  backups: z.array(backupSchema),
  /** the real total of the sizes that could be read */
  storageUsedInBytes: z.number().int().nonnegative(),
  storageUsed: z.string(),
  /** restore branches still without a pull request after this read tried to finish them */
  unfinishedRestores: z.array(unfinishedRestoreSchema),
});
export type BackupList = z.infer<typeof backupListSchema>;

export const manualBackupSchema = z.object({
  runId: z.number().int(),
  state: z.string(),
  /** where the run lives (its log: /api/projects/{project}/pipelines/{pipelineId}/runs/{runId}/log) */
  project: z.string(),
  pipelineId: z.number().int(),
});
export type ManualBackup = z.infer<typeof manualBackupSchema>;

export const backupRunParamsSchema = backupClientParamsSchema.extend({ runId: numericIdSchema });

/** Chosen policies of a backup put straight back into the tenant (issue 30 §4). */
export const tenantRestoreBodySchema = z
  .object({
    tag: refNameSchema(400),
    /** resource paths (`{Category}/{Kind}/{Policy}.json`) of the policies to put back */
    policies: z.array(z.string().min(1).max(400)).min(1).max(200),
  })
  .strict();
export type TenantRestoreBody = z.infer<typeof tenantRestoreBodySchema>;

/** A manual backup's run as the screen follows it: its state and, once completed, its result. */
export const backupRunSchema = manualBackupSchema.extend({ result: z.string().nullable() });
export type BackupRun = z.infer<typeof backupRunSchema>;

/** The configuration JSON of a backup: repository paths under Clients/{client} → parsed JSON. */
export const backupContentSchema = backupSchema.extend({
  content: z.record(z.string(), z.unknown()),
});
export type BackupContent = z.infer<typeof backupContentSchema>;

export const backupComparisonRowSchema = z.object({
  Name: z.string(),
  BackupValue: z.unknown(),
  CurrentValue: z.unknown(),
  Equal: z.boolean(),
});
export type BackupComparisonRowDto = z.infer<typeof backupComparisonRowSchema>;

export const backupComparisonSchema = z.object({
  tagName: z.string(),
  counts: z.object({ changes: z.number(), additions: z.number(), deletions: z.number() }),
  /** category → file → rows */
  results: z.record(z.string(), z.record(z.string(), z.array(backupComparisonRowSchema))),
});
export type BackupComparison = z.infer<typeof backupComparisonSchema>;

export const backupRestoreSchema = z.object({
  pullRequestId: z.number().int(),
  branch: z.string(),
  prUrl: z.string(),
});
export type BackupRestore = z.infer<typeof backupRestoreSchema>;

export const restorePullRequestListSchema = z.object({
  pullRequests: z.array(
    z.object({
      pullRequestId: z.number().int(),
      title: z.string(),
      status: z.string(),
      sourceRefName: z.string(),
      targetRefName: z.string(),
      labels: z.array(z.string()),
      prUrl: z.string(),
    }),
  ),
});
export type RestorePullRequestList = z.infer<typeof restorePullRequestListSchema>;
