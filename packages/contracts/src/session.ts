import { z } from 'zod';

/** How the browser signs in: the embedded identity provider or Entra ID through MSAL. */
export const authConfigSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('local'), identityProviderUrl: z.string() }),
  z.object({ mode: z.literal('entra'), clientId: z.string(), authority: z.string() }),
]);
export type AuthConfig = z.infer<typeof authConfigSchema>;

export const meSchema = z.object({ upn: z.string(), displayName: z.string().nullable() });
export type Me = z.infer<typeof meSchema>;

/** The body of every Aegis API error. */
export const apiErrorSchema = z.object({
  error: z.string(),
  statusCode: z.number(),
  message: z.string(),
  field: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
