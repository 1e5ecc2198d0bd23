import { z } from 'zod';

/**
 * Whether main of the configuration repository is protected by the branch policy four eyes needs
 * (ADR 051), checked by the server at start-up and on request.
 */
export const branchProtectionSchema = z.object({
  /** true when main has the reviewer policy with every required setting */
  protected: z.boolean(),
  /** what is missing, in words, e.g. "the creator's own vote counts"; empty when protected */
  gaps: z.array(z.string()),
  /** whether Aegis has its own DevOps identity for its writes to main */
  serviceIdentity: z.boolean(),
  /** the repository and branch checked, e.g. M365Config, main */
  repository: z.string(),
  branch: z.string(),
});
export type BranchProtection = z.infer<typeof branchProtectionSchema>;
