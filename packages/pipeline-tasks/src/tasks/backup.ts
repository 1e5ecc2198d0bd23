// Backup (pipeline 212): the tenant's configuration at this moment, as a commit that is not on
// main (main's tree with the client's folder replaced by the live configuration), tagged
// backup/{client}/{yyyymmdd_hhmmss} (scheduled runs: backup/{client}/scheduled_{…}).
import type { TaskParameters } from '../parameters';

import type { TaskContext } from './context';
import { backupTagMessage, backupTagName } from './layout';
import { snapshotTenant } from './snapshot';

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
  const main = await repository.mainCommit();
  const tenant = await context.tenant();
  const snapshot = await snapshotTenant(tenant, repository, client, main);
  log.info(
    `Read ${snapshot.policyCount} policies from the tenant in ${tenant.requestCount} requests`,
  );
  const date = context.now();
  const tag = backupTagName(client, date, scheduled);
  let commitId = main;
  if (snapshot.changes.length > 0) {
    // A push needs a branch: a short-lived one holds the commit until the tag does.
    const holder = `aegis/backup-${context.runId}`;
    commitId = await repository.commit(
      holder,
      main,
      `Backup of ${client} tenant configuration (run ${context.runId})`,
      snapshot.changes,
    );
    await repository.tag(tag, commitId, backupTagMessage(client, date, scheduled, context.runId));
    await repository.deleteBranch(holder, commitId);
    log.info(`The tenant differs from main in ${snapshot.changes.length} files`);
  } else {
    await repository.tag(tag, commitId, backupTagMessage(client, date, scheduled, context.runId));
    log.info('The tenant matches main');
  }
  log.info(`Created tag refs/tags/${tag} (${commitId})`);
  return { tag, commitId };
}
