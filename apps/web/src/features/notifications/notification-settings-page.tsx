import {
  NOTIFICATION_EVENT_KIND_LABELS,
  type ChannelTestResult,
  type NotificationChannel,
  type NotificationRule,
} from '@aegis/contracts';
import { ALL_CLIENTS, roleRequiredMessage } from '@aegis/domain';
import {
  Button,
  makeStyles,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
} from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import { useState } from 'react';

import { PageHeader } from '../../components/page-header';
import { ResultBar } from '../../components/result-bar';
import { useCan } from '../../lib/roles';

import { useChannelActions, useChannels, useRuleActions, useRules } from './api/notifications-api';
import { CHANNEL_TYPE_WORDS, ChannelDialog } from './components/channel-dialog';
import { RuleDialog } from './components/rule-dialog';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '24px' },
  section: { display: 'flex', flexDirection: 'column', gap: '12px' },
  sectionHeader: { display: 'flex', alignItems: 'center', justifyContent: 'space-between' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  wrap: { overflowWrap: 'anywhere' },
});

/** Which dialog is open: a new or an existing channel or rule. */
type Editing =
  | { what: 'channel'; channel?: NotificationChannel }
  | { what: 'rule'; rule?: NotificationRule }
  | undefined;

function TestOutcome({ result }: { result: ChannelTestResult }) {
  const delivered = result.outcome === 'delivered';
  return (
    <ResultBar
      intent={delivered ? 'success' : 'error'}
      title={delivered ? 'Test delivered' : 'Test not delivered'}
    >
      {result.statusCode !== undefined && `HTTP ${result.statusCode}: `}
      {result.message}
    </ResultBar>
  );
}

