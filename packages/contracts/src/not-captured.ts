import { z } from 'zod';

/** A workload a capture did not read, with the text every screen shows for it (ADR 050). */
export const notCapturedWorkloadSchema = z.object({
  /** `Category/Kind` */
  workload: z.string(),
  status: z.enum(['failed', 'notPermitted', 'notLicensed', 'noPublicApi']),
  /** 'Not captured: {reason}' */
  text: z.string(),
});
export type NotCapturedWorkloadDto = z.infer<typeof notCapturedWorkloadSchema>;
