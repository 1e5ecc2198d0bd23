import { MessageBar, MessageBarBody } from '@fluentui/react-components';

export interface BannerMessage {
  intent: 'success' | 'error' | 'warning';
  text: string;
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
      <MessageBarBody>{message.text}</MessageBarBody>
    </MessageBar>
  );
}
