import { readRunLogLine, type RunLogLineKind } from '@aegis/domain';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  tokens,
  useRestoreFocusTarget,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, DocumentTextRegular } from '@fluentui/react-icons';
import { useState } from 'react';

import { useRunLog, type RunLogRef } from '../lib/pipeline-run';

import { RoleGate } from './role-gate';

const useStyles = makeStyles({
  surface: { width: 'min(960px, calc(100vw - 32px))', maxWidth: 'none' },
  log: {
    margin: 0,
    padding: '12px',
    maxHeight: '60vh',
    overflow: 'auto',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase300,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground1,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  time: { color: tokens.colorNeutralForeground3 },
  section: { fontWeight: tokens.fontWeightSemibold, color: tokens.colorBrandForeground1 },
  error: { color: tokens.colorStatusDangerForeground1 },
  warning: { color: tokens.colorStatusWarningForeground3 },
  command: { color: tokens.colorNeutralForeground2 },
  debug: { color: tokens.colorNeutralForeground3 },
  // a wrapped line continues under its text, not under its time
  line: { display: 'block' },
  timedLine: { display: 'block', paddingLeft: '21ch', textIndent: '-21ch' },
  state: { display: 'flex', flexDirection: 'column', gap: '8px', padding: '12px 0' },
});

/** A log line's time as the run wrote it (UTC), to the second. */
function lineTime(time: string): string {
  return time.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
}

/** Errors and warnings say so in words too, not by colour alone. */
const KIND_PREFIX: Partial<Record<RunLogLineKind, string>> = {
  error: 'Error: ',
  warning: 'Warning: ',
};

function LogLineText({ text }: { text: string }) {
  const styles = useStyles();
  const line = readRunLogLine(text);
  if (line.kind === 'plain') return <>{line.text}</>;
  return (
    <span className={styles[line.kind]}>
      {KIND_PREFIX[line.kind] ?? ''}
      {line.text}
    </span>
  );
}

function RunLogContent({ run }: { run: RunLogRef }) {
  const styles = useStyles();
  const log = useRunLog(run, true);
  if (log.isPending) return <Spinner label="Loading log..." />;
  if (log.isError)
    return (
      <MessageBar intent="error" role="alert">
        <MessageBarBody>{`Could not load the log: ${log.error.message}`}</MessageBarBody>
      </MessageBar>
    );
  if (log.data.lines.length === 0)
    return (
      <div className={styles.state}>
        <Text>This run has written no log yet.</Text>
      </div>
    );
  return (
    // focusable so the keyboard can scroll it (a scrollable region must be reachable)
    <pre className={styles.log} role="region" tabIndex={0} aria-label={`Log of run #${run.id}`}>
      {log.data.lines.map((line, i) => (
        <span key={i} className={line.time ? styles.timedLine : styles.line}>
          {line.time && <span className={styles.time}>{`${lineTime(line.time)}  `}</span>}
          <LogLineText text={line.text} />
        </span>
      ))}
    </pre>
  );
}

function RefreshButton({ run }: { run: RunLogRef }) {
  const log = useRunLog(run, true);
  return (
    <Button
      icon={<ArrowClockwiseRegular />}
      disabled={log.isFetching}
      onClick={() => void log.refetch()}
    >
      Refresh
    </Button>
  );
}

/**
 * 'View log' for a run whose id is known (ADR 042): a dialog with the run's log as the DevOps
 * service keeps it (monospace, scrollable, loading, empty and error states, Escape or Close to
 * leave), read when opened and on Refresh. Needs the Reader role, as the log route does.
 */
export function RunLogButton({
  run,
  appearance,
  size = 'small',
}: {
  run: RunLogRef;
  /** the button's look where it sits among others (subtle in the Audit Trail's rows) */
  appearance?: 'secondary' | 'subtle';
  /** medium beside a toolbar's buttons, small beside a run's status text */
  size?: 'small' | 'medium';
}) {
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  // focus goes back to View log when the dialog closes
  const restoreFocusTarget = useRestoreFocusTarget();
  return (
    <>
      <RoleGate needs="Reader">
        <Button
          size={size}
          appearance={appearance}
          icon={<DocumentTextRegular />}
          onClick={() => setOpen(true)}
          {...restoreFocusTarget}
        >
          View log
        </Button>
      </RoleGate>
      <Dialog open={open} onOpenChange={(_, data) => setOpen(data.open)}>
        <DialogSurface className={styles.surface}>
          <DialogBody>
            <DialogTitle>{`Log of run #${run.id}`}</DialogTitle>
            <DialogContent>{open && <RunLogContent run={run} />}</DialogContent>
            <DialogActions>
              {open && <RefreshButton run={run} />}
              <DialogTrigger disableButtonEnhancement>
                <Button appearance="primary">Close</Button>
              </DialogTrigger>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
