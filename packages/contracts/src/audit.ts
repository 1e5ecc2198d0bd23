import { AUDIT_MONTH_PATTERN, auditRangeProblem, CLIENT_CODE_PATTERN } from '@aegis/domain';
import { z } from 'zod';

const DAY_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

const daySchema = z
  .string()
  .regex(DAY_PATTERN, 'must be a day as yyyy-MM-dd')
  .refine((day) => {
    const parsed = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day);
  }, 'must be a day that exists');

/**
 * `GET /api/audit`: one month (`month`, the current one by default) or a range of UTC days
 * (`from`/`to`, at most 12 months; either end alone reads to today or back from `to` as far as a
 * query reaches, see `auditRangeOf`), narrowed by actor, action or client; `continuationToken`
 * is the token the previous page gave.
 */
export const auditQuerySchema = z
  .strictObject({
    month: z.string().regex(AUDIT_MONTH_PATTERN, 'must be a month as yyyy-MM').optional(),
    from: daySchema.optional(),
    to: daySchema.optional(),
    actor: z.string().trim().min(1).max(256).optional(),
    action: z.string().trim().min(1).max(300).optional(),
    client: z
      .string()
      .regex(CLIENT_CODE_PATTERN, 'must be a client code (3 uppercase letters)')
      .optional(),
    pageSize: z.coerce.number().int().min(1).max(200).default(50),
    continuationToken: z.string().min(1).max(4_000).optional(),
  })
  .superRefine((query, ctx) => {
    if (query.month && (query.from || query.to)) {
      ctx.addIssue({
        code: 'custom',
        path: ['month'],
        message: 'give either a month or from/to, not both',
      });
    }
    // refinements run on fields that failed too: only two well-formed days are compared
    const days = [query.from, query.to].filter((day) => day !== undefined && DAY_PATTERN.test(day));
    const problem = days.length === 2 ? auditRangeProblem(query.from!, query.to!) : undefined;
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ upn: z.string(), oid: z.string(), roles: z.array(z.string()) }),
  action: z.string(),
  clientCode: z.string().optional(),
  parameters: z.unknown(),
  result: z.object({
    statusCode: z.number().int().optional(),
    outcome: z.enum(['started', 'succeeded', 'failed']),
  }),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type AuditEventDto = z.infer<typeof auditEventSchema>;

export const auditPageSchema = z.object({
  events: z.array(auditEventSchema),
  /** Give it back as `continuationToken` for the next (older) events. */
  continuationToken: z.string().optional(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
