import type { DevOpsApi, RepositoryRef } from '@aegis/connectors/devops';
import { isClientCode } from '@aegis/domain';

/** Where clients live in the configuration repository (ARCHITECTURE §3). */
export const CLIENTS_FOLDER = '/Clients';

/** The client codes: folders directly under /Clients on main whose name is three capital letters. */
export async function listClientCodes(devops: DevOpsApi, repo: RepositoryRef): Promise<string[]> {
  const items = await devops.listItems(repo, CLIENTS_FOLDER, {
    recursion: 'oneLevel',
    version: { branch: 'main' },
  });
  return items
    .filter((item) => item.isFolder && item.path !== CLIENTS_FOLDER)
    .map((item) => item.path.slice(item.path.lastIndexOf('/') + 1))
    .filter(isClientCode)
    .sort();
}
