import type { Backup } from '@aegis/contracts';
import { formatBackupDate } from '@aegis/domain';
import {
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useMemo, useState } from 'react';

import { useBackupContent } from '../api/backups';

import { BackupDialogActions } from './backup-dialog-actions';
import { BackupPolicyPicker, backupPolicies } from './backup-policy-picker';

const useStyles = makeStyles({
  surface: { maxWidth: '960px', width: '92vw' },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: '16px',
    rowGap: '6px',
    marginBottom: '12px',
  },
  term: { color: tokens.colorNeutralForeground3 },
  mono: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
  pre: {
    margin: 0,
    maxHeight: '55vh',
    overflow: 'auto',
    padding: '12px',
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'pre',
  },
});

/** Backup Details (spec 3 §2): tag, created on, type, size, pretty-printed configuration. */
export function BackupDetailsDialog({
  client,
  backup,
  restoring = false,
  onClose,
  onRestore,
  onRestoreToTenant,
}: {
  client: string;
  backup: Backup | undefined;
  /** a restore is running: Restore This Backup is disabled and shows a spinner */
  restoring?: boolean;
  onClose: () => void;
  onRestore: (backup: Backup, policies?: string[]) => void;
  onRestoreToTenant: (backup: Backup, policies: string[]) => void;
}) {
  const styles = useStyles();
  const content = useBackupContent(client, backup?.tagName);
  const policies = useMemo(
    () => (content.data ? backupPolicies(content.data.content) : []),
    [content.data],
  );
  // the choice belongs to one backup: another backup starts with none
  const [chosen, setChosen] = useState<{ tag: string | undefined; policies: ReadonlySet<string> }>({
    tag: undefined,
    policies: new Set(),
  });
  const selected = chosen.tag === backup?.tagName ? chosen.policies : new Set<string>();
  if (content.isError) console.error('Loading the backup content failed', content.error);

  return (
    <Dialog open={backup !== undefined} onOpenChange={(_e, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>Backup Details</DialogTitle>
          <DialogContent>
            {backup && (
              <dl className={styles.facts}>
                <dt className={styles.term}>Tag Name</dt>
                <dd className={styles.mono}>{backup.tagName}</dd>
                <dt className={styles.term}>Created On</dt>
                <dd>{formatBackupDate(new Date(backup.date))}</dd>
                <dt className={styles.term}>Type</dt>
                <dd>{backup.isScheduled ? 'Scheduled' : 'Manual'}</dd>
                <dt className={styles.term}>Size</dt>
                <dd>{backup.size}</dd>
              </dl>
            )}
            {content.data && (
              <BackupPolicyPicker
                policies={policies}
                selected={selected}
                onChange={(next) => setChosen({ tag: backup?.tagName, policies: next })}
              />
            )}
            <Text weight="semibold" block>
              Configuration
            </Text>
            {content.isPending && <Spinner size="small" label="Loading configuration..." />}
            {content.isError && (
              <Text role="status">The configuration could not be loaded. Close and try again.</Text>
            )}
            {content.data && (
              <pre
                className={styles.pre}
                role="region"
                aria-label="Backup configuration"
                tabIndex={0}
              >
                {JSON.stringify(content.data.content, null, 2)}
              </pre>
            )}
          </DialogContent>
          <BackupDialogActions
            backup={backup}
            restoring={restoring}
            selectedPolicies={content.data ? [...selected] : undefined}
            onClose={onClose}
            onRestore={onRestore}
            onRestoreToTenant={onRestoreToTenant}
          />
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
