import type { RolloutDto } from '@aegis/contracts';
import { countOf, formatCaptureDate, type RolloutStatus } from '@aegis/domain';
import {
  Badge,
  Button,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Link as RouterLink, useParams } from 'react-router';

import { useConfirm } from '../../components/confirm-dialog';
import { useNotify } from '../../components/notifier';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { RoleGate } from '../../components/role-gate';
import { RunLogButton } from '../../components/run-log-dialog';
import { paths } from '../../config/paths';

import {
  useRollout,
  useRolloutAction,
  useUnreadDecision,
  type RolloutAction,
} from './api/rollouts-api';
import { UnreadWorkloadList } from './unread-workloads';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '16px' },
  facts: { display: 'flex', gap: '24px', flexWrap: 'wrap', alignItems: 'center' },
  meta: { color: tokens.colorNeutralForeground3 },
  section: { display: 'flex', flexDirection: 'column', gap: '8px' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
});

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const STATUS_LABELS: Record<RolloutStatus, string> = {
  planned: 'Planned',
  running: 'Running',
  'awaiting-approval': 'Waiting for the go-ahead',
  halted: 'Halted',
  succeeded: 'Succeeded',
  aborted: 'Aborted',
  'rolling-back': 'Rolling back',
  'rolled-back': 'Rolled back',
  'rollback-failed': 'Rollback failed',
};

const STATUS_COLOURS: Record<
  RolloutStatus,
  'brand' | 'danger' | 'success' | 'warning' | 'informative'
> = {
  planned: 'informative',
  running: 'brand',
  'awaiting-approval': 'warning',
  halted: 'danger',
  succeeded: 'success',
  aborted: 'warning',
  'rolling-back': 'brand',
  'rolled-back': 'informative',
  'rollback-failed': 'danger',
};

export function RolloutStatusBadge({ status }: { status: RolloutStatus }) {
  return (
    <Badge appearance="tint" color={STATUS_COLOURS[status]}>
      {STATUS_LABELS[status]}
    </Badge>
  );
}

const RUN_LABELS = {
  pending: 'Waiting',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
} as const;

