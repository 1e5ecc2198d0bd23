import { z } from 'zod';

import { clientCodeSchema } from './comparison';
import { notCapturedWorkloadSchema } from './not-captured';

/** The fleet view (issue 17): every client's figures, read with a Reader's rights. */

const severitySchema = z.enum(['critical', 'high', 'medium', 'low', 'prerequisite']);
export const fleetStatusSchema = z.enum(['critical', 'incomplete', 'atRisk', 'compliant']);
const backupHealthSchema = z.enum(['Healthy', 'Warning', 'Critical', 'No Backups', 'Running']);

export const fleetRowSchema = z.object({
  client: z.string(),
  status: fleetStatusSchema,
  /** company-baseline compliance (the report's percentage); null when it could not be computed */
  compliancePercentage: z.number().nullable(),
  criticalCount: z.number().int().nullable(),
  highCount: z.number().int().nullable(),
  /** standard catalogue compliance; null when it could not be computed */
  standardPercentage: z.number().nullable(),
  /** accepted deviations in force (properties) */
  acceptedDeviations: z.number().int().nullable(),
  lastCapture: z.string().nullable(),
  /** whole days since the last capture; null without one */
  lastCaptureAgeDays: z.number().int().nullable(),
  pendingReviews: z.number().int().nullable(),
  lastBackup: z.string().nullable(),
  backupHealth: backupHealthSchema.nullable(),
  /** what could not be had, in words; empty when every figure is present */
  missing: z.array(z.string()),
  /** workloads the capture on main did not read: left out of every figure (ADR 050) */
  notCaptured: z.array(notCapturedWorkloadSchema),
  /** the client folder's tree id on main (the figures were computed from it) */
  clientTreeId: z.string().nullable(),
});
export type FleetRow = z.infer<typeof fleetRowSchema>;

export const fleetWorstDeviationSchema = z.object({
  path: z.string(),
  policyName: z.string(),
  category: z.string(),
  property: z.string(),
  severity: severitySchema,
  clientCount: z.number().int(),
  clients: z.array(z.string()),
});
export type FleetWorstDeviation = z.infer<typeof fleetWorstDeviationSchema>;

export const fleetSchema = z.object({
  generatedAt: z.string(),
  /** the main commit every figure was read at */
  commitId: z.string(),
  baselineTreeId: z.string().nullable(),
  summary: z.object({
    clients: z.number().int(),
    compliant: z.number().int(),
    atRisk: z.number().int(),
    critical: z.number().int(),
    incomplete: z.number().int(),
  }),
  worstDeviations: z.array(fleetWorstDeviationSchema),
  rows: z.array(fleetRowSchema),
});
export type Fleet = z.infer<typeof fleetSchema>;

export const fleetClientParamsSchema = z.object({ client: clientCodeSchema });

export const fleetTrendQuerySchema = z.object({
  points: z.coerce.number().int().min(1).max(100).default(20),
});

export const fleetTrendPointSchema = z.object({
  date: z.string(),
  commitId: z.string(),
  source: z.enum(['merge', 'backup']),
  label: z.string(),
  /** null when the client had no configuration at that commit */
  compliancePercentage: z.number().nullable(),
  criticalCount: z.number().int().nullable(),
  highCount: z.number().int().nullable(),
  standardPercentage: z.number().nullable(),
});
export type FleetTrendPoint = z.infer<typeof fleetTrendPointSchema>;

export const fleetTrendSchema = z.object({
  client: z.string(),
  points: z.array(fleetTrendPointSchema),
});
export type FleetTrend = z.infer<typeof fleetTrendSchema>;

export const fleetTrendListSchema = z.object({ trends: z.array(fleetTrendSchema) });
export type FleetTrendList = z.infer<typeof fleetTrendListSchema>;
