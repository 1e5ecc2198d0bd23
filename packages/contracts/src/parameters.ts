import { layerNameProblem, parameterNameProblem } from '@aegis/domain';
import { z } from 'zod';

import { clientCodeSchema } from './comparison';
import { resourcePathSchema } from './compliance';

/** A client's tenant parameters and baseline layers (issue 30 §1–2, ADR 068, ADR 073). */

export const clientSettingsParamsSchema = z.object({ client: clientCodeSchema });

const parameterValueSchema = z.union([
  z.string().max(2000),
  z.number().refine(Number.isFinite, 'must be a finite number'),
  z.boolean(),
]);

const parameterNameSchema = z.string().superRefine((name, ctx) => {
  const problem = parameterNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** Where the effective baseline uses a parameter: a policy, and the layer it comes from. */
const parameterUseSchema = z.object({
  /** resource path (`{Category}/{Kind}/{Policy}.json`) */
  path: z.string(),
  /** the file in the repository: the company baseline's or the layer's */
  sourcePath: z.string(),
  /** the layer the policy comes from; null for the company baseline */
  layer: z.string().nullable(),
});
export type ParameterUseDto = z.infer<typeof parameterUseSchema>;

/** A pull request that proposes a change to a client's parameters or layers, awaiting review. */
const settingsPullRequestSchema = z.object({
  pullRequestId: z.number().int(),
  title: z.string(),
  createdBy: z.string(),
  creationDate: z.string(),
  prUrl: z.string(),
});
export type SettingsPullRequestDto = z.infer<typeof settingsPullRequestSchema>;

export const clientParametersSchema = z.object({
  client: z.string(),
  /** the commit of main everything was read at */
  commitId: z.string(),
  /** every parameter the client has, by name, with where the effective baseline uses it */
  parameters: z.array(
    z.object({
      name: z.string(),
      value: parameterValueSchema,
      usedBy: z.array(parameterUseSchema),
    }),
  ),
  /** parameters the effective baseline uses that the client has no value for: deploy refuses */
  missing: z.array(z.object({ name: z.string(), usedBy: z.array(parameterUseSchema) })),
  /** the client's layers, in order (a later one wins) */
  layers: z.array(z.string()),
  /** every layer the repository holds, for the layer picker */
  availableLayers: z.array(z.string()),
  /** open pull requests changing this client's parameters or layers */
  pending: z.array(settingsPullRequestSchema),
  /**
   * policies of layers the client no longer has, which its baseline no longer holds and its last
   * capture still does: what an off-board of those layers would remove (ADR 079)
   */
  droppedLayers: z.array(
    z.object({
      layer: z.string(),
      /** resource path (Category/Kind/Policy.json) */
      path: z.string(),
      /** the layer's file in the repository */
      sourcePath: z.string(),
    }),
  ),
});
export type ClientParametersDto = z.infer<typeof clientParametersSchema>;

/** Set and remove parameters in one proposed change. */
export const parameterChangeBodySchema = z
  .object({
    set: z.record(parameterNameSchema, parameterValueSchema).default({}),
    remove: z.array(parameterNameSchema).max(200).default([]),
    /** why, for the reviewer: it goes into the pull request's description */
    reason: z.string().trim().min(1).max(1000).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (Object.keys(body.set).length === 0 && body.remove.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['set'],
        message: 'set or remove at least one parameter',
      });
    }
    if (Object.keys(body.set).length > 200) {
      ctx.addIssue({ code: 'custom', path: ['set'], message: 'at most 200 parameters at once' });
    }
    body.remove.forEach((name, i) => {
      if (Object.hasOwn(body.set, name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['remove', i],
          message: `'${name}' is both set and removed`,
        });
      }
    });
  });
export type ParameterChangeBody = z.input<typeof parameterChangeBodySchema>;

const layerNameSchema = z.string().superRefine((name, ctx) => {
  const problem = layerNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const clientLayersBodySchema = z
  .object({
    layers: z.array(layerNameSchema).max(20),
    reason: z.string().trim().min(1).max(1000).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.layers.forEach((name, i) => {
      if (seen.has(name.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: ['layers', i], message: `names '${name}' twice` });
      }
      seen.add(name.toLowerCase());
    });
  });
export type ClientLayersBody = z.input<typeof clientLayersBodySchema>;

/** A change proposed as a pull request that a second person approves (four eyes, ADR 051). */
export const proposedSettingsChangeSchema = z.object({
  pullRequestId: z.number().int(),
  branch: z.string(),
  prUrl: z.string(),
});
export type ProposedSettingsChangeDto = z.infer<typeof proposedSettingsChangeSchema>;

/** A captured policy of the client to promote into the baseline (issue 30 §1, ADR 073). */
export const promotionQuerySchema = z
  .object({
    /** resource path of the client's policy (`{Category}/{Kind}/{Policy}.json`) */
    path: resourcePathSchema,
    /** the layer to promote it into; absent: the company baseline */
    layer: layerNameSchema.optional(),
  })
  .strict();
export type PromotionQuery = z.input<typeof promotionQuerySchema>;

export const promotionBodySchema = promotionQuerySchema
  .extend({ reason: z.string().trim().min(1).max(1000).optional() })
  .strict();
export type PromotionBody = z.input<typeof promotionBodySchema>;

/** What promoting the policy would write: the tenant's values replaced by parameter tokens. */
export const promotionPreviewSchema = z.object({
  /** the client's policy file */
  sourcePath: z.string(),
  /** the baseline file it would become */
  targetPath: z.string(),
  /** whether the baseline (or layer) holds a policy there now, which it would replace whole */
  replaces: z.boolean(),
  /** each value replaced: property path, the tenant's value, the parameter whose token replaces it */
  substitutions: z.array(z.object({ path: z.string(), value: z.string(), name: z.string() })),
  /** the document as it would be written */
  content: z.unknown(),
});
export type PromotionPreviewDto = z.infer<typeof promotionPreviewSchema>;

/** Off-board the policies of layers the client no longer has (ADR 079). */
export const droppedLayersOffboardBodySchema = z
  .object({ layers: z.array(layerNameSchema).min(1).max(20) })
  .strict();
export type DroppedLayersOffboardBody = z.infer<typeof droppedLayersOffboardBodySchema>;
