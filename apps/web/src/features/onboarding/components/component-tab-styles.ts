import { makeStyles, tokens } from '@fluentui/react-components';

/** The layout both component tabs (Baseline Deployment, Off-Board Tenant) share: presets and groups. */
export const useComponentTabStyles = makeStyles({
  tab: { display: 'grid', gap: '16px' },
  row: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  group: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '8px 12px 12px',
    margin: 0,
  },
  legend: { fontWeight: tokens.fontWeightSemibold, padding: '0 4px' },
  items: { display: 'grid', alignItems: 'start', columnGap: '8px' },
});
