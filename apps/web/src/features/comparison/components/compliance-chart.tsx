import { complianceBand, formatHeaderPercentage } from '@aegis/domain';
import { makeStyles, Text, tokens } from '@fluentui/react-components';

import type { ViewCategory } from '../utils/view-model';

export const BAND_COLOURS = {
  green: tokens.colorPaletteGreenBackground3,
  amber: tokens.colorPaletteMarigoldBackground3,
  red: tokens.colorPaletteRedBackground3,
} as const;

const useStyles = makeStyles({
  chart: {
    display: 'grid',
    gridTemplateColumns: 'minmax(120px, 200px) 1fr 48px',
    gap: '8px 12px',
    alignItems: 'center',
  },
  track: {
    height: '14px',
    backgroundColor: tokens.colorNeutralBackground4,
    borderRadius: tokens.borderRadiusMedium,
    overflow: 'hidden',
  },
  bar: { height: '100%', borderRadius: tokens.borderRadiusMedium },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  value: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
});

/** Per-area compliance as horizontal bars, coloured by band; 0 is a full red bar (spec 1 §9). */
export function ComplianceChart({ categories }: { categories: readonly ViewCategory[] }) {
  const styles = useStyles();
  return (
    <figure
      aria-label="Compliance by area"
      style={{ margin: 0 }}
      className={styles.chart}
      role="group"
    >
      {categories.map((c) => {
        const band = complianceBand(c.percentage);
        return (
          <div key={c.name} style={{ display: 'contents' }}>
            <Text className={styles.name} title={c.name}>
              {c.name}
            </Text>
            <div
              className={styles.track}
              role="meter"
              aria-label={`${c.name} compliance`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={c.percentage}
            >
              <div
                className={styles.bar}
                style={{ width: `${band.barWidth}%`, backgroundColor: BAND_COLOURS[band.colour] }}
              />
            </div>
            <Text className={styles.value}>{formatHeaderPercentage(c.percentage)}</Text>
          </div>
        );
      })}
    </figure>
  );
}
