import type { DriftSummaryDto, FleetRow, FleetTrend } from '@aegis/contracts';
import { FLEET_STATUS_ORDER, formatAge, type FleetStatus } from '@aegis/domain';
import {
  Button,
  createTableColumn,
  DataGrid,
  DataGridBody,
  DataGridCell,
  DataGridHeader,
  DataGridHeaderCell,
  DataGridRow,
  Link,
  makeStyles,
  mergeClasses,
  Spinner,
  Text,
  tokens,
  type TableColumnDefinition,
} from '@fluentui/react-components';
import { DataTrendingRegular } from '@fluentui/react-icons';
import type { KeyboardEvent, MouseEvent } from 'react';

import { HealthBadge } from '../../../components/health-badge';

import { DriftCell, driftFilterOf } from './drift-cell';
import { FleetStatusBadge } from './fleet-status-badge';
import { TrendSparkline } from './trend-sparkline';

const useStyles = makeStyles({
  row: { cursor: 'pointer' },
  missing: {
    margin: '4px 0 0',
    paddingLeft: '16px',
    color: tokens.colorPaletteDarkOrangeForeground2,
    fontSize: tokens.fontSizeBase200,
  },
  stack: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: '2px' },
  trend: { display: 'flex', alignItems: 'center', gap: '4px' },
  meta: { color: tokens.colorNeutralForeground3 },
  scroll: { overflowX: 'auto' },
  // the client stays in view while the grid scrolls sideways on a narrow screen (1024 px)
  sticky: {
    position: 'sticky',
    left: 0,
    zIndex: 1,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  narrow: { flex: '0 0 64px', minWidth: '64px' },
  medium: { flex: '0 0 96px', minWidth: '96px' },
  wide: { flex: '1 1 170px', minWidth: '150px' },
  trendCell: { flex: '0 0 136px', minWidth: '136px' },
});

type Width = 'narrow' | 'medium' | 'wide' | 'trendCell';
const WIDTH: Record<string, Width> = {
  client: 'narrow',
  status: 'wide',
  drift: 'wide',
  compliance: 'narrow',
  standard: 'narrow',
  critical: 'narrow',
  high: 'narrow',
  accepted: 'narrow',
  lastCapture: 'medium',
  pending: 'narrow',
  backup: 'medium',
  trend: 'trendCell',
};

export interface FleetTableProps {
  rows: readonly FleetRow[];
  now: Date;
  trends: ReadonlyMap<string, FleetTrend> | undefined;
  trendsState: 'pending' | 'error' | 'success';
  /** each client's last drift check, by code */
  drift: ReadonlyMap<string, DriftSummaryDto> | undefined;
  driftState: 'pending' | 'error' | 'success';
  /** the client's drift page */
  driftHrefOf: (client: string) => string;
  /** where a row leads: the client's Baseline Compliance */
  hrefOf: (client: string) => string;
  onOpen: (client: string) => void;
  onShowTrend: (client: string) => void;
}

/** Sort with unknown figures last whatever the direction a user picks is handled by DataGrid. */
const byNumber = (get: (r: FleetRow) => number | null) => (a: FleetRow, b: FleetRow) =>
  (get(a) ?? -1) - (get(b) ?? -1);
const byText = (get: (r: FleetRow) => string | null) => (a: FleetRow, b: FleetRow) =>
  (get(a) ?? '').localeCompare(get(b) ?? '');
const STATUS_RANK = new Map<FleetStatus, number>(FLEET_STATUS_ORDER.map((s, i) => [s, i]));

const DRIFT_RANK = { drifted: 0, notChecked: 1, inSync: 2 } as const;

const figure = (value: number | null, suffix = '') =>
  value === null ? <Text aria-label="not available">—</Text> : `${value}${suffix}`;

