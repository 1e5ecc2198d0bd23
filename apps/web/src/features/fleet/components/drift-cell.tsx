import type { DriftSummaryDto } from '@aegis/contracts';
import { formatCaptureDate, selectorRelativeDate } from '@aegis/domain';
import { Badge, Link, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: '2px' },
  meta: { color: tokens.colorNeutralForeground3 },
  partial: { color: tokens.colorPaletteDarkOrangeForeground2 },
});

/** What the Drift filter and column say about a client. */
export type DriftFilter = 'all' | 'drifted' | 'inSync' | 'notChecked';
export const DRIFT_FILTER_LABELS: Record<DriftFilter, string> = {
  all: 'All',
  drifted: 'Drifted',
  inSync: 'In sync',
  notChecked: 'Not checked',
};

export function driftFilterOf(drift: DriftSummaryDto | undefined): Exclude<DriftFilter, 'all'> {
  return drift?.status ?? 'notChecked';
}

export interface DriftCellProps {
  client: string;
  drift: DriftSummaryDto | undefined;
  state: 'pending' | 'error' | 'success';
  now: Date;
  href: string;
}

/** The Fleet's Drift column: drifted or in sync at the last check, who changed it last, and when it was checked. */
export function DriftCell({ client, drift, state, now, href }: DriftCellProps) {
  const styles = useStyles();
  const navigate = useNavigate();
  if (state === 'pending') return <Spinner size="extra-tiny" aria-label="Loading drift" />;
  if (state === 'error') return <Text size={200}>Drift unavailable</Text>;
  if (!drift) return <Text size={200}>Not checked yet</Text>;
  // the link opens the client's drift, not the row's Baseline Compliance
  const open = (e: MouseEvent) => {
    e.preventDefault();
    e.stopPropagation();
    void navigate(href);
  };
  return (
    <div className={styles.stack}>
      <Link
        as="a"
        href={href}
        onClick={open}
        aria-label={`${drift.status === 'drifted' ? `Drifted: ${drift.driftedCount}` : 'In sync'}, drift of ${client}`}
      >
        {drift.status === 'drifted' ? (
          <Badge appearance="filled" color="danger">
            {`Drifted: ${drift.driftedCount}`}
          </Badge>
        ) : (
          <Badge appearance="tint" color="success">
            In sync
          </Badge>
        )}
      </Link>
      {drift.lastChange && drift.status === 'drifted' && (
        <Text size={200}>
          {`by ${drift.lastChange.actor}, ${formatCaptureDate(drift.lastChange.time)}`}
        </Text>
      )}
      {drift.notRead.length > 0 && (
        <Text size={200} className={styles.partial}>
          {`Partial: ${drift.notRead.length} not read`}
        </Text>
      )}
      <Text size={200} className={styles.meta}>
        {`checked ${selectorRelativeDate(drift.checkedAt, now)}`}
      </Text>
    </div>
  );
}
