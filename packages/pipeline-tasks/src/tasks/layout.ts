// Repository paths and names the tasks write (ARCHITECTURE §3).
// TODO(foundations): replace with packages/domain/src/repository-layout once it lands.
export const RESOURCES_ROOT = 'M365Config/Resources';

export function clientRoot(client: string): string {
  return `Clients/${client}`;
}

export function clientResourcesRoot(client: string): string {
  return `${clientRoot(client)}/${RESOURCES_ROOT}`;
}

export function clientYamlPath(folder: string): string {
  return `Client_Yaml_Files/${folder}-azure-pipelines.yml`;
}

/** yyyymmdd_hhmmss in UTC. */
export function backupTimestamp(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}_${iso.slice(11, 19).replace(/:/g, '')}`;
}

/** backup/{client}/{yyyymmdd_hhmmss}, or backup/{client}/scheduled_{…} for scheduled runs. */
export function backupTagName(client: string, date: Date, scheduled: boolean): string {
  return `backup/${client}/${scheduled ? 'scheduled_' : ''}${backupTimestamp(date)}`;
}

export function backupTagMessage(
  client: string,
  date: Date,
  scheduled: boolean,
  runId?: number,
): string {
  return [
    `${scheduled ? 'Scheduled' : 'Manual'} backup of ${client} tenant configuration`,
    '',
    `Client: ${client}`,
    `Backup-Type: ${scheduled ? 'scheduled' : 'manual'}`,
    `Created: ${date.toISOString()}`,
    ...(runId !== undefined ? [`Pipeline-Run: ${runId}`] : []),
    '',
  ].join('\n');
}
