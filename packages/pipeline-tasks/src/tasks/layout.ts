// Repository paths and names the tasks write (ARCHITECTURE §3), from the domain's repository
// layout; the tasks address paths without the leading slash.
import {
  clientFolder,
  clientResourcesRoot as layoutResourcesRoot,
  clientYamlPath as layoutYamlPath,
  RESOURCES_FOLDER,
} from '@aegis/domain';

export {
  backupTagMessage,
  backupTagName,
  formatBackupTimestamp as backupTimestamp,
} from '@aegis/domain';

export const RESOURCES_ROOT = RESOURCES_FOLDER;

export function clientRoot(client: string): string {
  return clientFolder(client).slice(1);
}

export function clientResourcesRoot(client: string): string {
  return layoutResourcesRoot(client).slice(1);
}

export function clientYamlPath(folder: string): string {
  return layoutYamlPath(folder).slice(1);
}
