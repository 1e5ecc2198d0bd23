// Capture (pipeline 216): the client tenant's configuration as a commit on
// client-{CODE}-capture-{runId}, branched off main in one push, with its metadata in the commit
// message (ADR 024).
import {
  captureBranchName,
  captureMetadataPath,
  isPartialCapture,
  partialWorkloads,
  type CaptureMetadata,
} from '@aegis/domain';

import { TaskError } from '../log';
import type { TaskParameters } from '../parameters';

import type { TaskContext } from './context';
import { manifestFileChange, notCapturedLines, snapshotTenant } from './snapshot';

export interface CaptureOutcome {
  branch: string;
  commitId: string;
  changeCount: number;
  criticalCount: number;
  /** a workload the tenant has could not be read (ADR 050) */
  partial: boolean;
}

export async function runCapture(
  context: TaskContext,
  parameters: TaskParameters<'capture'>,
): Promise<CaptureOutcome> {
  const { log, repository } = context;
  const client = parameters.ClientCode;
  log.section(`Capture of ${client}`);
  const branch = captureBranchName(client, context.runId);
  // Run ids are unique, but a re-run of a run keeps its id: never push over what it pushed before.
  if (await repository.findBranchTip(branch)) {
    throw new TaskError(
      `${branch} already exists: this run pushed a capture before. Start a new capture instead of re-running this one.`,
    );
  }
  const main = await repository.branchTip();
  log.info(`main is at ${main}`);
  const tenant = await context.tenant();
  const snapshot = await snapshotTenant(tenant, repository, client, main, context.now(), {
    excludedProperties: parameters.ExcludedProperties,
    excludedPaths: parameters.ExcludedPaths,
  });
  log.info(
    `Read ${snapshot.policyCount} policies from the tenant in ${tenant.requestCount} requests`,
  );
  const partial = isPartialCapture(snapshot.manifest);
  for (const line of notCapturedLines(snapshot.manifest)) {
    if (partial) log.warning(line);
    else log.info(line);
  }
  if (parameters.ExcludedProperties.length > 0) {
    log.info(`Excluded properties: ${parameters.ExcludedProperties.join(', ')}`);
  }
  if (parameters.ExcludedPaths.length > 0) {
    log.info(`Excluded paths: ${parameters.ExcludedPaths.join(', ')}`);
  }
  // counted as the review counts them: timestamps and other excluded properties are no change
  const { changeCount } = snapshot;
  const metadata: CaptureMetadata = {
    changeCount,
    criticalCount: snapshot.criticalCount,
    baselineVersion: parameters.BaselineVersion,
    capturedAt: context.now().toISOString(),
    ...(context.requestedBy ? { triggeredBy: context.requestedBy } : {}),
  };
  for (const change of snapshot.changes) log.info(`${change.changeType} ${change.path}`);
  // One push: the captured files, the metadata the capture selector reads (ADR 024) and the
  // manifest of what was and was not read (ADR 050).
  const commitId = await repository.commit(
    branch,
    main,
    `Capture of ${client} tenant configuration (run ${context.runId}): ${changeCount} changes, ${snapshot.criticalCount} critical`,
    [
      ...snapshot.changes,
      {
        changeType: (await repository.fileExists(captureMetadataPath(client), { commit: main }))
          ? 'edit'
          : 'add',
        path: captureMetadataPath(client).replace(/^\//, ''),
        content: `${JSON.stringify(metadata, null, 2)}\n`,
      },
      await manifestFileChange(repository, client, main, snapshot.manifest),
    ],
  );
  log.info(
    changeCount === 0
      ? `No drift in what was read: it matches main. ${branch} (${commitId}) records the capture.`
      : `Pushed ${changeCount} changes (${snapshot.criticalCount} critical; ${snapshot.changes.length} files) to ${branch} (${commitId})`,
  );
  if (partial) {
    log.succeededWithIssues(
      `Partial capture: ${partialWorkloads(snapshot.manifest).length} workloads were not captured; their files are left as they are on main`,
    );
  }
  return { branch, commitId, changeCount, criticalCount: snapshot.criticalCount, partial };
}