function ChannelsSection({ onEdit }: { onEdit: (editing: Editing) => void }) {
  const styles = useStyles();
  const channels = useChannels();
  const { remove, test } = useChannelActions();
  const [tested, setTested] = useState<{
    id: string;
    result?: ChannelTestResult;
    error?: string;
  }>();

  const sendTest = (channel: NotificationChannel) => {
    setTested({ id: channel.id });
    test.mutate(channel.id, {
      onSuccess: (result) => setTested({ id: channel.id, result }),
      onError: (error) => setTested({ id: channel.id, error: error.message }),
    });
  };

  return (
    <section className={styles.section} aria-labelledby="channels-heading">
      <div className={styles.sectionHeader}>
        <Text as="h2" id="channels-heading" size={500} weight="semibold">
          Channels
        </Text>
        <Button icon={<AddRegular />} onClick={() => onEdit({ what: 'channel' })}>
          Add channel
        </Button>
      </div>
      {remove.isError && <ResultBar intent="error">{remove.error.message}</ResultBar>}
      {channels.isPending ? (
        <Spinner size="small" label="Loading channels…" />
      ) : channels.isError ? (
        <ResultBar intent="error">
          The channels could not be read: {channels.error.message}
        </ResultBar>
      ) : channels.data.length === 0 ? (
        <Text>No channels yet. Add one to send notifications by email, Teams or webhook.</Text>
      ) : (
        <Table aria-label="Channels">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Name</TableHeaderCell>
              <TableHeaderCell>Type</TableHeaderCell>
              <TableHeaderCell>Sends to</TableHeaderCell>
              <TableHeaderCell>Actions</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {channels.data.map((channel) => (
              <TableRow key={channel.id}>
                <TableCell>{channel.name}</TableCell>
                <TableCell>{CHANNEL_TYPE_WORDS[channel.type]}</TableCell>
                <TableCell className={styles.wrap}>
                  {channel.recipients?.join(', ') ?? channel.url}
                  {channel.secretSet && ' (signed)'}
                </TableCell>
                <TableCell>
                  <div className={styles.actions}>
                    <Button
                      size="small"
                      disabled={test.isPending && tested?.id === channel.id}
                      onClick={() => sendTest(channel)}
                    >
                      Send test
                    </Button>
                    <Button size="small" onClick={() => onEdit({ what: 'channel', channel })}>
                      Edit
                    </Button>
                    <Button size="small" onClick={() => remove.mutate(channel.id)}>
                      Delete
                    </Button>
                  </div>
                  {tested?.id === channel.id &&
                    (tested.result ? (
                      <TestOutcome result={tested.result} />
                    ) : tested.error ? (
                      <ResultBar intent="error">{tested.error}</ResultBar>
                    ) : (
                      <Spinner size="tiny" label="Sending a test…" />
                    ))}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}

function RulesSection({
  channels,
  onEdit,
}: {
  channels: readonly NotificationChannel[];
  onEdit: (editing: Editing) => void;
}) {
  const styles = useStyles();
  const rules = useRules();
  const { remove } = useRuleActions();
  const names = new Map(channels.map((channel) => [channel.id, channel.name]));
  const channelNames = (ids: readonly string[]) =>
    ids.map((id) => names.get(id) ?? `${id} (deleted)`).join(', ');

  return (
    <section className={styles.section} aria-labelledby="rules-heading">
      <div className={styles.sectionHeader}>
        <Text as="h2" id="rules-heading" size={500} weight="semibold">
          Rules
        </Text>
        <Button
          icon={<AddRegular />}
          disabledFocusable={channels.length === 0}
          onClick={() => onEdit({ what: 'rule' })}
        >
          Add rule
        </Button>
      </div>
      {remove.isError && <ResultBar intent="error">{remove.error.message}</ResultBar>}
      {rules.isPending ? (
        <Spinner size="small" label="Loading rules…" />
      ) : rules.isError ? (
        <ResultBar intent="error">The rules could not be read: {rules.error.message}</ResultBar>
      ) : rules.data.length === 0 ? (
        <Text>No rules yet: no event is sent anywhere.</Text>
      ) : (
        <Table aria-label="Rules">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Name</TableHeaderCell>
              <TableHeaderCell>Clients</TableHeaderCell>
              <TableHeaderCell>Events</TableHeaderCell>
              <TableHeaderCell>Sends to</TableHeaderCell>
              <TableHeaderCell>Escalation</TableHeaderCell>
              <TableHeaderCell>Actions</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rules.data.map((rule) => (
              <TableRow key={rule.id}>
                <TableCell>
                  {rule.name}
                  {!rule.enabled && ' (disabled)'}
                </TableCell>
                <TableCell>{rule.client === ALL_CLIENTS ? 'All clients' : rule.client}</TableCell>
                <TableCell>
                  {rule.kinds.map((kind) => NOTIFICATION_EVENT_KIND_LABELS[kind]).join('; ')}
                </TableCell>
                <TableCell>
                  {channelNames(rule.channelIds)}
                  {rule.digest && ' (daily digest)'}
                </TableCell>
                <TableCell>
                  {rule.escalation
                    ? `${channelNames(rule.escalation.channelIds)} after ${rule.escalation.afterHours} h`
                    : 'None'}
                </TableCell>
                <TableCell>
                  <div className={styles.actions}>
                    <Button size="small" onClick={() => onEdit({ what: 'rule', rule })}>
                      Edit
                    </Button>
                    <Button size="small" onClick={() => remove.mutate(rule.id)}>
                      Delete
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}

/**
 * Notification rules and channels (issue 28 §4-5), for Administrators: where each kind of event
 * of each client is sent, with a 'Send test' that shows what the receiver answered.
 */
export function NotificationSettingsPage() {
  const styles = useStyles();
  const allowed = useCan('Administrator');
  if (!allowed) {
    return (
      <div className={styles.root}>
        <PageHeader title="Notification Rules" />
        <ResultBar intent="warning">{roleRequiredMessage('Administrator')}</ResultBar>
      </div>
    );
  }
  return <NotificationSettings />;
}

function NotificationSettings() {
  const styles = useStyles();
  const channels = useChannels();
  const [editing, setEditing] = useState<Editing>();
  return (
    <div className={styles.root}>
      <PageHeader
        title="Notification Rules"
        subtitle="Which events of which clients reach whom: by email, in Microsoft Teams or by a signed webhook."
      />
      <ChannelsSection onEdit={setEditing} />
      <RulesSection channels={channels.data ?? []} onEdit={setEditing} />
      {editing?.what === 'channel' && (
        <ChannelDialog channel={editing.channel} open onClose={() => setEditing(undefined)} />
      )}
      {editing?.what === 'rule' && (
        <RuleDialog
          rule={editing.rule}
          channels={channels.data ?? []}
          open
          onClose={() => setEditing(undefined)}
        />
      )}
    </div>
  );
}
