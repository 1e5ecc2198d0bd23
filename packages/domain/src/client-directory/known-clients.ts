import { CLIENT_APPS_TABLE_SUFFIX, GENERAL_APPS_TABLE } from '../app-tables/constants';
import { parseBackupTag } from '../backups/tags';
import { isClientCode } from '../clients';
import { normalisePipelineFolder, isTenantPipelineFolder } from '../pipelines/catalogue';
import { stripFolder } from '../pipelines/pipelines';

/** Where a client code was seen. `undefined`: that source could not be read. */
export interface ClientSightings {
  /** codes with a folder Clients/{CODE} on main: their configuration */
  configurationFolders: readonly string[];
  /** codes with an app-deploy pipeline YAML Client_Yaml_Files/{CODE}-azure-pipelines.yml */
  appYamls: readonly string[];
  /** the storage account's table names ({CODE}WorkstationApps) */
  tables: readonly string[] | undefined;
  /** the project's pipelines */
  pipelines: readonly { id: number; name: string; folder: string }[] | undefined;
  /** backup tag names (refs/tags/backup/{CODE}/…) */
  backupTags: readonly string[] | undefined;
}

/** What a code lacks to be used on a screen, in the order the screens name them. */
export const CLIENT_LACKS = ['tenant', 'configuration', 'appDeployment', 'backups'] as const;
export type ClientLack = (typeof CLIENT_LACKS)[number];

/** How the screens say what a code lacks. */
export const CLIENT_LACK_TEXT: Record<ClientLack, string> = {
  tenant: 'no tenant onboarded',
  configuration: 'no configuration on main',
  appDeployment: 'no app deployment',
  backups: 'no backups',
};

/** Everything Aegis knows of one code. */
export interface KnownClient {
  code: string;
  /** 'Client {code}': nothing Aegis reads records a display name (ADR 042) */
  name: string;
  /** a client: a code with a tenant or a configuration (ADR 054) */
  isClient: boolean;
  /** a pipeline under Tenants\{CODE} (spec 2 §5, the onboarding marker) */
  onboarded: boolean;
  /** Clients/{CODE} on main */
  configuration: boolean;
  appDeployment: { yaml: boolean; table: boolean | null };
  /** backup tags; null when the tags could not be read */
  backups: number | null;
  /** the pipelines of the code (Tenants\{CODE} and \{CODE}); null when they could not be read */
  pipelines: { id: number; name: string; folder: string }[] | null;
  /** what the code lacks, from what could be read */
  lacks: ClientLack[];
}

/** The client code of a pipeline under Tenants\{CODE}, if its folder names one. */
export function tenantPipelineClient(folder: string | undefined): string | undefined {
  if (!isTenantPipelineFolder(folder)) return undefined;
  const code = normalisePipelineFolder(folder).split('\\')[1];
  return code && isClientCode(code) ? code : undefined;
}

/** The code of a client app table '{CODE}WorkstationApps', if the name is one (not the general table). */
export function clientOfAppTable(table: string): string | undefined {
  if (table === GENERAL_APPS_TABLE || !table.endsWith(CLIENT_APPS_TABLE_SUFFIX)) return undefined;
  const code = table.slice(0, -CLIENT_APPS_TABLE_SUFFIX.length);
  return isClientCode(code) ? code : undefined;
}

function backupClient(tag: string): string | undefined {
  const code = /^(?:refs\/tags\/)?backup\/([^/]+)\//.exec(tag)?.[1];
  return code && isClientCode(code) && parseBackupTag(tag, code) ? code : undefined;
}

/**
 * The one definition of 'a client' (issue 27 item 2, ADR 054): every code Aegis has seen anywhere,
 * sorted by code, each with what is known of it and what it lacks. A code is a client when it has a
 * tenant (onboarded: a pipeline under Tenants\{CODE}) or a configuration on main (captured from
 * its tenant); a code seen only as a pipeline folder, a YAML, a table or backup tags is listed,
 * not as a client, with what it lacks, so no screen fails on it.
 */
export function knownClients(sightings: ClientSightings): KnownClient[] {
  const configuration = new Set<string>(sightings.configurationFolders.filter(isClientCode));
  const yamls = new Set<string>(sightings.appYamls.filter(isClientCode));
  const tables =
    sightings.tables && new Set(sightings.tables.flatMap((t) => clientOfAppTable(t) ?? []));
  const backups = new Map<string, number>();
  for (const tag of sightings.backupTags ?? []) {
    const code = backupClient(tag);
    if (code) backups.set(code, (backups.get(code) ?? 0) + 1);
  }
  const onboarded = new Set<string>();
  const pipelinesOf = new Map<string, { id: number; name: string; folder: string }[]>();
  for (const p of sightings.pipelines ?? []) {
    const tenantCode = tenantPipelineClient(p.folder);
    const folder = stripFolder(p.folder);
    const code = tenantCode ?? (isClientCode(folder) ? folder : undefined);
    if (!code) continue;
    if (tenantCode) onboarded.add(code);
    pipelinesOf.set(code, [...(pipelinesOf.get(code) ?? []), { id: p.id, name: p.name, folder }]);
  }

  const codes = new Set([
    ...configuration,
    ...yamls,
    ...(tables ?? []),
    ...backups.keys(),
    ...pipelinesOf.keys(),
  ]);
  return [...codes].sort().map((code) => {
    const hasTenant = onboarded.has(code);
    const hasConfiguration = configuration.has(code);
    const table = tables ? tables.has(code) : null;
    const backupCount = sightings.backupTags ? (backups.get(code) ?? 0) : null;
    const lacks: ClientLack[] = [];
    // a configuration on main was captured from the tenant: its tenant exists
    if (!hasTenant && !hasConfiguration) lacks.push('tenant');
    if (!hasConfiguration) lacks.push('configuration');
    if (!yamls.has(code) && table === false) lacks.push('appDeployment');
    if (backupCount === 0) lacks.push('backups');
    return {
      code,
      name: `Client ${code}`,
      isClient: hasTenant || hasConfiguration,
      onboarded: hasTenant,
      configuration: hasConfiguration,
      appDeployment: { yaml: yamls.has(code), table },
      backups: backupCount,
      pipelines: sightings.pipelines ? (pipelinesOf.get(code) ?? []) : null,
      lacks,
    };
  });
}

/** 'WGB - Client WGB (no tenant onboarded, no configuration on main)': a code as a picker shows it. */
export function knownClientLabel(
  client: Pick<KnownClient, 'code' | 'name' | 'lacks'>,
  relevant: readonly ClientLack[] = ['tenant', 'configuration'],
): string {
  const lacks = client.lacks.filter((l) => relevant.includes(l)).map((l) => CLIENT_LACK_TEXT[l]);
  const base =
    client.name && client.name !== client.code ? `${client.code} - ${client.name}` : client.code;
  return lacks.length > 0 ? `${base} (${lacks.join(', ')})` : base;
}
