// Backup (pipeline 212): the tenant's configuration at this moment, as a commit that is not on
// main (main's tree with the client's folder replaced by the live configuration), tagged
// backup/{client}/{yyyymmdd_hhmmss} (scheduled runs: backup/{client}/scheduled_{…}).
import { isServiceError } from '@aegis/connectors';
import type { ConfigRepository } from '@aegis/connectors/repository';
import { isPartialCapture } from '@aegis/domain';

import { TaskError } from '../log';
import type { TaskParameters } from '../parameters';

import type { TaskContext } from './context';
import { backupTagMessage, backupTagName, clientRoot } from './layout';
import { manifestFileChange, notCapturedLines, snapshotTenant } from './snapshot';

export interface BackupOutcome {
  tag: string;
  commitId: string;
}

export async function runBackup(
  context: TaskContext,
  parameters: TaskParameters<'backup'>,
): Promise<BackupOutcome> {
  const { log, repository } = context;
  const client = parameters.ClientCode;
  const scheduled = !parameters.ManualRun;
  log.section(`${scheduled ? 'Scheduled' : 'Manual'} backup of ${client}`);
  const main = await repository.branchTip();
  if ((await repository.readFolderTexts(clientRoot(client), { commit: main })).size === 0) {
    throw new TaskError(`${clientRoot(client)} does not exist on main`);
  }
  const tenant = await context.tenant();
  const snapshot = await snapshotTenant(tenant, repository, client, main, context.now());
  log.info(
    `Read ${snapshot.policyCount} policies from the tenant in ${tenant.requestCount} requests`,
  );
  const partial = isPartialCapture(snapshot.manifest);
  for (const line of notCapturedLines(snapshot.manifest)) {
    if (partial) log.warning(line);
    else log.info(line);
  }
  let commitId = main;
  let tag: string;
  // A partial backup commits its manifest even when what was read matches main: a restore must
  // know which workloads' files are main's rather than the tenant's.
  if (snapshot.changes.length > 0 || partial) {
    // A push needs a branch: a short-lived one holds the commit until the tag does.
    const holder = `aegis/backup-${context.runId}`;
    commitId = await repository.commit(
      holder,
      main,
      `Backup of ${client} tenant configuration (run ${context.runId})${partial ? ' (partial)' : ''}`,
      [...snapshot.changes, await manifestFileChange(repository, client, main, snapshot.manifest)],
    );
    try {
      tag = await createBackupTag(context, repository, client, scheduled, commitId);
    } finally {
      await repository.deleteBranch(holder, commitId);
    }
    log.info(`The tenant differs from main in ${snapshot.changes.length} files`);
  } else {
    tag = await createBackupTag(context, repository, client, scheduled, commitId);
    log.info('The tenant matches main');
  }
  log.info(`Created tag refs/tags/${tag} (${commitId})`);
  if (partial) {
    log.succeededWithIssues(
      'Partial backup: some workloads were not read; their files in the backup are those on main',
    );
  }
  return { tag, commitId };
}

/**
 * Tags are unique to the second (ADR 012): when another backup of the client took this second,
 * wait for the next one rather than fail on the tag.
 */
async function createBackupTag(
  context: TaskContext,
  repository: ConfigRepository,
  client: string,
  scheduled: boolean,
  commitId: string,
): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const date = context.now();
    const tag = backupTagName(client, date, scheduled);
    try {
      await repository.tag(tag, commitId, backupTagMessage(client, date, scheduled, context.runId));
      return tag;
    } catch (error) {
      if (!isServiceError(error) || error.statusCode !== 409 || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 - (date.getTime() % 1000)));
    }
  }
}
