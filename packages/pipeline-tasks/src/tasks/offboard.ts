// Off-board ('Remove Baseline Tenant Configuration'): removes the selected components' objects from
// the tenant (matched by the baseline's id, then display name), or sets them back to the
// service's defaults where the component says 'Revert … to Default'. Logged per component.
// With DroppedLayers instead (ADR 079): the policies of layers the client no longer has.
import { readClientBaseline } from '@aegis/connectors/repository';
import {
  DIRECTORY_USERS_WORKLOAD,
  OFFBOARD_COMPONENTS,
  TENANT_WORKLOADS,
  droppedLayerPolicies,
  hasPublicApi,
  layerResourcesRoot,
  offboardRunOrder,
  pendingApprovalSummary,
  rollbackPointLine,
  substituteParameters,
  textOf,
  toResourcePath,
  workloadFor,
  workloadKey,
  type BaselineLayer,
  type TenantWorkload,
} from '@aegis/domain';

import { TaskError } from '../log';
import type { TaskParameters } from '../parameters';
import { objectIdOf, objectsOfRead, type TenantObject } from '../tenant/gateway';

import { runBackup } from './backup';
import type { TaskContext } from './context';
import { baselineFilesUnder, findExisting } from './deploy';
import { RESOURCES_ROOT } from './layout';

const CA_POLICIES = workloadFor('ConditionalAccess', 'Policy') as TenantWorkload;

/** Service defaults for the settings a 'Revert … to Default' component resets. */
const SERVICE_DEFAULTS: Readonly<Record<string, Record<string, unknown>>> = {
  'Exchange/OrganizationConfig': {
    AuditDisabled: false,
    OAuth2ClientProfileEnabled: true,
    CustomerLockBoxEnabled: false,
    MailTipsAllTipsEnabled: true,
    MailTipsExternalRecipientsTipsEnabled: false,
    MailTipsGroupMetricsEnabled: true,
  },
  'Defender/AntiPhishPolicy': {
    PhishThresholdLevel: 1,
    EnableMailboxIntelligenceProtection: false,
    EnableOrganizationDomainsProtection: false,
    EnableTargetedUserProtection: false,
    EnableTargetedDomainsProtection: false,
    TargetedUserProtectionAction: 'NoAction',
    TargetedDomainProtectionAction: 'NoAction',
    MailboxIntelligenceProtectionAction: 'NoAction',
  },
  'Teams/MeetingPolicy': {
    AutoAdmittedUsers: 'EveryoneInCompany',
    AllowAnonymousUsersToJoinMeeting: true,
    AllowAnonymousUsersToStartMeeting: false,
    AllowCloudRecording: true,
    DesignatedPresenterRoleMode: 'EveryoneUserOverride',
  },
  'Teams/MessagingPolicy': {
    AllowOwnerDeleteMessage: false,
    AllowUserDeleteChat: true,
    GiphyRatingType: 'Moderate',
    ChannelsInChatListEnabledType: 'EnabledUserOverride',
  },
  'Teams/FederationConfiguration': {
    AllowFederatedUsers: true,
    AllowTeamsConsumer: true,
    AllowTeamsConsumerInbound: true,
    AllowPublicUsers: true,
  },
  'Forms/FormsSettings': {
    settings: {
      isExternalSendFormEnabled: true,
      isExternalShareCollaborationEnabled: true,
      isExternalShareResultEnabled: true,
      isExternalShareTemplateEnabled: true,
      isInOrgFormsPhishingScanEnabled: true,
      isRecordIdentityByDefaultEnabled: false,
      isBingImageSearchEnabled: true,
    },
  },
};

export interface OffboardCounts {
  removed: number;
  /** objects left in place because the client's own configuration still uses them */
  kept: number;
  reverted: number;
  absent: number;
  pending: number;
}