/** The tenants of one ring: plan, deploy and (once asked for) rollback, with their run logs. */
function RingTable({ rollout, index }: { rollout: RolloutDto; index: number }) {
  const ring = rollout.rings[index]!;
  const styles = useStyles();
  const runRef = (runId: number) => ({
    project: rollout.project,
    pipelineId: rollout.pipelineId,
    id: runId,
  });
  const rolledBack = Object.keys(rollout.rollbacks).length > 0;
  return (
    <section className={styles.section} aria-labelledby={`ring-${index}`}>
      <h2 id={`ring-${index}`}>
        {`${ring.name}${index === rollout.currentRing && rollout.status === 'running' ? ' (deploying)' : ''}`}
      </h2>
      <Text className={styles.meta}>
        {`Halts after ${ring.maxFailures === 0 ? 'any failure' : `more than ${ring.maxFailures} failure${ring.maxFailures === 1 ? '' : 's'}`}${ring.needsApproval ? '; starts after an Approver’s go-ahead' : ''}.`}
      </Text>
      <Table aria-label={`Tenants of ${ring.name}`}>
        <TableHeader>
          <TableRow>
            <TableHeaderCell>Tenant</TableHeaderCell>
            <TableHeaderCell>Plan</TableHeaderCell>
            <TableHeaderCell>Deploy</TableHeaderCell>
            {rolledBack ? <TableHeaderCell>Rollback</TableHeaderCell> : null}
          </TableRow>
        </TableHeader>
        <TableBody>
          {ring.clients.map((client) => {
            const plan = rollout.plan.find((p) => p.client === client);
            const deploy = rollout.deploys[client];
            const rollback = rollout.rollbacks[client];
            return (
              <TableRow key={client}>
                <TableCell>{client}</TableCell>
                <TableCell>
                  <div className={styles.actions}>
                    <Text>
                      {plan ? `${plan.creates} to create, ${plan.updates} to change` : '—'}
                    </Text>
                    {plan?.unread?.length ? (
                      <Badge appearance="tint" color="warning">
                        {`${countOf(plan.unread.length, 'workload')} not read`}
                      </Badge>
                    ) : null}
                  </div>
                </TableCell>
                <TableCell>
                  <div className={styles.actions}>
                    <Text>{deploy ? RUN_LABELS[deploy.status] : '—'}</Text>
                    {deploy?.runId !== undefined ? (
                      <RunLogButton run={runRef(deploy.runId)} />
                    ) : null}
                  </div>
                </TableCell>
                {rolledBack ? (
                  <TableCell>
                    <div className={styles.actions}>
                      <Text>{rollback ? RUN_LABELS[rollback.status] : 'Not changed'}</Text>
                      {rollback?.runId !== undefined ? (
                        <RunLogButton run={runRef(rollback.runId)} />
                      ) : null}
                    </div>
                  </TableCell>
                ) : null}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </section>
  );
}

/** What an Approver decided for a tenant whose plan could not read some workloads. */
function decisionText(decision: NonNullable<RolloutDto['unreadDecisions']>[string]): string {
  const when = formatCaptureDate(decision.at);
  return decision.decision === 'acknowledged'
    ? `Acknowledged by ${decision.by} on ${when}: it deploys with the rest of its ring.`
    : `Excluded by ${decision.by} on ${when}: no ring deploys to it.`;
}

/** The rollout's clients a new plan starts from: every planned tenant but those an Approver excluded. */
function clientsToPlanAgain(rollout: RolloutDto): string[] {
  return rollout.plan
    .map((p) => p.client)
    .filter((client) => rollout.unreadDecisions?.[client]?.decision !== 'excluded');
}

/**
 * ADR 087: the tenants whose plan could not read some workloads, why, and the Approver's decision
 * on each: deploy anyway (acknowledge) or leave it out (exclude). The rollout starts once each
 * tenant of a ring is decided.
 */
function UnreadTenants({ rollout }: { rollout: RolloutDto }) {
  const styles = useStyles();
  const notify = useNotify();
  const decide = useUnreadDecision(rollout.id);
  const flagged = rollout.plan.filter((p) => p.unread?.length);
  if (flagged.length === 0) return null;
  const inRings = new Set(rollout.rings.flatMap((r) => r.clients));
  const send = (client: string, decision: 'acknowledged' | 'excluded') =>
    decide.mutate(
      { client, decision, etag: rollout.etag ?? '' },
      {
        onSuccess: () =>
          notify({
            intent: 'success',
            title:
              decision === 'acknowledged'
                ? `${client} deploys despite its unread workloads.`
                : `${client} is left out of this rollout.`,
          }),
        onError: (error) =>
          notify({ intent: 'error', title: `${client} was not decided`, body: message(error) }),
      },
    );
  return (
    <section className={styles.section} aria-labelledby="unread-tenants">
      <h2 id="unread-tenants">Tenants the plan could not fully read</h2>
      <Text>
        The plan could not read these workloads, so its counts for them assume the tenant has none
        of their baseline policies. An Approver acknowledges each tenant (it deploys anyway) or
        excludes it before the rollout starts.
      </Text>
      {flagged.map((plan) => {
        const decided = rollout.unreadDecisions?.[plan.client];
        const open = !decided && rollout.status === 'planned' && inRings.has(plan.client);
        return (
          <section
            key={plan.client}
            className={styles.section}
            aria-labelledby={`unread-${plan.client}`}
          >
            <h3 id={`unread-${plan.client}`}>{plan.client}</h3>
            <UnreadWorkloadList unread={plan.unread} />
            <Text className={styles.meta}>
              {decided
                ? decisionText(decided)
                : inRings.has(plan.client)
                  ? 'Waiting for an Approver: acknowledge or exclude.'
                  : 'In no ring: it has nothing to deploy.'}
            </Text>
            {open ? (
              <div className={styles.actions}>
                <RoleGate needs="Approver">
                  <Button
                    disabled={decide.isPending}
                    onClick={() => send(plan.client, 'acknowledged')}
                  >
                    {`Acknowledge ${plan.client}`}
                  </Button>
                </RoleGate>
                <RoleGate needs="Approver">
                  <Button disabled={decide.isPending} onClick={() => send(plan.client, 'excluded')}>
                    {`Exclude ${plan.client}`}
                  </Button>
                </RoleGate>
              </div>
            ) : null}
          </section>
        );
      })}
    </section>
  );
}

const ACTION_DONE: Record<RolloutAction, string> = {
  start: 'The rollout started.',
  approve: 'The next ring may start.',
  resume: 'The rollout resumed.',
  abort: 'The rollout was aborted.',
  rollback: 'The rollback started.',
};

function RolloutView({ rollout }: { rollout: RolloutDto }) {
  const styles = useStyles();
  const confirm = useConfirm();
  const notify = useNotify();
  const action = useRolloutAction(rollout.id);
  const act = (name: RolloutAction) =>
    action.mutate(name, {
      onSuccess: () => notify({ intent: 'success', title: ACTION_DONE[name] }),
      onError: (error) =>
        notify({ intent: 'error', title: 'The rollout did not change', body: message(error) }),
    });
  const nothingToDo = rollout.plan.filter((p) => p.creates + p.updates + p.deletes === 0);
  const changed = Object.values(rollout.deploys).filter(
    (d) => d.status === 'succeeded' || d.status === 'failed',
  ).length;
  const rollback = async () => {
    const ok = await confirm({
      title: 'Roll back this rollout?',
      body: `Each tenant this rollout deployed to (${changed}) gets back, object by object, the policies its deploy changed, from the backup that deploy took first.`,
      confirmLabel: 'Roll back',
      destructive: true,
    });
    if (ok) act('rollback');
  };
  const abort = async () => {
    const ok = await confirm({
      title: 'Abort this rollout?',
      body: 'No further deploy starts. What was deployed stays until you roll it back.',
      confirmLabel: 'Abort',
      destructive: true,
    });
    if (ok) act('abort');
  };
  const busy = action.isPending;
  const can = (statuses: readonly RolloutStatus[]) => statuses.includes(rollout.status);
  const inRings = new Set(rollout.rings.flatMap((r) => r.clients));
  const undecided = rollout.plan
    .filter((p) => p.unread?.length && inRings.has(p.client))
    .filter((p) => !rollout.unreadDecisions?.[p.client])
    .map((p) => p.client);
  // offered while a rollout can still deploy: in the halt banner, else beside Start
  const abortButton = (
    <RoleGate needs="Operator">
      <Button disabled={busy} onClick={() => void abort()}>
        Abort
      </Button>
    </RoleGate>
  );
  return (
    <div className={styles.root}>
      <div className={styles.facts}>
        <RolloutStatusBadge status={rollout.status} />
        <Text>{`Planned by ${rollout.createdBy}${rollout.createdAt ? ` on ${formatCaptureDate(rollout.createdAt)}` : ''}`}</Text>
        <Text className={styles.meta}>{`Baseline at commit ${rollout.commitId.slice(0, 8)}`}</Text>
      </div>
      {/* The rollout's state and the decision it waits for, not the outcome of a request: a
          page-state bar, not a ResultBar, so it is not announced as an alert on every load. */}
      {rollout.status === 'halted' ? (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            {rollout.mainMoved ? (
              <>
                <MessageBarTitle>Halted: the baseline on main changed</MessageBarTitle>
                {`Main's baseline or layers changed after this rollout was planned (planned at commit ${rollout.commitId.slice(0, 8)}, main now at ${rollout.mainMoved.commitId.slice(0, 8)}). The next ring would deploy a baseline that is no longer main's: plan the rollout again to roll out the new baseline, or abort.`}
              </>
            ) : (
              <>
                <MessageBarTitle>Halted</MessageBarTitle>
                {`${rollout.rings[rollout.currentRing]?.name ?? 'The ring'} failed in ${rollout.failed.join(', ')}. Nothing new starts until you resume (the failed tenants are deployed again) or abort. Read the failed runs' logs below.`}
              </>
            )}
          </MessageBarBody>
          <MessageBarActions>
            <RoleGate needs="Approver">
              {rollout.mainMoved ? (
                <RouterLink to={paths.newRollout.getHref(clientsToPlanAgain(rollout))}>
                  Plan again
                </RouterLink>
              ) : (
                <Button appearance="primary" disabled={busy} onClick={() => act('resume')}>
                  Resume
                </Button>
              )}
            </RoleGate>
            {abortButton}
          </MessageBarActions>
        </MessageBar>
      ) : null}
      {rollout.status === 'awaiting-approval' ? (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Waiting for the go-ahead</MessageBarTitle>
            {`${rollout.rings[rollout.currentRing + 1]?.name ?? 'The next ring'} starts when an Approver other than ${rollout.createdBy} gives the go-ahead.`}
          </MessageBarBody>
          <MessageBarActions>
            <RoleGate needs="Approver">
              <Button appearance="primary" disabled={busy} onClick={() => act('approve')}>
                Go ahead
              </Button>
            </RoleGate>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      <div className={styles.actions}>
        {can(['planned']) ? (
          <RoleGate needs="Approver">
            <Button
              appearance="primary"
              disabled={busy || undecided.length > 0}
              onClick={() => act('start')}
            >
              Start rollout
            </Button>
          </RoleGate>
        ) : null}
        {can(['planned']) && undecided.length > 0 ? (
          <Text>{`Acknowledge or exclude ${undecided.join(', ')} before the rollout starts.`}</Text>
        ) : null}
        {can(['planned', 'running', 'awaiting-approval']) ? abortButton : null}
        {can(['halted', 'aborted', 'succeeded', 'rollback-failed']) && changed > 0 ? (
          <RoleGate needs="Approver">
            <Button disabled={busy} onClick={() => void rollback()}>
              Roll back
            </Button>
          </RoleGate>
        ) : null}
      </div>
      <UnreadTenants rollout={rollout} />
      {rollout.rings.map((ring, index) => (
        <RingTable key={ring.name} rollout={rollout} index={index} />
      ))}
      <section className={styles.section} aria-labelledby="nothing-to-do">
        <h2 id="nothing-to-do">Tenants with nothing to do</h2>
        <Text>
          {nothingToDo.length === 0
            ? 'None: every target tenant had something to deploy.'
            : `${nothingToDo.map((p) => p.client).join(', ')}: their tenants already match the baseline; no ring deploys to them.`}
        </Text>
      </section>
    </div>
  );
}

/** One rollout: its rings and tenants, the halt banner, the go-ahead, abort and rollback. */
export function RolloutPage() {
  const { id = '' } = useParams();
  const rollout = useRollout(id);
  return (
    <>
      <PageHeader
        title="Rollout"
        subtitle="A baseline change deployed ring by ring"
        actions={<RouterLink to={paths.rollouts.getHref()}>All rollouts</RouterLink>}
      />
      <QueryState
        query={rollout}
        loading="Loading the rollout..."
        failed="The rollout could not be loaded"
      >
        {(data) => <RolloutView rollout={data} />}
      </QueryState>
    </>
  );
}
