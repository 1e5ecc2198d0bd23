import { displayValue, formatHeaderPercentage, policyKindFolder } from '@aegis/domain';
import { Badge, Button, makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import { ChevronDownRegular, ChevronRightRegular, InfoRegular } from '@fluentui/react-icons';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';

import { BreakableText } from '../../../components/breakable-text';
import type { ViewCategory, ViewPolicy, ViewRow } from '../utils/view-model';

type Item =
  | { kind: 'category'; key: string; category: ViewCategory; expanded: boolean }
  | { kind: 'columns'; key: string }
  | { kind: 'policy'; key: string; policy: ViewPolicy }
  | { kind: 'row'; key: string; row: ViewRow };

const GRID = 'minmax(180px, 2fr) minmax(120px, 1.3fr) minmax(120px, 1.3fr) 84px';

const useStyles = makeStyles({
  // No height of its own: the rows scroll with the page, so there is one scroll bar, not a box
  // of its own inside the page's (issue 19).
  list: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  row: {
    display: 'grid',
    gridTemplateColumns: GRID,
    gap: '12px',
    padding: '6px 16px 6px 40px',
    alignItems: 'start',
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    // values wrap at their <wbr> break points (ADR 039); a piece wider than its column as a last resort
    overflowWrap: 'break-word',
  },
  columns: {
    fontWeight: tokens.fontWeightSemibold,
    backgroundColor: tokens.colorNeutralBackground2,
    color: tokens.colorNeutralForeground2,
  },
  category: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    padding: '8px 12px',
    backgroundColor: tokens.colorNeutralBackground3,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  categoryButton: {
    flexGrow: 1,
    justifyContent: 'flex-start',
    fontWeight: tokens.fontWeightSemibold,
  },
  policy: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    padding: '6px 16px 6px 28px',
    backgroundColor: tokens.colorNeutralBackground2,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
  },
  policyName: { flexGrow: 1, fontWeight: tokens.fontWeightSemibold },
  kind: { color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightRegular },
  mono: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, minWidth: 0 },
  pass: { color: tokens.colorPaletteGreenForeground1, fontWeight: tokens.fontWeightBold },
  fail: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightBold },
});

function flatten(categories: readonly ViewCategory[], expanded: ReadonlySet<string>): Item[] {
  const items: Item[] = [];
  for (const category of categories) {
    const open = expanded.has(category.name);
    items.push({ kind: 'category', key: `c:${category.name}`, category, expanded: open });
    if (!open) continue;
    items.push({ kind: 'columns', key: `h:${category.name}` });
    for (const policy of category.policies) {
      items.push({ kind: 'policy', key: `p:${policy.key}`, policy });
      policy.rows.forEach((row, i) =>
        items.push({ kind: 'row', key: `r:${policy.key}:${i}`, row }),
      );
    }
  }
  return items;
}

function fullText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * Where the list starts on the page: the window virtualiser counts its rows from there. Measured
 * after each render and when the window is resized (the content above can wrap differently).
 */
function usePageOffset(element: RefObject<HTMLElement | null>): number {
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const top = element.current
        ? element.current.getBoundingClientRect().top + window.scrollY
        : 0;
      setOffset((current) => (Math.abs(current - top) < 1 ? current : top));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  });
  return offset;
}

/**
 * Collapsible categories with their policies and rows (Setting, Expected Value, Current Value,
 * Status), virtualised against the page's scroll: only the rows in view are in the DOM, so
 * thousands of rows stay smooth, and the page keeps a single scroll bar.
 */
