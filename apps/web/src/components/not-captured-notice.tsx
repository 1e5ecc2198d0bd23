import type { NotCapturedWorkloadDto } from '@aegis/contracts';
import { NOT_CAPTURED_NOTICE_TEXTS, notCapturedByReason } from '@aegis/domain';
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
          {partial ? NOT_CAPTURED_NOTICE_TEXTS.partialTitle : NOT_CAPTURED_NOTICE_TEXTS.title}
        </MessageBarTitle>
        {NOT_CAPTURED_NOTICE_TEXTS.body}
        <ul className={styles.list} aria-label="Workloads not captured">
          {notCapturedByReason(workloads).map(({ text, workloads: names }) => (
            <li key={text}>
              <span className={styles.workload}>{names.join(', ')}</span>: {text}
            </li>
          ))}
        </ul>
      </MessageBarBody>
    </MessageBar>
  );
}
