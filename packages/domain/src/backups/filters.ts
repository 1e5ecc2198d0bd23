import { BACKUP_MONTH_MS, BACKUP_PAGE_SIZE, BACKUP_WEEK_MS } from './constants';
import type { BackupDateFilter } from './types';

/** The date filter's options in display order (spec 3 §2). */
export const BACKUP_DATE_FILTERS: readonly { value: BackupDateFilter; label: string }[] = [
  { value: 'all', label: 'All Time' },
  { value: 'today', label: 'Today' },
  { value: 'week', label: 'Past Week' },
  { value: 'month', label: 'Past Month' },
];

/** A backup's date as shown in the table and matched by the search, e.g. '01 Mar 2025, 10:15:00'. */
export function formatBackupDate(date: Date, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
    ...(timeZone ? { timeZone } : {}),
  }).format(date);
}

/** The search matches the tag name or the formatted date, case-insensitive (spec 3 §5). */
export function matchesBackupSearch(
  backup: { tagName: string; date: Date },
  search: string,
  timeZone?: string,
): boolean {
  const q = search.trim().toLowerCase();
  if (q === '') return true;
  return (
    backup.tagName.toLowerCase().includes(q) ||
    formatBackupDate(backup.date, timeZone).toLowerCase().includes(q)
  );
}

function sameLocalDay(a: Date, b: Date): boolean {
  return (
    a.getFullYear() === b.getFullYear() &&
    a.getMonth() === b.getMonth() &&
    a.getDate() === b.getDate()
  );
}

/**
 * The date filter (spec 3 §2, §5): Today is the current calendar day; Past Week within 7 days and
 * Past Month within 30 days of now, both edges included.
 */
export function matchesBackupDateFilter(date: Date, filter: BackupDateFilter, now: Date): boolean {
  const age = now.getTime() - date.getTime();
  switch (filter) {
    case 'all':
      return true;
    case 'today':
      return sameLocalDay(date, now);
    case 'week':
      return age <= BACKUP_WEEK_MS;
    case 'month':
      return age <= BACKUP_MONTH_MS;
  }
}

export function filterBackups<T extends { tagName: string; date: Date }>(
  backups: readonly T[],
  {
    search,
    dateFilter,
    now,
    timeZone,
  }: {
    search: string;
    dateFilter: BackupDateFilter;
    now: Date;
    timeZone?: string;
  },
): T[] {
  return backups.filter(
    (b) =>
      matchesBackupDateFilter(b.date, dateFilter, now) && matchesBackupSearch(b, search, timeZone),
  );
}

export interface BackupPage<T> {
  items: T[];
  /** 1-based, clamped to the page count */
  page: number;
  pageCount: number;
  /** 'Page X of Y' and Previous/Next are shown only when there is more than one page */
  showPagination: boolean;
}

/** Pages of 10 (spec 3 §9). */
export function paginateBackups<T>(
  items: readonly T[],
  page: number,
  pageSize = BACKUP_PAGE_SIZE,
): BackupPage<T> {
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page)), pageCount);
  return {
    items: items.slice((current - 1) * pageSize, current * pageSize),
    page: current,
    pageCount,
    showPagination: pageCount > 1,
  };
}
