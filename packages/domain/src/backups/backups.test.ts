import { describe, expect, it } from 'vitest';

import { backupTagDate, restoreBranchName, sanitiseTagName } from '../repository-layout';

import {
  BACKUP_PAGE_SIZE,
  backupHealth,
  compareBackup,
  countBackupChanges,
  filterBackups,
  formatBackupDate,
  formatBackupSize,
  isScheduledBackup,
  matchesBackupDateFilter,
  matchesBackupSearch,
  paginateBackups,
  parseBackupTag,
  sortBackupsNewestFirst,
  toBackupConfigFiles,
} from './index';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('backup tag rule', () => {
  it('reads yyyymmdd_hhmmss at the end of the tag as UTC', () => {
    expect(backupTagDate('backup/ABC/20250301_101500')?.toISOString()).toBe(
      '2025-03-01T10:15:00.000Z',
    );
    expect(backupTagDate('backup/ABC/scheduled_20250301_010003')?.toISOString()).toBe(
      '2025-03-01T01:00:03.000Z',
    );
  });

  it.each([
    'backup/ABC/20250301',
    'backup/CON/pre-migration',
    'backup/FAB/2025-03-01_1015',
    'backup/ABC/20250301_10150',
    'backup/ABC/20250301_1015000',
    'backup/ABC/20250301_101500_extra',
    'backup/ABC/20251301_101500',
    'backup/ABC/20250230_101500',
    'backup/ABC/20250301_246000',
  ])('discards %s', (tag) => {
    expect(parseBackupTag(tag, tag.split('/')[1] ?? '')).toBeUndefined();
  });

  it('keeps only the client’s own tags and strips refs/tags/', () => {
    expect(parseBackupTag('refs/tags/backup/ABC/20250301_101500', 'ABC')).toEqual({
      tagName: 'backup/ABC/20250301_101500',
      date: new Date('2025-03-01T10:15:00Z'),
      isScheduled: false,
    });
    expect(parseBackupTag('backup/ABCD/20250301_101500', 'ABC')).toBeUndefined();
    expect(parseBackupTag('backup/CON/20250301_101500', 'ABC')).toBeUndefined();
  });

  it('tells Scheduled from Manual by the tag name or the tag metadata', () => {
    expect(isScheduledBackup('backup/ABC/scheduled_20250301_010003')).toBe(true);
    expect(isScheduledBackup('backup/ABC/20250301_010003')).toBe(false);
    expect(isScheduledBackup('backup/ABC/20250301_010003', 'x\nBackup-Type: scheduled\n')).toBe(
      true,
    );
    expect(isScheduledBackup('backup/ABC/scheduled_20250301_010003', 'Backup-Type: manual')).toBe(
      false,
    );
    expect(isScheduledBackup('backup/ABC/20250301_010003', 'no metadata')).toBe(false);
  });

  it('sorts newest first', () => {
    const a = { tagName: 'a', date: new Date('2025-01-01T00:00:00Z') };
    const b = { tagName: 'b', date: new Date('2025-02-01T00:00:00Z') };
    expect(sortBackupsNewestFirst([a, b])).toEqual([b, a]);
  });
});

describe('restore branch naming', () => {
  it('turns every non-alphanumeric character of the tag into a hyphen', () => {
    expect(sanitiseTagName('backup/ABC/scheduled_20250301_010003')).toBe(
      'backup-ABC-scheduled-20250301-010003',
    );
    expect(restoreBranchName('ABC', 'backup/ABC/20250301_101500')).toBe(
      'restore/ABC/backup-ABC-20250301-101500',
    );
    expect(sanitiseTagName('a.b c~d')).toBe('a-b-c-d');
  });
});

describe('backup health', () => {
  const now = new Date('2025-03-10T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  it.each([
    [0, 'Healthy'],
    [24 * HOUR - 1, 'Healthy'],
    [24 * HOUR, 'Warning'],
    [48 * HOUR - 1, 'Warning'],
    [48 * HOUR, 'Critical'],
    [30 * DAY, 'Critical'],
  ])('newest backup %i ms old is %s', (age, health) => {
    expect(backupHealth(ago(age), now)).toBe(health);
  });
  it('is No Backups without backups and Running while a backup runs', () => {
    expect(backupHealth(undefined, now)).toBe('No Backups');
    expect(backupHealth(undefined, now, true)).toBe('Running');
    expect(backupHealth(ago(72 * HOUR), now, true)).toBe('Running');
  });
});

