// The backup pipeline (spec 3 §9, issue 5): backs up a client's configuration as an annotated tag on
// main. Manual runs (ManualRun true) are tagged backup/{client}/{yyyymmdd_hhmmss}; scheduled runs
// backup/{client}/scheduled_{yyyymmdd_hhmmss}. The tag message says which, too ("Backup-Type:").
// Names come from the domain's repository layout, the id from the pipeline catalogue.
import {
  backupTagMessage,
  backupTagName,
  clientFolder,
  formatBackupTimestamp,
  MAIN_BRANCH,
  PIPELINE_CATALOGUE,
} from '@aegis/domain';

import type { PipelineEffect } from './pipeline-runner';

export const BACKUP_PIPELINE_ID = PIPELINE_CATALOGUE.backup.id;
export { backupTagMessage, backupTagName, formatBackupTimestamp };

function isTrue(value: string | undefined): boolean {
  return value !== undefined && value.trim().toLowerCase() === 'true';
}

export const backupEffect: PipelineEffect = async ({
  parameters,
  pipeline,
  state,
  run,
  now,
  log,
}) => {
  const client = parameters['ClientCode'] ?? '';
  if (!/^[A-Z]{3}$/.test(client)) throw new Error(`ClientCode '${client}' is not a client code`);
  if (!pipeline.repositoryId) throw new Error('the backup pipeline has no repository');
  const git = state.git(pipeline.repositoryId);
  const main = await git.resolveCommit(MAIN_BRANCH, 'branch');
  if (!main) throw new Error('Could not find main branch');
  const folder = await git.entryAt(main, clientFolder(client).slice(1));
  if (!folder || folder.type !== 'tree')
    throw new Error(`Clients/${client} does not exist on main`);
  const scheduled = !isTrue(parameters['ManualRun']);
  // Tag names are unique to the second: a backup whose second is taken (another run of the same
  // client finished a moment earlier) waits for the next second instead of failing on the tag.
  let date = now();
  let name = backupTagName(client, date, scheduled);
  for (let wait = 0; (await git.revParse(`refs/tags/${name}`)) !== undefined; wait++) {
    if (wait >= 5) throw new Error(`tag ${name} already exists`);
    await new Promise((resolve) => setTimeout(resolve, 1000 - (date.getTime() % 1000)));
    date = now();
    name = backupTagName(client, date, scheduled);
  }
  const tagger = { name: 'Azure Pipelines', email: 'build@aegis.local', date };
  const tagId = await git.createAnnotatedTag(
    name,
    main,
    backupTagMessage(client, date, scheduled, run.id),
    tagger,
  );
  log(`Created tag refs/tags/${name} (${tagId}) on ${main}`);
};
