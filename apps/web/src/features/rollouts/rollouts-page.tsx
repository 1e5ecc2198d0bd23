import { formatCaptureDate } from '@aegis/domain';
import {
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
} from '@fluentui/react-components';
import { Link as RouterLink } from 'react-router';

import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { paths } from '../../config/paths';

import { useRollouts } from './api/rollouts-api';
import { RolloutStatusBadge } from './rollout-page';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '16px' },
});

/** Every rollout of the baseline, newest first, and the way to a new one (issue 30 §3). */
export function RolloutsPage() {
  const styles = useStyles();
  const rollouts = useRollouts();
  return (
    <div className={styles.root}>
      <PageHeader
        title="Baseline Rollouts"
        subtitle="A baseline change deployed to chosen clients ring by ring, halted when a ring fails"
        actions={<RouterLink to={paths.newRollout.getHref()}>New rollout</RouterLink>}
      />
      <QueryState
        query={rollouts}
        loading="Loading the rollouts..."
        failed="The rollouts could not be loaded"
      >
        {({ rollouts: list }) =>
          list.length === 0 ? (
            <Text>
              No rollout yet. Start with a new rollout: its plan shows what each tenant gets.
            </Text>
          ) : (
            <Table aria-label="Rollouts">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>Planned</TableHeaderCell>
                  <TableHeaderCell>Status</TableHeaderCell>
                  <TableHeaderCell>Rings</TableHeaderCell>
                  <TableHeaderCell>Planned by</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((r) => (
                  <TableRow key={r.id}>
                    <TableCell>
                      <RouterLink to={paths.rollout.getHref(r.id)}>
                        {r.createdAt ? formatCaptureDate(r.createdAt) : r.id}
                      </RouterLink>
                    </TableCell>
                    <TableCell>
                      <RolloutStatusBadge status={r.status} />
                    </TableCell>
                    <TableCell>
                      {r.rings
                        .map((ring) => `${ring.name}: ${ring.clients.join(', ')}`)
                        .join(' · ') || 'No tenant had anything to do'}
                    </TableCell>
                    <TableCell>{r.createdBy}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )
        }
      </QueryState>
    </div>
  );
}
