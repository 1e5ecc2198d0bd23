import type { AuthConfig } from '@aegis/contracts';

/**
 * The server's public sign-in configuration (`/auth-config.json`): how technicians sign in and
 * where client tenants consent. The schema (zod and the contracts) loads on demand, so the landing
 * page does not carry it.
 */
export async function loadAuthConfig(): Promise<AuthConfig> {
  const response = await fetch('/auth-config.json');
  if (!response.ok)
    throw new Error(`Could not load the sign-in configuration (${response.status})`);
  const { authConfigSchema } = await import('@aegis/contracts');
  return authConfigSchema.parse(await response.json());
}
