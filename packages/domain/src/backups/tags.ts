import type { BackupTag } from './types';

const TAG_DATE = /(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})$/;

/** The short tag name: refs/tags/ removed. */
export function shortTagName(refName: string): string {
  return refName.replace(/^refs\/tags\//, '');
}

/** The prefix of a client's backup tags (spec 3 §7: refs filtered by tags/backup/{client}). */
export function backupTagPrefix(client: string): string {
  return `backup/${client}/`;
}

/**
 * The date of a backup tag: it must end in 8 digits, underscore, 6 digits (yyyymmdd_hhmmss, UTC)
 * forming a real date; otherwise undefined and the tag is discarded (spec 3 §5).
 */
export function backupTagDate(tagName: string): Date | undefined {
  const m = TAG_DATE.exec(tagName);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  const real =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s;
  return real ? date : undefined;
}

/**
 * Scheduled versus Manual: the tag's metadata decides when given (a `Backup-Type:` line of the tag
 * message), otherwise the tag name (scheduled backups carry 'scheduled').
 */
export function isScheduledBackup(tagName: string, message?: string): boolean {
  const declared = message && /^Backup-Type:\s*(\w+)/im.exec(message)?.[1]?.toLowerCase();
  if (declared === 'scheduled') return true;
  if (declared === 'manual') return false;
  return /scheduled/i.test(tagName.slice(tagName.lastIndexOf('/') + 1));
}

/** A client's backup from a tag name (full ref or short), or undefined when the tag breaks the rule. */
export function parseBackupTag(refOrTagName: string, client: string): BackupTag | undefined {
  const tagName = shortTagName(refOrTagName);
  const prefix = backupTagPrefix(client);
  if (!tagName.startsWith(prefix) || tagName.length === prefix.length) return undefined;
  const date = backupTagDate(tagName);
  if (!date) return undefined;
  return { tagName, date, isScheduled: isScheduledBackup(tagName) };
}

/** Newest first; equal dates by tag name. */
export function sortBackupsNewestFirst<T extends { date: Date; tagName: string }>(
  backups: readonly T[],
): T[] {
  return [...backups].sort(
    (a, b) => b.date.getTime() - a.date.getTime() || b.tagName.localeCompare(a.tagName),
  );
}

/** The tag with every non-alphanumeric character turned to a hyphen (spec 3 §4). */
export function sanitiseTagName(tagName: string): string {
  return tagName.replace(/[^A-Za-z0-9]/g, '-');
}

/** restore/{client}/{sanitised tag} (spec 3 §4, §9). */
export function restoreBranchName(client: string, tagName: string): string {
  return `restore/${client}/${sanitiseTagName(tagName)}`;
}
