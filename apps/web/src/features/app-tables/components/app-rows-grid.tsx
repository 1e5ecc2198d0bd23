import type { AppTableEntityDto } from '@aegis/contracts';
import { sortRows, toggleSort, viewerColumns, type SortDirection } from '@aegis/domain';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ArrowDownRegular, ArrowUpRegular } from '@fluentui/react-icons';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';

const useStyles = makeStyles({
  scroller: { overflowX: 'auto', overflowY: 'hidden' },
  topBar: { height: '14px' },
  frame: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  table: { borderCollapse: 'collapse', fontSize: tokens.fontSizeBase200, minWidth: '100%' },
  th: {
    position: 'sticky',
    top: 0,
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
  return String(value);
}

/**
 * The rows of a table (spec 2 §2): Status first with a coloured cell, every header sorts
 * (click toggles ascending/descending, with an arrow), and a top scroll bar kept in step with
 * the bottom one.
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
        className={styles.scroller}
        data-testid="bottom-scrollbar"
        onScroll={() => follow(bottom.current, top.current)}
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
                    className={styles.th}
                    scope="col"
                    aria-sort={active ? sort.direction : 'none'}
                  >
                    <button
                      type="button"
                      className={styles.sortButton}
                      onClick={() => setSort((current) => toggleSort(current, column))}
                    >
                      {column}
                      {active &&
                        (sort.direction === 'ascending' ? (
                          <ArrowUpRegular aria-label="sorted ascending" />
                        ) : (
                          <ArrowDownRegular aria-label="sorted descending" />
                        ))}
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
                    <td key={column} className={mergeClasses(styles.td, statusClass)} title={value}>
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
