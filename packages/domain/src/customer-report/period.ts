import { InputError } from '../errors';

/** How often a client's customer report is sent (issue 29 §2). */
export type ReportCadence = 'monthly' | 'quarterly';
export const REPORT_CADENCES: readonly ReportCadence[] = ['monthly', 'quarterly'];

/** Latest day of the month a report may be scheduled on: every month has it. */
export const LAST_SCHEDULE_DAY = 28;

/** The stretch of time a report covers: a calendar month or quarter, in UTC. */
export interface ReportPeriod {
  /** `2026-10` or `2026-Q4`: the period's key in names and idempotency records */
  id: string;
  cadence: ReportCadence;
  /** first instant of the period (ISO) */
  start: string;
  /** first instant after the period (ISO) */
  end: string;
  /** 'October 2026' or 'Q4 2026 (October to December)' */
  label: string;
}

const MONTH_NAMES = new Intl.DateTimeFormat('en-GB', { month: 'long', timeZone: 'UTC' });
const monthName = (year: number, month: number): string =>
  MONTH_NAMES.format(new Date(Date.UTC(year, month, 1)));

/** The month or quarter that starts in `year`/`month` (0-based; a quarter's first month). */
function periodStarting(cadence: ReportCadence, year: number, month: number): ReportPeriod {
  const months = cadence === 'monthly' ? 1 : 3;
  const start = new Date(Date.UTC(year, month, 1));
  const end = new Date(Date.UTC(year, month + months, 1));
  if (cadence === 'monthly') {
    return {
      id: `${year}-${String(month + 1).padStart(2, '0')}`,
      cadence,
      start: start.toISOString(),
      end: end.toISOString(),
      label: `${monthName(year, month)} ${year}`,
    };
  }
  const quarter = month / 3 + 1;
  return {
    id: `${year}-Q${quarter}`,
    cadence,
    start: start.toISOString(),
    end: end.toISOString(),
    label: `Q${quarter} ${year} (${monthName(year, month)} to ${monthName(year, month + 2)})`,
  };
}

/** The last whole month or quarter before `date` (UTC): what a report sent on `date` covers. */
export function periodBefore(cadence: ReportCadence, date: Date): ReportPeriod {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  if (cadence === 'monthly') {
    return month === 0
      ? periodStarting(cadence, year - 1, 11)
      : periodStarting(cadence, year, month - 1);
  }
  const quarterStart = month - (month % 3);
  return quarterStart === 0
    ? periodStarting(cadence, year - 1, 9)
    : periodStarting(cadence, year, quarterStart - 3);
}

/** The period an id names (`2026-10`, `2026-Q4`); an InputError naming `period` otherwise. */
export function parseReportPeriod(id: string): ReportPeriod {
  const monthly = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(id);
  if (monthly) return periodStarting('monthly', Number(monthly[1]), Number(monthly[2]) - 1);
  const quarterly = /^(\d{4})-Q([1-4])$/.exec(id);
  if (quarterly)
    return periodStarting('quarterly', Number(quarterly[1]), (Number(quarterly[2]) - 1) * 3);
  throw new InputError('The period must be a month (yyyy-mm) or a quarter (yyyy-Qn).', 'period');
}

/** The `count` periods ending with `period`, oldest first: the points of the report's trend. */
export function periodsEndingWith(period: ReportPeriod, count: number): ReportPeriod[] {
  const out: ReportPeriod[] = [period];
  while (out.length < count) out.unshift(periodBefore(period.cadence, new Date(out[0]!.start)));
  return out;
}

/**
 * The period whose report is due at `now`, for a schedule sending on `dayOfMonth` (quarterly: in
 * January, April, July and October): the last whole period once its send day has come, else the
 * one before it. A run that failed is thus still due at the next run until the next send day.
 */
export function duePeriod(cadence: ReportCadence, dayOfMonth: number, now: Date): ReportPeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const sendMonth = cadence === 'monthly' ? month : month - (month % 3);
  const sendDay = new Date(Date.UTC(year, sendMonth, dayOfMonth));
  const reference =
    now.getTime() >= sendDay.getTime() ? sendDay : new Date(Date.UTC(year, sendMonth, 0));
  return periodBefore(cadence, reference);
}
