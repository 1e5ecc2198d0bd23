import type { Notification, NotificationSeverity } from '@aegis/contracts';
import {
  Badge,
  Button,
  CounterBadge,
  Field,
  Input,
  makeStyles,
  Spinner,
  Text,
  tokens,
  useId,
} from '@fluentui/react-components';
import { AlertRegular } from '@fluentui/react-icons';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import { ResultBar } from '../../../components/result-bar';
import { RoleGate } from '../../../components/role-gate';
import { useBrowserSession } from '../../../lib/session';
import { useNotificationActions, useNotifications } from '../api/notifications-api';

const useStyles = makeStyles({
  anchor: { position: 'relative' },
  surface: {
    position: 'absolute',
    right: 0,
    top: 'calc(100% + 4px)',
    zIndex: 100,
    width: '440px',
    maxWidth: 'calc(100vw - 32px)',
    padding: '12px',
    backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow16,
  },
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: '8px',
    maxHeight: '60vh',
    overflowY: 'auto',
  },
  item: {
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
    padding: '8px',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  line: { display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' },
  meta: { color: tokens.colorNeutralForeground3 },
  // a summary names one drifted object a line
  summary: { whiteSpace: 'pre-line' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  snooze: { display: 'flex', flexDirection: 'column', gap: '8px' },
  heading: { marginBottom: '8px' },
});

const SEVERITY_COLOUR: Record<NotificationSeverity, 'informative' | 'warning' | 'danger'> = {
  info: 'informative',
  warning: 'warning',
  critical: 'danger',
};

const STATE_WORDS: Record<Notification['state'], string> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  snoozed: 'Snoozed',
  resolved: 'Resolved',
};

/** A time as people read it in the header, in their own zone: '27 Nov 2026, 11:42'. */
function whenText(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** `yyyy-MM-ddTHH:mm` in local time, as a datetime-local input takes it. */
function localInputValue(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function SnoozeForm({ notification, onDone }: { notification: Notification; onDone: () => void }) {
  const styles = useStyles();
  const { snooze } = useNotificationActions();
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState(() => localInputValue(new Date(Date.now() + 4 * 3_600_000)));
  const [problem, setProblem] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const end = new Date(until);
    if (!reason.trim()) return setProblem('Say why it is snoozed.');
    if (Number.isNaN(end.getTime()) || end.getTime() <= Date.now()) {
      return setProblem('The end must be in the future.');
    }
    setProblem(undefined);
    snooze.mutate(
      { id: notification.id, reason: reason.trim(), until: end.toISOString() },
      { onSuccess: onDone },
    );
  };

  return (
    <form className={styles.snooze} onSubmit={submit} aria-label={`Snooze ${notification.title}`}>
      <Field
        label="Reason"
        required
        validationMessage={problem}
        validationState={problem ? 'error' : 'none'}
      >
        <Input value={reason} onChange={(_e, data) => setReason(data.value)} />
      </Field>
      <Field label="Snooze until" required>
        <Input type="datetime-local" value={until} onChange={(_e, data) => setUntil(data.value)} />
      </Field>
      {snooze.isError && <ResultBar intent="error">{snooze.error.message}</ResultBar>}
      <div className={styles.actions}>
        <Button type="submit" appearance="primary" disabled={snooze.isPending}>
          Snooze
        </Button>
        <Button onClick={onDone}>Cancel</Button>
      </div>
    </form>
  );
}

function NotificationItem({ notification }: { notification: Notification }) {
  const styles = useStyles();
  const { acknowledge } = useNotificationActions();
  const [snoozing, setSnoozing] = useState(false);
  const actionable = notification.state === 'open' || notification.state === 'snoozed';

  return (
    <li className={styles.item}>
      <div className={styles.line}>
        <Badge appearance="tint" color={SEVERITY_COLOUR[notification.severity]}>
          {notification.severity}
        </Badge>
        <Text weight="semibold">
          {notification.clientCode} · {notification.title}
        </Text>
      </div>
      {notification.summary && <Text className={styles.summary}>{notification.summary}</Text>}
      <Text size={200} className={styles.meta}>
        {STATE_WORDS[notification.state]}
        {notification.acknowledged && ` by ${notification.acknowledged.by}`}
        {notification.snoozed &&
          notification.state === 'snoozed' &&
          ` until ${whenText(notification.snoozed.until)}: ${notification.snoozed.reason}`}
        {' · '}
        raised {whenText(notification.raisedAt)}
      </Text>
      {snoozing ? (
        <SnoozeForm notification={notification} onDone={() => setSnoozing(false)} />
      ) : (
        <div className={styles.actions}>
          {actionable && (
            <RoleGate needs="Operator">
              <Button
                size="small"
                appearance="primary"
                disabled={acknowledge.isPending}
                onClick={() => acknowledge.mutate(notification.id)}
              >
                Acknowledge
              </Button>
            </RoleGate>
          )}
          {actionable && (
            <RoleGate needs="Operator">
              <Button size="small" onClick={() => setSnoozing(true)}>
                Snooze…
              </Button>
            </RoleGate>
          )}
          {notification.link && <Link to={notification.link}>Open</Link>}
        </div>
      )}
      {acknowledge.isError && <ResultBar intent="error">{acknowledge.error.message}</ResultBar>}
    </li>
  );
}

/**
 * The notification centre in the header (issue 28 §5): the count of unread notifications, and
 * the list with acknowledge and snooze (with a reason and an end). A disclosure, not a Popover:
 * the panel opens under the bell, stays open while acting in it, and Escape closes it.
 */
export function NotificationCentre() {
  const styles = useStyles();
  const session = useBrowserSession();
  const notifications = useNotifications(session.isLoggedIn);
  const unread = notifications.data?.unread ?? 0;
  const label = unread === 1 ? 'Notifications, 1 unread' : `Notifications, ${unread} unread`;

  const [open, setOpen] = useState(false);
  const panelId = useId('notification-centre');
  const bell = useRef<HTMLButtonElement>(null);
  // Escape anywhere closes the open panel and gives the focus back to the bell
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      bell.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <div className={styles.anchor}>
      <Button
        ref={bell}
        appearance="subtle"
        aria-label={label}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        icon={
          <span style={{ position: 'relative', display: 'inline-flex' }}>
            <AlertRegular />
            {unread > 0 && (
              <CounterBadge
                count={unread}
                size="small"
                color="danger"
                aria-hidden
                style={{ position: 'absolute', top: '-8px', right: '-10px' }}
              />
            )}
          </span>
        }
      />
      {open && (
        <section id={panelId} className={styles.surface} aria-label="Notifications">
          <Text as="h2" size={400} weight="semibold" block className={styles.heading}>
            Notifications
          </Text>
          {notifications.isPending ? (
            <Spinner size="tiny" label="Loading notifications…" />
          ) : notifications.isError ? (
            <ResultBar intent="error">
              The notifications could not be read: {notifications.error.message}
            </ResultBar>
          ) : notifications.data.notifications.length === 0 ? (
            <Text>No notifications.</Text>
          ) : (
            <ul className={styles.list}>
              {notifications.data.notifications.map((notification) => (
                <NotificationItem key={notification.id} notification={notification} />
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
