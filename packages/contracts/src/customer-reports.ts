// Customer-ready compliance reports (issue 29): the MSP's branding, each client's schedule and
// recipients, what was sent to whom and when.
import { CLIENT_CODE_PATTERN, LAST_SCHEDULE_DAY } from '@aegis/domain';
import { z } from 'zod';

const clientCode = z
  .string()
  .regex(CLIENT_CODE_PATTERN, 'must be a client code (3 uppercase letters)');

export const customerReportClientParamsSchema = z.object({ client: clientCode });

export const customerReportSendParamsSchema = z.object({
  client: clientCode,
  sendId: z.string().regex(/^[0-9a-z-]{1,64}$/, 'must be a send id'),
});

const periodId = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2]|Q[1-4])$/, 'must be a month (yyyy-mm) or a quarter (yyyy-Qn)');

export const customerReportPeriodQuerySchema = z.strictObject({ period: periodId.optional() });

const emailList = (max: number) =>
  z
    .array(z.email('must be an email address').max(254))
    .max(max, `at most ${max} addresses`)
    .refine((list) => new Set(list.map((a) => a.toLowerCase())).size === list.length, {
      message: 'lists an address twice',
    });

/** A client's report schedule as a technician edits it. */
export const customerReportScheduleBodySchema = z.strictObject({
  customerName: z.string().trim().min(1, 'is required').max(120),
  cadence: z.enum(['monthly', 'quarterly']),
  /** the day of the month the report goes (quarterly: in January, April, July and October) */
  dayOfMonth: z.number().int().min(1).max(LAST_SCHEDULE_DAY),
  /** the customer's contacts who receive the report */
  contacts: emailList(20).min(1, 'needs at least one customer contact'),
  /** technicians in copy */
  technicians: emailList(20),
  introduction: z.string().max(4_000),
  enabled: z.boolean(),
});
export type CustomerReportScheduleBody = z.infer<typeof customerReportScheduleBodySchema>;

export const customerReportScheduleSchema = customerReportScheduleBodySchema.extend({
  client: z.string(),
  updatedBy: z.string(),
  updatedAt: z.string(),
  /** the period the next scheduled run sends, and whether it went already */
  duePeriod: z.object({ id: z.string(), label: z.string(), sent: z.boolean() }),
});
export type CustomerReportSchedule = z.infer<typeof customerReportScheduleSchema>;

/** `null` when the client has no schedule yet. */
export const customerReportScheduleResponseSchema = z.object({
  schedule: customerReportScheduleSchema.nullable(),
});
export type CustomerReportScheduleResponse = z.infer<typeof customerReportScheduleResponseSchema>;

const hexColour = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour as #RRGGBB');

/** The largest logo file the branding takes; its data URL stays under the body's limit below. */
export const BRANDING_LOGO_MAX_BYTES = 1_000_000;

/** The MSP's branding on every customer report. */
export const reportBrandingBodySchema = z.strictObject({
  mspName: z.string().trim().min(1, 'is required').max(120),
  primaryColour: hexColour,
  contactEmail: z.email('must be an email address').max(254).or(z.literal('')),
  contactPhone: z.string().max(40),
  website: z.string().max(200),
  supportMessage: z.string().max(500),
  /** a PNG, JPEG or SVG data URL; null removes the logo; absent keeps it */
  logo: z
    .string()
    .max(Math.ceil((BRANDING_LOGO_MAX_BYTES * 4) / 3) + 100, 'must be under 1 MB')
    .regex(/^data:image\/(png|jpeg|svg\+xml)[;,]/, 'must be a PNG, JPEG or SVG data URL')
    .nullable()
    .optional(),
});
export type ReportBrandingBody = z.infer<typeof reportBrandingBodySchema>;

export const reportBrandingSchema = reportBrandingBodySchema.omit({ logo: true }).extend({
  /** the logo as a data URL, when there is one */
  logo: z.string().nullable(),
});
export type ReportBranding = z.infer<typeof reportBrandingSchema>;

/** One report sent: to whom, when, and where its PDF is kept. */
export const customerReportSendSchema = z.object({
  id: z.string(),
  client: z.string(),
  periodId: z.string(),
  periodLabel: z.string(),
  sentAt: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  trigger: z.enum(['manual', 'scheduled']),
  requestedBy: z.string(),
  sizeInBytes: z.number().int(),
  compliancePercentage: z.number().nullable(),
  standardPercentage: z.number().nullable(),
});
export type CustomerReportSend = z.infer<typeof customerReportSendSchema>;

export const customerReportHistorySchema = z.object({ sends: z.array(customerReportSendSchema) });
export type CustomerReportHistory = z.infer<typeof customerReportHistorySchema>;

export const sendCustomerReportBodySchema = z.strictObject({ period: periodId.optional() });
export type SendCustomerReportBody = z.infer<typeof sendCustomerReportBodySchema>;

/** What a run of the due reports did (the scheduled job, or an Administrator running it now). */
export const customerReportRunSchema = z.object({
  sent: z.array(z.object({ client: z.string(), periodId: z.string() })),
  alreadySent: z.array(z.object({ client: z.string(), periodId: z.string() })),
  failed: z.array(z.object({ client: z.string(), periodId: z.string(), reason: z.string() })),
});
export type CustomerReportRun = z.infer<typeof customerReportRunSchema>;
