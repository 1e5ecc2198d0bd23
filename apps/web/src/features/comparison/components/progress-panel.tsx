import { Card, makeStyles, ProgressBar, Text } from '@fluentui/react-components';

import { progressMessage } from '../utils/view-model';

const useStyles = makeStyles({
  progress: { padding: '16px', display: 'flex', flexDirection: 'column', gap: '8px' },
  progressText: { display: 'flex', justifyContent: 'space-between' },
});

/** The progress of a comparison or of loading both configurations, with its stage. */
export function ProgressPanel({ percent, label }: { percent: number; label: string }) {
  const styles = useStyles();
  return (
    <Card className={styles.progress} role="status" aria-label={label}>
      <div className={styles.progressText}>
        <Text weight="semibold">{progressMessage(percent)}</Text>
        <Text>{percent}%</Text>
      </div>
      <ProgressBar
        value={percent / 100}
        thickness="large"
        aria-label={`${label} progress`}
        color={percent >= 100 ? 'success' : 'brand'}
      />
    </Card>
  );
}
