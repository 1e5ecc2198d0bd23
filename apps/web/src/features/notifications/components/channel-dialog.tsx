import type {
  NotificationChannel,
  NotificationChannelInput,
  NotificationChannelType,
} from '@aegis/contracts';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Select,
} from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';

import { ResultBar } from '../../../components/result-bar';
import { ApiError } from '../../../lib/api-client';
import { useChannelActions } from '../api/notifications-api';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: '12px' },
});

export const CHANNEL_TYPE_WORDS: Record<NotificationChannelType, string> = {
  email: 'Email (Microsoft Graph sendMail)',
  teams: 'Microsoft Teams (Workflows webhook)',
  webhook: 'Webhook signed with HMAC-SHA256',
};

/** The form's fields, named as the server names them in a 400 (`body.<field>`). */
type Field = 'name' | 'recipients' | 'url' | 'secret' | 'type';

/**
 * Adds a channel, or changes one (`channel`): a webhook's secret is never shown; left empty on a
 * change, the stored one is kept.
 */
export function ChannelDialog({
  channel,
  open,
  onClose,
}: {
  channel?: NotificationChannel;
  open: boolean;
  onClose: () => void;
}) {
  const styles = useStyles();
  const { save } = useChannelActions();
  const [type, setType] = useState<NotificationChannelType>(channel?.type ?? 'email');
  const [name, setName] = useState(channel?.name ?? '');
  const [recipients, setRecipients] = useState(channel?.recipients?.join(', ') ?? '');
  const [url, setUrl] = useState(channel?.url ?? '');
  const [secret, setSecret] = useState('');

  const input = (): NotificationChannelInput => {
    if (type === 'email') {
      const list = recipients
        .split(/[,;\s]+/)
        .map((address) => address.trim())
        .filter(Boolean);
      return { type, name, recipients: list };
    }
    if (type === 'teams') return { type, name, url };
    return { type, name, url, ...(secret ? { secret } : {}) };
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ ...(channel ? { id: channel.id } : {}), input: input() }, { onSuccess: onClose });
  };

  const error = save.error;
  const field = error instanceof ApiError ? error.field?.replace(/^body\./, '').split('.')[0] : '';
  const problemOf = (name: Field) => (field === name ? error?.message : undefined);
  const stateOf = (name: Field) => (field === name ? 'error' : 'none');

  return (
    <Dialog open={open} onOpenChange={(_e, data) => !data.open && onClose()}>
      <DialogSurface>
        <form onSubmit={submit}>
          <DialogBody>
            <DialogTitle>
              {channel ? `Change channel ${channel.name}` : 'Add a channel'}
            </DialogTitle>
            <DialogContent className={styles.form}>
              <Field
                label="Type"
                validationMessage={problemOf('type')}
                validationState={stateOf('type')}
              >
                <Select
                  value={type}
                  onChange={(_e, data) => setType(data.value as NotificationChannelType)}
                >
                  {Object.entries(CHANNEL_TYPE_WORDS).map(([value, words]) => (
                    <option key={value} value={value}>
                      {words}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field
                label="Name"
                required
                validationMessage={problemOf('name')}
                validationState={stateOf('name')}
              >
                <Input value={name} onChange={(_e, data) => setName(data.value)} />
              </Field>
              {type === 'email' ? (
                <Field
                  label="Recipients"
                  hint="Email addresses, separated by commas. Sent from the MSP's own mailbox."
                  required
                  validationMessage={problemOf('recipients')}
                  validationState={stateOf('recipients')}
                >
                  <Input value={recipients} onChange={(_e, data) => setRecipients(data.value)} />
                </Field>
              ) : (
                <Field
                  label={type === 'teams' ? 'Workflows webhook URL' : 'Webhook URL'}
                  required
                  validationMessage={problemOf('url')}
                  validationState={stateOf('url')}
                >
                  <Input type="url" value={url} onChange={(_e, data) => setUrl(data.value)} />
                </Field>
              )}
              {type === 'webhook' && (
                <Field
                  label="Signing secret"
                  hint={
                    channel?.secretSet
                      ? 'A secret is set and never shown. Leave empty to keep it.'
                      : "At least 16 characters. The receiver checks each message's HMAC-SHA256 signature with it."
                  }
                  required={!channel?.secretSet}
                  validationMessage={problemOf('secret')}
                  validationState={stateOf('secret')}
                >
                  <Input
                    type="password"
                    autoComplete="new-password"
                    value={secret}
                    onChange={(_e, data) => setSecret(data.value)}
                  />
                </Field>
              )}
              {error && !field && <ResultBar intent="error">{error.message}</ResultBar>}
            </DialogContent>
            <DialogActions>
              <Button type="submit" appearance="primary" disabled={save.isPending}>
                {channel ? 'Save channel' : 'Add channel'}
              </Button>
              <Button onClick={onClose}>Cancel</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