export async function runOffboard(
  context: TaskContext,
  parameters: TaskParameters<'offboard'>,
): Promise<OffboardCounts> {
  const { log, repository } = context;
  const client = parameters.ClientCode;
  if (parameters.DroppedLayers.length > 0) {
    return runDroppedLayersOffboard(context, client, parameters.DroppedLayers);
  }
  if (parameters.Components.length === 0) {
    throw new TaskError('Please select at least one component to remove');
  }
  for (const name of parameters.Components) {
    if (!OFFBOARD_COMPONENTS[name]) throw new TaskError(`Unknown off-board component '${name}'`);
  }
  // catalogue order: what references others (policies) goes before what it references
  const selected = offboardRunOrder(parameters.Components).map((name) => ({
    name,
    component: OFFBOARD_COMPONENTS[name]!,
  }));
  log.section(`Off-board from ${client}: ${selected.map((s) => s.name).join(', ')}`);
  const main = await repository.branchTip();
  const baselineFiles = await repository.readFolderTexts(RESOURCES_ROOT, { commit: main });
  const tenant = await context.tenant();
  const plan = selected.map(({ name, component }) => ({
    name,
    component,
    // paths in the component's order: what references others goes first
    files: component.paths.flatMap((p) => baselineFilesUnder(baselineFiles, [p])),
  }));
  const removesAccounts = plan.some((p) => (p.component.accounts?.length ?? 0) > 0);
  const workloads = new Set(plan.flatMap((p) => p.files.map((f) => f.workload)));
  if ([...workloads].some((w) => w.category === 'ConditionalAccess')) workloads.add(CA_POLICIES);
  const live = objectsOfRead(
    await tenant.readAll([...workloads, ...(removesAccounts ? [DIRECTORY_USERS_WORKLOAD] : [])]),
  );
  const domain = removesAccounts ? await tenant.initialDomain() : undefined;
  const counts: OffboardCounts = { removed: 0, kept: 0, reverted: 0, absent: 0, pending: 0 };
  for (const { name, component, files } of plan) {
    log.section(`Component '${name}'`);
    for (const local of component.accounts ?? []) {
      const upn = `${local}@${domain ?? ''}`.toLowerCase();
      const user = (live.get(DIRECTORY_USERS_WORKLOAD) ?? []).find(
        (u) => textOf(u['userPrincipalName'] ?? '').toLowerCase() === upn,
      );
      if (!user) {
        counts.absent += 1;
        log.info(`absent account ${upn}`);
        continue;
      }
      try {
        await tenant.remove(DIRECTORY_USERS_WORKLOAD, user);
      } catch (error) {
        throw new TaskError(`Removing account ${upn} failed: ${(error as Error).message}`);
      }
      counts.removed += 1;
      log.info(`removed account ${upn}`);
    }
    for (const file of files) {
      const fileName = file.path.slice(file.path.lastIndexOf('/') + 1, -'.json'.length);
      if (!hasPublicApi(file.workload)) {
        log.warning(
          `'${fileName}' left alone: Microsoft publishes no API for ${workloadKey(file.workload)}`,
        );
        continue;
      }
      const existing = findExisting(
        file.workload,
        live.get(file.workload) ?? [],
        file.object,
        fileName,
      );
      if (!existing) {
        counts.absent += 1;
        log.info(`absent ${file.workload.category}/${file.workload.kind}/${fileName}`);
        continue;
      }
      const options = {
        justification: `Aegis off-board run ${context.runId}: '${name}' from ${client}`,
      };
      const kindKey = `${file.workload.category}/${file.workload.kind}`;
      // A named location the client's own policies still use cannot go (Graph refuses it): it
      // stays, and the log says which policies hold it.
      if (component.action === 'remove' && kindKey === 'ConditionalAccess/NamedLocation') {
        const id = objectIdOf(file.workload, existing);
        const users = (live.get(CA_POLICIES) ?? [])
          .filter((p) => id && JSON.stringify(p['conditions'] ?? {}).includes(id))
          .map((p) => String(p['displayName'] ?? p['id']));
        if (users.length > 0) {
          counts.kept += 1;
          log.warning(
            `kept ${kindKey}/${fileName}: still used by the client's own policies ${users.join(', ')}`,
          );
          continue;
        }
      }
      try {
        const outcome =
          component.action === 'revert'
            ? await tenant.update(
                file.workload,
                existing,
                { ...(SERVICE_DEFAULTS[kindKey] ?? {}) },
                options,
              )
            : await tenant.remove(file.workload, existing, options);
        if (outcome.status === 'pendingApproval') {
          counts.pending += 1;
          log.warning(`Pending approval: '${fileName}': ${outcome.message}`);
          continue;
        }
      } catch (error) {
        throw new TaskError(`Removing '${fileName}' (${name}) failed: ${(error as Error).message}`);
      }
      if (component.action === 'revert') {
        if (!SERVICE_DEFAULTS[kindKey]) log.warning(`No defaults are known for ${kindKey}`);
        counts.reverted += 1;
        log.info(`reverted ${kindKey}/${fileName} to the service defaults`);
      } else {
        counts.removed += 1;
        log.info(`removed ${kindKey}/${fileName}`);
        live.set(
          file.workload,
          (live.get(file.workload) ?? []).filter((o) => o !== existing),
        );
      }
    }
  }
  log.section('Summary');
  log.info(
    `${counts.removed} removed, ${counts.kept} kept (still in use), ${counts.reverted} reverted, ${counts.absent} not present, ${counts.pending} waiting for approval`,
  );
  if (counts.pending > 0) {
    log.succeededWithIssues(pendingApprovalSummary(counts.pending, context.runId));
  }
  return counts;
}

/**
 * Removes what layers the client no longer has added to its tenant (ADR 079): each dropped layer's
 * policies that the client's effective baseline on main no longer holds, found in the tenant as the
 * layer holds them (the client's parameters substituted), after a backup (the rollback point).
 * Refuses a layer the client still has: its policies are still its baseline.
 */
