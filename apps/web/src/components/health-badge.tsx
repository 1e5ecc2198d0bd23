// Backup health (spec 3 §4) as a badge: the backups screen and the fleet show it alike.
import type { BackupHealth } from '@aegis/domain';
import { Badge, type BadgeProps } from '@fluentui/react-components';

const COLOR: Record<BackupHealth, BadgeProps['color']> = {
  Healthy: 'success',
  Warning: 'warning',
  Critical: 'danger',
  'No Backups': 'informative',
  Running: 'brand',
};

export function HealthBadge({ health, size }: { health: BackupHealth; size?: BadgeProps['size'] }) {
  return (
    <Badge appearance="filled" color={COLOR[health]} size={size ?? 'large'}>
      {health}
    </Badge>
  );
}
