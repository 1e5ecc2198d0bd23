// Weekly pipeline schedules (spec 2 §2, §4, §5, §9): one cron per client pipeline on a
// 30-minute grid, `minute hour * * weekday` with Sunday = 0, named 'Weekly {h:mm AM/PM} build
// ({day})'. Azure Pipelines reads schedule crons in UTC, so every time here is UTC.
import { Cron } from 'croner';
import cronstrue from 'cronstrue';

import { InputError } from '../errors';

/** Days of the week in cron order: Sunday = 0 (spec 2 §9). */
export const WEEK_DAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

/** Minutes between two slots of the grid (spec 2 §9). */
export const SLOT_MINUTES = 30;
/** Slots of a day: 48 on the 30-minute grid. */
export const SLOTS_PER_DAY = (24 * 60) / SLOT_MINUTES;

export interface TimeSlot {
  hour: number;
  minute: number;
  /** 'h:mm AM/PM', e.g. '12:00 AM', '9:30 AM', '11:30 PM' */
  label: string;
  /** 'HH:mm', the value of the Time select */
  value: string;
}

/** A time as 'h:mm AM/PM' (12-hour clock, midnight is 12:00 AM, noon 12:00 PM). */
export function formatSlotTime(hour: number, minute: number): string {
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${h12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** The 48 slots of the day, 12:00 AM to 11:30 PM. */
export const TIME_SLOTS: readonly TimeSlot[] = Array.from({ length: SLOTS_PER_DAY }, (_, i) => {
  const hour = Math.floor((i * SLOT_MINUTES) / 60);
  const minute = (i * SLOT_MINUTES) % 60;
  return {
    hour,
    minute,
    label: formatSlotTime(hour, minute),
    value: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`,
  };
});

/** A weekly slot: a day (0 = Sunday) and a time on the grid. */
export interface WeeklySlot {
  weekday: number;
  hour: number;
  minute: number;
}

export function isGridTime(hour: number, minute: number): boolean {
  return (
    Number.isInteger(hour) &&
    hour >= 0 &&
    hour < 24 &&
    Number.isInteger(minute) &&
    minute >= 0 &&
    minute < 60 &&
    minute % SLOT_MINUTES === 0
  );
}

/** The cron of a weekly slot: `minute hour * * weekday` (spec 2 §9). */
export function weeklyCron(slot: WeeklySlot): string {
  if (!Number.isInteger(slot.weekday) || slot.weekday < 0 || slot.weekday > 6) {
    throw new InputError(`weekday must be 0 (Sunday) to 6 (Saturday), got ${slot.weekday}`, 'day');
  }
  if (!isGridTime(slot.hour, slot.minute)) {
    throw new InputError(
      `time must be on the 30-minute grid, got ${slot.hour}:${slot.minute}`,
      'time',
    );
  }
  return `${slot.minute} ${slot.hour} * * ${slot.weekday}`;
}

/** 'Weekly {h:mm AM/PM} build ({day})' (spec 2 §9). */
export function weeklyDisplayName(slot: WeeklySlot): string {
  return `Weekly ${formatSlotTime(slot.hour, slot.minute)} build (${WEEK_DAYS[slot.weekday]})`;
}

/**
 * The weekly slot a cron names, when it is the single-day weekly form this screen writes
 * (`m h * * d`, day 0–7 where 7 is Sunday too); undefined for any other cron (daily, ranges…).
 */
export function weeklySlotOf(cron: string): WeeklySlot | undefined {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return undefined;
  const [minute, hour, dayOfMonth, month, weekday] = fields as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (dayOfMonth !== '*' || month !== '*') return undefined;
  if (![minute, hour, weekday].every((field) => /^\d{1,2}$/.test(field))) return undefined;
  const slot = { weekday: Number(weekday) % 7, hour: Number(hour), minute: Number(minute) };
  if (Number(weekday) > 7 || slot.hour > 23 || slot.minute > 59) return undefined;
  return slot;
}

/** Whether a cron is one Azure Pipelines accepts and this code can evaluate. */
export function isValidCron(cron: string): boolean {
  try {
    new Cron(cron, { timezone: 'UTC', paused: true });
    return true;
  } catch {
    return false;
  }
}

/** The schedule in words, e.g. 'At 09:30 AM, only on Monday' (cronstrue); the cron if it cannot. */
export function describeCron(cron: string): string {
  try {
    return `${cronstrue.toString(cron, { use24HourTimeFormat: false, verbose: false })} (UTC)`;
  } catch {
    return cron;
  }
}

/** The next time a cron fires after `from`, in UTC (croner); undefined for an invalid cron. */
export function nextRunOf(cron: string, from: Date): Date | undefined {
  try {
    return new Cron(cron, { timezone: 'UTC', paused: true }).nextRun(from) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Every time a cron fires in (from, to], in order (for a clock that jumps ahead). */
export function runsBetween(cron: string, from: Date, to: Date, limit = 1000): Date[] {
  const runs: Date[] = [];
  let cursor = from;
  while (runs.length < limit) {
    const next = nextRunOf(cron, cursor);
    if (!next || next.getTime() > to.getTime()) break;
    runs.push(next);
    cursor = next;
  }
  return runs;
}

/** One client's schedule as the screens list it (spec 2 §3: client schedule row). */
export interface ClientScheduleEntry {
  clientCode: string;
  schedules: readonly { cron: string }[];
}

/** The slot key of a day and time, e.g. '1-09:30'. */
export function slotKey(weekday: number, hour: number, minute: number): string {
  return `${weekday}-${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/**
 * Slots of `weekday` taken by clients other than `clientCode`: slot value ('HH:mm') → client.
 * A slot is taken when another client's weekly cron fires on that day at that time (spec 2 §5).
 */
export function takenSlots(
  entries: readonly ClientScheduleEntry[],
  weekday: number,
  clientCode: string,
): Map<string, string> {
  const taken = new Map<string, string>();
  for (const entry of entries) {
    if (entry.clientCode === clientCode) continue;
    for (const schedule of entry.schedules) {
      const slot = weeklySlotOf(schedule.cron);
      if (!slot || slot.weekday !== weekday) continue;
      const value = TIME_SLOTS.find((t) => t.hour === slot.hour && t.minute === slot.minute)?.value;
      if (value && !taken.has(value)) taken.set(value, entry.clientCode);
    }
  }
  return taken;
}

/** 'Time slot in use by - {client}' (spec 2 §5). */
export function slotInUseText(client: string): string {
  return `Time slot in use by - ${client}`;
}

/** The week as a grid for the day view: per day, the slots and who holds each (if anyone). */
export function weekGrid(
  entries: readonly ClientScheduleEntry[],
): { weekday: number; day: WeekDay; slots: { slot: TimeSlot; clients: string[] }[] }[] {
  return WEEK_DAYS.map((day, weekday) => ({
    weekday,
    day,
    slots: TIME_SLOTS.map((slot) => ({
      slot,
      clients: entries
        .filter((entry) =>
          entry.schedules.some((schedule) => {
            const s = weeklySlotOf(schedule.cron);
            return s?.weekday === weekday && s.hour === slot.hour && s.minute === slot.minute;
          }),
        )
        .map((entry) => entry.clientCode),
    })),
  }));
}

/** Alerts and banners of the schedule and YAML screens, verbatim (spec 2 §5, §8). */
export const SCHEDULE_MESSAGES = {
  selectDayAndTime: 'Please select both day and time',
  missingClientOrPipeline: 'Missing client or pipeline information',
  loadError: 'Error loading pipeline schedules.',
  pipelineNotFound: 'Pipeline information not found.',
  updateFailed: 'Failed to update schedule.',
  loaded: 'Pipeline schedules loaded successfully!',
  updated: 'Schedule updated successfully!',
  noSchedule: 'No schedule has been configured',
  selectPipeline: 'Please select a pipeline from the dropdown menu.',
  yamlUpdated: 'YAML updated successfully.',
  buildDefinitionFailed: 'Failed to fetch build definition',
  yamlFetchError: 'YAML fetch error',
  yamlContentFailed: 'Failed to fetch YAML content',
} as const;
