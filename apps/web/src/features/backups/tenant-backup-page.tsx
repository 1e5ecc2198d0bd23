import type { Backup, UnfinishedRestore } from '@aegis/contracts';
import { backupHealth, formatBackupDate, type BackupHealth } from '@aegis/domain';
import { Badge, Button, Card, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import {
  ArrowClockwiseRegular,
  CalendarClockRegular,
  CloudArrowUpRegular,
} from '@fluentui/react-icons';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { ClientPicker } from '../../components/client-picker';
import { useConfirm } from '../../components/confirm-dialog';
import { HealthBadge } from '../../components/health-badge';
import { useNotify } from '../../components/notifier';
import { PageHeader } from '../../components/page-header';
import { ResultBar } from '../../components/result-bar';
import { RoleGate } from '../../components/role-gate';
import { RunLogButton } from '../../components/run-log-dialog';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { useClients } from '../../lib/clients/use-clients';

import { downloadBackup, useBackups, useRestoreBackup } from './api/backups';
import { BackupComparisonDialog } from './components/backup-comparison-dialog';
import { BackupDetailsDialog } from './components/backup-details-dialog';
import { BackupHistoryTable } from './components/backup-history-table';
import { BackupStats } from './components/backup-stats';
import { useManualBackup } from './hooks/use-manual-backup';
import { useTenantRestore } from './hooks/use-tenant-restore';

const useStyles = makeStyles({
  toolbar: {
    display: 'flex',
    gap: '12px',
    alignItems: 'flex-end',
    flexWrap: 'wrap',
    padding: '16px',
    marginBottom: '16px',
    flexDirection: 'row',
  },
  tenant: { minWidth: '220px' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  quick: { display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' },
  message: { marginBottom: '16px' },
  choose: {
    padding: '48px',
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
  },
});

const confirmText = (tag: string) =>
  `Are you sure you want to restore from backup ${tag}? This will create a pull request for review.`;

/** The spec's restore confirmation (spec 3 §5), for chosen policies (issue 30 §4). */
export const policiesConfirmText = (tag: string, count: number) =>
  `Are you sure you want to restore ${count === 1 ? '1 policy' : `${count} policies`} from backup ${tag}? This will create a pull request for review.`;

/** Issue 30 §4: the confirmation before chosen policies go straight back into the tenant. */
export const tenantRestoreConfirmText = (client: string, tag: string, count: number) =>
  `Are you sure you want to restore ${count === 1 ? '1 policy' : `${count} policies`} from backup ${tag} straight into the tenant ${client}? This changes the tenant now; a backup of it is taken first.`;

/** Spec 3 §8: a restore that failed without a reason from the server. */
export const RESTORE_FAILED = 'Failed to restore backup. Please try again.';

/** Spec 3 §7: the server's failure text, as 'Failed to create PR: {server message}'. */
export function restoreFailureText(serverMessage: string): string {
  const prefix = 'Failed to create PR: ';
  return serverMessage.startsWith(prefix) ? serverMessage : `${prefix}${serverMessage}`;
}

/**
 * A restore branch without a pull request (issue 26 §2): the restore is not done. An Approver's
 * read of the backups opens its pull request, so it is shown only while that has not happened.
 */
export function unfinishedRestoreText({ branch, tagName }: UnfinishedRestore): string {
  return tagName
    ? `The restore of backup ${tagName} has no pull request yet (branch ${branch}), so nothing is restored. An Approver opening this screen opens it; if this message stays, delete the branch in Azure DevOps and restore again.`
    : `Branch ${branch} is not a restore of any backup of this tenant and has no pull request. Delete it in Azure DevOps.`;
}

/** What the screen says about a tenant restore's run. */
export function tenantRestoreText(
  restore: { client: string; tag: string; count: number; log: { id: number } },
  status: 'running' | 'succeeded' | 'failed' | 'unknown',
  result: string | null,
): string {
  const what = `${restore.count === 1 ? '1 policy' : `${restore.count} policies`} of ${restore.client} from backup ${restore.tag}`;
  switch (status) {
    case 'running':
      return `Restoring ${what} into the tenant (run #${restore.log.id})...`;
    case 'succeeded':
      return `Restored ${what} into the tenant (run #${restore.log.id}).`;
    case 'failed':
      return `The restore of ${what} ended ${result ?? 'without a result'} (run #${restore.log.id}). Its log says why.`;
    case 'unknown':
      return `The restore of ${what} (run #${restore.log.id}) could not be followed. Its log shows how it went.`;
  }
}

/** Tenant Backups (spec 3 §2): /tenant-backup. */
export function TenantBackupPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const clients = useClients();
  const [client, setClient] = useState<string>();
  const backups = useBackups(client);
  const restore = useRestoreBackup();
  const manual = useManualBackup(backups.refetch);
  const { isBackingUp } = manual;
  const [viewing, setViewing] = useState<Backup>();
  const [comparing, setComparing] = useState<Backup>();
  const [restoringTag, setRestoringTag] = useState<string>();
  const [restoreFailure, setRestoreFailure] = useState<string>();
  const confirm = useConfirm();
  const notify = useNotify();
  const tenantRestore = useTenantRestore();

  if (clients.isError) console.error('Loading the tenants failed', clients.error);
  if (backups.isError) console.error('Loading the backups failed', backups.error);

  const list = backups.data?.client === client ? backups.data : undefined;
  const newest = list?.backups[0];
  const health: BackupHealth = backupHealth(
    newest ? new Date(newest.date) : undefined,
    new Date(),
    isBackingUp,
  );

  function chooseTenant(code: string): void {
    manual.reset();
    tenantRestore.reset();
    setRestoreFailure(undefined);
    setClient(code || undefined);
  }

  async function restoreBackup(backup: Backup, policies?: string[]): Promise<void> {
    // One restore at a time: the row buttons and the dialogs' Restore This Backup are disabled
    // while one runs, so a second click cannot create a second branch or a spurious failure.
    if (!client || restoringTag !== undefined) return;
    const confirmed = await confirm({
      title: policies ? 'Restore policies' : 'Restore backup',
      body: policies
        ? policiesConfirmText(backup.tagName, policies.length)
        : confirmText(backup.tagName),
      confirmLabel: 'Restore',
    });
    if (!confirmed) return;
    setRestoreFailure(undefined);
    setRestoringTag(backup.tagName);
    try {
      const created = await restore.mutateAsync({
        client,
        tag: backup.tagName,
        ...(policies ? { policies } : {}),
      });
      setViewing(undefined);
      setComparing(undefined);
      notify({
        intent: 'success',
        title: `Pull request #${created.pullRequestId} has been created for review.`,
      });
    } catch (error) {
      console.error('Restoring the backup failed', error);
      // Spec 3 §7: the server's reason (nothing to restore, a restore already open) is what the
      // technician needs; 'Please try again.' only when there is no reason to give.
      const failure =
        error instanceof ApiError && error.message ? restoreFailureText(error.message) : undefined;
      setRestoreFailure(failure);
      notify({ intent: 'error', title: failure ?? RESTORE_FAILED });
      // a failed restore may have left its branch without a pull request: the list says so
      void backups.refetch();
    } finally {
      setRestoringTag(undefined);
    }
  }

  async function restoreToTenant(backup: Backup, policies: string[]): Promise<void> {
    if (!client || restoringTag !== undefined) return;
    const confirmed = await confirm({
      title: 'Restore policies into the tenant',
      body: tenantRestoreConfirmText(client, backup.tagName, policies.length),
      confirmLabel: 'Restore into tenant',
    });
    if (!confirmed) return;
    setRestoreFailure(undefined);
    setRestoringTag(backup.tagName);
    try {
      await tenantRestore.start(client, backup.tagName, policies);
      setViewing(undefined);
    } catch (error) {
      console.error('Starting the tenant restore failed', error);
      setRestoreFailure(
        error instanceof ApiError && error.message
          ? `Failed to start the restore: ${error.message}`
          : 'Failed to start the restore. Please try again.',
      );
    } finally {
      setRestoringTag(undefined);
    }
  }

  function download(backup: Backup): void {
    if (!client) return;
    downloadBackup(client, backup.tagName).catch((error: unknown) => {
      console.error('Downloading the backup failed', error);
    });
  }

  return (
    <>
      <PageHeader
        title="Tenant Backups"
        subtitle="Back up, compare and restore a client tenant's configuration"
        actions={
          client && list ? (
            <div className={styles.quick} aria-label="Quick stats" role="group">
              <Badge
                appearance="outline"
                size="large"
              >{`${list.backups.length} ${list.backups.length === 1 ? 'backup' : 'backups'}`}</Badge>
              <HealthBadge health={health} />
            </div>
          ) : undefined
        }
      />

      <Card className={styles.toolbar}>
        <ClientPicker
          label="Tenant"
          className={styles.tenant}
          value={client ?? ''}
          onChange={chooseTenant}
          clients={clients.data?.clients}
          loading={clients.isPending}
          error={clients.error}
          onRetry={() => void clients.refetch()}
          placeholder="Select a tenant"
          loadingText="Loading tenants..."
        />
        <div className={styles.actions}>
          <RoleGate needs="Operator">
            <Button
              appearance="primary"
              icon={isBackingUp ? <Spinner size="extra-tiny" /> : <CloudArrowUpRegular />}
              disabled={!client || isBackingUp}
              onClick={() => client && void manual.start(client)}
            >
              {isBackingUp ? 'Backing up...' : 'Manual Backup'}
            </Button>
          </RoleGate>
          {manual.logOf && <RunLogButton run={manual.logOf} size="medium" />}
          <Button
            icon={<CalendarClockRegular />}
            disabled={!client}
            onClick={() => client && void navigate(paths.schedules.getHref(client))}
          >
            Configure Schedule
          </Button>
          <Button
            icon={<ArrowClockwiseRegular />}
            disabled={!client || backups.isFetching}
            onClick={() => void backups.refetch()}
          >
            Refresh
          </Button>
        </div>
      </Card>

      {tenantRestore.restore && tenantRestore.status && (
        <ResultBar
          intent={
            tenantRestore.status === 'succeeded'
              ? 'success'
              : tenantRestore.status === 'running'
                ? 'info'
                : tenantRestore.status === 'failed'
                  ? 'error'
                  : 'warning'
          }
          className={styles.message}
          actions={<RunLogButton run={tenantRestore.restore.log} />}
        >
          {tenantRestoreText(tenantRestore.restore, tenantRestore.status, tenantRestore.result)}
        </ResultBar>
      )}
      {restoreFailure && (
        <ResultBar intent="error" className={styles.message}>
          {restoreFailure}
        </ResultBar>
      )}

      {!client ? (
        <Card className={styles.choose}>
          <Text size={400}>Select a tenant to view its backups.</Text>
        </Card>
      ) : (
        <>
          {backups.isError && (
            <ResultBar intent="warning" className={styles.message}>
              Backups for {client} could not be loaded. Use Refresh to try again.
            </ResultBar>
          )}
          {list?.unfinishedRestores.map((unfinished) => (
            <ResultBar
              key={unfinished.branch}
              intent="warning"
              title="Restore not finished"
              className={styles.message}
            >
              {unfinishedRestoreText(unfinished)}
            </ResultBar>
          ))}
          <BackupStats
            latest={newest ? formatBackupDate(new Date(newest.date)) : list ? 'N/A' : '—'}
            total={list ? list.backups.length : '—'}
            storageUsed={list ? list.storageUsed : '—'}
            health={list || isBackingUp ? health : undefined}
          />
          {(list || !backups.isError) && (
            <BackupHistoryTable
              key={client}
              backups={list?.backups ?? []}
              loading={backups.isPending && !list}
              restoringTag={restoringTag}
              actions={{
                onView: setViewing,
                onCompare: setComparing,
                onRestore: (b) => void restoreBackup(b),
                onDownload: download,
              }}
            />
          )}
          <BackupDetailsDialog
            client={client}
            restoring={restoringTag !== undefined}
            backup={viewing}
            onClose={() => setViewing(undefined)}
            onRestore={(b, policies) => void restoreBackup(b, policies)}
            onRestoreToTenant={(b, policies) => void restoreToTenant(b, policies)}
          />
          <BackupComparisonDialog
            client={client}
            restoring={restoringTag !== undefined}
            backup={comparing}
            onClose={() => setComparing(undefined)}
            onRestore={(b) => void restoreBackup(b)}
          />
        </>
      )}
    </>
  );
}
