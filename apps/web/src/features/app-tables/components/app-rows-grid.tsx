import type { AppTableEntityDto } from '@aegis/contracts';
import { sortRows, textOf, toggleSort, viewerColumns, type SortDirection } from '@aegis/domain';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ArrowSortDownRegular, ArrowSortRegular, ArrowSortUpRegular } from '@fluentui/react-icons';
import { useLayoutEffect, useMemo, useRef, useState, type FocusEvent } from 'react';

/** Columns kept in view while the table scrolls sideways (the first two of `viewerColumns`). */
const STICKY_COLUMNS = ['Status', 'AppName'] as const;
/** Status's fixed width, which is where AppName sticks. */
const STATUS_WIDTH = '104px';
/** AppName's widest, so the sticky pair leaves room to scroll on a 1024 px screen. */
const APP_NAME_MAX_WIDTH = '240px';

const useStyles = makeStyles({
  scroller: { overflowX: 'auto', overflowY: 'hidden' },
  // keyboard and find-in-page scrolling keep targets clear of the sticky columns
  bodyScroller: { scrollPaddingLeft: `calc(${STATUS_WIDTH} + ${APP_NAME_MAX_WIDTH})` },
  topBar: { height: '14px' },
  frame: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  // separate borders: collapsed ones stay behind when a sticky cell moves
  table: {
    borderCollapse: 'separate',
    borderSpacing: 0,
    fontSize: tokens.fontSizeBase200,
    minWidth: '100%',
  },
  th: {
    position: 'sticky',
    top: 0,
    zIndex: 2,
    backgroundColor: tokens.colorNeutralBackground3,
    borderBottom: `1px solid ${tokens.colorNeutralStroke1}`,
    textAlign: 'left',
    padding: 0,
    whiteSpace: 'nowrap',
  },
  sortButton: {
    border: 'none',
    background: 'none',
    font: 'inherit',
    color: 'inherit',
    textAlign: 'left',
    boxSizing: 'border-box',
    display: 'flex',
    alignItems: 'center',
    gap: '4px',
    width: '100%',
    padding: '8px 10px',
    cursor: 'pointer',
    fontWeight: tokens.fontWeightSemibold,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
    ':hover': { backgroundColor: tokens.colorNeutralBackground3Hover },
  },
  td: {
    padding: '6px 10px',
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    maxWidth: '360px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    verticalAlign: 'top',
  },
  // sticky cells are opaque and above the scrolling ones; sticky headers above both
  sticky: {
    position: 'sticky',
    zIndex: 1,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  stickyHeader: { zIndex: 3 },
  statusColumn: {
    left: 0,
    boxSizing: 'border-box',
    width: STATUS_WIDTH,
    minWidth: STATUS_WIDTH,
    maxWidth: STATUS_WIDTH,
  },
  appNameColumn: {
    left: STATUS_WIDTH,
    maxWidth: APP_NAME_MAX_WIDTH,
    boxShadow: `inset -1px 0 0 ${tokens.colorNeutralStroke1}`,
  },
  sortIcon: { flexShrink: 0, color: tokens.colorNeutralForeground3 },
  sortIconActive: { color: tokens.colorNeutralForeground1 },
  caption: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
  },
  enabled: {
    backgroundColor: tokens.colorPaletteGreenBackground2,
    color: tokens.colorPaletteGreenForeground2,
    fontWeight: tokens.fontWeightSemibold,
  },
  disabled: {
    backgroundColor: tokens.colorPaletteRedBackground2,
    color: tokens.colorPaletteRedForeground2,
    fontWeight: tokens.fontWeightSemibold,
  },
});

function display(value: unknown): string {
  if (value === null || value === undefined) return '';
  return textOf(value);
}

function SortIcon({ direction, className }: { direction?: SortDirection; className: string }) {
  const Icon =
    direction === 'ascending'
      ? ArrowSortUpRegular
      : direction === 'descending'
        ? ArrowSortDownRegular
        : ArrowSortRegular;
  return (
    <span className={className} data-sort-icon={direction ?? 'none'} aria-hidden="true">
      <Icon />
    </span>
  );
}

