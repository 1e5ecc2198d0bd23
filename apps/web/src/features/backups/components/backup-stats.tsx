import type { BackupHealth } from '@aegis/domain';
import { Card, makeStyles, Text, tokens } from '@fluentui/react-components';
import {
  ArchiveRegular,
  DatabaseRegular,
  HeartPulseRegular,
  HistoryRegular,
} from '@fluentui/react-icons';
import type { ReactNode } from 'react';

import { HealthBadge } from '../../../components/health-badge';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    // Equal columns and rows: a value that wraps ('Latest Backup') makes every card taller alike.
    gridTemplateColumns: 'repeat(auto-fit, minmax(170px, 1fr))',
    gridAutoRows: '1fr',
    gap: '12px',
    marginBottom: '16px',
  },
  card: {
    padding: '16px',
    display: 'flex',
    flexDirection: 'row',
    gap: '12px',
    height: '100%',
    boxSizing: 'border-box',
  },
  icon: { fontSize: '28px', color: tokens.colorBrandForeground1, flexShrink: 0 },
  body: { display: 'flex', flexDirection: 'column', gap: '4px', minWidth: 0 },
  label: { color: tokens.colorNeutralForeground3 },
  value: {
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
    lineHeight: tokens.lineHeightBase500,
  },
});

function Stat({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  const styles = useStyles();
  return (
    <Card className={styles.card} role="group" aria-label={label}>
      <span className={styles.icon} aria-hidden>
        {icon}
      </span>
      <div className={styles.body}>
        <Text className={styles.label}>{label}</Text>
        <div className={styles.value}>{children}</div>
      </div>
    </Card>
  );
}

/** The four stat cards (spec 3 §2): latest backup, total backups, storage used, status. */
export function BackupStats({
  latest,
  total,
  storageUsed,
  health,
}: {
  latest: string;
  total: number | string;
  storageUsed: string;
  /** undefined while the history is not available */
  health: BackupHealth | undefined;
}) {
  const styles = useStyles();
  return (
    <div className={styles.grid}>
      <Stat icon={<HistoryRegular />} label="Latest Backup">
        {latest}
      </Stat>
      <Stat icon={<ArchiveRegular />} label="Total Backups">
        {total}
      </Stat>
      <Stat icon={<DatabaseRegular />} label="Storage Used">
        {storageUsed}
      </Stat>
      <Stat icon={<HeartPulseRegular />} label="Status">
        {health ? <HealthBadge health={health} /> : '—'}
      </Stat>
    </div>
  );
}
