import { countOf } from '../formatting';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (n: number, unit: string) => `${countOf(n, unit)} ago`;

function parse(date: string | Date | null | undefined): Date | undefined {
  if (date === null || date === undefined || date === '') return undefined;
  const d = date instanceof Date ? date : new Date(date);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/**
 * Relative date of the capture selector (spec 3 §2): minutes ago under 60 minutes, hours ago
 * under 24 hours, days ago under 7 days, otherwise day-month-year with time; 'Unknown' when missing.
 */
export function selectorRelativeDate(
  date: string | Date | null | undefined,
  now: Date,
  timeZone?: string,
): string {
  const d = parse(date);
  if (!d) return 'Unknown';
  const ago = Math.max(0, now.getTime() - d.getTime());
  if (ago < HOUR) return plural(Math.floor(ago / MINUTE), 'minute');
  if (ago < DAY) return plural(Math.floor(ago / HOUR), 'hour');
  if (ago < 7 * DAY) return plural(Math.floor(ago / DAY), 'day');
  return d.toLocaleString('en-GB', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(timeZone ? { timeZone } : {}),
  });
}

/** A date such as '12 Jan 2025 10:30' (en-GB). */
export function formatCaptureDate(date: string | Date, timeZone?: string): string {
  const d = parse(date);
  if (!d) return '';
  const parts = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  }).formatToParts(d);
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `${get('day')} ${get('month')} ${get('year')} ${get('hour')}:${get('minute')}`;
}

/**
 * Relative date of capture management (spec 3 §2): Never, Just now, N minute(s) ago, N hour(s)
 * ago, N day(s) ago under 7 days, otherwise a date such as 12 Jan 2025 10:30 (en-GB).
 */
export function managementRelativeDate(
  date: string | Date | null | undefined,
  now: Date,
  timeZone?: string,
): string {
  const d = parse(date);
  if (!d) return 'Never';
  const ago = Math.max(0, now.getTime() - d.getTime());
  if (ago < MINUTE) return 'Just now';
  if (ago < HOUR) return plural(Math.floor(ago / MINUTE), 'minute');
  if (ago < DAY) return plural(Math.floor(ago / HOUR), 'hour');
  if (ago < 7 * DAY) return plural(Math.floor(ago / DAY), 'day');
  return formatCaptureDate(d, timeZone);
}
