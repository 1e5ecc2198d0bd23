import type { NotCapturedWorkloadDto } from '@aegis/contracts';
import {
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  makeStyles,
} from '@fluentui/react-components';

const useStyles = makeStyles({
  // long workload names (Exchange/HostedOutboundSpamFilterPolicy) wrap inside the bar
  list: { margin: '4px 0 0', paddingLeft: '20px', overflowWrap: 'anywhere' },
  workload: { fontWeight: 600 },
});

/** Workloads with the same reason on one line: a service that refused names it once. */
function byReason(workloads: readonly NotCapturedWorkloadDto[]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const w of workloads) groups.set(w.text, [...(groups.get(w.text) ?? []), w.workload]);
  return [...groups];
}

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
          {byReason(workloads).map(([text, names]) => (
            <li key={text}>
              <span className={styles.workload}>{names.join(', ')}</span>: {text}
            </li>
          ))}
        </ul>
      </MessageBarBody>
    </MessageBar>
  );
}
