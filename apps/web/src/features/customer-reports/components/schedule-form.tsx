import type { CustomerReportSchedule, CustomerReportScheduleBody } from '@aegis/contracts';
import { LAST_SCHEDULE_DAY } from '@aegis/domain';
import {
  Button,
  Field,
  Input,
  makeStyles,
  Select,
  Switch,
  Textarea,
} from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';

import { ApiError } from '../../../lib/api-client';

const useStyles = makeStyles({
  form: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))',
    alignItems: 'start',
    gap: '12px 16px',
  },
  wide: { gridColumn: '1 / -1' },
  actions: { gridColumn: '1 / -1', display: 'flex', gap: '8px' },
});

interface FormState {
  customerName: string;
  cadence: 'monthly' | 'quarterly';
  dayOfMonth: string;
  contacts: string;
  technicians: string;
  introduction: string;
  enabled: boolean;
}

function initial(schedule: CustomerReportSchedule | null, client: string): FormState {
  return {
    customerName: schedule?.customerName ?? client,
    cadence: schedule?.cadence ?? 'monthly',
    dayOfMonth: String(schedule?.dayOfMonth ?? 1),
    contacts: (schedule?.contacts ?? []).join('\n'),
    technicians: (schedule?.technicians ?? []).join('\n'),
    introduction: schedule?.introduction ?? '',
    enabled: schedule?.enabled ?? true,
  };
}

const addresses = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

export interface ScheduleFormProps {
  readonly client: string;
  readonly schedule: CustomerReportSchedule | null;
  readonly saving: boolean;
  readonly error: Error | null;
  readonly onSave: (body: CustomerReportScheduleBody) => void;
}

/** A client's report schedule, recipients and introduction (issue 29 §2). */
export function ScheduleForm({ client, schedule, saving, error, onSave }: ScheduleFormProps) {
  const styles = useStyles();
  const [form, setForm] = useState(() => initial(schedule, client));
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));
  // the server names the field it refused; its message goes under that field
  const field = error instanceof ApiError ? error.formField : undefined;
  const messageFor = (name: string) => (field === name ? error?.message : undefined);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSave({
      customerName: form.customerName,
      cadence: form.cadence,
      dayOfMonth: Number(form.dayOfMonth),
      contacts: addresses(form.contacts),
      technicians: addresses(form.technicians),
      introduction: form.introduction,
      enabled: form.enabled,
    });
  }

  return (
    <form className={styles.form} onSubmit={submit} aria-label="Report schedule">
      <Field label="Customer name" required validationMessage={messageFor('customerName')}>
        <Input value={form.customerName} onChange={(_, d) => set('customerName', d.value)} />
      </Field>
      <Field
        label="Sent"
        hint="Quarterly reports go in January, April, July and October."
        validationMessage={messageFor('cadence')}
      >
        <Select
          value={form.cadence}
          onChange={(_, d) => set('cadence', d.value === 'quarterly' ? 'quarterly' : 'monthly')}
        >
          <option value="monthly">Monthly</option>
          <option value="quarterly">Quarterly</option>
        </Select>
      </Field>
      <Field
        label="Day of the month"
        hint={`1 to ${LAST_SCHEDULE_DAY}`}
        validationMessage={messageFor('dayOfMonth')}
      >
        <Input
          type="number"
          min={1}
          max={LAST_SCHEDULE_DAY}
          value={form.dayOfMonth}
          onChange={(_, d) => set('dayOfMonth', d.value)}
        />
      </Field>
      <Field label="Schedule" validationMessage={messageFor('enabled')}>
        <Switch
          checked={form.enabled}
          label={form.enabled ? 'Sent on schedule' : 'Paused'}
          onChange={(_, d) => set('enabled', d.checked)}
        />
      </Field>
      <Field
        label="Customer contacts"
        hint="One address per line: they receive the report."
        required
        validationMessage={messageFor('contacts')}
      >
        <Textarea value={form.contacts} onChange={(_, d) => set('contacts', d.value)} />
      </Field>
      <Field
        label="Technicians in copy"
        hint="One address per line."
        validationMessage={messageFor('technicians')}
      >
        <Textarea value={form.technicians} onChange={(_, d) => set('technicians', d.value)} />
      </Field>
      <Field
        className={styles.wide}
        label="Introduction"
        hint="Opens the report and the email; a blank line starts a new paragraph."
        validationMessage={messageFor('introduction')}
      >
        <Textarea
          rows={4}
          value={form.introduction}
          onChange={(_, d) => set('introduction', d.value)}
        />
      </Field>
      <div className={styles.actions}>
        <Button type="submit" appearance="primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save schedule'}
        </Button>
      </div>
    </form>
  );
}
