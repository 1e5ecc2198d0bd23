import type { RolloutTenantPlanDto } from '@aegis/contracts';
import { countOf, inNumber } from '@aegis/domain';
import { makeStyles, Text } from '@fluentui/react-components';

const useStyles = makeStyles({
  list: { margin: 0, paddingInlineStart: '20px' },
});

/**
 * What a tenant's plan could not read (ADR 087): each workload with the reason in the service's
 * words, and how many baseline policies of it the plan counted without knowing the tenant's.
 */
export function UnreadWorkloadList({ unread }: { unread: RolloutTenantPlanDto['unread'] }) {
  const styles = useStyles();
  return (
    <ul className={styles.list}>
      {(unread ?? []).map((u) => (
        <li key={u.workload}>
          <Text weight="semibold">{u.workload}</Text>
          {/* the service's words may end the sentence already */}
          {`: ${u.text}${/\.\)?$/.test(u.text) ? '' : '.'} `}
          {u.baselinePolicies === 0
            ? 'The baseline has no policy there.'
            : `${countOf(u.baselinePolicies, 'baseline policy', 'baseline policies')} there ${inNumber(u.baselinePolicies, 'is', 'are')} counted as to create; the deploy writes ${inNumber(u.baselinePolicies, 'it', 'them')} over what the tenant holds.`}
        </li>
      ))}
    </ul>
  );
}
