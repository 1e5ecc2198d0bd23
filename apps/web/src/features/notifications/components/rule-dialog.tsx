import {
  NOTIFICATION_EVENT_KIND_LABELS,
  NOTIFICATION_EVENT_KINDS,
  type NotificationChannel,
  type NotificationEventKind,
  type NotificationRule,
  type NotificationRuleInput,
} from '@aegis/contracts';
import {
  ALL_CLIENTS,
  DEFAULT_APPROVAL_WAITING_HOURS,
  DEFAULT_DEVIATION_EXPIRING_DAYS,
} from '@aegis/domain';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Switch,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useState, type FormEvent, type ReactNode } from 'react';

import { ClientPicker } from '../../../components/client-picker';
import { ResultBar } from '../../../components/result-bar';
import { ApiError } from '../../../lib/api-client';
import { useClients } from '../../../lib/clients/use-clients';
import { useRuleActions } from '../api/notifications-api';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: '12px' },
  // a fieldset, not a Field: a Field gives its one id to every checkbox inside it
  choices: {
    display: 'flex',
    flexDirection: 'column',
    border: 'none',
    margin: 0,
    padding: 0,
  },
  legend: { fontWeight: tokens.fontWeightSemibold, marginBottom: '4px', padding: 0 },
  problem: { color: tokens.colorPaletteRedForeground1 },
  hours: { maxWidth: '120px' },
  threshold: { maxWidth: '420px' },
});

const toggled = <T,>(list: readonly T[], item: T, on: boolean): T[] =>
  on ? [...list, item] : list.filter((entry) => entry !== item);

/** Checkboxes under a legend, with the server's problem with them. */
function ChoiceGroup({
  legend,
  problem,
  children,
}: {
  legend: string;
  problem: string | undefined;
  children: ReactNode;
}) {
  const styles = useStyles();
  return (
    <fieldset className={styles.choices}>
      <legend className={styles.legend}>{legend}</legend>
      {children}
      {problem && (
        <Text role="alert" className={styles.problem}>
          {problem}
        </Text>
      )}
    </fieldset>
  );
}

function ChannelChoices({
  legend,
  channels,
  chosen,
  onChange,
  problem,
}: {
  legend: string;
  channels: readonly NotificationChannel[];
  chosen: readonly string[];
  onChange: (ids: string[]) => void;
  problem: string | undefined;
}) {
  return (
    <ChoiceGroup legend={legend} problem={problem}>
      {channels.map((channel) => (
        <Checkbox
          key={channel.id}
          label={channel.name}
          checked={chosen.includes(channel.id)}
          onChange={(_e, data) => onChange(toggled(chosen, channel.id, data.checked === true))}
        />
      ))}
    </ChoiceGroup>
  );
}

