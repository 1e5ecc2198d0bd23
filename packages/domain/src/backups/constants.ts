/** Backups page size (spec 3 §9). */
export const BACKUP_PAGE_SIZE = 10;
/** Backups reload this long after a manual trigger (spec 3 §4, §9). */
export const BACKUP_RELOAD_DELAY_MS = 5_000;
/** Health thresholds (spec 3 §4, §9). */
export const BACKUP_HEALTHY_WITHIN_MS = 24 * 3_600_000;
export const BACKUP_WARNING_WITHIN_MS = 48 * 3_600_000;
/** 'week' means within 7 days, 'month' within 30 days (spec 3 §5). */
export const BACKUP_WEEK_MS = 7 * 86_400_000;
export const BACKUP_MONTH_MS = 30 * 86_400_000;
/** Shown when a backup's size could not be read (spec 3 §3). */
export const BACKUP_SIZE_UNAVAILABLE = 'N/A';
