import type { Pipeline } from '@aegis/contracts';
import { Card, CardHeader, makeStyles, Text, tokens } from '@fluentui/react-components';
import { FlowRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', gap: '12px' },
  icon: { fontSize: '24px', color: tokens.colorBrandForeground1 },
  client: { color: tokens.colorNeutralForeground3 },
  body: { display: 'flex', flexDirection: 'column', gap: '8px' },
});

export function PipelineCard({ pipeline, children }: { pipeline: Pipeline; children: ReactNode }) {
  const styles = useStyles();
  return (
    <Card className={styles.card} role="group" aria-label={`${pipeline.name} (${pipeline.folder})`}>
      <CardHeader
        image={<FlowRegular className={styles.icon} aria-hidden />}
        header={<Text weight="semibold">{pipeline.name}</Text>}
        description={<Text className={styles.client}>Client: {pipeline.folder}</Text>}
      />
      <div className={styles.body}>{children}</div>
    </Card>
  );
}
