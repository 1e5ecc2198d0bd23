import { LineChart } from '@fluentui/react-charts';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';

import { useClientTrend } from '../api/fleet-api';

import { compliancePoints } from './trend-sparkline';

/** One client's compliance and critical count over time (issue 17 §2), as two Fluent UI line charts. */
const useStyles = makeStyles({ chart: { height: '320px', marginTop: '12px' } });

export function TrendDialog({ client, onClose }: { client: string; onClose: () => void }) {
  const styles = useStyles();
  const trend = useClientTrend(client);
  const points = trend.data?.points ?? [];
  const compliance = compliancePoints(points);
  const critical = points.flatMap((p) =>
    p.criticalCount === null ? [] : [{ x: new Date(p.date), y: p.criticalCount }],
  );
  const maxCritical = Math.max(5, ...critical.map((c) => c.y + 1));
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface style={{ maxWidth: '820px' }}>
        <DialogBody>
          <DialogTitle>Compliance trend of {client}</DialogTitle>
          <DialogContent>
            {trend.isPending && <Spinner label="Loading the trend..." />}
            {trend.isError && (
              <MessageBar intent="error">
                <MessageBarBody>Failed to load the trend: {trend.error.message}</MessageBarBody>
              </MessageBar>
            )}
            {trend.isSuccess && compliance.length === 0 && (
              <Text>No point of the history has a configuration to measure.</Text>
            )}
            {trend.isSuccess && compliance.length > 0 && (
              <>
                <Text block>
                  {points.length} points: merges to main touching Clients/{client} and its backups.
                  Latest: {compliance[compliance.length - 1]?.y}% compliant,{' '}
                  {critical[critical.length - 1]?.y ?? 0} critical.
                </Text>
                <div className={styles.chart}>
                  <LineChart
                    yMinValue={0}
                    yMaxValue={100}
                    yAxisTitle="Compliance %"
                    secondaryYAxistitle="Critical deviations"
                    secondaryYScaleOptions={{ yMinValue: 0, yMaxValue: maxCritical }}
                    data={{
                      chartTitle: `Compliance and critical deviations of ${client}`,
                      lineChartData: [
                        {
                          legend: 'Compliance %',
                          data: compliance,
                          color: tokens.colorBrandForeground1,
                        },
                        {
                          legend: 'Critical deviations',
                          data: critical,
                          color: tokens.colorPaletteRedForeground1,
                          useSecondaryYScale: true,
                        },
                      ],
                    }}
                  />
                </div>
              </>
            )}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
