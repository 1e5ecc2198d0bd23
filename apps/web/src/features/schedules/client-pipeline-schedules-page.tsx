import type { ClientScheduleRow } from '@aegis/contracts';
import { SCHEDULE_MESSAGES } from '@aegis/domain';
import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  ProgressBar,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowSortDownRegular, ArrowSortUpRegular } from '@fluentui/react-icons';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';

import { PageHeader } from '../../components/page-header';
import { RoleGate, useRoleGate } from '../../components/role-gate';

import { useScheduleRows } from './api/schedules';
import { ScheduleDialog } from './schedule-dialog';
import { WeekView } from './week-view';

const useStyles = makeStyles({
  section: { marginTop: '20px', display: 'flex', flexDirection: 'column', gap: '8px' },
  toolbar: {
    display: 'flex',
    gap: '12px',
    alignItems: 'flex-end',
    flexWrap: 'wrap',
    marginTop: '12px',
  },
  muted: { color: tokens.colorNeutralForeground3 },
  schedule: { display: 'flex', flexDirection: 'column' },
  clickableRow: { cursor: 'pointer' },
});

function formatNextRun(iso: string | null): string {
  if (!iso) return 'next run unknown';
  const date = new Date(iso);
  return `next run ${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Client Pipeline Schedules (spec 2 §2, §4, §5, §8; spec 3 §2 ?client=; issue 16). */
export function ClientPipelineSchedulesPage() {
  const styles = useStyles();
  const [params] = useSearchParams();
  const preselected = params.get('client')?.toUpperCase() ?? '';
  const schedules = useScheduleRows();
  const gate = useRoleGate('Operator');
  const [filter, setFilter] = useState(preselected);
  const [descending, setDescending] = useState(false);
  const [editing, setEditing] = useState<string | undefined>(preselected || undefined);
  const [banner, setBanner] = useState<string>();
  const rows = useMemo(() => schedules.data?.rows ?? [], [schedules.data]);

  const visible = useMemo(() => {
    const query = filter.trim().toUpperCase();
    const matching = rows.filter((row) => row.clientCode.toUpperCase().includes(query));
    const sorted = [...matching].sort((a, b) => a.clientCode.localeCompare(b.clientCode));
    return descending ? sorted.reverse() : sorted;
  }, [rows, filter, descending]);
  const scheduled = visible.filter((row) => row.schedules.length > 0);
  const unscheduled = visible.filter((row) => row.schedules.length === 0);
  const editingRow = rows.find((row) => row.clientCode === editing);

  const sortButton = (
    <Button
      appearance="transparent"
      icon={descending ? <ArrowSortDownRegular /> : <ArrowSortUpRegular />}
      aria-label={`Client, sorted ${descending ? 'descending' : 'ascending'}`}
      onClick={() => setDescending((d) => !d)}
    >
      Client
    </Button>
  );

  const openSchedule = (row: ClientScheduleRow) => {
    setBanner(undefined);
    setEditing(row.clientCode);
  };
  // Spec 2 §2: clicking a row opens its modal; the row's button is the keyboard's way to it
  const rowProps = (row: ClientScheduleRow) =>
    gate.allowed ? { className: styles.clickableRow, onClick: () => openSchedule(row) } : {};

  const openButton = (row: ClientScheduleRow) => (
    <RoleGate needs="Operator">
      <Button
        appearance="subtle"
        onClick={(event) => {
          // the row opens it too
          event.stopPropagation();
          openSchedule(row);
        }}
      >
        {row.schedules.length > 0 ? 'Update Schedule' : 'Add Schedule'}
      </Button>
    </RoleGate>
  );

  return (
    <>
      <PageHeader
        title="Client Pipeline Schedules"
        subtitle="One weekly build per client pipeline, on a 30-minute grid (UTC)"
        actions={<Button onClick={() => void schedules.refetch()}>Refresh</Button>}
      />
      {schedules.isFetching && (
        <Field label={`Loading pipeline schedules... ${schedules.percent}%`} validationState="none">
          <ProgressBar value={schedules.percent / 100} aria-label="Loading pipeline schedules" />
        </Field>
      )}
      {schedules.isError && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{SCHEDULE_MESSAGES.loadError}</MessageBarBody>
        </MessageBar>
      )}
      {banner && (
        <MessageBar intent="success" role="status">
          <MessageBarBody>{banner}</MessageBarBody>
        </MessageBar>
      )}
      {schedules.isSuccess && !banner && (
        <Text role="status" className={styles.muted}>
          {SCHEDULE_MESSAGES.loaded}
        </Text>
      )}
      <div className={styles.toolbar}>
        <Field label="Filter by client">
          <Input value={filter} onChange={(_event, data) => setFilter(data.value)} />
        </Field>
      </div>

      <section className={styles.section} aria-labelledby="scheduled-heading">
        <Text as="h2" size={500} weight="semibold" id="scheduled-heading">
          Clients with Scheduled Pipelines
        </Text>
        <Table aria-labelledby="scheduled-heading" size="small">
          <TableHeader>
            <TableRow>
              <TableHeaderCell aria-sort={descending ? 'descending' : 'ascending'}>
                {sortButton}
              </TableHeaderCell>
              <TableHeaderCell>Pipeline</TableHeaderCell>
              <TableHeaderCell>Schedules</TableHeaderCell>
              <TableHeaderCell>Action</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {scheduled.map((row) => (
              <TableRow key={row.clientCode} {...rowProps(row)}>
                <TableCell>{row.clientCode}</TableCell>
                <TableCell>{row.pipelineName}</TableCell>
                <TableCell>
                  {row.schedules.map((schedule) => (
                    <span key={schedule.cron} className={styles.schedule}>
                      <span>
                        {schedule.displayName} ({schedule.cron})
                      </span>
                      <span className={styles.muted}>
                        {schedule.description}; {formatNextRun(schedule.nextRun)}
                      </span>
                    </span>
                  ))}
                </TableCell>
                <TableCell>{openButton(row)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {schedules.isSuccess && scheduled.length === 0 && (
          <Text className={styles.muted}>No client matches.</Text>
        )}
      </section>

      <section className={styles.section} aria-labelledby="unscheduled-heading">
        <Text as="h2" size={500} weight="semibold" id="unscheduled-heading">
          Clients without Scheduled Pipelines
        </Text>
        <Table aria-labelledby="unscheduled-heading" size="small">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Client</TableHeaderCell>
              <TableHeaderCell>Pipeline</TableHeaderCell>
              <TableHeaderCell>Schedules</TableHeaderCell>
              <TableHeaderCell>Action</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {unscheduled.map((row) => (
              <TableRow key={row.clientCode} {...rowProps(row)}>
                <TableCell>{row.clientCode}</TableCell>
                <TableCell>{row.pipelineName}</TableCell>
                <TableCell>{SCHEDULE_MESSAGES.noSchedule}</TableCell>
                <TableCell>{openButton(row)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {schedules.isSuccess && unscheduled.length === 0 && (
          <Text className={styles.muted}>Every client shown has a schedule.</Text>
        )}
      </section>

      {schedules.isSuccess && <WeekView rows={rows} />}

      {editingRow && (
        <ScheduleDialog
          row={editingRow}
          rows={rows}
          onClose={() => setEditing(undefined)}
          onSaved={(message) => {
            setEditing(undefined);
            setBanner(message);
          }}
        />
      )}
    </>
  );
}
