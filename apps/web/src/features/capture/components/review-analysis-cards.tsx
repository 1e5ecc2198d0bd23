import { captureScoreClass } from '@aegis/domain';
import { Card, makeStyles, Switch, Text, tokens } from '@fluentui/react-components';

import type { ReviewWorkflowFlow } from '../hooks/use-review-workflow-flow';

const useStyles = makeStyles({
  cards: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))',
    gap: '12px',
  },
  card: { padding: '16px', gap: '8px' },
  counts: { display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: '8px' },
  count: { display: 'flex', flexDirection: 'column' },
  countValue: { fontSize: tokens.fontSizeHero700, fontWeight: tokens.fontWeightSemibold },
  excellent: { color: tokens.colorPaletteGreenForeground1 },
  good: { color: tokens.colorPaletteDarkOrangeForeground1 },
  fair: { color: tokens.colorPaletteRedForeground1 },
});

function Count({ label, value }: { label: string; value: number }) {
  const styles = useStyles();
  return (
    <div className={styles.count}>
      <span className={styles.countValue}>{value}</span>
      <Text size={200}>{label}</Text>
    </div>
  );
}

/** 'Capture Analysis' (spec 3 §2): what is new against main, and compliance with the baseline. */
export function ReviewAnalysisCards({ flow }: { flow: ReviewWorkflowFlow }) {
  const styles = useStyles();
  const { analysis, summary, view, dispatchView } = flow;
  const data = analysis.data;
  if (!data || !summary) return null;
  return (
    <>
      <Text as="h3" size={400} weight="semibold">
        Capture Analysis
      </Text>
      <div className={styles.cards}>
        <Card className={styles.card} aria-label="What's New">
          <Text weight="semibold">What&apos;s New</Text>
          <Text size={200}>Against the last merge to main</Text>
          <div className={styles.counts}>
            <Count label="Unchanged" value={data.drift.summary.unchanged} />
            <Count label="Modified" value={data.drift.summary.modified} />
            <Count label="Added" value={data.drift.summary.added} />
            <Count label="Deleted" value={data.drift.summary.deleted} />
            <Count label="Critical" value={data.drift.criticalCount} />
          </div>
        </Card>
        <Card className={styles.card} aria-label="Baseline Compliance">
          <Text weight="semibold">Baseline Compliance</Text>
          <Text size={200}>
            Against the recommended configuration:{' '}
            <span className={styles[captureScoreClass(summary.percentage)]}>
              {summary.percentage}%
            </span>
          </Text>
          <div className={styles.counts}>
            <Count label="Compliant" value={summary.compliant} />
            <Count label="Critical" value={summary.critical} />
            <Count label="High" value={summary.high} />
            <Count label="Medium" value={summary.medium} />
          </div>
          <Switch
            label="Prerequisites"
            checked={view.includePrerequisites}
            onChange={(_, d) => dispatchView({ type: 'includePrerequisites', include: d.checked })}
          />
        </Card>
      </div>
    </>
  );
}
