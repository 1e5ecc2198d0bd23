import type { ComplianceSummary } from '@aegis/domain';
import { complianceBand, scoreDescription } from '@aegis/domain';
import { Card, makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  cards: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))',
    gap: '12px',
  },
  card: { padding: '12px 16px', gap: '2px' },
  value: {
    fontSize: tokens.fontSizeHero700,
    fontWeight: tokens.fontWeightSemibold,
    lineHeight: 1.1,
  },
  critical: { color: tokens.colorPaletteRedForeground1 },
  high: { color: tokens.colorPaletteDarkOrangeForeground1 },
  score: { marginTop: '16px', display: 'flex', flexDirection: 'column', gap: '6px' },
  track: {
    height: '14px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorNeutralBackground5,
    overflow: 'hidden',
  },
  bar: { height: '100%', borderRadius: tokens.borderRadiusCircular },
  green: { backgroundColor: tokens.colorPaletteGreenBackground3 },
  amber: { backgroundColor: tokens.colorPaletteMarigoldBackground3 },
  red: { backgroundColor: tokens.colorPaletteRedBackground3 },
  scoreLine: { display: 'flex', justifyContent: 'space-between', gap: '12px' },
});

function Stat({
  label,
  value,
  detail,
  className,
}: {
  label: string;
  value: number | string;
  detail?: string;
  className?: string;
}) {
  const styles = useStyles();
  return (
    <Card className={styles.card} role="group" aria-label={label}>
      <Text size={200}>{label}</Text>
      <span className={mergeClasses(styles.value, className)}>{value}</span>
      {detail && <Text size={200}>{detail}</Text>}
    </Card>
  );
}

/** Summary cards and the overall compliance score bar (spec 3 §2, §9). */
export function SummaryCards({ data, unmatched }: { data: ComplianceSummary; unmatched: number }) {
  const styles = useStyles();
  const band = complianceBand(data.compliancePercentage);
  return (
    <section aria-label="Compliance summary">
      <div className={styles.cards}>
        <Stat label="Total Policies" value={data.totalCount} />
        <Stat
          label="Compliant"
          value={data.compliantCount}
          detail={`${data.compliancePercentage}%`}
        />
        <Stat label="Deviations" value={data.deviationCount} />
        <Stat label="Critical" value={data.criticalCount} className={styles.critical} />
        <Stat label="High Priority" value={data.highCount} className={styles.high} />
        <Stat label="Baseline Prerequisites" value={data.prerequisiteCount} />
        {unmatched > 0 && <Stat label="Unmatched" value={unmatched} />}
      </div>
      <div className={styles.score}>
        <div className={styles.scoreLine}>
          <Text weight="semibold">Overall Compliance Score</Text>
          <Text weight="semibold">{data.compliancePercentage}%</Text>
        </div>
        <div
          className={styles.track}
          role="progressbar"
          aria-label="Overall compliance score"
          aria-valuenow={data.compliancePercentage}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div
            className={mergeClasses(styles.bar, styles[band.colour])}
            style={{ width: `${band.barWidth}%` }}
          />
        </div>
        <Text>{scoreDescription(data.compliancePercentage)}</Text>
      </div>
    </section>
  );
}
