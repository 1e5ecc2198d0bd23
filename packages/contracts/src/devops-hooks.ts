import { z } from 'zod';

/**
 * What Aegis did with a `git.push` event of Azure DevOps's service hook (ADR 062): the clients
 * whose fleet summary it recomputed, or why it left the push alone.
 */
export const devOpsPushAnswerSchema = z.object({
  /** the push did not move the configuration repository's main: nothing to do */
  ignored: z.string().optional(),
  /** the company baseline or a layer changed: the Fleet Summary Rebuild pipeline recomputes all */
  baselineChanged: z.boolean(),
  refreshed: z.array(z.string()),
});
export type DevOpsPushAnswer = z.infer<typeof devOpsPushAnswerSchema>;
