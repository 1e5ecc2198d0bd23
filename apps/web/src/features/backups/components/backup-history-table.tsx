import type { Backup } from '@aegis/contracts';
import {
  BACKUP_DATE_FILTERS,
  filterBackups,
  formatBackupDate,
  paginateBackups,
  type BackupDateFilter,
} from '@aegis/domain';
import {
  Badge,
  Button,
  Card,
  makeStyles,
  SearchBox,
  Select,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
  useRestoreFocusTarget,
} from '@fluentui/react-components';
import { useMemo, useState } from 'react';

import { BreakableText } from '../../../components/breakable-text';
import { RoleGate } from '../../../components/role-gate';

const useStyles = makeStyles({
  card: { padding: '16px', display: 'flex', flexDirection: 'column', gap: '12px' },
  toolbar: {
    display: 'flex',
    gap: '12px',
    alignItems: 'center',
    flexWrap: 'wrap',
    justifyContent: 'space-between',
  },
  filters: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' },
  search: { minWidth: '280px' },
  table: { tableLayout: 'auto' },
  nowrap: { whiteSpace: 'nowrap' },
  tag: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    // wide enough for the longest piece between slashes (scheduled_yyyymmdd_hhmmss), so a
    // narrow window breaks a tag at its slashes only
    display: 'inline-block',
    minWidth: '25ch',
    // breaks after its slashes and underscores (ADR 039), mid-token only as a last resort
    overflowWrap: 'break-word',
  },
  actions: {
    display: 'grid',
    gridTemplateColumns: 'repeat(4, auto)',
    justifyContent: 'start',
    gap: '4px',
    paddingBlock: '4px',
    // two rows of two in a narrow window rather than a table wider than its card
    '@media (max-width: 1279px)': { gridTemplateColumns: 'repeat(2, auto)' },
  },
  state: {
    padding: '32px',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '8px',
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
  },
  pager: { display: 'flex', gap: '12px', alignItems: 'center', justifyContent: 'flex-end' },
});

export interface BackupActions {
  onView: (backup: Backup) => void;
  onCompare: (backup: Backup) => void;
  onRestore: (backup: Backup) => void;
  onDownload: (backup: Backup) => void;
}

/**
 * Backup history (spec 3 §2): search, date filter, columns Date & Time, Backup Tag, Type, Status,
 * Actions, pages of 10 with 'Page X of Y' only when there is more than one page.
 */
export function BackupHistoryTable({
  backups,
  loading,
  restoringTag,
  actions,
}: {
  backups: readonly Backup[];
  loading: boolean;
  restoringTag: string | undefined;
  actions: BackupActions;
}) {
  const styles = useStyles();
  const [search, setSearch] = useState('');
  const [dateFilter, setDateFilter] = useState<BackupDateFilter>('all');
  const [page, setPage] = useState(1);
  // The Backup Details and Configuration Comparison dialogs give focus back to the button that
  // opened them when they close (Escape or Close), so keyboard users keep their place.
  const restoreFocusTarget = useRestoreFocusTarget();

  const dated = useMemo(
    () => backups.map((b) => ({ ...b, date: new Date(b.date), backup: b })),
    [backups],
  );
  const shown = filterBackups(dated, { search, dateFilter, now: new Date() });
  const current = paginateBackups(shown, page);

  return (
    <Card className={styles.card}>
      <div className={styles.toolbar}>
        <Text as="h2" size={500} weight="semibold">
          Backup History
        </Text>
        <div className={styles.filters}>
          <SearchBox
            className={styles.search}
            placeholder="Search backups..."
            aria-label="Search backups"
            value={search}
            onChange={(_e, data) => {
              setSearch(data.value);
              setPage(1);
            }}
          />
          <Select
            aria-label="Date filter"
            value={dateFilter}
            onChange={(_e, data) => {
              setDateFilter(data.value as BackupDateFilter);
              setPage(1);
            }}
          >
            {BACKUP_DATE_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </Select>
        </div>
      </div>

      {loading ? (
        <div className={styles.state}>
          <Spinner label="Loading backups..." />
        </div>
      ) : shown.length === 0 && backups.length > 0 ? (
        // The tenant has backups; the search or date filter hides them all. Say so, and offer a way back.
        <div className={styles.state} role="status">
          <Text size={400}>
            {search.trim()
              ? `No backups match "${search.trim()}"`
              : 'No backups in the chosen period'}
          </Text>
          <Text>
            {backups.length} {backups.length === 1 ? 'backup is' : 'backups are'} hidden by the
            {search.trim() && dateFilter !== 'all'
              ? ' search and date filter'
              : search.trim()
                ? ' search'
                : ' date filter'}
            .
          </Text>
          <Button
            onClick={() => {
              setSearch('');
              setDateFilter('all');
              setPage(1);
            }}
          >
            {search.trim() && dateFilter === 'all' ? 'Clear search' : 'Clear filters'}
          </Button>
        </div>
      ) : shown.length === 0 ? (
        <div className={styles.state} role="status">
          <Text size={400}>No backups found for this tenant</Text>
        </div>
      ) : (
        <>
          <Table aria-label="Backup history" size="small" className={styles.table}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell className={styles.nowrap}>Date &amp; Time</TableHeaderCell>
                <TableHeaderCell>Backup Tag</TableHeaderCell>
                <TableHeaderCell>Type</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>Actions</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {current.items.map(({ backup, date }) => (
                <TableRow key={backup.tagName}>
                  <TableCell className={styles.nowrap}>{formatBackupDate(date)}</TableCell>
                  <TableCell>
                    <span className={styles.tag}>
                      <BreakableText text={backup.tagName} />
                    </span>
                  </TableCell>
                  <TableCell>
                    <Badge appearance="tint" color={backup.isScheduled ? 'brand' : 'important'}>
                      {backup.isScheduled ? 'Scheduled' : 'Manual'}
                    </Badge>
                  </TableCell>
                  <TableCell>
                    <Badge appearance="tint" color="success">
                      Success
                    </Badge>
                  </TableCell>
                  <TableCell>
                    <div
                      className={styles.actions}
                      role="group"
                      aria-label={`Actions for ${backup.tagName}`}
                    >
                      <Button
                        size="small"
                        {...restoreFocusTarget}
                        onClick={() => actions.onView(backup)}
                      >
                        View
                      </Button>
                      <Button
                        size="small"
                        {...restoreFocusTarget}
                        onClick={() => actions.onCompare(backup)}
                      >
                        Compare
                      </Button>
                      <RoleGate needs="Approver">
                        <Button
                          size="small"
                          icon={
                            restoringTag === backup.tagName ? (
                              <Spinner size="extra-tiny" />
                            ) : undefined
                          }
                          disabled={restoringTag !== undefined}
                          onClick={() => actions.onRestore(backup)}
                        >
                          Restore
                        </Button>
                      </RoleGate>
                      <Button size="small" onClick={() => actions.onDownload(backup)}>
                        Download
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {current.showPagination && (
            <nav className={styles.pager} aria-label="Backup pages">
              <Button disabled={current.page <= 1} onClick={() => setPage(current.page - 1)}>
                Previous
              </Button>
              <Text>{`Page ${current.page} of ${current.pageCount}`}</Text>
              <Button
                disabled={current.page >= current.pageCount}
                onClick={() => setPage(current.page + 1)}
              >
                Next
              </Button>
            </nav>
          )}
        </>
      )}
    </Card>
  );
}
