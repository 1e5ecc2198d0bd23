import { FLEET_STATUS_LABELS, type FleetStatus } from '@aegis/domain';
import { Badge, type BadgeProps } from '@fluentui/react-components';

const COLOR: Record<FleetStatus, BadgeProps['color']> = {
  critical: 'danger',
  incomplete: 'warning',
  atRisk: 'important',
  compliant: 'success',
};

export function FleetStatusBadge({ status }: { status: FleetStatus }) {
  return (
    <Badge appearance="filled" color={COLOR[status]}>
      {FLEET_STATUS_LABELS[status]}
    </Badge>
  );
}
