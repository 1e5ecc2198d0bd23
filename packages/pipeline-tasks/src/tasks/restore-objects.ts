// A restore of chosen policies into the tenant (issue 30 §4, ADR 069): the deploy pipeline run with
// RestoreFrom and Policies. Like a deploy it first takes a backup (the rollback point); then each
// chosen policy is put back as the backup has it, object by object: updated where it differs,
// created where it is gone, and removed where the backup does not have it (it was created since).
// With RestoreFrom 'main' the source is the client's approved configuration at main's tip: a
// drift revert (issue 28 §5, ADR 071).
import {
  RESTORE_FROM_MAIN,
  hasPublicApi,
  pendingApprovalSummary,
  rollbackPointLine,
  workloadFor,
  workloadKey,
  type TenantWorkload,
} from '@aegis/domain';

import { TaskError } from '../log';
import { objectsOfRead, type TenantObject } from '../tenant/gateway';

import { runBackup } from './backup';
import type { TaskContext } from './context';
import { applyOne, findExisting, writableBody } from './deploy';
import { clientResourcesRoot } from './layout';

export interface ObjectRestoreCounts {
  restored: number;
  removed: number;
  unchanged: number;
  pending: number;
}

interface ChosenPolicy {
  /** `{Category}/{Kind}/{Policy}.json` */
  resourcePath: string;
  /** repository path without the leading slash */
  path: string;
  fileName: string;
  workload: TenantWorkload;
}

function chosenPolicy(client: string, resourcePath: string): ChosenPolicy {
  const parts = resourcePath.split('/');
  const [category, kind, file] = parts;
  const workload = parts.length === 3 && category && kind ? workloadFor(category, kind) : undefined;
  if (!workload || !file?.endsWith('.json') || parts.some((p) => p === '..' || p === '.')) {
    throw new TaskError(
      `'${resourcePath}' is not a policy of a known workload (Category/Kind/Policy.json)`,
    );
  }
  return {
    resourcePath,
    path: `${clientResourcesRoot(client)}/${resourcePath}`,
    fileName: file.slice(0, -'.json'.length),
    workload,
  };
}

function parseObject(text: string | undefined, where: string): TenantObject | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as TenantObject;
  } catch {
    // reported below
  }
  throw new TaskError(`${where} is not a JSON object`);
}

export async function runObjectRestore(
  context: TaskContext,
  input: { client: string; backupTag: string; policies: readonly string[] },
): Promise<ObjectRestoreCounts> {
  const { log, repository } = context;
  const { client, backupTag } = input;
  const fromMain = backupTag === RESTORE_FROM_MAIN;
  /** what the policies are put back as, in the log's words */
  const source = fromMain ? 'the approved configuration on main' : backupTag;
  const chosen = [...new Set(input.policies)].map((p) => chosenPolicy(client, p));
  log.section(
    `${fromMain ? 'Revert' : 'Restore'} ${chosen.length} ${chosen.length === 1 ? 'policy' : 'policies'} of ${client} ${fromMain ? 'to' : 'from'} ${source}`,
  );

  const root = clientResourcesRoot(client);
  const fromBackup = await repository.readFolderTexts(
    root,
    fromMain ? { commit: await repository.branchTip() } : { tag: backupTag },
  );
  if (fromBackup.size === 0) {
    throw new TaskError(
      fromMain ? `${root} does not exist on main` : `Backup ${backupTag} not found or empty`,
    );
  }
  const backup = await runBackup(context, { ClientCode: client, ManualRun: true });
  log.info(rollbackPointLine(backup.tag));
  // the tenant as it is now (the backup just taken): how a policy to remove is recognised
  const now = await repository.readFolderTexts(root, { commit: backup.commitId });

  const tenant = await context.tenant();
  const workloads = [...new Set(chosen.map((c) => c.workload))];
  const read = await tenant.readAll(workloads);
  for (const workload of workloads) {
    const outcome = read.get(workload);
    if (outcome?.status !== 'read') {
      throw new TaskError(`${workloadKey(workload)} could not be read, so nothing was restored`);
    }
  }
  const live = objectsOfRead(read);
  const counts: ObjectRestoreCounts = { restored: 0, removed: 0, unchanged: 0, pending: 0 };
  const options = {
    justification: `Aegis ${fromMain ? 'drift revert' : 'restore'} run ${context.runId}: ${client} from ${source}`,
  };

  for (const policy of chosen) {
    const { workload, fileName, resourcePath } = policy;
    if (!hasPublicApi(workload)) {
      log.warning(
        `'${resourcePath}' not restored: Microsoft publishes no API for ${workloadKey(workload)}`,
      );
      continue;
    }
    const wanted = parseObject(fromBackup.get(policy.path), `${resourcePath} in ${source}`);
    const objects = live.get(workload) ?? [];
    try {
      if (wanted) {
        const existing = findExisting(workload, objects, wanted, fileName);
        const outcome = await applyOne(
          tenant,
          workload,
          existing,
          writableBody(wanted, workload),
          false,
          options,
        );
        if (outcome.kind === 'pending') {
          counts.pending += 1;
          log.warning(`Pending approval: '${resourcePath}': ${outcome.message}`);
        } else if (outcome.kind === 'unchanged') {
          counts.unchanged += 1;
          log.info(`unchanged ${resourcePath} (already as ${source} has it)`);
        } else {
          counts.restored += 1;
          log.info(`${outcome.kind === 'created' ? 'recreated' : 'restored'} ${resourcePath}`);
        }
        continue;
      }
      const current = parseObject(now.get(policy.path), `${resourcePath} in ${backup.tag}`);
      const existing = current && findExisting(workload, objects, current, fileName);
      if (!existing) {
        counts.unchanged += 1;
        log.info(`unchanged ${resourcePath} (neither in ${source} nor in the tenant)`);
        continue;
      }
      const outcome = await tenant.remove(workload, existing, options);
      if (outcome.status === 'pendingApproval') {
        counts.pending += 1;
        log.warning(`Pending approval: removing '${resourcePath}': ${outcome.message}`);
      } else {
        counts.removed += 1;
        log.info(`removed ${resourcePath} (not in ${source})`);
      }
    } catch (error) {
      if (error instanceof TaskError) throw error;
      throw new TaskError(`Restoring '${resourcePath}' failed: ${(error as Error).message}`);
    }
  }
  log.section('Summary');
  log.info(
    `${counts.restored} restored, ${counts.removed} removed, ${counts.unchanged} already as ${source} has them, ${counts.pending} waiting for approval`,
  );
  if (counts.pending > 0) {
    log.succeededWithIssues(pendingApprovalSummary(counts.pending, context.runId));
  }
  return counts;
}
