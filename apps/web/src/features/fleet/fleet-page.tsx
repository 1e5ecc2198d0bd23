import type { FleetRow } from '@aegis/contracts';
import { FLEET_STATUS_LABELS, FLEET_STATUS_ORDER, type FleetStatus } from '@aegis/domain';
import {
  Button,
  Dropdown,
  Field,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Option,
  SearchBox,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';

import { PageHeader } from '../../components/page-header';
import { paths } from '../../config/paths';

import { useFleet, useFleetDrift, useFleetTrends } from './api/fleet-api';
import { DRIFT_FILTER_LABELS, driftFilterOf, type DriftFilter } from './components/drift-cell';
import { FleetSummary } from './components/fleet-summary';
import { FleetTable } from './components/fleet-table';
import { TrendDialog } from './components/trend-dialog';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '16px' },
  filters: { display: 'flex', gap: '12px', alignItems: 'flex-end', flexWrap: 'wrap' },
  meta: { color: tokens.colorNeutralForeground3 },
});

type StatusFilter = FleetStatus | 'all';
const DRIFT_FILTERS = Object.keys(DRIFT_FILTER_LABELS) as DriftFilter[];

function parseDriftFilter(value: string | null): DriftFilter {
  return DRIFT_FILTERS.find((f) => f === value) ?? 'all';
}

function parseStatusFilter(value: string | null): StatusFilter {
  return FLEET_STATUS_ORDER.find((s) => s === value) ?? 'all';
}

/** Where a fleet row leads: the client's Baseline Compliance (capture management's tab). */
export const baselineComplianceHref = (client: string) =>
  `${paths.captureManagement.getHref(client)}?view=baseline`;

/** /fleet (issue 17): every client's compliance, backups and captures, with a summary and trends. */
export function FleetPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const fleet = useFleet();
  const trends = useFleetTrends();
  const drift = useFleetDrift();
  // The filters live in the address (?q=&status=), so Back from a client's page finds them again
  // and a link shares them; replacing the entry keeps typing out of the history.
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const status = parseStatusFilter(params.get('status'));
  const driftFilter = parseDriftFilter(params.get('drift'));
  const setFilter = (key: 'q' | 'status' | 'drift', value: string, unset: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === unset) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  const [trendOf, setTrendOf] = useState<string | undefined>();

  const trendMap = useMemo(
    () => (trends.data ? new Map(trends.data.trends.map((t) => [t.client, t])) : undefined),
    [trends.data],
  );
  const driftMap = useMemo(
    () => (drift.data ? new Map(drift.data.clients.map((d) => [d.client, d])) : undefined),
    [drift.data],
  );
  const rows: FleetRow[] = useMemo(() => {
    const text = search.trim().toUpperCase();
    return (fleet.data?.rows ?? []).filter(
      (r) =>
        (status === 'all' || r.status === status) &&
        (text === '' || r.client.includes(text)) &&
        (driftFilter === 'all' || driftFilterOf(driftMap?.get(r.client)) === driftFilter),
    );
  }, [fleet.data, search, status, driftFilter, driftMap]);
  const now = fleet.data ? new Date(fleet.data.generatedAt) : new Date();

  return (
    <div className={styles.root}>
      <PageHeader
        title="Fleet"
        subtitle="Every client's compliance, captures and backups at main, with their trend."
        actions={
          <Button
            icon={<ArrowClockwiseRegular />}
            onClick={() => {
              void fleet.refetch();
              void trends.refetch();
              void drift.refetch();
            }}
            disabled={fleet.isFetching}
          >
            Refresh
          </Button>
        }
      />
      {fleet.isPending && <Spinner label="Loading the fleet..." />}
      {fleet.isError && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Failed to load the fleet.</MessageBarTitle>
            {fleet.error.message}
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void fleet.refetch()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {fleet.data && fleet.data.rows.length === 0 && (
        <MessageBar intent="info">
          <MessageBarBody>No clients yet: onboard a tenant to see it here.</MessageBarBody>
        </MessageBar>
      )}
      {fleet.data && fleet.data.rows.length > 0 && (
        <>
          <FleetSummary fleet={fleet.data} />
          <div className={styles.filters}>
            <Field label="Filter clients">
              <SearchBox
                value={search}
                placeholder="Client code"
                onChange={(_, data) => setFilter('q', data.value, '')}
              />
            </Field>
            <Field label="Status">
              <Dropdown
                value={status === 'all' ? 'All statuses' : FLEET_STATUS_LABELS[status]}
                selectedOptions={[status]}
                onOptionSelect={(_, data) =>
                  setFilter('status', parseStatusFilter(data.optionValue ?? null), 'all')
                }
              >
                <Option value="all">All statuses</Option>
                {FLEET_STATUS_ORDER.map((s) => (
                  <Option key={s} value={s}>
                    {FLEET_STATUS_LABELS[s]}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            <Field label="Drift">
              <Dropdown
                value={driftFilter === 'all' ? 'All' : DRIFT_FILTER_LABELS[driftFilter]}
                selectedOptions={[driftFilter]}
                disabled={!drift.data}
                onOptionSelect={(_, data) =>
                  setFilter('drift', parseDriftFilter(data.optionValue ?? null), 'all')
                }
              >
                {DRIFT_FILTERS.map((f) => (
                  <Option key={f} value={f}>
                    {DRIFT_FILTER_LABELS[f]}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            <Text className={styles.meta} aria-live="polite">
              {rows.length} of {fleet.data.rows.length} clients shown
            </Text>
          </div>
          {rows.length === 0 ? (
            <Text>No client matches the filter.</Text>
          ) : (
            <FleetTable
              rows={rows}
              now={now}
              trends={trendMap}
              trendsState={trends.status}
              drift={driftMap}
              driftState={drift.status}
              driftHrefOf={(client) => paths.clientDrift.getHref(client)}
              hrefOf={baselineComplianceHref}
              onOpen={(client) => void navigate(baselineComplianceHref(client))}
              onShowTrend={setTrendOf}
            />
          )}
        </>
      )}
      {trendOf && <TrendDialog client={trendOf} onClose={() => setTrendOf(undefined)} />}
    </div>
  );
}