describe('backup search and date filter', () => {
  const now = new Date(2025, 2, 10, 12, 0, 0);
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('searches the tag name or the formatted date, case-insensitively', () => {
    const backup = {
      tagName: 'backup/ABC/scheduled_20250301_010003',
      date: new Date('2025-03-01T01:00:03Z'),
    };
    expect(formatBackupDate(backup.date, 'UTC')).toBe('01 Mar 2025, 01:00:03');
    expect(matchesBackupSearch(backup, 'SCHEDULED', 'UTC')).toBe(true);
    expect(matchesBackupSearch(backup, 'mar 2025', 'UTC')).toBe(true);
    expect(matchesBackupSearch(backup, '01:00:03', 'UTC')).toBe(true);
    expect(matchesBackupSearch(backup, 'apr', 'UTC')).toBe(false);
    expect(matchesBackupSearch(backup, '   ', 'UTC')).toBe(true);
  });

  it('Past Week is within 7 days and Past Month within 30 days, edges included', () => {
    expect(matchesBackupDateFilter(ago(7 * DAY), 'week', now)).toBe(true);
    expect(matchesBackupDateFilter(ago(7 * DAY + 1), 'week', now)).toBe(false);
    expect(matchesBackupDateFilter(ago(30 * DAY), 'month', now)).toBe(true);
    expect(matchesBackupDateFilter(ago(30 * DAY + 1), 'month', now)).toBe(false);
    expect(matchesBackupDateFilter(ago(365 * DAY), 'all', now)).toBe(true);
  });

  it('Today is the current calendar day', () => {
    expect(matchesBackupDateFilter(new Date(2025, 2, 10, 0, 0, 0), 'today', now)).toBe(true);
    expect(matchesBackupDateFilter(new Date(2025, 2, 9, 23, 59, 59), 'today', now)).toBe(false);
  });

  it('combines the search and the filter', () => {
    const backups = [
      { tagName: 'backup/ABC/20250310_080000', date: ago(4 * HOUR) },
      { tagName: 'backup/ABC/scheduled_20250305_010000', date: ago(5 * DAY) },
      { tagName: 'backup/ABC/scheduled_20250101_010000', date: ago(68 * DAY) },
    ];
    expect(filterBackups(backups, { search: 'scheduled', dateFilter: 'week', now })).toEqual([
      backups[1],
    ]);
    expect(filterBackups(backups, { search: '', dateFilter: 'today', now })).toEqual([backups[0]]);
  });
});

describe('backup pagination', () => {
  const items = Array.from({ length: 23 }, (_, i) => i);
  it('pages by 10 and shows the pager only with more than one page', () => {
    expect(BACKUP_PAGE_SIZE).toBe(10);
    expect(paginateBackups(items, 1)).toMatchObject({
      page: 1,
      pageCount: 3,
      showPagination: true,
    });
    expect(paginateBackups(items, 3).items).toEqual([20, 21, 22]);
    expect(paginateBackups(items, 9).page).toBe(3);
    expect(paginateBackups(items.slice(0, 10), 1)).toMatchObject({
      pageCount: 1,
      showPagination: false,
    });
    expect(paginateBackups([], 1)).toMatchObject({
      items: [],
      pageCount: 1,
      showPagination: false,
    });
  });
});

describe('backup size', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [12.5 * 1024 * 1024, '12.5 MB'],
    [2.3 * 1024 ** 3, '2.3 GB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatBackupSize(bytes)).toBe(text);
  });
});

describe('backup comparison', () => {
  const backup = toBackupConfigFiles('ABC', [
    {
      path: '/Clients/ABC/M365Config/Resources/AzureAD/Policy/a.json',
      content: JSON.stringify({ displayName: 'A', state: 'enabled', grant: { mfa: true } }),
    },
    {
      path: '/Clients/ABC/M365Config/Resources/Teams/Meeting/gone.json',
      content: JSON.stringify({ displayName: 'Gone' }),
    },
  ]);
  const current = toBackupConfigFiles('ABC', [
    {
      path: '/Clients/ABC/M365Config/Resources/AzureAD/Policy/a.json',
      content: JSON.stringify({
        displayName: 'A',
        state: 'disabled',
        extra: 1,
        grant: { mfa: true },
      }),
    },
    {
      path: '/Clients/ABC/M365Config/Resources/Intune/Compliance/new.json',
      content: JSON.stringify({ displayName: 'New' }),
    },
  ]);

  it("leaves out Aegis's own records beside the configuration (capture manifest, acceptances)", () => {
    const files = toBackupConfigFiles('ABC', [
      { path: '/Clients/ABC/.capture-manifest.json', content: '{"version":1}' },
      { path: '/Clients/ABC/.accepted-deviations.json', content: '{"version":"1.0"}' },
      { path: '/Clients/ABC/M365Config/Resources/AzureAD/Policy/a.json', content: '{}' },
    ]);
    expect(files.map((f) => f.path)).toEqual(['AzureAD/Policy/a.json']);
  });

  it('groups by category then file, with additions and deletions as Missing', () => {
    const progress: number[] = [];
    const results = compareBackup(backup, current, (p) => progress.push(p));
    expect(Object.keys(results).sort()).toEqual(['AzureAD', 'Intune', 'Teams']);
    const a = results['AzureAD']?.['a'] ?? [];
    expect(a).toContainEqual({
      Name: 'state',
      BackupValue: 'enabled',
      CurrentValue: 'disabled',
      Equal: false,
    });
    expect(a).toContainEqual({
      Name: 'extra',
      BackupValue: 'Missing',
      CurrentValue: 1,
      Equal: false,
    });
    expect(a).toContainEqual({
      Name: 'displayName',
      BackupValue: 'A',
      CurrentValue: 'A',
      Equal: true,
    });
    expect(results['Intune']?.['new']).toEqual([
      { Name: 'displayName', BackupValue: 'Missing', CurrentValue: 'New', Equal: false },
    ]);
    expect(results['Teams']?.['gone']).toEqual([
      { Name: 'displayName', BackupValue: 'Gone', CurrentValue: 'Missing', Equal: false },
    ]);
    expect(countBackupChanges(results)).toEqual({ changes: 1, additions: 2, deletions: 1 });
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((x, y) => x - y)).toEqual(progress);
  });

  it('makes paths relative to the client folder and keeps non-JSON files as null', () => {
    expect(
      toBackupConfigFiles('ABC', [{ path: '/Clients/ABC/README.md', content: 'not json' }]),
    ).toEqual([{ path: 'README.md', content: null }]);
  });
});
