import type { DevOpsApi } from '@aegis/connectors/devops';
import type { ConfigRepository } from '@aegis/connectors/repository';
import type { AppTables } from '@aegis/connectors/tables';
import {
  CLIENT_YAML_FOLDER,
  CLIENTS_FOLDER,
  knownClients,
  lastSegment,
  parseClientYamlPath,
  type KnownClient,
} from '@aegis/domain';

type ClientSource = 'tables' | 'pipelines' | 'backups';

export interface ClientDirectoryList {
  clients: KnownClient[];
  /** sources that could not be read, with the service's reason */
  unavailable: { source: ClientSource; message: string }[];
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * What Aegis knows of each client code (ADR 054), read from every place a code appears: the
 * configuration repository's client folders and app-deploy YAMLs (required: without them nothing
 * can be said), and the app tables, the project's pipelines and the backup tags (each may fail on
 * its own; what it would have told is then unknown, never 'lacking'). The rule is the domain's
 * `knownClients`.
 */
export class ClientDirectory {
  constructor(
    private readonly repository: ConfigRepository,
    private readonly devops: DevOpsApi,
    private readonly project: string,
    private readonly tables: () => AppTables,
  ) {}

  async list(): Promise<ClientDirectoryList> {
    const [folders, yamls, [tables, pipelines, backupRefs]] = await Promise.all([
      this.repository.listChildren(CLIENTS_FOLDER),
      this.repository.listChildren(CLIENT_YAML_FOLDER),
      Promise.allSettled([
        Promise.resolve().then(() => this.tables().listTables()),
        this.devops.listPipelines(this.project),
        this.repository.listRefs('tags/backup/'),
      ]),
    ]);
    const unavailable: ClientDirectoryList['unavailable'] = [];
    const valueOf = <T>(source: ClientSource, result: PromiseSettledResult<T>) => {
      if (result.status === 'fulfilled') return result.value;
      unavailable.push({ source, message: reasonOf(result.reason) });
      return undefined;
    };
    const clients = knownClients({
      configurationFolders: folders.filter((i) => i.isFolder).map((i) => lastSegment(i.path)),
      appYamls: yamls.flatMap((i) => (i.isFolder ? [] : (parseClientYamlPath(i.path) ?? []))),
      tables: valueOf('tables', tables),
      pipelines: valueOf('pipelines', pipelines),
      backupTags: valueOf('backups', backupRefs)?.map((ref) => ref.name),
    });
    return { clients, unavailable };
  }
}
