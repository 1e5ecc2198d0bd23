import type { ClientScheduleRow } from '@aegis/contracts';
import {
  SCHEDULE_MESSAGES,
  slotInUseText,
  takenSlots,
  TIME_SLOTS,
  WEEK_DAYS,
  weeklyCron,
  weeklyDisplayName,
  weeklySlotOf,
} from '@aegis/domain';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  MessageBar,
  MessageBarBody,
  Select,
  Text,
} from '@fluentui/react-components';
import { useState } from 'react';

import { RoleGate } from '../../components/role-gate';
import { ApiError } from '../../lib/api-client';

import { useUpdateSchedule } from './api/schedules';

/**
 * 'Add Schedule' / 'Update Schedule' (spec 2 §2, §4, §5): Day and Time on the 30-minute grid,
 * prefilled from the first schedule in update mode; slots another client holds that day are
 * disabled and say who holds them.
 */
export function ScheduleDialog({
  row,
  rows,
  onClose,
  onSaved,
}: {
  row: ClientScheduleRow;
  rows: readonly ClientScheduleRow[];
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const update = row.schedules.length > 0;
  const first = update ? weeklySlotOf(row.schedules[0]!.cron) : undefined;
  const [day, setDay] = useState(first ? String(first.weekday) : '');
  const [time, setTime] = useState(
    first ? `${String(first.hour).padStart(2, '0')}:${String(first.minute).padStart(2, '0')}` : '',
  );
  const [error, setError] = useState<string>();
  const save = useUpdateSchedule();
  const taken =
    day === '' ? new Map<string, string>() : takenSlots(rows, Number(day), row.clientCode);
  const title = update ? 'Update Schedule' : 'Add Schedule';

  async function submit() {
    if (day === '' || time === '') return setError(SCHEDULE_MESSAGES.selectDayAndTime);
    if (!row.clientCode || !row.pipelineName) {
      return setError(SCHEDULE_MESSAGES.missingClientOrPipeline);
    }
    const [hour, minute] = time.split(':').map(Number) as [number, number];
    const slot = { weekday: Number(day), hour, minute };
    try {
      const result = await save.mutateAsync({
        clientCode: row.clientCode,
        cronExpression: weeklyCron(slot),
        displayName: weeklyDisplayName(slot),
      });
      onSaved(result.message);
    } catch (failure) {
      const detail = failure instanceof ApiError ? failure.message : '';
      setError(
        detail && detail !== SCHEDULE_MESSAGES.updateFailed
          ? `${SCHEDULE_MESSAGES.updateFailed} ${detail}`
          : SCHEDULE_MESSAGES.updateFailed,
      );
    }
  }

  return (
    <Dialog open onOpenChange={(_event, data) => !data.open && onClose()}>
      <DialogSurface aria-describedby="schedule-dialog-client">
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
            <Text id="schedule-dialog-client">
              {row.clientCode} – {row.pipelineName} (times in UTC)
            </Text>
            {error && (
              <MessageBar intent="error" role="alert">
                <MessageBarBody>{error}</MessageBarBody>
              </MessageBar>
            )}
            <Field label="Day">
              <Select
                value={day}
                onChange={(_event, data) => {
                  setDay(data.value);
                  setError(undefined);
                }}
              >
                <option value="">Select a day</option>
                {WEEK_DAYS.map((name, index) => (
                  <option key={name} value={String(index)}>
                    {name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Time">
              <Select
                value={time}
                onChange={(_event, data) => {
                  setTime(data.value);
                  setError(undefined);
                }}
              >
                <option value="">Select a time</option>
                {TIME_SLOTS.map((slot) => {
                  const holder = taken.get(slot.value);
                  return (
                    <option key={slot.value} value={slot.value} disabled={Boolean(holder)}>
                      {holder ? `${slot.label} – ${slotInUseText(holder)}` : slot.label}
                    </option>
                  );
                })}
              </Select>
            </Field>
          </DialogContent>
          <DialogActions>
            <RoleGate needs="Operator">
              <Button appearance="primary" onClick={() => void submit()} disabled={save.isPending}>
                {save.isPending ? 'Saving...' : title}
              </Button>
            </RoleGate>
            <Button onClick={onClose}>Cancel</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