async function runDroppedLayersOffboard(
  context: TaskContext,
  client: string,
  layerNames: readonly string[],
): Promise<OffboardCounts> {
  const { log, repository } = context;
  const listed = layerNames.map((n) => `'${n}'`).join(', ');
  log.section(`Off-board from ${client} the policies of the layers it no longer has: ${listed}`);
  const commit = await repository.branchTip();
  const baseline = await readClientBaseline(repository, client, { commit }).catch(
    (error: unknown) => {
      throw new TaskError((error as Error).message);
    },
  );
  const current = new Set(baseline.layers.map((l) => l.name.toLowerCase()));
  const kept = layerNames.filter((n) => current.has(n.toLowerCase()));
  if (kept.length > 0) {
    throw new TaskError(
      `${client} still has the layer(s) ${kept.map((n) => `'${n}'`).join(', ')}: its policies are its baseline`,
    );
  }
  const dropped: BaselineLayer[] = await Promise.all(
    layerNames.map(async (name) => {
      const tree = await repository.readTree(layerResourcesRoot(name), { commit });
      if (!tree) throw new TaskError(`There is no layer '${name}' (${layerResourcesRoot(name)})`);
      return { name, files: tree.files };
    }),
  );
  const counts: OffboardCounts = { removed: 0, kept: 0, reverted: 0, absent: 0, pending: 0 };
  const offered = droppedLayerPolicies(dropped, baseline.files);
  if (offered.length === 0) {
    log.info(`Nothing to remove: ${client}'s baseline holds every policy of ${listed}`);
    return counts;
  }
  const contentOf = new Map(
    dropped.flatMap((layer) =>
      layer.files.map((f) => [`${layer.name}/${toResourcePath(f.path)}`, f.content] as const),
    ),
  );
  const order = (w: TenantWorkload) => TENANT_WORKLOADS.indexOf(w);
  const policies = offered
    .map((p) => {
      const [category = '', kind = '', file = ''] = p.path.split('/');
      const object = substituteParameters(
        contentOf.get(`${p.layer}/${p.path}`),
        baseline.parameters,
      ).content;
      return {
        ...p,
        fileName: file.slice(0, -'.json'.length),
        workload: workloadFor(category, kind),
        object: object && typeof object === 'object' ? (object as TenantObject) : undefined,
      };
    })
    // the reverse of the deploy order: what references others (policies) before what it references
    .sort((a, b) => (b.workload ? order(b.workload) : -1) - (a.workload ? order(a.workload) : -1));

  const backup = await runBackup(context, { ClientCode: client, ManualRun: true });
  log.info(rollbackPointLine(backup.tag));
  const tenant = await context.tenant();
  const workloads = [
    ...new Set(
      policies.flatMap((p) => (p.workload && hasPublicApi(p.workload) ? [p.workload] : [])),
    ),
  ];
  const live = objectsOfRead(await tenant.readAll(workloads));
  for (const policy of policies) {
    const where = `${policy.layer}: ${policy.path}`;
    if (!policy.workload || !policy.object || Array.isArray(policy.object)) {
      log.warning(`'${where}' left alone: not a policy of a known workload`);
      continue;
    }
    if (!hasPublicApi(policy.workload)) {
      log.warning(
        `'${where}' left alone: Microsoft publishes no API for ${workloadKey(policy.workload)}`,
      );
      continue;
    }
    // a tenant-wide setting is not an object the layer made: there is nothing to delete
    if ('singleton' in policy.workload && policy.workload.singleton) {
      log.warning(`'${where}' left alone: a tenant setting, not an object to remove`);
      continue;
    }
    const existing = findExisting(
      policy.workload,
      live.get(policy.workload) ?? [],
      policy.object,
      policy.fileName,
    );
    if (!existing) {
      counts.absent += 1;
      log.info(`absent ${where}`);
      continue;
    }
    try {
      const outcome = await tenant.remove(policy.workload, existing, {
        justification: `Aegis off-board run ${context.runId}: layer '${policy.layer}' dropped from ${client}`,
      });
      if (outcome.status === 'pendingApproval') {
        counts.pending += 1;
        log.warning(`Pending approval: '${where}': ${outcome.message}`);
        continue;
      }
    } catch (error) {
      throw new TaskError(`Removing '${where}' failed: ${(error as Error).message}`);
    }
    counts.removed += 1;
    log.info(`removed ${where}`);
  }
  log.section('Summary');
  log.info(
    `${counts.removed} removed, ${counts.absent} not present, ${counts.pending} waiting for approval`,
  );
  if (counts.pending > 0) {
    log.succeededWithIssues(pendingApprovalSummary(counts.pending, context.runId));
  }
  return counts;
}
