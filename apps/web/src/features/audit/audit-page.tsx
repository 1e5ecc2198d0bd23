import type { KnownClientList } from '@aegis/contracts';
import {
  auditActionText,
  auditRangeOf,
  auditRangeProblem,
  MAX_AUDIT_MONTHS,
  roleRequiredMessage,
} from '@aegis/domain';
import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, DismissRegular, FilterRegular } from '@fluentui/react-icons';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';

import { ClientPicker } from '../../components/client-picker';
import { PageHeader } from '../../components/page-header';
import { clientsQuery } from '../../lib/clients/use-clients';
import { useCan } from '../../lib/roles';

import { useAuditEvents, type AuditFilters } from './api/audit-api';
import { AuditTable } from './audit-table';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '16px' },
  // fields align by their tops, so a field's validation message grows it downwards, not upwards
  filters: { display: 'flex', gap: '12px', alignItems: 'flex-start', flexWrap: 'wrap' },
  // the button sits on the inputs' line: below a field label (its line height and gap)
  apply: { marginTop: `calc(${tokens.lineHeightBase300} + ${tokens.spacingVerticalSNudge})` },
  actor: { minWidth: '280px' },
  meta: { color: tokens.colorNeutralForeground3 },
  more: { alignSelf: 'flex-start' },
  action: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
});

/** A UTC day (yyyy-MM-dd) as people read it: '1 Nov 2026'. */
export function formatAuditDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * The filters in the address (so a range can be shared): `from`, `to`, `actor`, `client`,
 * `action`. Without a range, the current month up to today (UTC).
 */
function filtersOf(params: URLSearchParams, now: Date): AuditFilters {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return {
    ...(from || to ? { from, to } : auditRangeOf({}, now)),
    actor: params.get('actor') ?? '',
    client: params.get('client') ?? '',
    action: params.get('action') ?? '',
  };
}

function searchOf(filters: AuditFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    const text = String(value).trim();
    if (text) search.set(name, text);
  }
  return search;
}

/** What is wrong with the range of the filters, by field, before asking the server. */
function rangeProblemOf(filters: AuditFilters, now: Date): { from?: string; to?: string } {
  if (!filters.from && !filters.to) return {};
  const range = auditRangeOf(filters, now);
  const problem = auditRangeProblem(range.from, range.to);
  if (!problem) return {};
  return problem.field === 'to'
    ? { to: 'To must not be before From.' }
    : { from: `From must be within ${MAX_AUDIT_MONTHS} months of To.` };
}

/** The filter form; its draft starts from the applied filters (the address). */
function AuditFiltersForm({
  applied,
  onApply,
  clients,
}: {
  readonly applied: AuditFilters;
  readonly onApply: (filters: AuditFilters) => void;
  readonly clients: UseQueryResult<KnownClientList>;
}) {
  const styles = useStyles();
  const [draft, setDraft] = useState<AuditFilters>(applied);
  const problem = rangeProblemOf(draft, new Date());
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (!problem.from && !problem.to) onApply(draft);
  };
  return (
    <form className={styles.filters} onSubmit={apply} aria-label="Audit filters" noValidate>
      <Field
        label="From"
        validationState={problem.from ? 'error' : 'none'}
        validationMessage={problem.from}
      >
        <Input
          type="date"
          value={draft.from}
          max={draft.to || undefined}
          onChange={(_e, data) => setDraft({ ...draft, from: data.value })}
        />
      </Field>
      <Field
        label="To"
        validationState={problem.to ? 'error' : 'none'}
        validationMessage={problem.to}
      >
        <Input
          type="date"
          value={draft.to}
          min={draft.from || undefined}
          onChange={(_e, data) => setDraft({ ...draft, to: data.value })}
        />
      </Field>
      <Field label="Who (UPN)" className={styles.actor}>
        <Input
          type="search"
          value={draft.actor}
          placeholder="Anyone"
          onChange={(_e, data) => setDraft({ ...draft, actor: data.value })}
        />
      </Field>
      <ClientPicker
        value={draft.client}
        onChange={(client) => setDraft({ ...draft, client })}
        clients={clients.data?.clients}
        loading={clients.isPending}
        error={clients.error}
        onRetry={() => void clients.refetch()}
        placeholder="All clients"
        // events name every code Aegis ever acted on: list them all, lacks unsaid
        shows={[]}
      />
      <Button type="submit" appearance="primary" icon={<FilterRegular />} className={styles.apply}>
        Apply filters
      </Button>
    </form>
  );
}

/** /audit (issue 18 §5): who changed what, when, and the result; for Administrators. */
export function AuditPage() {
  const styles = useStyles();
  const allowed = useCan('Administrator');
  const [params, setParams] = useSearchParams();
  const now = new Date();
  const filters = filtersOf(params, now);
  const range = auditRangeOf(filters, now);
  const events = useAuditEvents(filters, allowed);
  const clients = useQuery({ ...clientsQuery, enabled: allowed });
  const show = (next: AuditFilters) => setParams(searchOf(next));

  const header = (
    <PageHeader
      title="Audit Trail"
      subtitle="Every change made through Aegis: who, what, when, with which parameters, and the result."
      actions={
        allowed && (
          <Button
            icon={<ArrowClockwiseRegular />}
            onClick={() => void events.refetch()}
            disabled={events.isFetching}
          >
            Refresh
          </Button>
        )
      }
    />
  );

  if (!allowed) {
    return (
      <div className={styles.root}>
        {header}
        <MessageBar intent="warning">
          <MessageBarBody>
            <MessageBarTitle>No access to the audit trail</MessageBarTitle>
            {roleRequiredMessage('Administrator')}
          </MessageBarBody>
        </MessageBar>
      </div>
    );
  }

  const rows = events.data?.pages.flatMap((page) => page.events) ?? [];
  const between = `from ${formatAuditDay(range.from)} to ${formatAuditDay(range.to)} (UTC)`;

  return (
    <div className={styles.root}>
      {header}
      <AuditFiltersForm
        key={params.toString()}
        applied={filters}
        onApply={show}
        clients={clients}
      />
      {filters.action && (
        <div className={styles.action}>
          <Text>
            Only <Text weight="semibold">{auditActionText(filters.action)}</Text>{' '}
            <Text font="monospace">({filters.action})</Text>
          </Text>
          <Button
            size="small"
            icon={<DismissRegular />}
            onClick={() => show({ ...filters, action: '' })}
          >
            All actions
          </Button>
        </div>
      )}

      {events.isPending ? (
        <Spinner label="Loading the audit trail..." />
      ) : events.isError ? (
        <MessageBar intent="error">
          <MessageBarBody>
            <MessageBarTitle>Could not load the audit trail</MessageBarTitle>
            {events.error.message}
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void events.refetch()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      ) : rows.length === 0 ? (
        <MessageBar intent="info">
          <MessageBarBody>
            <MessageBarTitle>No audit events in this range</MessageBarTitle>
            {`Nothing recorded ${between} matches these filters.`}
          </MessageBarBody>
        </MessageBar>
      ) : (
        <>
          <Text className={styles.meta}>
            {`${rows.length} event${rows.length === 1 ? '' : 's'} ${between}, newest first`}
          </Text>
          <AuditTable events={rows} onOnlyAction={(action) => show({ ...filters, action })} />
          {events.hasNextPage && (
            <Button
              className={styles.more}
              onClick={() => void events.fetchNextPage()}
              disabled={events.isFetchingNextPage}
            >
              {events.isFetchingNextPage ? 'Loading older events...' : 'Load older events'}
            </Button>
          )}
        </>
      )}
    </div>
  );
}