/** Adds a rule, or changes one (`rule`): which events of which clients go to which channels. */
export function RuleDialog({
  rule,
  channels,
  open,
  onClose,
}: {
  rule?: NotificationRule;
  channels: readonly NotificationChannel[];
  open: boolean;
  onClose: () => void;
}) {
  const styles = useStyles();
  const clients = useClients();
  const { save } = useRuleActions();
  const [name, setName] = useState(rule?.name ?? '');
  const [client, setClient] = useState(rule && rule.client !== ALL_CLIENTS ? rule.client : '');
  const [kinds, setKinds] = useState<NotificationEventKind[]>(rule?.kinds ?? ['drift']);
  const [channelIds, setChannelIds] = useState<string[]>(rule?.channelIds ?? []);
  const [escalationIds, setEscalationIds] = useState<string[]>(rule?.escalation?.channelIds ?? []);
  const [afterHours, setAfterHours] = useState(String(rule?.escalation?.afterHours ?? 4));
  const [digest, setDigest] = useState(rule?.digest ?? false);
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [expiringDays, setExpiringDays] = useState(
    String(rule?.deviationExpiringDays ?? DEFAULT_DEVIATION_EXPIRING_DAYS),
  );
  const [waitingHours, setWaitingHours] = useState(
    String(rule?.approvalWaitingHours ?? DEFAULT_APPROVAL_WAITING_HOURS),
  );
  const saysExpiring = kinds.includes('deviation-expiring');
  const saysWaiting = kinds.includes('approval-waiting');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: NotificationRuleInput = {
      name,
      client: client || ALL_CLIENTS,
      kinds,
      channelIds,
      ...(escalationIds.length > 0
        ? { escalation: { channelIds: escalationIds, afterHours: Number(afterHours) } }
        : {}),
      digest,
      enabled,
      ...(saysExpiring ? { deviationExpiringDays: Number(expiringDays) } : {}),
      ...(saysWaiting ? { approvalWaitingHours: Number(waitingHours) } : {}),
    };
    save.mutate({ ...(rule ? { id: rule.id } : {}), input }, { onSuccess: onClose });
  };

  const error = save.error;
  const field = error instanceof ApiError ? (error.field?.replace(/^body\./, '') ?? '') : '';
  const problemOf = (name: string) =>
    field === name || field.startsWith(`${name}.`) ? error?.message : undefined;

  return (
    <Dialog open={open} onOpenChange={(_e, data) => !data.open && onClose()}>
      <DialogSurface>
        <form onSubmit={submit}>
          <DialogBody>
            <DialogTitle>{rule ? `Change rule ${rule.name}` : 'Add a rule'}</DialogTitle>
            <DialogContent className={styles.form}>
              <Field
                label="Name"
                required
                validationMessage={problemOf('name')}
                validationState={problemOf('name') ? 'error' : 'none'}
              >
                <Input value={name} onChange={(_e, data) => setName(data.value)} />
              </Field>
              <ClientPicker
                value={client}
                onChange={setClient}
                clients={clients.data?.clients}
                loading={clients.isPending}
                error={clients.error}
                onRetry={() => void clients.refetch()}
                placeholder="All clients"
                placeholderSelectable
                shows={[]}
              />
              <ChoiceGroup legend="Events" problem={problemOf('kinds')}>
                {NOTIFICATION_EVENT_KINDS.map((kind) => (
                  <Checkbox
                    key={kind}
                    label={NOTIFICATION_EVENT_KIND_LABELS[kind]}
                    checked={kinds.includes(kind)}
                    onChange={(_e, data) => setKinds(toggled(kinds, kind, data.checked === true))}
                  />
                ))}
              </ChoiceGroup>
              {saysExpiring && (
                <Field
                  label="Say an accepted deviation this many days before it expires"
                  className={styles.threshold}
                  validationMessage={problemOf('deviationExpiringDays')}
                  validationState={problemOf('deviationExpiringDays') ? 'error' : 'none'}
                >
                  <Input
                    type="number"
                    min={1}
                    max={365}
                    value={expiringDays}
                    onChange={(_e, data) => setExpiringDays(data.value)}
                  />
                </Field>
              )}
              {saysWaiting && (
                <Field
                  label="Say an approval waiting this many hours"
                  className={styles.threshold}
                  validationMessage={problemOf('approvalWaitingHours')}
                  validationState={problemOf('approvalWaitingHours') ? 'error' : 'none'}
                >
                  <Input
                    type="number"
                    min={1}
                    max={720}
                    value={waitingHours}
                    onChange={(_e, data) => setWaitingHours(data.value)}
                  />
                </Field>
              )}
              <ChannelChoices
                legend="Send to"
                channels={channels}
                chosen={channelIds}
                onChange={setChannelIds}
                problem={problemOf('channelIds')}
              />
              <ChannelChoices
                legend="Escalate to, when not acknowledged"
                channels={channels}
                chosen={escalationIds}
                onChange={setEscalationIds}
                problem={problemOf('escalation.channelIds')}
              />
              <Field
                label="Escalate after (hours)"
                className={styles.hours}
                validationMessage={problemOf('escalation.afterHours')}
                validationState={problemOf('escalation.afterHours') ? 'error' : 'none'}
              >
                <Input
                  type="number"
                  min={1}
                  max={168}
                  disabled={escalationIds.length === 0}
                  value={afterHours}
                  onChange={(_e, data) => setAfterHours(data.value)}
                />
              </Field>
              <Switch
                label="Send a daily digest instead of each message at once"
                checked={digest}
                onChange={(_e, data) => setDigest(data.checked)}
              />
              <Switch
                label="Enabled"
                checked={enabled}
                onChange={(_e, data) => setEnabled(data.checked)}
              />
              {error && !field && <ResultBar intent="error">{error.message}</ResultBar>}
            </DialogContent>
            <DialogActions>
              <Button type="submit" appearance="primary" disabled={save.isPending}>
                {rule ? 'Save rule' : 'Add rule'}
              </Button>
              <Button onClick={onClose}>Cancel</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
