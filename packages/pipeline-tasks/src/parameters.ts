// Each task's inputs, named as the portal's run bodies name them (spec 1 §7, spec 2 §7, spec 3 §7):
// the emulator's runner passes a run's templateParameters and variables, the command line maps its
// flags onto the same names, and zod validates both the same way.
import { RESTORE_FROM_MAIN } from '@aegis/domain';
import { z } from 'zod';

export const TASK_NAMES = [
  'capture',
  'backup',
  'deploy',
  'offboard',
  'onboard',
  'appdeploy-onboard',
  'drift-check',
  'fleet-rebuild',
  'customer-reports',
] as const;
export type TaskName = (typeof TASK_NAMES)[number];

const clientCode = z
  .string({ error: 'ClientCode is required' })
  .trim()
  .regex(/^[A-Z]{3}$/, 'ClientCode must be exactly 3 uppercase letters');

/** A list sent JSON-encoded (ExcludedProperties, Components), or one entry per line / comma. */
const stringList = z
  .string()
  .optional()
  .transform((text, ctx): string[] => {
    const value = text?.trim();
    if (!value) return [];
    if (value.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(value);
        if (Array.isArray(parsed) && parsed.every((e) => typeof e === 'string')) {
          return parsed.map((e) => e.trim()).filter(Boolean);
        }
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of strings' });
      return z.NEVER;
    }
    return value
      .split(/[\n,]/)
      .map((e) => e.trim())
      .filter(Boolean);
  });

const flag = z
  .string()
  .optional()
  .transform((v) => (v ?? '').trim().toLowerCase() === 'true');

const required = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`);

export const TASK_PARAMETER_SCHEMAS = {
  capture: z.object({
    ClientCode: clientCode,
    ExcludedProperties: stringList,
    ExcludedPaths: stringList,
    BaselineVersion: z.string().trim().min(1).optional().default('1.0.0'),
  }),
  backup: z.object({ ClientCode: clientCode, ManualRun: flag }),
  // RestoreFrom + Policies (issue 30 §4): the chosen policies back from a backup, not the baseline;
  // RestoreFrom 'main' puts them back as main has them, reverting drift (issue 28 §5, ADR 071)
  deploy: z
    .object({
      ClientCode: clientCode,
      Components: stringList,
      RestoreFrom: z.string().trim().optional(),
      Policies: stringList,
      // a rollout's deploy (ADR 078): the commit of main its plan compared with, deployed even
      // when main has moved since, and the claim token that finds the run again
      Commit: z
        .union([
          z.literal('').transform(() => undefined),
          z
            .string()
            .trim()
            .regex(/^[0-9a-f]{40}$/, 'Commit must be a commit id of 40 hexadecimal digits'),
        ])
        .optional(),
      RolloutClaim: z.string().trim().optional(),
    })
    .superRefine((p, ctx) => {
      if (!p.RestoreFrom) return;
      if (
        p.RestoreFrom !== RESTORE_FROM_MAIN &&
        !p.RestoreFrom.startsWith(`backup/${p.ClientCode}/`)
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['RestoreFrom'],
          message: `RestoreFrom must be a backup tag of ${p.ClientCode} or ${RESTORE_FROM_MAIN}`,
        });
      }
      if (p.Policies.length === 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['Policies'],
          message: 'Policies is required with RestoreFrom',
        });
      }
      if (p.Components.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['Components'],
          message: 'Components must be empty with RestoreFrom',
        });
      }
    }),
  // DroppedLayers (ADR 079): instead of components, the policies of layers the client no longer has
  offboard: z
    .object({ ClientCode: clientCode, Components: stringList, DroppedLayers: stringList })
    .superRefine((p, ctx) => {
      if (p.DroppedLayers.length > 0 && p.Components.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['Components'],
          message: 'Components must be empty with DroppedLayers',
        });
      }
    }),
  onboard: z.object({
    ClientCode: clientCode,
    Domain: required('Domain'),
    TenantId: z.string().trim().optional(),
    subscriptionForLogin: z.string().trim().optional(),
    EnrollInPowerSupport: z.string().trim().optional(),
    Region: z.string().trim().optional(),
  }),
  'appdeploy-onboard': z.object({
    ClientCode: clientCode,
    Domain: required('Domain'),
    ClientTenantID: z.string().trim().optional(),
    EnterpriseAppID: z.string().trim().optional(),
  }),
  // no ClientCode: every client whose check is due by its settings (the schedule's run)
  'drift-check': z.object({
    ClientCode: z.union([z.literal('').transform(() => undefined), clientCode]).optional(),
    Kind: z
      .enum(['due', 'quick', 'full'], { error: "Kind must be 'due', 'quick' or 'full'" })
      .optional()
      .default('due'),
  }),
  // the whole fleet: no client
  'fleet-rebuild': z.object({}),
  // every scheduled client whose period is due
  'customer-reports': z.object({}),
} satisfies Record<TaskName, z.ZodType>;

export type TaskParameters<T extends TaskName> = z.infer<(typeof TASK_PARAMETER_SCHEMAS)[T]>;

/** Validates a run's parameters for a task; the error names each bad field. */
export function parseTaskParameters<T extends TaskName>(
  task: T,
  parameters: Readonly<Record<string, string | undefined>>,
): TaskParameters<T> {
  const parsed = TASK_PARAMETER_SCHEMAS[task].safeParse(parameters);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => {
      const field = issue.path.join('.');
      return issue.message.startsWith(field) ? issue.message : `${field}: ${issue.message}`;
    });
    throw new Error(`Invalid ${task} parameters: ${issues.join('; ')}`);
  }
  return parsed.data as TaskParameters<T>;
}

/** Command-line flags → run parameter names. */
export const CLI_FLAGS: Readonly<Record<string, string>> = {
  client: 'ClientCode',
  'excluded-properties': 'ExcludedProperties',
  'excluded-paths': 'ExcludedPaths',
  'baseline-version': 'BaselineVersion',
  'manual-run': 'ManualRun',
  components: 'Components',
  'restore-from': 'RestoreFrom',
  policies: 'Policies',
  'dropped-layers': 'DroppedLayers',
  commit: 'Commit',
  'rollout-claim': 'RolloutClaim',
  domain: 'Domain',
  'tenant-id': 'TenantId',
  'client-tenant-id': 'ClientTenantID',
  'enterprise-app-id': 'EnterpriseAppID',
  subscription: 'subscriptionForLogin',
  'enroll-in-power-support': 'EnrollInPowerSupport',
  region: 'Region',
  kind: 'Kind',
};
