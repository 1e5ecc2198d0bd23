import { ROLLOUT_STATUSES } from '@aegis/domain';
import { z } from 'zod';

import { clientCodeSchema } from './comparison';

/**
 * Rollouts in rings (issue 30 §3, ADR 069, 074): a plan from a fresh capture of each target tenant,
 * then rings of deploy runs, halt, resume, abort, the next ring's go-ahead and rollback.
 */

const clientsSchema = z
  .array(clientCodeSchema)
  .min(1)
  .max(500)
  .refine((codes) => new Set(codes).size === codes.length, { message: 'names a client twice' });

export const rolloutPlanBodySchema = z.object({ clients: clientsSchema }).strict();

/** The fresh capture of one target tenant the plan reads. */
const rolloutCaptureSchema = z
  .object({
    client: clientCodeSchema,
    runId: z.number().int().positive(),
  })
  .strict();
export type RolloutCapture = z.infer<typeof rolloutCaptureSchema>;

export const rolloutPlanStartedSchema = z.object({
  captures: z.array(rolloutCaptureSchema),
  project: z.string(),
  pipelineId: z.number().int(),
});
export type RolloutPlanStarted = z.infer<typeof rolloutPlanStartedSchema>;

/** `ABC:12,CON:13`: the captures a plan started, as the plan's address. */
/** A commit id as Azure Repos writes it: 40 lowercase hexadecimal digits. */
const commitIdSchema = z.string().regex(/^[0-9a-f]{40}$/, { message: 'must be a commit id' });

export const rolloutPlanQuerySchema = z
  .object({
    /** the baseline commit of main to plan (default: main's tip) */
    commit: commitIdSchema.optional(),
    captures: z
      .string()
      .max(6000)
      .transform((value, ctx) => {
        const captures: RolloutCapture[] = [];
        for (const part of value.split(',')) {
          const match = /^([A-Z]{3}):([1-9]\d{0,9})$/.exec(part.trim());
          if (!match) {
            ctx.addIssue({
              code: 'custom',
              message: 'must be CLIENT:runId pairs, comma-separated',
            });
            return z.NEVER;
          }
          captures.push({ client: match[1]!, runId: Number(match[2]) });
        }
        if (new Set(captures.map((c) => c.client)).size !== captures.length) {
          ctx.addIssue({ code: 'custom', message: 'names a client twice' });
          return z.NEVER;
        }
        return captures;
      }),
  })
  .strict();

const rolloutTenantPlanSchema = z.object({
  client: z.string(),
  creates: z.number().int(),
  updates: z.number().int(),
  deletes: z.number().int(),
  policies: z.array(z.string()).optional(),
  /** workloads the plan's read could not see (ADR 087): the tenant waits for an acknowledgement */
  unread: z
    .array(
      z.object({
        workload: z.string(),
        status: z.enum(['failed', 'notPermitted', 'notLicensed']),
        /** 'Not captured: {reason}', in the service's words */
        text: z.string(),
        /** the baseline policies of the workload, planned without knowing the tenant's */
        baselinePolicies: z.number().int(),
      }),
    )
    .optional(),
});
export type RolloutTenantPlanDto = z.infer<typeof rolloutTenantPlanSchema>;

const rolloutPlanTenantSchema = z.object({
  client: z.string(),
  runId: z.number().int(),
  /** capturing: the fresh read still runs; failed: it failed, so the tenant cannot be planned */
  status: z.enum(['capturing', 'planned', 'failed']),
  plan: rolloutTenantPlanSchema.nullable(),
});
export const rolloutPlanSchema = z.object({
  /** main's commit the plan compared with */
  commitId: z.string(),
  tenants: z.array(rolloutPlanTenantSchema),
});
export type RolloutPlanDto = z.infer<typeof rolloutPlanSchema>;

const rolloutRingRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(60),
    clients: z.array(clientCodeSchema).min(1).max(500),
    maxFailures: z.number().int().min(0).max(500).optional(),
    needsApproval: z.boolean().optional(),
  })
  .strict();

export const createRolloutBodySchema = z
  .object({
    captures: z.array(rolloutCaptureSchema).min(1).max(500),
    rings: z.array(rolloutRingRequestSchema).min(1).max(10),
    /** the baseline commit of main to roll out, as planned (default: main's tip) */
    commitId: commitIdSchema.optional(),
  })
  .strict();

/** A commit of main that changed the company baseline or a layer: what a rollout can roll out. */
const baselineCommitSchema = z.object({
  commitId: z.string(),
  /** the first line of its message */
  subject: z.string(),
  author: z.string(),
  /** when it was authored (ISO 8601) */
  date: z.string(),
});
export type BaselineCommit = z.infer<typeof baselineCommitSchema>;
export const baselineCommitListSchema = z.object({ commits: z.array(baselineCommitSchema) });
export type BaselineCommitList = z.infer<typeof baselineCommitListSchema>;
export type CreateRolloutBody = z.infer<typeof createRolloutBodySchema>;

const runSchema = z.object({
  status: z.enum(['pending', 'running', 'succeeded', 'failed']),
  runId: z.number().int().optional(),
  backupTag: z.string().optional(),
});

export const rolloutSchema = z.object({
  id: z.string(),
  status: z.enum(ROLLOUT_STATUSES),
  commitId: z.string(),
  createdBy: z.string(),
  createdAt: z.string().optional(),
  rings: z.array(
    z.object({
      name: z.string(),
      clients: z.array(z.string()),
      maxFailures: z.number().int(),
      needsApproval: z.boolean(),
    }),
  ),
  currentRing: z.number().int(),
  plan: z.array(rolloutTenantPlanSchema),
  deploys: z.record(z.string(), runSchema),
  rollbacks: z.record(z.string(), runSchema),
  approvals: z.record(z.string(), z.string()),
  /** main's baseline changed after the plan: the commit main moved to, and when it was seen */
  mainMoved: z.object({ commitId: z.string(), at: z.string() }).optional(),
  /** per tenant with unread workloads, the Approver's decision: deploy anyway, or left out */
  unreadDecisions: z
    .record(
      z.string(),
      z.object({
        decision: z.enum(['acknowledged', 'excluded']),
        by: z.string(),
        at: z.string(),
      }),
    )
    .optional(),
  /** the current ring's failed tenants (what a halt shows) */
  failed: z.array(z.string()),
  /** the version of the rollout's row, on a single rollout: a decision on it must name it */
  etag: z.string().optional(),
  /** where the deploy and restore runs live: their logs are at this pipeline's runs */
  project: z.string(),
  pipelineId: z.number().int(),
});
export type RolloutDto = z.infer<typeof rolloutSchema>;

export const rolloutListSchema = z.object({ rollouts: z.array(rolloutSchema) });
export type RolloutList = z.infer<typeof rolloutListSchema>;

/** An Approver's decision on a tenant whose plan could not read some workloads (ADR 087). */
export const unreadDecisionBodySchema = z
  .object({
    client: clientCodeSchema,
    decision: z.enum(['acknowledged', 'excluded']),
    /** the rollout's etag as read: the decision is refused (409) if the rollout changed since */
    etag: z.string().min(1).max(200),
  })
  .strict();
export type UnreadDecisionBody = z.infer<typeof unreadDecisionBodySchema>;

export const rolloutParamsSchema = z.object({
  id: z.string().regex(/^[0-9a-f-]{36}$/, { message: 'must be a rollout id' }),
});
