import { CLIENT_LACKS } from '@aegis/domain';
import { z } from 'zod';

/**
 * GET /api/clients (ADR 054): every code Aegis knows, each with what it knows of it, from the one
 * definition of a client in the domain (`knownClients`). Every client picker reads this list.
 */

export const clientLackSchema = z.enum(CLIENT_LACKS);

export const knownClientSchema = z.object({
  code: z.string(),
  name: z.string(),
  /** a code with a tenant or a configuration on main */
  isClient: z.boolean(),
  /** a pipeline under Tenants\{CODE} */
  onboarded: z.boolean(),
  /** Clients/{CODE} on main */
  configuration: z.boolean(),
  /** table null: the tables could not be read */
  appDeployment: z.object({ yaml: z.boolean(), table: z.boolean().nullable() }),
  /** null: the backup tags could not be read */
  backups: z.number().int().nonnegative().nullable(),
  /** null: the pipelines could not be read */
  pipelines: z
    .array(z.object({ id: z.number().int(), name: z.string(), folder: z.string() }))
    .nullable(),
  lacks: z.array(clientLackSchema),
});
export type KnownClientDto = z.infer<typeof knownClientSchema>;

/** Sources that could not be read: what each code has there is unknown, not lacking. */
export const clientSourceSchema = z.enum(['tables', 'pipelines', 'backups']);

export const clientListQuerySchema = z.object({
  /** 'clients': only the codes that are clients; 'all' (default): every code seen */
  only: z.enum(['all', 'clients']).default('all'),
});

export const knownClientListSchema = z.object({
  clients: z.array(knownClientSchema),
  unavailable: z.array(z.object({ source: clientSourceSchema, message: z.string() })),
});
export type KnownClientList = z.infer<typeof knownClientListSchema>;
