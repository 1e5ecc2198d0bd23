import { z } from 'zod';

import { driftPropertyChangeSchema } from './capture';
import { clientCodeSchema } from './comparison';
import { notCapturedWorkloadSchema } from './not-captured';

/** Drift of client tenants as the scheduled drift check recorded it (issue 28, ADR 063). */

export const driftStatusSchema = z.enum(['inSync', 'drifted']);
export const driftCheckKindSchema = z.enum(['quick', 'full']);

export const driftAttributionSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('attributed'),
    actor: z.string(),
    time: z.string(),
    operation: z.string(),
    log: z.string(),
  }),
  z.object({ status: z.literal('unknown'), reason: z.string() }),
]);
export type DriftAttributionDto = z.infer<typeof driftAttributionSchema>;

export const driftedObjectSchema = z.object({
  path: z.string(),
  /** `Category/Kind` */
  workload: z.string(),
  name: z.string(),
  change: z.enum(['added', 'removed', 'changed']),
  /** main's value as old, the tenant's as new (the capture review's property changes) */
  properties: z.array(driftPropertyChangeSchema),
  attribution: driftAttributionSchema.nullable(),
});
export type DriftedObjectDto = z.infer<typeof driftedObjectSchema>;

/** One client's drift in the fleet's list: the figures, not the objects. */
export const driftSummarySchema = z.object({
  client: z.string(),
  status: driftStatusSchema,
  kind: driftCheckKindSchema,
  checkedAt: z.string(),
  driftedCount: z.number().int(),
  /** when this drift (its fingerprint) was first seen; null in sync */
  driftSince: z.string().nullable(),
  /** when the client last went back in sync; null if it never drifted */
  resolvedAt: z.string().nullable(),
  /** workloads the check could not read: not drift, and not known to be in sync */
  notRead: z.array(notCapturedWorkloadSchema),
  /** who made the latest attributed change, when one is known */
  lastChange: z.object({ actor: z.string(), time: z.string() }).nullable(),
});
export type DriftSummaryDto = z.infer<typeof driftSummarySchema>;

export const fleetDriftSchema = z.object({
  /** every client with a stored check, by code */
  clients: z.array(driftSummarySchema),
});
export type FleetDriftDto = z.infer<typeof fleetDriftSchema>;

export const driftSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  quickIntervalInMinutes: z.number().int(),
  fullIntervalInMinutes: z.number().int(),
});
export type DriftSettingsDto = z.infer<typeof driftSettingsSchema>;

export const clientDriftSchema = z.object({
  client: z.string(),
  /** the last check; null when the client was never checked */
  check: driftSummarySchema
    .extend({ mainCommit: z.string(), objects: z.array(driftedObjectSchema) })
    .nullable(),
  settings: driftSettingsSchema,
  /** true when the client has no settings of its own */
  defaultSettings: z.boolean(),
});
export type ClientDriftDto = z.infer<typeof clientDriftSchema>;

export const driftClientParamsSchema = z.object({ client: clientCodeSchema });

export const driftCheckStartedSchema = z.object({
  runId: z.number().int(),
  pipelineId: z.number().int(),
  project: z.string(),
});
export type DriftCheckStartedDto = z.infer<typeof driftCheckStartedSchema>;

/** Drifted objects to put back as the client's approved configuration on main has them (issue 28 §5). */
export const driftRevertBodySchema = z.strictObject({
  /** drifted objects' paths, as the client's drift names them */
  objects: z.array(z.string().min(1).max(400)).min(1).max(200),
});

/** The deploy run reverting them; followed at GET /api/backups/{client}/restore-runs/{runId}. */
export const driftRevertStartedSchema = driftCheckStartedSchema.extend({ state: z.string() });
export type DriftRevertStartedDto = z.infer<typeof driftRevertStartedSchema>;