/** The fleet table (issue 17 §1): sortable; a row opens the client's Baseline Compliance. */
export function FleetTable({
  rows,
  now,
  trends,
  trendsState,
  drift,
  driftState,
  driftHrefOf,
  hrefOf,
  onOpen,
  onShowTrend,
}: FleetTableProps) {
  const styles = useStyles();
  const columns: TableColumnDefinition<FleetRow>[] = [
    createTableColumn<FleetRow>({
      columnId: 'client',
      compare: byText((r) => r.client),
      renderHeaderCell: () => 'Client',
      renderCell: (r) => (
        <Link as="a" href={hrefOf(r.client)} onClick={(e: MouseEvent) => e.preventDefault()}>
          {r.client}
        </Link>
      ),
    }),
    createTableColumn<FleetRow>({
      columnId: 'status',
      compare: (a, b) => (STATUS_RANK.get(a.status) ?? 0) - (STATUS_RANK.get(b.status) ?? 0),
      renderHeaderCell: () => 'Status',
      renderCell: (r) => (
        <div className={styles.stack}>
          <FleetStatusBadge status={r.status} />
          {r.missing.length > 0 && (
            <ul className={styles.missing} aria-label={`Missing for ${r.client}`}>
              {r.missing.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          )}
        </div>
      ),
    }),
    createTableColumn<FleetRow>({
      columnId: 'drift',
      compare: (a, b) =>
        DRIFT_RANK[driftFilterOf(drift?.get(a.client))] -
        DRIFT_RANK[driftFilterOf(drift?.get(b.client))],
      renderHeaderCell: () => 'Drift',
      renderCell: (r) => (
        <DriftCell
          client={r.client}
          drift={drift?.get(r.client)}
          state={driftState}
          now={new Date()}
          href={driftHrefOf(r.client)}
        />
      ),
    }),
    createTableColumn<FleetRow>({
      columnId: 'compliance',
      compare: byNumber((r) => r.compliancePercentage),
      renderHeaderCell: () => 'Baseline',
      renderCell: (r) => figure(r.compliancePercentage, '%'),
    }),
    createTableColumn<FleetRow>({
      columnId: 'standard',
      compare: byNumber((r) => r.standardPercentage),
      renderHeaderCell: () => 'Standard',
      renderCell: (r) => figure(r.standardPercentage, '%'),
    }),
    createTableColumn<FleetRow>({
      columnId: 'critical',
      compare: byNumber((r) => r.criticalCount),
      renderHeaderCell: () => 'Critical',
      renderCell: (r) => figure(r.criticalCount),
    }),
    createTableColumn<FleetRow>({
      columnId: 'high',
      compare: byNumber((r) => r.highCount),
      renderHeaderCell: () => 'High',
      renderCell: (r) => figure(r.highCount),
    }),
    createTableColumn<FleetRow>({
      columnId: 'accepted',
      compare: byNumber((r) => r.acceptedDeviations),
      renderHeaderCell: () => 'Accepted',
      renderCell: (r) => figure(r.acceptedDeviations),
    }),
    createTableColumn<FleetRow>({
      columnId: 'lastCapture',
      compare: byText((r) => r.lastCapture),
      renderHeaderCell: () => 'Last capture',
      renderCell: (r) => formatAge(r.lastCapture, now),
    }),
    createTableColumn<FleetRow>({
      columnId: 'pending',
      compare: byNumber((r) => r.pendingReviews),
      renderHeaderCell: () => 'Pending',
      renderCell: (r) => figure(r.pendingReviews),
    }),
    createTableColumn<FleetRow>({
      columnId: 'backup',
      compare: byText((r) => r.lastBackup),
      renderHeaderCell: () => 'Last backup',
      renderCell: (r) => (
        <div className={styles.stack}>
          {r.backupHealth ? <HealthBadge health={r.backupHealth} size="medium" /> : figure(null)}
          <Text size={200} className={styles.meta}>
            {formatAge(r.lastBackup, now)}
          </Text>
        </div>
      ),
    }),
    createTableColumn<FleetRow>({
      columnId: 'trend',
      renderHeaderCell: () => 'Trend',
      renderCell: (r) => {
        const trend = trends?.get(r.client);
        return (
          <div className={styles.trend}>
            {trendsState === 'pending' && <Spinner size="extra-tiny" aria-label="Loading trend" />}
            {trendsState === 'error' && <Text size={200}>Trend unavailable</Text>}
            {trendsState === 'success' &&
              (trend ? (
                <TrendSparkline client={r.client} points={trend.points} />
              ) : (
                <Text size={200}>No history</Text>
              ))}
            <Button
              appearance="subtle"
              size="small"
              icon={<DataTrendingRegular />}
              aria-label={`Show the trend of ${r.client}`}
              onClick={(e) => {
                e.stopPropagation();
                onShowTrend(r.client);
              }}
            />
          </div>
        );
      },
    }),
  ];

  const cellClass = (columnId: string | number) =>
    mergeClasses(
      styles[WIDTH[String(columnId)] ?? 'medium'],
      columnId === 'client' && styles.sticky,
    );

  return (
    <div className={styles.scroll}>
      <DataGrid
        items={[...rows]}
        columns={columns}
        sortable
        defaultSortState={{ sortColumn: 'status', sortDirection: 'ascending' }}
        getRowId={(r: FleetRow) => r.client}
        aria-label="Fleet"
      >
        <DataGridHeader>
          <DataGridRow>
            {({ renderHeaderCell, columnId }) => (
              <DataGridHeaderCell className={cellClass(columnId)}>
                {renderHeaderCell()}
              </DataGridHeaderCell>
            )}
          </DataGridRow>
        </DataGridHeader>
        <DataGridBody<FleetRow>>
          {({ item, rowId }) => (
            <DataGridRow<FleetRow>
              key={rowId}
              className={styles.row}
              onClick={() => onOpen(item.client)}
              onKeyDown={(e: KeyboardEvent<HTMLDivElement>) => {
                if (e.key === 'Enter' && e.target === e.currentTarget) onOpen(item.client);
              }}
            >
              {({ renderCell, columnId }) => (
                <DataGridCell className={cellClass(columnId)}>{renderCell(item)}</DataGridCell>
              )}
            </DataGridRow>
          )}
        </DataGridBody>
      </DataGrid>
    </div>
  );
}
