import type { NotCapturedWorkloadDto } from '@aegis/contracts';
import {
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  makeStyles,
} from '@fluentui/react-components';

const useStyles = makeStyles({
  list: { margin: '4px 0 0', paddingLeft: '20px' },
  workload: { fontWeight: 600 },
});

/**
 * The workloads a capture did not read (ADR 050), each as 'Not captured: {reason}': their policies
 * are neither drift nor deviations on this screen. A partial capture is a warning; workloads that no
 * capture can read (no public API, not licensed) are information.
 */
export function NotCapturedNotice({
  workloads,
  partial,
}: {
  workloads: readonly NotCapturedWorkloadDto[];
  partial: boolean;
}) {
  const styles = useStyles();
  if (workloads.length === 0) return null;
  return (
    <MessageBar intent={partial ? 'warning' : 'info'} layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>
          {partial
            ? 'Partial capture: some workloads were not read'
            : 'Some workloads are not captured'}
        </MessageBarTitle>
        Their policies are left as they were and are not compared.
        <ul className={styles.list} aria-label="Workloads not captured">
          {workloads.map((w) => (
            <li key={w.workload}>
              <span className={styles.workload}>{w.workload}</span>: {w.text}
            </li>
          ))}
        </ul>
      </MessageBarBody>
    </MessageBar>
  );
}