/**
 * The rows of a table (spec 2 §2): Status first with a coloured cell, every header sorts
 * (a neutral sort icon until clicked, then ascending/descending with an arrow and aria-sort on
 * that header only), Status and AppName stay in view while the table scrolls sideways, and a
 * top scroll bar is kept in step with the bottom one.
 */
export function AppRowsGrid({ rows, caption }: { rows: AppTableEntityDto[]; caption: string }) {
  const styles = useStyles();
  const [sort, setSort] = useState<{ column: string; direction: SortDirection }>();
  const columns = useMemo(() => viewerColumns(rows), [rows]);
  const shown = useMemo(
    () => (sort ? sortRows(rows, sort.column, sort.direction) : rows),
    [rows, sort],
  );

  const top = useRef<HTMLDivElement>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const [scrollWidth, setScrollWidth] = useState(0);

  useLayoutEffect(() => {
    const element = bottom.current;
    if (!element) return;
    const measure = () => setScrollWidth(element.scrollWidth);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [columns, shown]);

  function follow(from: HTMLDivElement | null, to: HTMLDivElement | null) {
    if (from && to && to.scrollLeft !== from.scrollLeft) to.scrollLeft = from.scrollLeft;
  }

  /** A header focused by keyboard is scrolled out from under the sticky columns. */
  function keepClearOfSticky(event: FocusEvent<HTMLDivElement>) {
    const scroller = event.currentTarget;
    const target = event.target;
    if (!(target instanceof HTMLElement) || target.closest('[data-sticky]')) return;
    const stickyRight = Math.max(
      0,
      ...[...scroller.querySelectorAll('thead [data-sticky]')].map(
        (cell) => cell.getBoundingClientRect().right,
      ),
    );
    const left = target.getBoundingClientRect().left;
    if (left < stickyRight) scroller.scrollLeft -= stickyRight - left;
  }

  function columnClasses(column: string, header: boolean): string | undefined {
    if (!(STICKY_COLUMNS as readonly string[]).includes(column)) return undefined;
    return mergeClasses(
      styles.sticky,
      header && styles.stickyHeader,
      column === 'Status' ? styles.statusColumn : styles.appNameColumn,
    );
  }

  return (
    <div className={styles.frame}>
      <div
        ref={top}
        className={mergeClasses(styles.scroller, styles.topBar)}
        data-testid="top-scrollbar"
        onScroll={() => follow(top.current, bottom.current)}
      >
        <div style={{ width: scrollWidth, height: 1 }} />
      </div>
      <div
        ref={bottom}
        className={mergeClasses(styles.scroller, styles.bodyScroller)}
        data-testid="bottom-scrollbar"
        onScroll={() => follow(bottom.current, top.current)}
        onFocus={keepClearOfSticky}
      >
        <table className={styles.table}>
          <caption className={styles.caption}>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => {
                const active = sort?.column === column;
                return (
                  <th
                    key={column}
                    className={mergeClasses(styles.th, columnClasses(column, true))}
                    scope="col"
                    data-sticky={columnClasses(column, true) ? '' : undefined}
                    aria-sort={active ? sort.direction : undefined}
                  >
                    <button
                      type="button"
                      className={styles.sortButton}
                      onClick={() => setSort((current) => toggleSort(current, column))}
                    >
                      {column}
                      <SortIcon
                        direction={active ? sort.direction : undefined}
                        className={mergeClasses(styles.sortIcon, active && styles.sortIconActive)}
                      />
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={`${row.PartitionKey}/${row.RowKey}`}>
                {columns.map((column) => {
                  const value = display(row[column]);
                  const statusClass =
                    column === 'Status'
                      ? value === 'Enabled'
                        ? styles.enabled
                        : value === 'Disabled'
                          ? styles.disabled
                          : undefined
                      : undefined;
                  return (
                    <td
                      key={column}
                      className={mergeClasses(styles.td, columnClasses(column, false), statusClass)}
                      data-sticky={columnClasses(column, false) ? '' : undefined}
                      title={value}
                    >
                      {value}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
