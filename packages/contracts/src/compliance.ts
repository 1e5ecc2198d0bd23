import {
  isRealIsoDay,
  type AcceptedDeviation,
  type AcceptedDeviationsConfig,
  type ComplianceSummary,
  type MatchingConfig,
  type PendingAcceptance,
  type UnmatchedSummary,
} from '@aegis/domain';
import { z } from 'zod';

import { refNameSchema } from './repository';

/** Client codes are three capital letters, on the server too (ARCHITECTURE §5). */
export const complianceParamsSchema = z.object({
  client: z.string().regex(/^[A-Z]{3}$/, 'must be three capital letters (A-Z)'),
});

/** A git branch name: main, or a capture branch such as client-ABC-capture-42. */
export const branchNameSchema = refNameSchema(200).regex(
  /^[A-Za-z0-9][A-Za-z0-9._/-]*$/,
  'must be a branch name',
);

export const complianceQuerySchema = z.object({
  /** The client's version compared: main (default) or a capture branch. The baseline is always main. */
  branch: branchNameSchema.optional(),
});
export type ComplianceQuery = z.infer<typeof complianceQuerySchema>;

/**
 * A policy's path relative to the resources root (`AzureAD/AuthorizationPolicy/x.json`): a .json file, no
 * leading slash, no `..` segment, so it is confined to the baseline's or the client's resources folder.
 */
export const resourcePathSchema = z
  .string()
  .min(6)
  .max(1000)
  .refine(
    (p) =>
      p.toLowerCase().endsWith('.json') &&
      !p.startsWith('/') &&
      !p.includes('\\') &&
      // eslint-disable-next-line no-control-regex
      !/[\u0000-\u001f]/.test(p) &&
      p.split('/').every((s) => s !== '' && s !== '.' && s !== '..'),
    { message: 'must be a .json path under the resources folder' },
  );

/** A calendar day, yyyy-mm-dd. */
export const isoDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (yyyy-mm-dd)')
  .refine(isRealIsoDay, { message: 'must be a real date' });

/** The accept action (spec 3 §3), with the auditor's optional reason and expiry (ADR 028). */
export const acceptDeviationsBodySchema = z
  .object({
    path: resourcePathSchema,
    /** The client policy compared, when it differs from `path` (a confirmed match). */
    clientPath: resourcePathSchema.optional(),
    policyName: z.string().min(1).max(400),
    category: z.string().min(1).max(200),
    /** The selected property deviations. */
    properties: z.array(z.string().min(1).max(2000)).min(1).max(2000),
    /** Why the deviation is accepted: an auditor reads it (ADR 056). */
    reason: z.string().trim().min(1, 'is required: say why the deviation is accepted').max(2000),
    /** The last day it is accepted; at most MAX_ACCEPTANCE_DAYS ahead, that day when omitted. */
    expiresAt: isoDaySchema.optional(),
  })
  .strict();
export type AcceptDeviationsBody = z.infer<typeof acceptDeviationsBodySchema>;

export const revokeAcceptedQuerySchema = z.object({ path: resourcePathSchema });

const scoresSchema = z.object({
  conditions: z.number().min(0).max(100),
  grantControls: z.number().min(0).max(100),
  sessionControls: z.number().min(0).max(100),
});

/** A confirmed match (spec 3 §3). */
export const confirmedMatchSchema = z.object({
  baselineId: z.string().max(400).optional(),
  baselineName: z.string().min(1).max(400),
  clientId: z.string().max(400).optional(),
  clientName: z.string().min(1).max(400),
  score: z.number().min(0).max(100),
  scores: scoresSchema,
  confirmedAt: z.iso.datetime(),
  baselinePath: resourcePathSchema.optional(),
});

/** A confirmed match as a request sends it: no field the server does not know (ADR 030). */
const confirmedMatchBodySchema = confirmedMatchSchema
  .extend({ scores: scoresSchema.strict() })
  .strict();

export const addMatchesBodySchema = z.strictObject({
  matches: z.array(confirmedMatchBodySchema).min(1).max(2000),
});
export type AddMatchesBody = z.infer<typeof addMatchesBodySchema>;

/**
 * The report with matches this browser holds but the repository does not yet (a failed save falls
 * back to local storage, spec 3 §8): applied with the saved ones, nothing written.
 */
export const compliancePreviewBodySchema = z
  .object({
    branch: branchNameSchema.optional(),
    pendingMatches: z.array(confirmedMatchBodySchema).min(1).max(2000),
  })
  .strict();
export type CompliancePreviewBody = z.infer<typeof compliancePreviewBodySchema>;

