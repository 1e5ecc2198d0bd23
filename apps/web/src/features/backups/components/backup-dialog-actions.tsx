import type { Backup } from '@aegis/contracts';
import { Button, DialogActions, Spinner } from '@fluentui/react-components';

import { RoleGate } from '../../../components/role-gate';

/** Close and Restore This Backup, shared by the Backup Details and Configuration Comparison modals. */
export function BackupDialogActions({
  backup,
  restoring,
  onClose,
  onRestore,
}: {
  backup: Backup | undefined;
  restoring: boolean;
  onClose: () => void;
  onRestore: (backup: Backup) => void;
}) {
  return (
    <DialogActions>
      <Button appearance="secondary" onClick={onClose}>
        Close
      </Button>
      <RoleGate needs="Approver">
        <Button
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
