/** A backup (spec 3 §3): an annotated tag backup/{client}/...{yyyymmdd_hhmmss}. */
export interface BackupTag {
  tagName: string;
  /** from the tag's yyyymmdd_hhmmss, read as UTC */
  date: Date;
  isScheduled: boolean;
}

export type BackupHealth = 'Healthy' | 'Warning' | 'Critical' | 'No Backups' | 'Running';

export type BackupDateFilter = 'all' | 'today' | 'week' | 'month';

/** A backup comparison row (spec 3 §3). Absent values are the string 'Missing'. */
export interface BackupComparisonRow {
  Name: string;
  BackupValue: unknown;
  CurrentValue: unknown;
  Equal: boolean;
}

/** category → file → rows. */
export type BackupComparisonResults = Record<string, Record<string, BackupComparisonRow[]>>;

/** Counted over rows, from the backup to the current configuration. */
export interface BackupComparisonCounts {
  /** values present on both sides that differ */
  changes: number;
  /** values in the current configuration that the backup does not have */
  additions: number;
  /** values of the backup that the current configuration no longer has */
  deletions: number;
}
