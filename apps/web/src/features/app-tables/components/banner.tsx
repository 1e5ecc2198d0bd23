import { MessageBar, MessageBarBody } from '@fluentui/react-components';

export interface BannerMessage {
  intent: 'success' | 'error' | 'warning';
  text: string;
  /** rows of an operation on many rows that failed, each with the service's reason */
  failedRows?: readonly { partitionKey: string; rowKey: string; message: string }[];
}

/** The success or error banner of the table screens (spec 2 §8); alerts are warnings. */
export function Banner({ message }: { message: BannerMessage | undefined }) {
  if (!message) return null;
  return (
    <MessageBar
      intent={message.intent}
      layout="multiline"
      role={message.intent === 'success' ? 'status' : 'alert'}
      style={{ marginBottom: 12 }}
    >
      <MessageBarBody>
        {message.text}
        {message.failedRows && message.failedRows.length > 0 && (
          <ul aria-label="Rows that failed" style={{ margin: '4px 0 0', paddingLeft: 20 }}>
            {message.failedRows.map((row) => (
              <li key={`${row.partitionKey}/${row.rowKey}`}>
                RowKey {row.rowKey} ({row.partitionKey}): {row.message}
              </li>
            ))}
          </ul>
        )}
      </MessageBarBody>
    </MessageBar>
  );
}
