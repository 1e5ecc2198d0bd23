// Capture (pipeline 216): the client tenant's configuration as a commit on
// client-{CODE}-capture-{runId}, branched off main in one push, with its metadata in the commit
// message (ADR 024).
import { captureCommitMessage } from '@aegis/domain';

import type { TaskParameters } from '../parameters';

import type { TaskContext } from './context';
import { captureBranchName } from './layout';
import { snapshotTenant } from './snapshot';

export interface CaptureOutcome {
  branch: string;
  commitId: string;
  changeCount: number;
  criticalCount: number;
}

export async function runCapture(
  context: TaskContext,
  parameters: TaskParameters<'capture'>,
): Promise<CaptureOutcome> {
  const { log, repository } = context;
  const client = parameters.ClientCode;
  log.section(`Capture of ${client}`);
  const main = await repository.mainCommit();
  log.info(`main is at ${main}`);
  const tenant = await context.tenant();
  const snapshot = await snapshotTenant(tenant, repository, client, main, {
    excludedProperties: parameters.ExcludedProperties,
    excludedPaths: parameters.ExcludedPaths,
  });
  log.info(
    `Read ${snapshot.policyCount} policies from the tenant in ${tenant.requestCount} requests`,
  );
  if (parameters.ExcludedProperties.length > 0) {
    log.info(`Excluded properties: ${parameters.ExcludedProperties.join(', ')}`);
  }
  if (parameters.ExcludedPaths.length > 0) {
    log.info(`Excluded paths: ${parameters.ExcludedPaths.join(', ')}`);
  }
  const branch = captureBranchName(client, context.runId);
  const changeCount = snapshot.changes.length;
  let commitId = main;
  if (changeCount === 0) {
    await repository.createBranch(branch, main);
    log.info(`No drift: the tenant matches main. Created ${branch} at main.`);
  } else {
    commitId = await repository.commit(
      branch,
      main,
      captureCommitMessage({
        client,
        runId: context.runId,
        changeCount,
        criticalCount: snapshot.criticalCount,
        baselineVersion: parameters.BaselineVersion,
      }),
      snapshot.changes,
    );
    for (const change of snapshot.changes) log.info(`${change.changeType} ${change.path}`);
    log.info(
      `Pushed ${changeCount} changes (${snapshot.criticalCount} critical) to ${branch} (${commitId})`,
    );
  }
  return { branch, commitId, changeCount, criticalCount: snapshot.criticalCount };
}
