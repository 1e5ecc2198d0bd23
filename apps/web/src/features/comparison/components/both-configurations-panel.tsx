import { Card, makeStyles, MessageBar, MessageBarBody, Text } from '@fluentui/react-components';

import type { ComparisonFlow } from '../hooks/use-comparison-flow';

import { ConfigurationsViewer } from './configurations-viewer';
import { ProgressPanel } from './progress-panel';

const useStyles = makeStyles({
  section: { padding: '16px', display: 'flex', flexDirection: 'column', gap: '12px' },
  heading: { margin: 0 },
});

/** The client's configuration and the baseline side by side, once View Both Configurations ran. */
export function BothConfigurationsPanel({ flow }: { flow: ComparisonFlow }) {
  const styles = useStyles();
  const view = flow.configurations;
  switch (view.status) {
    case 'idle':
      return null;
    case 'loading':
      return <ProgressPanel percent={view.percent} label="Configurations" />;
    case 'error':
      return (
        <MessageBar intent="error">
          <MessageBarBody>{view.message}</MessageBarBody>
        </MessageBar>
      );
    case 'done':
      return (
        <Card className={styles.section} ref={flow.bothPanel}>
          <Text as="h3" size={500} weight="semibold" className={styles.heading}>
            Both configurations
          </Text>
          <ConfigurationsViewer configurations={view.configurations} />
        </Card>
      );
  }
}
