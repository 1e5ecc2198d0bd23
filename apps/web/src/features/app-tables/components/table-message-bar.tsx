import { makeStyles } from '@fluentui/react-components';

import { ResultBar } from '../../../components/result-bar';

const useStyles = makeStyles({
  bar: { marginBottom: '12px' },
  rows: { margin: '4px 0 0', paddingLeft: '20px' },
});

export interface TableMessage {
  intent: 'success' | 'error' | 'warning';
  text: string;
  /** rows of an operation on many rows that failed, each with the service's reason */
  failedRows?: readonly { partitionKey: string; rowKey: string; message: string }[];
}

/**
 * The result bar of the table screens (spec 2 §8): the result of the last request, or the alert
 * of a check that stopped an action (a warning), with the rows that failed and why.
 */
export function TableMessageBar({ message }: { message: TableMessage | undefined }) {
  const styles = useStyles();
  if (!message) return null;
  return (
    <ResultBar intent={message.intent} className={styles.bar}>
      {message.text}
      {message.failedRows && message.failedRows.length > 0 && (
        <ul aria-label="Rows that failed" className={styles.rows}>
          {message.failedRows.map((row) => (
            <li key={`${row.partitionKey}/${row.rowKey}`}>
              RowKey {row.rowKey} ({row.partitionKey}): {row.message}
            </li>
          ))}
        </ul>
      )}
    </ResultBar>
  );
}