/** One policy document of the comparison: the baseline's (on main) or the client's (main or branch). */
export const policyDocumentQuerySchema = z
  .object({
    side: z.enum(['baseline', 'client']),
    path: resourcePathSchema,
    branch: branchNameSchema.optional(),
  })
  .strict();
export type PolicyDocumentQuery = z.infer<typeof policyDocumentQuerySchema>;

export const policyDocumentSchema = z.object({ path: z.string(), policy: z.unknown() });
export interface PolicyDocument {
  path: string;
  policy: unknown;
}

export const removeMatchQuerySchema = z.object({
  baselineName: z.string().min(1).max(400),
});

/** The matching configuration document (spec 3 §3). */
export const matchingConfigSchema = z.object({
  version: z.literal('1.0'),
  clientCode: z.string(),
  timestamp: z.string(),
  matches: z.array(confirmedMatchSchema),
});

/** The accepted-deviations document (spec 3 §3, ADR 028). */
export const acceptedDeviationsConfigSchema = z.object({
  version: z.literal('1.0'),
  clientCode: z.string(),
  timestamp: z.string(),
  acceptedDeviations: z.array(
    z.object({
      path: z.string(),
      policyName: z.string(),
      category: z.string(),
      properties: z.array(z.string()),
      timestamp: z.string(),
      acceptedBy: z.string(),
      reason: z.string().optional(),
      expiresAt: z.string().optional(),
      acceptedValues: z.record(z.string(), z.unknown()).optional(),
      approvedBy: z.string().optional(),
    }),
  ),
  /** critical acceptances waiting for a second Approver (ADR 051) */
  pendingAcceptances: z
    .array(
      z.object({
        path: z.string(),
        policyName: z.string(),
        category: z.string(),
        properties: z.array(z.string()),
        requestedBy: z.string(),
        requestedAt: z.string(),
        reason: z.string().optional(),
        expiresAt: z.string().optional(),
        acceptedValues: z.record(z.string(), z.unknown()).optional(),
        clientPath: z.string().optional(),
      }),
    )
    .optional(),
});

export const acceptDeviationsResultSchema = z.object({
  message: z.string(),
  accepted: z.number().int(),
  entry: z.unknown(),
});

/** Accepting a critical deviation waits for a second Approver (ADR 051): answered 202. */
export const acceptanceRequestedSchema = z.object({
  message: z.string(),
  pending: z.unknown(),
});
export interface AcceptanceRequested {
  message: string;
  pending: PendingAcceptance;
}

/** Approve or reject a critical acceptance waiting for a second Approver. */
export const acceptanceDecisionBodySchema = z
  .object({ path: resourcePathSchema, decision: z.enum(['approve', 'reject']) })
  .strict();
export type AcceptanceDecisionBody = z.infer<typeof acceptanceDecisionBodySchema>;
export interface AcceptDeviationsResult {
  message: string;
  accepted: number;
  entry: AcceptedDeviation;
}

/**
 * The Baseline Compliance report (spec 3 §2): compliance data with confirmed matches and accepted deviations
 * applied, the unmatched baseline policies with their ranked suggestions, and both configurations as read.
 * The response schema checks the envelope; the engine's own types describe the rest.
 */
export const complianceReportSchema = z.object({
  client: z.string(),
  branch: z.string(),
  baselineTreeId: z.string(),
  clientTreeId: z.string(),
  generatedAt: z.string(),
  compliance: z.unknown(),
  unmatched: z.array(z.unknown()),
  matching: z.unknown(),
  acceptedDeviations: z.unknown(),
  /** resource path → the baseline layer its expected values come from (ADR 068); absent: company */
  policyLayers: z.record(z.string(), z.string()).optional(),
  /** the client's baseline layers, in order (ADR 068) */
  layers: z.array(z.string()).optional(),
  /** Soft failures (spec 3 §8): a configuration that could not be read is ignored, and said so here. */
  warnings: z.array(z.string()),
});
export interface ComplianceReport {
  client: string;
  branch: string;
  baselineTreeId: string;
  clientTreeId: string;
  generatedAt: string;
  /** Without the policy documents (see complianceSummary). */
  compliance: ComplianceSummary;
  /** Best five suggestions each, without the client policies' documents (see policyDocument). */
  unmatched: UnmatchedSummary[];
  matching: MatchingConfig;
  acceptedDeviations: AcceptedDeviationsConfig;
  /** resource path → the baseline layer its expected values come from (ADR 068); absent: company */
  policyLayers?: Record<string, string>;
  /** the client's baseline layers, in order (ADR 068) */
  layers?: string[];
  warnings: string[];
}
