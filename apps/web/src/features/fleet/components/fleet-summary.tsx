import type { Fleet } from '@aegis/contracts';
import { FLEET_STATUS_LABELS, type FleetStatus } from '@aegis/domain';
import {
  Badge,
  Card,
  CardHeader,
  makeStyles,
  mergeClasses,
  Text,
  tokens,
} from '@fluentui/react-components';

const useStyles = makeStyles({
  root: { display: 'grid', gap: '16px', gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)' },
  counts: { display: 'grid', gap: '12px', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
  count: { padding: '12px 16px' },
  figure: { fontSize: tokens.fontSizeHero800, lineHeight: tokens.lineHeightHero800 },
  list: { margin: 0, paddingLeft: '20px', display: 'grid', gap: '8px' },
  meta: { color: tokens.colorNeutralForeground3 },
  critical: { color: tokens.colorPaletteRedForeground1 },
  atRisk: { color: tokens.colorPaletteDarkOrangeForeground1 },
  compliant: { color: tokens.colorPaletteGreenForeground1 },
  incomplete: { color: tokens.colorNeutralForeground1 },
});

const SHOWN: readonly FleetStatus[] = ['compliant', 'atRisk', 'critical', 'incomplete'];
const SEVERITY_COLOR = {
  critical: 'danger',
  high: 'important',
  medium: 'warning',
  low: 'informative',
  prerequisite: 'subtle',
} as const;

/** The fleet summary (issue 17 §3): clients per status, and the worst five deviations. */
export function FleetSummary({ fleet }: { fleet: Fleet }) {
  const styles = useStyles();
  return (
    <section className={styles.root} aria-label="Fleet summary">
      <div className={styles.counts}>
        {SHOWN.map((status) => (
          <Card key={status} className={styles.count} aria-label={FLEET_STATUS_LABELS[status]}>
            <Text className={styles.meta}>{FLEET_STATUS_LABELS[status]}</Text>
            <Text weight="semibold" className={mergeClasses(styles.figure, styles[status])}>
              {fleet.summary[status]}
            </Text>
            <Text size={200} className={styles.meta}>
              of {fleet.summary.clients} clients
            </Text>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader
          header={
            <Text as="h2" weight="semibold" size={400}>
              Worst deviations across the fleet
            </Text>
          }
        />
        {fleet.worstDeviations.length === 0 ? (
          <Text>No deviations in any client.</Text>
        ) : (
          <ol className={styles.list}>
            {fleet.worstDeviations.map((d) => (
              <li key={`${d.path}\n${d.property}`}>
                <Text weight="semibold">{d.policyName}</Text>
                {d.property ? <Text> — {d.property}</Text> : <Text> — missing</Text>}{' '}
                <Badge appearance="tint" color={SEVERITY_COLOR[d.severity]} size="small">
                  {d.severity}
                </Badge>
                <Text size={200} className={styles.meta} block>
                  Failing in {d.clientCount} of {fleet.summary.clients} clients:{' '}
                  {d.clients.join(', ')}
                </Text>
              </li>
            ))}
          </ol>
        )}
      </Card>
    </section>
  );
}
