import type { Backup } from '@aegis/contracts';
import { Button, DialogActions, makeStyles, Spinner } from '@fluentui/react-components';

import { RoleGate } from '../../../components/role-gate';

const useStyles = makeStyles({
  // four actions side by side: each keeps its label on one line, and the row wraps when narrow
  actions: { flexWrap: 'wrap', justifyContent: 'flex-end' },
  action: { whiteSpace: 'nowrap' },
});

/**
 * Close and Restore This Backup, shared by the Backup Details and Configuration Comparison modals;
 * with `selectedPolicies`, also Restore Selected Policies (issue 30 §4).
 */
export function BackupDialogActions({
  backup,
  restoring,
  selectedPolicies,
  onClose,
  onRestore,
  onRestoreToTenant,
}: {
  backup: Backup | undefined;
  restoring: boolean;
  /** the policies chosen in the dialog, when it lets the user choose */
  selectedPolicies?: readonly string[];
  onClose: () => void;
  onRestore: (backup: Backup, policies?: string[]) => void;
  /** the chosen policies straight back into the tenant */
  onRestoreToTenant?: (backup: Backup, policies: string[]) => void;
}) {
  const styles = useStyles();
  return (
    <DialogActions className={styles.actions}>
      <Button appearance="secondary" onClick={onClose}>
        Close
      </Button>
      {selectedPolicies && onRestoreToTenant && (
        <RoleGate needs="Approver">
          <Button
            className={styles.action}
            appearance="secondary"
            disabled={restoring || selectedPolicies.length === 0}
            onClick={() => backup && onRestoreToTenant(backup, [...selectedPolicies])}
          >
            {`Restore Selected Policies to Tenant (${selectedPolicies.length})`}
          </Button>
        </RoleGate>
      )}
      {selectedPolicies && (
        <RoleGate needs="Approver">
          <Button
            className={styles.action}
            appearance="secondary"
            disabled={restoring || selectedPolicies.length === 0}
            onClick={() => backup && onRestore(backup, [...selectedPolicies])}
          >
            {`Restore Selected Policies (${selectedPolicies.length})`}
          </Button>
        </RoleGate>
      )}
      <RoleGate needs="Approver">
        <Button
          className={styles.action}
          appearance="primary"
          disabled={restoring}
          icon={restoring ? <Spinner size="extra-tiny" /> : undefined}
          onClick={() => backup && onRestore(backup)}
        >
          Restore This Backup
        </Button>
      </RoleGate>
    </DialogActions>
  );
}
