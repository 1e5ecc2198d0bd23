// Off-board ('Remove Baseline Tenant Configuration'): removes the selected components' objects from
// the tenant (matched by the baseline's id, then display name), or sets them back to the
// service's defaults where the component says 'Revert … to Default'. Logged per component.
import {
  DIRECTORY_USERS_WORKLOAD,
  OFFBOARD_COMPONENTS,
  hasPublicApi,
  offboardRunOrder,
  pendingApprovalSummary,
  workloadFor,
  workloadKey,
  type TenantWorkload,
} from '@aegis/domain';

import { TaskError } from '../log';
import type { TaskParameters } from '../parameters';
import { objectIdOf, objectsOfRead } from '../tenant/gateway';

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
        (u) => String(u['userPrincipalName'] ?? '').toLowerCase() === upn,
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
