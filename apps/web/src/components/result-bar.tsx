import {
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  type MessageBarIntent,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';

/**
 * The portal's one result bar (ADR 054): the outcome of an action, or a check that stopped it,
 * shown where the technician is working and kept until the next action. Errors and warnings are
 * announced at once (role alert), success and information politely (role status).
 */
export function ResultBar({
  intent,
  title,
  children,
  actions,
  className,
}: {
  intent: MessageBarIntent;
  title?: string;
  children?: ReactNode;
  /** buttons that act on the result (Try again, View log) */
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <MessageBar
      intent={intent}
      layout="multiline"
      role={intent === 'error' || intent === 'warning' ? 'alert' : 'status'}
      className={className}
    >
      <MessageBarBody>
        {title !== undefined && <MessageBarTitle>{title}</MessageBarTitle>}
        {children}
      </MessageBarBody>
      {actions !== undefined && <MessageBarActions>{actions}</MessageBarActions>}
    </MessageBar>
  );
}
