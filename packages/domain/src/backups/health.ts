import { BACKUP_HEALTHY_WITHIN_MS, BACKUP_WARNING_WITHIN_MS } from './constants';
import type { BackupHealth } from './types';

/**
 * Health from the newest backup's age (spec 3 §4): under 24 hours Healthy, under 48 hours
 * Warning, otherwise Critical; 'No Backups' if none; Running while a backup is in progress.
 */
export function backupHealth(newest: Date | undefined, now: Date, running = false): BackupHealth {
  if (running) return 'Running';
  if (!newest) return 'No Backups';
  const age = now.getTime() - newest.getTime();
  if (age < BACKUP_HEALTHY_WITHIN_MS) return 'Healthy';
  if (age < BACKUP_WARNING_WITHIN_MS) return 'Warning';
  return 'Critical';
}
