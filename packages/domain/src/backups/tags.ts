import { backupTagDate, backupTagPrefix, shortTagName } from '../repository-layout';

import type { BackupTag } from './types';

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

/**
 * The message of a backup tag as the backup pipeline writes it; its `Backup-Type:` line is what
 * {@link isScheduledBackup} reads first.
 */
export function backupTagMessage(
  client: string,
  date: Date,
  scheduled: boolean,
  runId?: number,
): string {
  return [
    `${scheduled ? 'Scheduled' : 'Manual'} backup of ${client} tenant configuration`,
    '',
    `Client: ${client}`,
    `Backup-Type: ${scheduled ? 'scheduled' : 'manual'}`,
    `Created: ${date.toISOString()}`,
    ...(runId !== undefined ? [`Pipeline-Run: ${runId}`] : []),
    '',
  ].join('\n');
}
