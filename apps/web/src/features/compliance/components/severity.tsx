import type { Severity } from '@aegis/domain';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import {
  CheckmarkCircleFilled,
  ClipboardTaskListLtrRegular,
  ErrorCircleFilled,
  InfoFilled,
  WarningFilled,
} from '@fluentui/react-icons';

const useStyles = makeStyles({
  critical: { color: tokens.colorPaletteRedForeground1 },
  high: { color: tokens.colorPaletteDarkOrangeForeground1 },
  medium: { color: tokens.colorPaletteMarigoldForeground1 },
  low: { color: tokens.colorPaletteGreenForeground1 },
  prerequisite: { color: tokens.colorNeutralForeground2 },
  icon: { fontSize: '18px', flexShrink: 0 },
});

export const SEVERITY_LABELS: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  prerequisite: 'Prerequisite',
};

/** Severity icons (spec 3 §2): critical red, high orange, medium yellow, low green, prerequisite clipboard. */
export function SeverityIcon({ severity }: { severity: Severity }) {
  const styles = useStyles();
  const className = mergeClasses(styles.icon, styles[severity]);
  const props = { className, 'aria-hidden': true } as const;
  switch (severity) {
    case 'critical':
      return <ErrorCircleFilled {...props} />;
    case 'high':
      return <WarningFilled {...props} />;
    case 'medium':
      return <InfoFilled {...props} />;
    case 'low':
      return <CheckmarkCircleFilled {...props} />;
    default:
      return <ClipboardTaskListLtrRegular {...props} />;
  }
}