export function ResultsList({
  categories,
  expanded,
  onToggle,
  onInfo,
}: {
  categories: readonly ViewCategory[];
  expanded: ReadonlySet<string>;
  onToggle: (category: string) => void;
  onInfo: (policy: ViewPolicy) => void;
}) {
  const styles = useStyles();
  const list = useRef<HTMLDivElement>(null);
  const items = useMemo(() => flatten(categories, expanded), [categories, expanded]);
  const scrollMargin = usePageOffset(list);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    scrollMargin,
    estimateSize: (i) => (items[i]?.kind === 'category' ? 49 : 37),
    getItemKey: (i) => items[i]?.key ?? i,
    overscan: 12,
  });

  const render = (item: Item) => {
    switch (item.kind) {
      case 'category': {
        const c = item.category;
        return (
          <div role="row">
            <div className={styles.category} role="cell">
              <Button
                appearance="transparent"
                className={styles.categoryButton}
                icon={item.expanded ? <ChevronDownRegular /> : <ChevronRightRegular />}
                aria-expanded={item.expanded}
                onClick={() => onToggle(c.name)}
              >
                {c.name}
              </Button>
              <Text size={200}>
                {c.policies.length} {c.policies.length === 1 ? 'policy' : 'policies'}
              </Text>
              <Badge appearance="tint" color="success">
                {c.passing} passed
              </Badge>
              <Badge appearance="tint" color={c.failing > 0 ? 'danger' : 'informative'}>
                {c.failing} failed
              </Badge>
              <Text size={200}>{formatHeaderPercentage(c.percentage)}</Text>
            </div>
          </div>
        );
      }
      case 'columns':
        return (
          <div className={mergeClasses(styles.row, styles.columns)} role="row">
            <span role="columnheader">Setting</span>
            <span role="columnheader">Expected Value</span>
            <span role="columnheader">Current Value</span>
            <span role="columnheader">Status</span>
          </div>
        );
      case 'policy': {
        const p = item.policy;
        return (
          <div className={styles.policy} role="row">
            <Text className={styles.policyName} role="rowheader">
              {p.name}
              {/* the kind tells apart same-named policies of a category ('Default') */}
              {p.path && policyKindFolder(p.path) && !p.check && (
                <Text size={200} className={styles.kind}>
                  {' '}
                  · {policyKindFolder(p.path)}
                </Text>
              )}
              {/* where the expected values come from: a layer replaces the company's policy whole */}
              {p.layer && (
                <>
                  {' '}
                  <Badge appearance="tint" color="brand">{`Layer: ${p.layer}`}</Badge>
                </>
              )}
            </Text>
            <Text className={p.pass ? styles.pass : styles.fail} role="cell">
              {p.pass ? 'PASS' : 'FAIL'}
            </Text>
            <span role="cell">
              <Button
                size="small"
                appearance="subtle"
                icon={<InfoRegular />}
                aria-label={`Configuration info for ${p.name}`}
                onClick={() => onInfo(p)}
              />
            </span>
          </div>
        );
      }
      case 'row': {
        const r = item.row;
        return (
          <div className={styles.row} role="row">
            <span role="cell" className={styles.mono} title={r.description}>
              <BreakableText text={r.setting} />
            </span>
            <span role="cell" className={styles.mono} title={fullText(r.expected)}>
              <BreakableText text={displayValue(r.expected)} />
            </span>
            <span role="cell" className={styles.mono} title={fullText(r.current)}>
              <BreakableText text={displayValue(r.current)} />
            </span>
            <span role="cell" className={r.pass ? styles.pass : styles.fail}>
              {r.pass ? 'PASS' : 'FAIL'}
            </span>
          </div>
        );
      }
    }
  };

  return (
    <div
      ref={list}
      className={styles.list}
      role="table"
      aria-label="Comparison results"
      aria-rowcount={items.length}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }} role="rowgroup">
        {virtualizer.getVirtualItems().map((v) => {
          const item = items[v.index];
          if (!item) return null;
          return (
            <div
              key={v.key}
              data-index={v.index}
              role="presentation"
              ref={virtualizer.measureElement}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                width: '100%',
                transform: `translateY(${v.start - scrollMargin}px)`,
              }}
            >
              {render(item)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
