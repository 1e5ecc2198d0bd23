import type { FleetTrendPoint } from '@aegis/contracts';
import { Sparkline } from '@fluentui/react-charts';
import { Text, tokens } from '@fluentui/react-components';

/** The points of a trend that have a compliance figure, as chart points. */
export function compliancePoints(points: readonly FleetTrendPoint[]) {
  return points.flatMap((p) =>
    p.compliancePercentage === null ? [] : [{ x: new Date(p.date), y: p.compliancePercentage }],
  );
}

/** A row's compliance over time (issue 17 §1): a Fluent UI Sparkline, described in words too. */
export function TrendSparkline({
  client,
  points,
}: {
  client: string;
  points: readonly FleetTrendPoint[];
}) {
  const data = compliancePoints(points);
  if (data.length < 2) return <Text size={200}>Not enough history</Text>;
  const first = data[0]?.y;
  const last = data[data.length - 1]?.y;
  // The sparkline's scale starts at 0; a shape without axes is drawn from just below the lowest value
  // so that a change of a few points shows (the label says the real figures).
  const floor = Math.max(0, Math.min(...data.map((d) => d.y)) - 5);
  const shape = data.map((d) => ({ x: d.x, y: d.y - floor }));
  return (
    <span
      aria-label={`Compliance of ${client} went from ${first}% to ${last}% over ${data.length} points`}
    >
      <Sparkline
        width={84}
        height={24}
        data={{
          chartTitle: `Compliance trend of ${client}`,
          lineChartData: [
            {
              legend: `${client} compliance`,
              data: shape,
              color: tokens.colorBrandForeground1,
            },
          ],
        }}
      />
    </span>
  );
}
