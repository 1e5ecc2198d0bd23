// The services a client tenant is reached through, each by its own door: a base URL and the
// audience its app-only tokens are issued for (docs/adr/049-per-service-doors-and-contracts.md).
// One door per service: a token of one audience never opens another service.
import type { RetryOptions } from '@aegis/connectors';

export type TenantService = 'graph' | 'exchange' | 'teams' | 'arm';

export interface ServiceDoor {
  /** base URL, e.g. https://outlook.office365.com (or the tenant emulator's origin) */
  url: string;
  /** the `aud` of the service's tokens; the token is asked for with `{audience}/.default` */
  audience: string;
}

/** Microsoft's public cloud. */
export const MICROSOFT_CLOUD_DOORS: Readonly<Record<TenantService, ServiceDoor>> = {
  graph: { url: 'https://graph.microsoft.com', audience: 'https://graph.microsoft.com' },
  exchange: { url: 'https://outlook.office365.com', audience: 'https://outlook.office365.com' },
  // The Teams admin configuration service ("Skype and Teams Tenant Admin API" resource) that the
  // MicrosoftTeams module's Cs* cmdlets call.
  teams: {
    url: 'https://api.interfaces.records.teams.microsoft.com',
    audience: '48ac35b8-9aa8-4d74-927d-1f4a14a0b239',
  },
  arm: { url: 'https://management.azure.com', audience: 'https://management.azure.com' },
};

/** The scope a client-credentials token of the door's audience is asked for with. */
export function defaultScopeOf(door: ServiceDoor): string {
  return `${door.audience.replace(/\/+$/, '')}/.default`;
}

/** What each service adapter of the HTTP gateway is built with. */
export interface ServiceAdapterOptions {
  /** the service's base URL */
  url: string;
  /** an app-only token of the client tenant for the service's audience */
  getToken: () => Promise<string>;
  fetch: typeof fetch;
  retry?: RetryOptions;
}
