import type { KnownClientDto, KnownClientList } from '@aegis/contracts';
import { http, HttpResponse } from 'msw';

/**
 * A client as GET /api/clients gives it: captured and onboarded with nothing lacking, unless the
 * test says otherwise (e.g. `{ onboarded: false, configuration: false, lacks: [...] }`).
 */
export function knownClient(code: string, overrides: Partial<KnownClientDto> = {}): KnownClientDto {
  return {
    code,
    name: `Client ${code}`,
    isClient: true,
    onboarded: true,
    configuration: true,
    appDeployment: { yaml: true, table: true },
    backups: 1,
    pipelines: [],
    lacks: [],
    ...overrides,
  };
}

/** WGB of the sample data: onboarded for app deployment only, never captured (issue 27 item 2). */
export const APP_DEPLOYMENT_ONLY = knownClient('WGB', {
  isClient: false,
  onboarded: false,
  configuration: false,
  backups: 0,
  lacks: ['tenant', 'configuration', 'backups'],
});

/** The handler of GET /api/clients answering `clients`. */
export function clientsHandler(clients: KnownClientDto[]) {
  return http.get('*/api/clients', () =>
    HttpResponse.json({ clients, unavailable: [] } satisfies KnownClientList),
  );
}
